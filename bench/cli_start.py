"""How soon the CLI answers a command that needs no model: `--help`, a command's help, and
a command that reads the database (`tenants`), each run as a fresh process the way a user
or a script runs it, best and median of several runs, wall time and the CPU time the process
used (the steadier figure on a shared machine). Goal: under 0.3 s wall.

    python -m bench.cli_start [--dsn SU_DSN] [--runs 7]
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import time
from collections.abc import Callable

GOAL_S = 0.3


def _once(argv: list[str]) -> tuple[float, float]:
    """Wall and CPU seconds of one `python -m swarm_memory.cli ARGV` (its output dropped)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "swarm_memory.cli", *argv],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        env={**os.environ, "PYTHONDONTWRITEBYTECODE": "0"},
        check=False,
    )
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise RuntimeError(f"swarm-memory {' '.join(argv)} failed: {done.stderr.decode()[-300:]}")
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def run(su_dsn: str, *, runs: int = 7, log: Callable[[str], None] = print) -> dict:
    commands = {
        "--help": ["--help"],
        "tenants --help": ["tenants", "--help"],
        "tenants (a database read)": ["--dsn", su_dsn, "tenants"],
    }
    out: dict[str, dict] = {}
    for name, argv in commands.items():
        _once(argv)  # compiled bytecode and a warm page cache, as every later call finds them
        samples = [_once(argv) for _ in range(runs)]
        walls = sorted(w for w, _ in samples)
        cpus = sorted(c for _, c in samples)
        out[name] = {
            "best_s": walls[0],
            "median_s": statistics.median(walls),
            "cpu_median_s": statistics.median(cpus),
            "runs": runs,
        }
        log(f"cli start: {name}: best {walls[0]:.3f} s, median {statistics.median(walls):.3f} s")
    out["load"] = os.getloadavg()[0]
    return out


def rows(results: dict) -> list[str]:
    """The summary table's rows (bench/run.py)."""
    r = results.get("cli_start")
    if not r:
        return []
    return [
        f"| CLI start, `swarm-memory {name}` (a fresh process, no model) | < {GOAL_S:g} s "
        f"| median {x['median_s']:.3f} s (best {x['best_s']:.3f}, CPU {x['cpu_median_s']:.3f} s) "
        f"| {'met' if x['median_s'] < GOAL_S else 'NOT MET'} |"
        for name, x in r.items()
        if isinstance(x, dict)
    ]


def main(argv: list[str] | None = None) -> None:
    from bench.recall_eval import _dev_database

    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--dsn", help="a migrated database, as a superuser (default: the dev server)")
    p.add_argument("--runs", type=int, default=7)
    args = p.parse_args(argv)
    dsn = args.dsn or _dev_database()
    result = run(dsn, runs=args.runs)
    print("\n".join(rows({"cli_start": result})))
    print(f"(load average {result['load']:.1f})")


if __name__ == "__main__":
    main()
