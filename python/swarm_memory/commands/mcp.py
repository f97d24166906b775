"""`mcp`: the memory's reads as tools of an MCP server, for agents (docs/mcp.md)."""

from __future__ import annotations

import argparse
import os
import sys
import uuid

from swarm_memory.commands.common import Subcommands, memory, resolve_dsn, resolve_tenant

__all__ = ["add_commands"]


def _stdio_binding(args: argparse.Namespace) -> tuple[str | None, uuid.UUID | None]:
    """The key (read from the environment, checked now: a bad one fails before the client
    connects) or the tenant a stdio server is bound to."""
    import hashlib

    if (args.key_env is None) == (args.tenant is None):
        raise ValueError(
            "over stdio, bind the server with --key-env VAR (an API key, `swarm-memory key "
            "create --tenant T --reader`) or --tenant T (as the connecting role), one of them"
        )
    with memory(args) as mem:
        if args.tenant is not None:
            return None, resolve_tenant(mem, args.tenant)
        key = os.environ.get(args.key_env, "").strip()
        if not key:
            raise ValueError(f"${args.key_env} holds no API key")
        if mem.api_key_role(hashlib.sha256(key.encode()).digest()) is None:
            raise ValueError(f"the API key in ${args.key_env} is unknown or revoked")
        return key, None


def cmd_mcp(args: argparse.Namespace) -> int:
    from swarm_memory.mcp_server import Gateway, create_server, http_app

    if args.pool_size < 1:
        raise ValueError(f"--pool-size must be at least 1, not {args.pool_size}")
    dsn = resolve_dsn(args)
    if args.transport == "stdio":
        key, tenant = _stdio_binding(args)
        gateway = Gateway(dsn, key=key, tenant=tenant, pool_size=args.pool_size)
        try:
            create_server(gateway, log_level=args.log_level.upper()).run("stdio")
        finally:
            gateway.close()
        return 0

    import uvicorn

    if args.key_env is not None or args.tenant is not None:
        raise ValueError(
            "--key-env and --tenant bind a stdio server; over HTTP each request's "
            "Authorization: Api-Key <key> header names its key"
        )
    gateway = Gateway(dsn, pool_size=args.pool_size)
    print(
        f"serving MCP at http://{args.host}:{args.port}{args.path} (streamable HTTP; each "
        "request sends Authorization: Api-Key <key>)",
        file=sys.stderr,
        flush=True,
    )
    try:
        uvicorn.run(
            http_app(gateway, host=args.host, path=args.path, log_level=args.log_level.upper()),
            host=args.host,
            port=args.port,
            log_level=args.log_level.lower(),
        )
    finally:
        gateway.close()
    return 0


def add_commands(sub: Subcommands) -> None:
    s = sub.add_parser("mcp", help="serve the memory's reads as MCP tools (docs/mcp.md)")
    s.add_argument(
        "--transport",
        choices=("stdio", "http"),
        default="stdio",
        help="stdio (a client starts the server) or streamable HTTP (%(default)s)",
    )
    s.add_argument(
        "--key-env",
        metavar="VAR",
        help="stdio: act as the API key in this environment variable (`key create --reader`)",
    )
    s.add_argument(
        "--tenant", help="stdio: act for this tenant (UUID or name) as the connecting role"
    )
    s.add_argument("--host", default="127.0.0.1", help="http: address to listen on (%(default)s)")
    s.add_argument("--port", type=int, default=8001, help="http: port (%(default)s)")
    s.add_argument("--path", default="/mcp", help="http: the endpoint's path (%(default)s)")
    s.add_argument(
        "--pool-size", type=int, default=4, metavar="N", help="database connections (%(default)s)"
    )
    s.add_argument(
        "--log-level",
        default="warning",
        choices=("debug", "info", "warning", "error", "critical"),
        help="what the server logs on stderr (%(default)s; info: each refused call)",
    )
    s.set_defaults(func=cmd_mcp)
