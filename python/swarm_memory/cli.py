"""swarm-memory command line.

Every command talks to PostgreSQL through the SQL API. `--dsn` (or SWARM_MEMORY_DSN) points
it at any PostgreSQL; without one it starts (or finds running) the embedded server in
`--datadir` and connects to it.

The commands live in swarm_memory.commands, one module a family, each command's parser beside
its handler; this module holds the global options, the parser made of the families, and the
one-line errors.

Importing this module and the command modules loads no model, numpy, psycopg or web stack:
each command imports what it uses when it runs (tests/test_cli_json.py holds the list).
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
from collections.abc import Sequence

from swarm_memory import server
from swarm_memory.commands import (
    citus,
    feed,
    identity,
    imports,
    mcp,
    models,
    reads,
    recall,
    reports,
    search,
    service,
    setup,
    tenancy,
    time,
)

# The families in the order `swarm-memory --help` lists their commands.
FAMILIES = (
    setup,
    tenancy,
    imports,
    reads,
    time,
    identity,
    recall,
    search,
    reports,
    feed,
    models,
    citus,
    service,
    mcp,
)


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="swarm-memory", description=__doc__.splitlines()[0])
    p.add_argument(
        "--dsn", help="PostgreSQL to use (default: $SWARM_MEMORY_DSN, else the embedded server)"
    )
    p.add_argument(
        "--datadir",
        default=str(server.DEFAULT_DATADIR),
        help="data directory of the embedded server (default: %(default)s)",
    )
    p.add_argument(
        "--user",
        help="connect as this role instead of the DSN's (its password, if any, comes from "
        "PGPASSWORD or ~/.pgpass: the DSN's password belongs to the DSN's role)",
    )
    p.add_argument("--debug", action="store_true", help="show the traceback of an error")
    sub = p.add_subparsers(dest="command", required=True)
    for family in FAMILIES:
        family.add_commands(sub)
    return p


# The SQL functions a hint names, as the command that does the same from here.
CLI_HINTS = {
    "memory.grant_tenant(role, tenant)": "`swarm-memory tenant grant ROLE TENANT`",
    "memory.create_tenant()": "`swarm-memory tenant create NAME`",
    "memory.upsert_simulation()": "`swarm-memory import`",
    "memory.begin_import()": "`swarm-memory import`",
    "memory.import_attempts()": "`swarm-memory attempts`",
    "memory.ann_plan()": "`swarm-memory index`",
    "memory.set_quota()": "`swarm-memory quota set --tenant T --kind K --max N`",
    "neighbors()": "`swarm-memory neighbors`",
    "memory.list_tenants()": "`swarm-memory tenants`",
    "memory.list_simulations()": "`swarm-memory simulations --tenant TENANT`",
}


def cli_hint(hint: str) -> str:
    """A hint of the SQL API, naming the CLI command where it names a function."""
    for function, command in CLI_HINTS.items():
        hint = hint.replace(function, command)
    return hint


def _one_line(exc: BaseException) -> str:
    return " ".join(str(exc).split())


# The exit code of a command whose reader closed stdout (`| head -1`): what a shell reports
# for a POSIX tool that SIGPIPE ended (128 + 13), so `set -o pipefail` sees it as it sees
# `cat`'s; nothing is printed.
EXIT_CLOSED_PIPE = 141


class _Stderr(logging.StreamHandler):  # type: ignore[type-arg]
    """A handler writing to sys.stderr as it is when a message comes (a test swaps it)."""

    @property  # type: ignore[override]
    def stream(self) -> object:
        return sys.stderr

    @stream.setter
    def stream(self, _: object) -> None:
        pass


def _say_on_stderr() -> None:
    """What the library announces as it works (a model loading, the embedded server
    starting: the `swarm_memory.notice` logger) goes to stderr, so stdout holds the output
    alone. One handler however often main() runs in a process."""
    logger = logging.getLogger("swarm_memory.notice")
    logger.setLevel(logging.INFO)
    if not any(isinstance(h, _Stderr) for h in logger.handlers):
        handler = _Stderr()
        handler.setFormatter(logging.Formatter("%(message)s"))
        logger.addHandler(handler)


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command. A refusal, a bad file or a server that cannot be reached is one line
    on stderr and exit code 2; --debug shows the traceback instead. A reader that closes
    stdout early ends the command quietly with EXIT_CLOSED_PIPE."""
    try:
        code = _run(argv)
        sys.stdout.flush()  # a closed pipe shows here, not as a warning at exit
        return code
    except BrokenPipeError:
        # Python would try to flush stdout again at exit and complain: point it at devnull
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        except (OSError, ValueError):
            pass  # a stdout without a file descriptor (captured)
        return EXIT_CLOSED_PIPE


def _run(argv: Sequence[str] | None) -> int:
    args = build_parser().parse_args(argv)
    _say_on_stderr()

    import psycopg

    from swarm_memory.errors import SwarmMemoryError

    try:
        return args.func(args)
    except BrokenPipeError:
        raise
    except (SwarmMemoryError, ValueError, OSError, psycopg.Error) as exc:
        if args.debug:
            raise
        if isinstance(exc, SwarmMemoryError) and exc.hint:
            exc.hint = cli_hint(exc.hint)
        code = getattr(exc, "sqlstate", None)
        print(f"error{f' [{code}]' if code else ''}: {_one_line(exc)}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
