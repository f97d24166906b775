"""Mixed load with pgbench (shipped with the embedded server): clients over every tenant,
80% reads (search, walk, entities by type) and 20% upserts, as the application role."""

from __future__ import annotations

import glob
import json
import re
import subprocess
import tempfile
from pathlib import Path

import numpy as np
import psycopg
from psycopg.conninfo import conninfo_to_dict
from swarm_memory import server
from swarm_memory.client import configure

SCRIPTS = {
    "search": (
        "\\set n random(1, :ntargets)\n"
        "SELECT count(*) FROM bench.targets t,"
        " memory.search_episodes(t.tenant_id, t.simulation_id, t.query, 10) s"
        " WHERE t.n = :n;\n",
        40,
    ),
    "walk": (
        "\\set n random(1, :ntargets)\n"
        "SELECT count(*) FROM bench.targets t,"
        " memory.neighbors(t.tenant_id, t.simulation_id, t.node_id, 2) w WHERE t.n = :n;\n",
        20,
    ),
    "entities": (
        "\\set n random(1, :ntargets)\n"
        "SELECT count(*) FROM bench.targets t,"
        " memory.nodes_by_type(t.tenant_id, t.simulation_id, t.node_type, 50) x"
        " WHERE t.n = :n;\n",
        20,
    ),
    "upsert": (
        "\\set n random(1, :ntargets)\n"
        "\\set m random(1, 1000000)\n"
        "SELECT u.* FROM bench.targets t, memory.upsert_episodes(t.tenant_id, t.simulation_id,"
        " jsonb_build_array(jsonb_build_object('id', 'pgbench-' || :client_id || '-' || :m,"
        " 'action_type', 'CREATE_POST', 'agent_id', :client_id, 'content', 'mixed-load post ' || :m,"
        " 'embedding', t.query_json))) u WHERE t.n = :n;\n",
        20,
    ),
}


def prepare(dsn: str, targets: list[tuple]) -> int:
    """targets: (tenant_id, simulation_id, node_id, node_type, query vector as list)."""
    with psycopg.connect(dsn, autocommit=True) as conn:
        configure(conn)  # query vectors go through pgvector's adapter, as in the driver
        conn.execute("DROP SCHEMA IF EXISTS bench CASCADE")
        conn.execute("CREATE SCHEMA bench")
        conn.execute(
            "CREATE TABLE bench.targets (n int PRIMARY KEY, tenant_id uuid, simulation_id uuid,"
            " node_id text, node_type text, query vector(384), query_json jsonb)"
        )
        with conn.cursor().copy("COPY bench.targets FROM STDIN") as copy:
            for i, (t, s, node, kind, q) in enumerate(targets, start=1):
                copy.write_row(
                    (
                        i,
                        t,
                        s,
                        node,
                        kind,
                        np.asarray(q, dtype=np.float32),
                        json.dumps([float(x) for x in q]),
                    )
                )
        conn.execute("GRANT USAGE ON SCHEMA bench TO memory_reader")
        conn.execute("GRANT SELECT ON bench.targets TO memory_reader")
    return len(targets)


def run(dsn: str, role: str, ntargets: int, seconds: int = 60, clients: int = 16) -> dict:
    info = conninfo_to_dict(dsn)
    with tempfile.TemporaryDirectory(prefix="swarm-pgbench-") as tmp:
        tmpdir = Path(tmp)
        tmpdir.chmod(0o777)
        args = [
            str(server.bin_dir() / "pgbench"),
            "-n",
            "-c",
            str(clients),
            "-j",
            "2",
            "-T",
            str(seconds),
            "-D",
            f"ntargets={ntargets}",
            "--log",
            f"--log-prefix={tmpdir}/tx",
            "-h",
            info["host"],
            "-U",
            role,
            info.get("dbname") or "postgres",
        ]
        for name, (script, weight) in SCRIPTS.items():
            path = tmpdir / f"{name}.sql"
            path.write_text(script)
            args.append(f"--file={path}@{weight}")
        done = subprocess.run(args, capture_output=True, text=True, cwd=tmpdir)
        out = done.stdout + done.stderr
        latencies, per_script, failed = [], {name: [] for name in SCRIPTS}, 0
        names = list(SCRIPTS)
        for log in glob.glob(f"{tmpdir}/tx*"):
            for line in Path(log).read_text().splitlines():
                parts = line.split()
                if len(parts) < 4:
                    continue
                if parts[2] == "failed":
                    failed += 1
                    continue
                us = int(parts[2])
                latencies.append(us / 1000)
                per_script[names[int(parts[3])]].append(us / 1000)
    tps = re.search(r"tps = ([\d.]+)", out)
    failed_line = re.search(r"number of failed transactions: (\d+)", out)
    lat = np.array(latencies) if latencies else np.zeros(1)
    return {
        "exit_code": done.returncode,
        "clients": clients,
        "seconds": seconds,
        "transactions": len(latencies),
        "failed": int(failed_line.group(1)) if failed_line else failed,
        "tps": float(tps.group(1)) if tps else 0.0,
        "p50_ms": float(np.percentile(lat, 50)),
        "p95_ms": float(np.percentile(lat, 95)),
        "p99_ms": float(np.percentile(lat, 99)),
        "per_script_p50_ms": {
            k: float(np.percentile(v, 50)) if v else None for k, v in per_script.items()
        },
        "output_tail": "\n".join(out.strip().splitlines()[-12:]) if done.returncode else "",
    }
