"""Re-embed a tenant's simulations with another model, online.

`swarm-memory reembed --tenant T --model M` runs, for each simulation:

1. compute: `memory.reembed_texts` lists the texts behind the simulation's vectors that
   have no vector of M in the tenant's vector cache yet; they are embedded in batches (the
   model's passage prefix), and each batch goes into the cache (`memory.cache_vectors`) in a
   transaction of its own. Reads go on answering from the current vectors: nothing they
   read changes. A re-embed killed at any point loses at most the batch it was computing;
   run again, it lists only what is left (and an import under M later finds the same texts
   in the cache).
2. switch: `memory.switch_model` moves every vector of the simulation to M in one
   transaction, and the simulation names M. It is refused (55000) while an import of the
   simulation is loading, then this waits and tries again (up to `wait` seconds), and
   while a row changed since its text was listed, then this embeds what is new and tries
   again. Never a mix: a search with a query vector of the old model is refused (22023)
   from the switch on, and one of M before it. While another backend holds the
   simulation's row (a killed re-embed's switch goes on on the server until it commits,
   or a promote), this says on stderr which backend it waits for and waits (up to `wait`
   seconds in all); then it gives up with 55P03 naming that backend and what to do.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np

from swarm_memory.client import Memory, UUIDLike
from swarm_memory.embed import Embedder, embedder_for
from swarm_memory.errors import InvalidInput, StateError, Timeout
from swarm_memory.progress import Progress
from swarm_memory.waits import Backend, describe, terminate_hint, watching

# A switch refused because of a concurrent import is retried this often until `wait` runs out.
RETRY_SECONDS = 0.5


@dataclass
class SimulationReembed:
    simulation_id: uuid.UUID
    embedded: int = 0
    switched: dict[str, int] = field(default_factory=dict)
    waited: float = 0.0
    rounds: int = 0
    # the backends that held the simulation's row while the switch waited (see `waited`)
    held_by: list[Backend] = field(default_factory=list)


@dataclass
class ReembedReport:
    model: str
    simulations: list[SimulationReembed] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def embedded(self) -> int:
        return sum(s.embedded for s in self.simulations)

    @property
    def switched(self) -> int:
        return sum(sum(s.switched.values()) for s in self.simulations)


def _batches(items: Sequence, size: int):  # type: ignore[no-untyped-def]
    for i in range(0, len(items), size):
        yield items[i : i + size]


def compute(
    mem: Memory,
    tenant_id: UUIDLike,
    simulation_id: UUIDLike,
    model: str,
    embedder: Embedder,
    *,
    batch_size: int = 256,
    limit: int = 10000,
    progress: Progress | None = None,
    on_batch: Callable[[int], None] | None = None,
) -> int:
    """Embed every text of the simulation that has no vector of `model` in the cache yet,
    a batch at a time, each batch cached as it is done; returns the texts embedded."""
    done = 0
    while True:
        todo = mem.reembed_texts(tenant_id, simulation_id, model, limit)
        if not todo:
            return done
        if progress:
            progress.start("embed", len(todo), "texts")
        for batch in _batches(todo, batch_size):
            vectors = embedder.encode([t.text for t in batch])
            mem.cache_vectors(
                tenant_id,
                model,
                [t.content_hash for t in batch],
                [np.asarray(v, dtype=np.float32) for v in vectors],
            )
            done += len(batch)
            if progress:
                progress.advance(len(batch))
            if on_batch:
                on_batch(done)
        if progress:
            progress.finish()


def reembed_simulation(
    mem: Memory,
    tenant_id: UUIDLike,
    simulation_id: UUIDLike,
    model: str,
    embedder: Embedder,
    *,
    batch_size: int = 256,
    wait: float = 60.0,
    progress: Progress | None = None,
    on_batch: Callable[[int], None] | None = None,
) -> SimulationReembed:
    out = SimulationReembed(uuid.UUID(str(simulation_id)))
    deadline = time.monotonic() + wait
    while True:
        out.rounds += 1
        out.embedded += compute(
            mem,
            tenant_id,
            simulation_id,
            model,
            embedder,
            batch_size=batch_size,
            progress=progress,
            on_batch=on_batch,
        )
        try:
            out.switched = _switch(mem, tenant_id, simulation_id, model, deadline, out, progress)
            return out
        except Timeout as exc:
            # Another backend held the simulation's row: the switch's own lock_timeout ran
            # out (55P03: tried again within `wait`) or `wait` did (cancelled, 57014).
            if not out.held_by:
                raise
            if exc.sqlstate == "55P03" and time.monotonic() < deadline:
                continue
            raise _held(out.simulation_id, out.held_by, wait) from exc
        except StateError:
            # Either a row changed since its text was listed (the next round embeds it) or
            # an import is loading: wait for it, within `wait`.
            if mem.reembed_texts(tenant_id, simulation_id, model, 1):
                continue
            if time.monotonic() >= deadline:
                raise
            time.sleep(RETRY_SECONDS)
            out.waited += RETRY_SECONDS


def _switch(
    mem: Memory,
    tenant_id: UUIDLike,
    simulation_id: UUIDLike,
    model: str,
    deadline: float,
    out: SimulationReembed,
    progress: Progress | None,
) -> dict[str, int]:
    """memory.switch_model on a connection of its own, watched: while it waits for another
    backend, that one is named on stderr (once) and kept in `out.held_by`; at `deadline` the
    call is cancelled."""

    def on_wait(holders: list[Backend]) -> None:
        if progress:
            progress.note(
                f"simulation {out.simulation_id}: waiting up to"
                f" {max(0.0, deadline - time.monotonic()):.0f} s for {describe(holders)},"
                " which holds the simulation"
            )

    with mem.connect() as conn, watching(mem.dsn, conn, deadline, on_wait) as watch:
        try:
            return {
                r.kind: r.switched
                for r in mem.switch_model(tenant_id, simulation_id, model, conn=conn)
            }
        finally:
            out.waited += watch.waited
            out.held_by = watch.held_by or out.held_by


def _held(simulation_id: uuid.UUID, held_by: list[Backend], wait: float) -> Timeout:
    switching = any("switch_model" in (b.query or "") for b in held_by)
    return Timeout(
        f"simulation {simulation_id} is held by {describe(held_by)}"
        + (
            ": a switch of its vectors (a re-embed killed during its switch leaves the"
            " switch running on the server until it commits)"
            if switching
            else ""
        )
        + f"; gave up after waiting {wait:.0f} s",
        "55P03",
        hint="let it end and run `swarm-memory reembed` again (what is switched stays"
        f" switched), wait longer with --wait, or end it: {terminate_hint(held_by)}",
    )


def reembed(
    dsn: str,
    tenant_id: UUIDLike,
    model: str,
    simulation_ids: Sequence[UUIDLike] | None = None,
    *,
    embedder: Embedder | None = None,
    batch_size: int = 256,
    wait: float = 60.0,
    progress: Progress | None = None,
    on_batch: Callable[[int], None] | None = None,
) -> ReembedReport:
    """Re-embed the tenant's published simulations (or those given) with `model`."""
    started = time.perf_counter()
    report = ReembedReport(model)
    with Memory(dsn) as mem:
        known = sorted(m.model for m in mem.list_models())
        if model not in known:
            raise InvalidInput(
                f"unknown embedding model {model!r}; known models: {', '.join(known)}",
                "22023",
                hint="pass one of the models `swarm-memory models` lists",
            )
        embedder = embedder or embedder_for(model)
        if simulation_ids is None:
            simulation_ids = [
                s.simulation_id for s in mem.list_simulations(tenant_id) if s.published
            ]
        for sim in simulation_ids:
            report.simulations.append(
                reembed_simulation(
                    mem,
                    tenant_id,
                    sim,
                    model,
                    embedder,
                    batch_size=batch_size,
                    wait=wait,
                    progress=progress,
                    on_batch=on_batch,
                )
            )
    report.seconds = time.perf_counter() - started
    return report
