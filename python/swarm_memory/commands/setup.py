"""Setting up: the embedded server (`db`), the schema (`migrate`) and the walkthrough
(`demo`)."""

from __future__ import annotations

import argparse
import os
from pathlib import Path

from swarm_memory import server
from swarm_memory.commands.common import Subcommands, resolve_dsn

__all__ = ["add_commands"]


def cmd_db(args: argparse.Namespace) -> int:
    if args.action == "up":
        print(server.start(args.datadir))
    elif args.action == "down":
        print("stopped" if server.stop(args.datadir) else "not running")
    return 0


def cmd_migrate(args: argparse.Namespace) -> int:
    from swarm_memory.migrate import migrate

    result = migrate(resolve_dsn(args))
    applied = ", ".join(f"V{v:04d}" for v in result.applied_versions) or "none pending"
    print(
        f"versioned migrations applied: {applied}; repeatable files applied: "
        f"{result.repeatable_files}"
    )
    return 0


def cmd_demo(args: argparse.Namespace) -> int:
    from swarm_memory.demo import run_demo

    code = run_demo(resolve_dsn(args), Path(args.run_dir))
    if not (args.dsn or os.environ.get("SWARM_MEMORY_DSN")):
        print(
            f"\nThe embedded PostgreSQL is still running (data in {args.datadir}); "
            "`make db-stop` or `swarm-memory db down` stops it."
        )
    return code


def add_commands(sub: Subcommands) -> None:
    s = sub.add_parser("db", help="start or stop the embedded PostgreSQL")
    s.add_argument("action", choices=["up", "down"])
    s.set_defaults(func=cmd_db)

    s = sub.add_parser("migrate", help="apply migrations and re-apply functions and policies")
    s.set_defaults(func=cmd_migrate)

    s = sub.add_parser("demo", help="the walkthrough on the example simulation")
    s.add_argument(
        "--run-dir", default=str(Path(__file__).resolve().parents[3] / "examples" / "mirofish_run")
    )
    s.set_defaults(func=cmd_demo)
