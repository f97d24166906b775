"""A fork's cost: memory.fork_simulation copying a simulation's memory (every node, edge and
profile, the episodes of rounds up to the fork's) into a new simulation, beside the peer
that bounds it from below: the same rows moved by plain INSERT ... SELECT as the superuser
(no checks, no row-level security, no words index). Interleaved: the fork and the peer
alternate on each simulation, each copy dropped before the next.

    python -m bench.run   (the `forks` rows)
"""

from __future__ import annotations

import time
import uuid

import numpy as np
import psycopg

KINDS = ("nodes", "edges", "episodes", "profiles")


def _raw_copy(su: str, tenant: uuid.UUID, source: uuid.UUID) -> float:
    """The lower bound: the rows moved with no function, no policy and no trigger."""
    target = uuid.uuid4()
    with psycopg.connect(su) as conn:
        conn.execute("SET session_replication_role = replica")  # no trigger fires
        start = time.perf_counter()
        conn.execute(
            "INSERT INTO memory.simulations (tenant_id, simulation_id, name, embedding_model)"
            " SELECT tenant_id, %s, name, embedding_model FROM memory.simulations"
            " WHERE tenant_id = %s AND simulation_id = %s",
            (target, tenant, source),
        )
        sim_no = conn.execute(
            "SELECT sim_no FROM memory.simulations WHERE tenant_id = %s AND simulation_id = %s",
            (tenant, target),
        ).fetchone()[0]
        for kind in KINDS:
            cols = [
                r[0]
                for r in conn.execute(
                    "SELECT attname FROM pg_attribute WHERE attrelid = %s::regclass AND attnum > 0"
                    " AND NOT attisdropped AND attgenerated = '' AND attname <> 'simulation_id'"
                    " ORDER BY attnum",
                    (f"memory.{kind}",),
                ).fetchall()
            ]
            values = ", ".join("%s" if c == "sim_no" else f'"{c}"' for c in cols)
            names = ", ".join(f'"{c}"' for c in cols)
            params = (target, *([sim_no] if "sim_no" in cols else []), tenant, source)
            conn.execute(
                f"INSERT INTO memory.{kind} (simulation_id, {names})"  # noqa: S608 (catalog names)
                f" SELECT %s, {values} FROM memory.{kind} WHERE tenant_id = %s AND simulation_id = %s",
                params,
            )
        elapsed = time.perf_counter() - start
        conn.rollback()
    return elapsed


def _fork(
    app_dsn: str, tenant: uuid.UUID, source: uuid.UUID, round_: int | None
) -> tuple[float, tuple]:
    target = uuid.uuid4()
    with psycopg.connect(app_dsn) as conn:
        start = time.perf_counter()
        counts = conn.execute(
            "SELECT * FROM memory.fork_simulation(%s, %s, %s, %s)", (tenant, source, target, round_)
        ).fetchone()
        elapsed = time.perf_counter() - start
        conn.rollback()  # the copy is not kept: each repetition starts from the same database
    return elapsed, counts


def measure(su: str, app_dsn: str, sims: list, log=print, reps: int = 3) -> list[dict]:
    out = []
    for sim in sims:
        with psycopg.connect(su) as conn:
            # a round is read at its episodes' latest time: only timed episodes can place one
            low, top = conn.execute(
                "SELECT min(round), max(round) FROM memory.episodes"
                " WHERE tenant_id = %s AND simulation_id = %s AND occurred_at IS NOT NULL",
                (sim.tenant_id, sim.simulation_id),
            ).fetchone()
        half = top // 2 if top and top // 2 >= low else None
        fork_all, fork_half, raw = [], [], []
        counts = None
        for _ in range(reps):
            t, counts = _fork(app_dsn, sim.tenant_id, sim.simulation_id, None)
            fork_all.append(t)
            raw.append(_raw_copy(su, sim.tenant_id, sim.simulation_id))
            if half is not None:
                fork_half.append(_fork(app_dsn, sim.tenant_id, sim.simulation_id, half)[0])
        rows = sum(counts)
        row = {
            "episodes": sim.size,
            "rows": rows,
            "counts": dict(zip(KINDS, counts, strict=True)),
            "fork_s": float(np.median(fork_all)),
            "raw_copy_s": float(np.median(raw)),
            "fork_half_s": float(np.median(fork_half)) if fork_half else None,
            "half_round": half,
            "reps": reps,
        }
        row["ratio"] = row["fork_s"] / row["raw_copy_s"] if row["raw_copy_s"] else None
        row["rows_per_s"] = rows / row["fork_s"] if row["fork_s"] else None
        log(
            f"bench: fork of {rows} rows: {row['fork_s']:.3f} s, raw copy {row['raw_copy_s']:.3f} s"
        )
        out.append(row)
    return out


def rows(results: dict) -> list[str]:
    lines = []
    for r in results.get("forks", []):
        half = f"; at round {r['half_round']} {r['fork_half_s']:.3f} s" if r["fork_half_s"] else ""
        lines.append(
            f"| fork of a simulation ({r['episodes']} episodes, {r['rows']} rows) | measured "
            f"| {r['fork_s']:.3f} s ({r['rows_per_s']:.0f} rows/s), {r['ratio']:.1f}x a raw "
            f"INSERT ... SELECT{half} | - |"
        )
    return lines
