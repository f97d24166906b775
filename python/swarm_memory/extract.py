"""Extraction: an episode's text made entities and facts under its graph's ontology.

The queue is the database's (memory.zep_claim_episodes; sql/functions/wings/zep): an
extractor claims the oldest episode due, reads what the graph already holds about the names
in it (memory.zep_extraction_context), asks a chat-completions endpoint of the operator's
choosing for JSON by schema, embeds what came back with the graph's model and commits it
whole (memory.zep_apply_extraction, which resolves entities, ends contradicted facts, links
evidence and marks the episode processed, or refuses what does not fit the ontology). A call
that fails (the endpoint down, output that is not the schema's JSON) is recorded on the
episode (memory.zep_fail_extraction) and retried later; an extractor killed mid-way commits
nothing and its claim runs out, so another takes the episode again. Nothing is held here
that the database does not hold.

The endpoint is configured as MiroFish configures its own: LLM_BASE_URL, LLM_API_KEY,
LLM_MODEL_NAME (or the options of `swarm-memory serve` and `swarm-memory extract`).
"""

from __future__ import annotations

import json
import os
import threading
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import httpx
import psycopg
from psycopg import sql

from swarm_memory.client import Memory
from swarm_memory.client.zep import ClaimedEpisode

__all__ = ["Extractor", "LLMConfig", "LLMError", "extraction_schema", "messages_for"]

# The most entities and facts one episode's extraction may hold, and the longest name,
# summary and fact: a chunk of a document (MiroFish's are 500 characters) or five sentences
# of a run name a dozen or two things, and the bounds keep a model that would run on within
# its max_tokens (output cut there is not JSON, and fails the attempt).
MAX_ITEMS = 20
MAX_NAME = 80
MAX_TEXT = 240


class LLMError(Exception):
    """The endpoint's refusal or output that is not the schema's JSON."""


@dataclass(frozen=True)
class LLMConfig:
    """A chat-completions endpoint: base URL (ending before /chat/completions), key, model."""

    base_url: str
    model: str
    api_key: str | None = None
    timeout: float = 300.0
    max_tokens: int = 1024
    # the most entities, and the most facts, one answer may hold (at most MAX_ITEMS): fewer
    # for a small model that would otherwise list until max_tokens cuts it
    max_items: int = MAX_ITEMS

    @classmethod
    def from_env(
        cls,
        base_url: str | None = None,
        model: str | None = None,
        api_key: str | None = None,
        max_tokens: int | None = None,
        max_items: int | None = None,
    ) -> LLMConfig | None:
        """The options given, else MiroFish's environment (LLM_BASE_URL, LLM_MODEL_NAME,
        LLM_API_KEY); None when no endpoint is named."""
        base_url = base_url or os.environ.get("LLM_BASE_URL")
        model = model or os.environ.get("LLM_MODEL_NAME")
        if not base_url or not model:
            return None
        return cls(
            base_url=base_url.rstrip("/"),
            model=model,
            api_key=api_key or os.environ.get("LLM_API_KEY"),
            max_tokens=max_tokens or 1024,
            max_items=max_items or MAX_ITEMS,
        )

    def chat(self, messages: list[dict[str, str]], schema: dict[str, Any]) -> str:
        """The assistant's text for `messages`, constrained to `schema` (response_format
        json_schema); LLMError for anything but a 2xx answer with text. An endpoint that
        refuses json_schema (400: many serve only json_object) is asked again for a JSON
        object, the schema written into the instructions, and the database checks what comes
        back as it checks everything."""
        response = self._post(
            messages,
            {
                "type": "json_schema",
                "json_schema": {"name": "extraction", "schema": schema, "strict": True},
            },
        )
        if response.status_code == 400 and any(
            word in response.text.lower() for word in ("response_format", "json_schema", "schema")
        ):
            response = self._post(_with_schema(messages, schema), {"type": "json_object"})
        if response.status_code // 100 != 2:
            raise LLMError(
                f"the model endpoint answered {response.status_code}: {response.text[:300]}"
            )
        try:
            choice = response.json()["choices"][0]
            content = choice["message"]["content"]
        except (ValueError, KeyError, IndexError, TypeError) as exc:
            raise LLMError(f"the model endpoint's answer has no message: {exc}") from exc
        if choice.get("finish_reason") == "length":
            raise LLMError(
                f"the model's answer was cut at max_tokens {self.max_tokens} (raise "
                "--llm-max-tokens, or use a model that answers more briefly)"
            )
        if not isinstance(content, str) or not content.strip():
            raise LLMError("the model answered no text")
        return content

    def _post(
        self, messages: list[dict[str, str]], response_format: dict[str, Any]
    ) -> httpx.Response:
        headers = {"content-type": "application/json"}
        if self.api_key:
            headers["authorization"] = f"Bearer {self.api_key}"
        body = {
            "model": self.model,
            "messages": messages,
            "temperature": 0,
            "max_tokens": self.max_tokens,
            "response_format": response_format,
        }
        try:
            return httpx.post(
                f"{self.base_url}/chat/completions",
                json=body,
                headers=headers,
                timeout=self.timeout,
            )
        except httpx.HTTPError as exc:
            raise LLMError(f"the model endpoint {self.base_url} did not answer: {exc}") from exc


def _with_schema(messages: list[dict[str, str]], schema: dict[str, Any]) -> list[dict[str, str]]:
    """The messages with the JSON schema the answer must follow added to the instructions."""
    note = "\n\nAnswer with one JSON object following this JSON schema:\n" + json.dumps(schema)
    return [{**messages[0], "content": messages[0]["content"] + note}, *messages[1:]]


def _names(types: list[dict[str, Any]]) -> list[str]:
    return [t["name"] for t in types if isinstance(t, dict) and isinstance(t.get("name"), str)]


def extraction_schema(
    entity_types: list[dict[str, Any]], edge_types: list[dict[str, Any]], max_items: int = MAX_ITEMS
) -> dict:
    """The JSON schema of one episode's extraction under an ontology: entity types and edge
    types as enums where the ontology names them (any label where it does not), at most
    `max_items` of each."""
    max_items = max(1, min(max_items, MAX_ITEMS))
    entity_names = _names(entity_types)
    edge_names = _names(edge_types)
    entity_type: dict[str, Any] = (
        {"type": "string", "enum": [*entity_names, "Entity"]}
        if entity_names
        else {"type": "string"}
    )
    edge_type: dict[str, Any] = (
        {"type": "string", "enum": edge_names} if edge_names else {"type": "string"}
    )
    return {
        "type": "object",
        "properties": {
            "entities": {
                "type": "array",
                "maxItems": max_items,
                "items": {
                    "type": "object",
                    "properties": {
                        "name": {"type": "string", "maxLength": MAX_NAME},
                        "type": entity_type,
                        "summary": {"type": "string", "maxLength": MAX_TEXT},
                    },
                    "required": ["name", "type", "summary"],
                    "additionalProperties": False,
                },
            },
            "facts": {
                "type": "array",
                "maxItems": max_items,
                "items": {
                    "type": "object",
                    "properties": {
                        "source": {"type": "string", "maxLength": MAX_NAME},
                        "target": {"type": "string", "maxLength": MAX_NAME},
                        "type": edge_type,
                        "fact": {"type": "string", "maxLength": MAX_TEXT},
                        "valid_at": {
                            "anyOf": [{"type": "string", "maxLength": 32}, {"type": "null"}]
                        },
                        "invalid_at": {
                            "anyOf": [{"type": "string", "maxLength": 32}, {"type": "null"}]
                        },
                        "ends": {"type": "array", "maxItems": 10, "items": {"type": "integer"}},
                    },
                    "required": [
                        "source",
                        "target",
                        "type",
                        "fact",
                        "valid_at",
                        "invalid_at",
                        "ends",
                    ],
                    "additionalProperties": False,
                },
            },
        },
        "required": ["entities", "facts"],
        "additionalProperties": False,
    }


def _describe(types: list[dict[str, Any]], edges: bool) -> str:
    lines = []
    for t in types:
        if not isinstance(t, dict) or not t.get("name"):
            continue
        line = f"- {t['name']}: {t.get('description') or ''}".rstrip(": ")
        if edges and t.get("source_targets"):
            pairs = ", ".join(
                f"{st.get('source') or 'Entity'} -> {st.get('target') or 'Entity'}"
                for st in t["source_targets"]
                if isinstance(st, dict)
            )
            line += f" ({pairs})"
        lines.append(line)
    return "\n".join(lines) or "- any"


def messages_for(episode: ClaimedEpisode, context: dict[str, Any]) -> list[dict[str, str]]:
    """The chat messages that ask for one episode's entities and facts."""
    known = (
        "\n".join(f"- {e['name']} ({e['type']})" for e in context.get("entities", [])) or "- none"
    )
    facts = (
        "\n".join(
            f"{f['n']}. {f['source']} {f['type']} {f['target']}: {f['fact']}"
            for f in context.get("facts", [])
        )
        or "none"
    )
    system = (
        "You extract a knowledge graph from a text. Answer with JSON only.\n"
        "entities: the people, organisations and other things the text names, each with a "
        "type from the entity types and a one-sentence summary of what the text says of it. "
        "Use the name as written; if it is an entity already known, use the known name.\n"
        "facts: relationships the text states between two of those entities: source and "
        "target are entity names, type one of the edge types, fact a short sentence. "
        "valid_at and invalid_at: when the fact began and stopped holding, as ISO 8601 dates, "
        "or null when the text does not say. ends: the numbers of the current facts below "
        "that this text says no longer hold (usually none).\n\n"
        f"Entity types:\n{_describe(episode.entity_types, edges=False)}\n\n"
        f"Edge types:\n{_describe(episode.edge_types, edges=True)}\n\n"
        f"Known entities:\n{known}\n\nCurrent facts:\n{facts}"
    )
    when = episode.created_at.isoformat()
    user = f"Text (written {when}):\n{episode.content}"
    return [{"role": "system", "content": system}, {"role": "user", "content": user}]


def parse_extraction(content: str, context: dict[str, Any]) -> dict[str, Any]:
    """The model's text as an extraction: JSON with arrays "entities" and "facts" (LLMError
    otherwise); each fact's "ends" numbers mapped to the ids of the context's facts (a number
    it was not shown is kept as given, and refused by the database)."""
    try:
        data = json.loads(content)
    except json.JSONDecodeError as exc:
        raise LLMError(f"the model's answer is not JSON: {exc}: {content[:200]!r}") from None
    if not isinstance(data, dict):
        raise LLMError(f"the model's answer is not a JSON object: {content[:200]!r}")
    entities = data.get("entities") or []
    facts = data.get("facts") or []
    if not isinstance(entities, list) or not isinstance(facts, list):
        raise LLMError("the model's answer has no arrays entities and facts")
    by_number = {f["n"]: f["id"] for f in context.get("facts", [])}
    for fact in facts:
        if isinstance(fact, dict) and isinstance(fact.get("ends"), list):
            fact["ends"] = [by_number.get(n, str(n)) for n in fact["ends"] if n is not None]
    return {"entities": entities[:MAX_ITEMS], "facts": facts[:MAX_ITEMS]}


def _embed(extraction: dict[str, Any], model: str) -> None:
    """Vectors for what extraction writes, with the graph's model: an entity's of
    "{type}: {name}", a fact's of its words (the texts the upserts embed)."""
    from swarm_memory.embed import embedder_for, node_text

    texts: list[str] = []
    slots: list[dict[str, Any]] = []
    for e in extraction["entities"]:
        if isinstance(e, dict) and isinstance(e.get("name"), str) and e["name"].strip():
            texts.append(node_text(str(e.get("type") or "Entity"), e["name"].strip()))
            slots.append(e)
    for f in extraction["facts"]:
        if isinstance(f, dict) and isinstance(f.get("fact"), str) and f["fact"].strip():
            texts.append(f["fact"].strip())
            slots.append(f)
    if not texts:
        return
    vectors = embedder_for(model).encode(texts)
    for slot, vector in zip(slots, vectors, strict=True):
        slot["embedding"] = [float(x) for x in vector]
        slot["embedding_model"] = model


# How an extractor reaches a tenant's rows: a connection already acting for the tenant (its
# role set), on which each step runs in a transaction of its own.
Enter = Callable[[psycopg.Connection], None]


class Extractor:
    """Works the extraction queue of the tenants it is given, one episode at a time."""

    def __init__(self, memory: Memory, llm: LLMConfig, *, lease_seconds: int = 300) -> None:
        self.memory = memory
        self.llm = llm
        self.lease_seconds = lease_seconds
        self.done = 0
        self.failed = 0

    def extract_one(self, conn: psycopg.Connection, tenant: uuid.UUID, enter: Enter) -> bool:
        """Claim the tenant's oldest due episode and extract it; False when none is due."""
        with conn.transaction():
            enter(conn)
            claimed = self.memory.zep_claim_episodes(tenant, 1, self.lease_seconds, conn=conn)
        if not claimed:
            return False
        episode = claimed[0]
        try:
            with conn.transaction():
                enter(conn)
                context = self.memory.zep_extraction_context(
                    tenant, episode.simulation_id, episode.content, conn=conn
                )
            schema = extraction_schema(episode.entity_types, episode.edge_types, self.llm.max_items)
            content = self.llm.chat(messages_for(episode, context), schema)
            extraction = parse_extraction(content, context)
            _embed(extraction, episode.model)
            with conn.transaction():
                enter(conn)
                self.memory.zep_apply_extraction(
                    tenant, episode.episode_uuid, episode.attempt, extraction, conn=conn
                )
            self.done += 1
        except (LLMError, psycopg.Error, ValueError) as exc:
            self.failed += 1
            with conn.transaction():
                enter(conn)
                self.memory.zep_fail_extraction(
                    tenant, episode.episode_uuid, episode.attempt, str(exc), conn=conn
                )
        return True

    def drain(
        self, conn: psycopg.Connection, tenant: uuid.UUID, enter: Enter, limit: int | None = None
    ) -> int:
        """Extract the tenant's due episodes until none is left (or `limit` were tried)."""
        n = 0
        while (limit is None or n < limit) and self.extract_one(conn, tenant, enter):
            n += 1
        return n


def enter_role(role: str | None) -> Enter:
    """Act as `role` for the transaction (SET LOCAL ROLE), or as the connection's own."""

    def enter(conn: psycopg.Connection) -> None:
        if role:
            conn.execute(sql.SQL("SET LOCAL ROLE {}").format(sql.Identifier(role)))

    return enter


class Worker(threading.Thread):
    """`swarm-memory serve --extract`: the extractor of the service, in a thread. Each round
    works every tenant that has a writer key (as that key's role, as its requests run) and
    sleeps `poll` seconds when nothing was due."""

    def __init__(self, dsn: str, llm: LLMConfig, *, poll: float = 1.0, lease_seconds: int = 300):
        super().__init__(name="swarm-memory-extract", daemon=True)
        self.dsn = dsn
        self.extractor = Extractor(Memory(dsn), llm, lease_seconds=lease_seconds)
        self.poll = poll
        self.stopping = threading.Event()
        self.last_error: str | None = None

    def writer_roles(self, conn: psycopg.Connection) -> list[tuple[uuid.UUID, str]]:
        """Each tenant with an unrevoked key whose role may write, and one such role."""
        mem = self.extractor.memory
        found = []
        for tenant in mem.list_tenants(conn=conn):
            for key in mem.api_keys(tenant.tenant_id, conn=conn):
                if (
                    key.revoked_at is None
                    and conn.execute(
                        "SELECT pg_catalog.pg_has_role(%s, 'memory_writer', 'MEMBER')",
                        (key.role_name,),
                    ).fetchone()[0]
                ):
                    found.append((tenant.tenant_id, key.role_name))
                    break
        return found

    def run(self) -> None:
        while not self.stopping.is_set():
            worked = 0
            try:
                with psycopg.connect(self.dsn, autocommit=True) as conn:
                    for tenant, role in self.writer_roles(conn):
                        worked += self.extractor.drain(conn, tenant, enter_role(role), limit=20)
                self.last_error = None
            except psycopg.Error as exc:
                self.last_error = str(exc)
            if not worked:
                self.stopping.wait(self.poll)

    def stop(self) -> None:
        self.stopping.set()
