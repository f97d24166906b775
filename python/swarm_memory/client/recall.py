"""The recall wing: recall and its router, the words arm, fact and entity search, paths,
panorama and entity summaries (sql/functions/wings/recall). recall embeds the question
with the simulation's model, read by model_of."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from swarm_memory.client._base import Connection, UUIDLike, _json, _vector
from swarm_memory.client.reads import ReadsMixin
from swarm_memory.client.rows import (
    Chain,
    EntityMatch,
    FactHit,
    NodeHit,
    PanoramaRow,
    Recalled,
    Route,
    SummaryRow,
    WordHit,
)


class RecallMixin(ReadsMixin):
    """Memory's recall wing."""

    def search_nodes(
        self,
        tenant_id: UUIDLike,
        simulation_id: UUIDLike,
        query: Any,
        top_k: int | None = 10,
        type: str | None = None,
        by: str = "name",
        *,
        model: str | None = None,
        conn: Connection | None = None,
    ) -> list[NodeHit]:
        """Nodes nearest `query` (a 384-dimensional vector: numpy array or floats), by the
        vector of their name (`by="name"`), of their summary ("summary"), the nearer
        ("both"), or the summary's where there is one and the name's otherwise ("meaning",
        as recall's entities arm). `model`, the query vector's model (model_of names a
        simulation's): InvalidInput (22023) when it is not the simulation's; None names the
        default model, so a vector passed without its model is refused on a simulation of
        another model, never answered."""
        return self._records(
            NodeHit,
            "SELECT * FROM memory.search_nodes(%s, %s, %s, %s, %s, %s, %s)",
            (tenant_id, simulation_id, _vector(query), top_k, type, by, model),
            conn,
            vectors=True,
        )

    def search_words(
        self,
        tenant_id: UUIDLike,
        simulation_id: UUIDLike,
        query_text: str,
        top_k: int | None = 10,
        kinds: Sequence[str] | None = None,
        *,
        conn: Connection | None = None,
    ) -> list[WordHit]:
        """Full-text search over episodes, facts and entities (English stemmed, Chinese as
        character bigrams, names by trigrams); the text is words, never query syntax."""
        return self._records(
            WordHit,
            "SELECT * FROM memory.search_words(%s, %s, %s, %s, %s)",
            (tenant_id, simulation_id, query_text, top_k, None if kinds is None else list(kinds)),
            conn,
        )

    def match_entities(
        self,
        tenant_id: UUIDLike,
        simulation_id: UUIDLike,
        text: str,
        limit: int | None = 10,
        *,
        conn: Connection | None = None,
    ) -> list[EntityMatch]:
        """Entities whose names `text` names or nearly names (misspelt, inside a sentence,
        Chinese inside Chinese), best first."""
        return self._records(
            EntityMatch,
            "SELECT * FROM memory.match_entities(%s, %s, %s, %s)",
            (tenant_id, simulation_id, text, limit),
            conn,
        )

    def search_facts(
        self,
        tenant_id: UUIDLike,
        simulation_id: UUIDLike,
        query: Any,
        top_k: int | None = 10,
        state: str = "current",
        as_of: datetime | str | None = None,
        *,
        model: str | None = None,
        round: int | None = None,
        snapshot: str | None = None,
        conn: Connection | None = None,
    ) -> list[FactHit]:
        """Facts nearest `query` (a 384-dimensional vector), current ones by default, at a
        world time (None: now) or at the end of a `round`, as the memory held them in a
        `snapshot` (memory.create_snapshot); `model` as for search_nodes."""
        return self._records(
            FactHit,
            "SELECT * FROM memory.search_facts(%s, %s, %s, %s, %s, %s, %s, %s, %s)",
            (tenant_id, simulation_id, _vector(query), top_k, state, as_of, model, round, snapshot),
            conn,
        )

    def route(self, question: str, *, conn: Connection | None = None) -> Route:
        return self._one(Route, "SELECT * FROM memory.route(%s)", (question,), conn)

    def set_route_rule(
        self, phrase: str, target: str | None, *, conn: Connection | None = None
    ) -> bool:
        """Add or change a routing phrase ('graph' or 'vector'), or remove it (None)."""
        return self._rows("SELECT memory.set_route_rule(%s, %s)", (phrase, target), conn)[0][0]

    def recall(
        self,
        tenant_id: UUIDLike,
        simulation_id: UUIDLike,
        question: str | None,
        vector: Any = None,
        top_k: int | None = 10,
        options: dict[str, Any] | None = None,
        *,
        embed: bool = True,
        embedder: Any = None,
        snapshot: str | None = None,
        conn: Connection | None = None,
    ) -> list[Recalled]:
        """Hybrid recall: meaning, words and the graph fused by reciprocal rank. The question
        is embedded here (with the simulation's model and its query prefix unless `embedder`
        says otherwise) when no `vector` is given, unless `embed=False` (words and graph
        alone). A `vector` passed in is of the default model unless options["model"] names
        its model: InvalidInput (22023) on a simulation of another. `snapshot` (the option
        of that name) reads the episodes and facts as the memory held them in a snapshot."""
        options = dict(options or {})
        if snapshot is not None:
            options["snapshot"] = snapshot
        if vector is None and question and question.strip() and embed:
            from swarm_memory.embed import embedder_for  # the model loads only when embedding

            embedder = embedder or embedder_for(
                self.model_of(tenant_id, simulation_id, conn=conn).model
            )
            vector = embedder.encode_query(question)
            # the database refuses the vector if the simulation's vectors are of another model
            if getattr(embedder, "model_name", None):
                options.setdefault("model", embedder.model_name)
        return self._records(
            Recalled,
            "SELECT * FROM memory.recall(%s, %s, %s, %s, %s, %s)",
            (tenant_id, simulation_id, question, _vector(vector), top_k, _json(options or {})),
            conn,
        )

    def panorama(
        self,
        tenant_id: UUIDLike,
        simulation_id: UUIDLike,
        question: str | None,
        vector: Any = None,
        limit: int | None = 30,
        *,
        model: str | None = None,
        round: int | None = None,
        conn: Connection | None = None,
    ) -> list[PanoramaRow]:
        """Every entity and fact about a question, current and historical (pass the
        question's vector for the arms of meaning, and its `model` as for search_nodes), as
        it stood at the end of a `round` if given."""
        return self._records(
            PanoramaRow,
            "SELECT * FROM memory.panorama(%s, %s, %s, %s, %s, %s, %s)",
            (tenant_id, simulation_id, question, _vector(vector), limit, model, round),
            conn,
        )

    def entity_summary(
        self,
        tenant_id: UUIDLike,
        simulation_id: UUIDLike,
        node_id: str,
        limit: int | None = 10,
        *,
        round: int | None = None,
        conn: Connection | None = None,
    ) -> list[SummaryRow]:
        """An entity, its current facts, its neighbours and the episodes that name it; at
        the end of a `round` if given (its actions up to it, its facts and neighbours then)."""
        return self._records(
            SummaryRow,
            "SELECT * FROM memory.entity_summary(%s, %s, %s, %s, %s)",
            (tenant_id, simulation_id, node_id, limit, round),
            conn,
        )

    def paths(
        self,
        tenant_id: UUIDLike,
        simulation_id: UUIDLike,
        from_id: str,
        to_id: str,
        max_depth: int | None = 4,
        *,
        conn: Connection | None = None,
    ) -> list[Chain]:
        return self._records(
            Chain,
            "SELECT * FROM memory.paths(%s, %s, %s, %s, %s)",
            (tenant_id, simulation_id, from_id, to_id, max_depth),
            conn,
        )
