"""The Zep-compatible service: `serve` (Zep v3's graph reads over HTTP, docs/zep.md) and
`key` (its API keys: each bound to a role of its own that holds the tenant's grant)."""

from __future__ import annotations

import argparse
import hashlib
import secrets

from swarm_memory.commands.common import Subcommands, memory, resolve_dsn, resolve_tenant
from swarm_memory.render import add_json_flag, print_json_rows, table

__all__ = ["KEY_PREFIX", "add_commands", "new_key"]

# A key: this prefix and 32 random bytes, URL-safe; `key list` shows its first characters.
KEY_PREFIX = "smk_"
SHOWN_CHARS = 12


def new_key() -> str:
    return KEY_PREFIX + secrets.token_urlsafe(32)


def cmd_serve(args: argparse.Namespace) -> int:
    import uvicorn

    from swarm_memory.extract import LLMConfig, Worker
    from swarm_memory.zep import Service, create_app

    dsn = resolve_dsn(args)
    llm = LLMConfig.from_env(
        args.llm_base_url,
        args.llm_model,
        max_tokens=args.llm_max_tokens,
        max_items=args.llm_max_items,
    )
    worker = None
    if args.extract and llm is not None:
        worker = Worker(dsn, llm, poll=args.poll)
    service = Service(
        dsn,
        max_concurrent=args.max_concurrent,
        pool_size=args.pool_size,
        model=args.model,
        extractor=worker,
        torch_threads=args.torch_threads,
    )
    print(
        f"serving Zep's graph API at http://{args.host}:{args.port}/api/v2 "
        f"(point the SDK there: ZEP_API_URL=http://{args.host}:{args.port})",
        flush=True,
    )
    if worker is not None:
        print(f"extracting with {llm.model} at {llm.base_url}", flush=True)
    else:
        print(
            "not extracting: added episodes wait in the queue (name a chat-completions "
            "endpoint: LLM_BASE_URL and LLM_MODEL_NAME, or --llm-base-url and --llm-model)",
            flush=True,
        )
    uvicorn.run(create_app(service), host=args.host, port=args.port, log_level=args.log_level)
    return 0


def _create_key(args: argparse.Namespace) -> int:
    """A role of the key's own (NOLOGIN: only the service acts as it, by SET ROLE), with the
    group role's privileges and the tenant's grant, that the serving role may SET ROLE to;
    then the key, recorded by its sha256. All in one transaction: a failure leaves nothing."""
    import psycopg
    from psycopg import sql

    from swarm_memory.errors import translate

    with memory(args) as mem:
        tenant = resolve_tenant(mem, args.tenant)
    group = "memory_reader" if args.reader else "memory_writer"
    key = new_key()
    role = args.role_name or f"zep_key_{secrets.token_hex(6)}"
    try:
        with psycopg.connect(resolve_dsn(args)) as conn, conn.transaction():
            serving = args.service_role or conn.execute("SELECT current_user").fetchone()[0]
            ident = sql.Identifier(role)
            conn.execute(sql.SQL("CREATE ROLE {} NOLOGIN").format(ident))
            conn.execute(
                sql.SQL("GRANT {} TO {} WITH INHERIT TRUE, SET FALSE").format(
                    sql.Identifier(group), ident
                )
            )
            # the serving role acts as the key's role only by SET ROLE, never inheriting it
            conn.execute(
                sql.SQL("GRANT {} TO {} WITH INHERIT FALSE, SET TRUE").format(
                    ident, sql.Identifier(serving)
                )
            )
            conn.execute("SELECT memory.grant_tenant(%s, %s)", (role, tenant))
            key_id = conn.execute(
                "SELECT memory.create_api_key(%s, %s, %s, %s)",
                (tenant, role, hashlib.sha256(key.encode()).digest(), key[:SHOWN_CHARS]),
            ).fetchone()[0]
    except psycopg.Error as exc:
        raise translate(exc) from exc
    print(key)
    print(
        f"key {key_id} of tenant {tenant}: requests run as role {role} ({group}), which "
        f"{serving} may SET ROLE to; the key is shown this once and stored only hashed",
        flush=True,
    )
    return 0


def _list_keys(args: argparse.Namespace) -> int:
    import psycopg

    from swarm_memory.errors import translate

    with memory(args) as mem:
        tenant = resolve_tenant(mem, args.tenant)
    try:
        with psycopg.connect(resolve_dsn(args), autocommit=True) as conn:
            cur = conn.execute("SELECT * FROM memory.api_keys(%s)", (tenant,))
            rows = cur.fetchall()
            columns = [c.name for c in cur.description or ()]
    except psycopg.Error as exc:
        raise translate(exc) from exc
    if args.json:
        return print_json_rows(dict(zip(columns, r, strict=True)) for r in rows)
    print(
        table(
            [
                (
                    k,
                    f"{prefix}...",
                    role,
                    f"{at:%Y-%m-%d %H:%M}",
                    by,
                    "" if gone is None else f"{gone:%Y-%m-%d %H:%M}",
                )
                for k, prefix, role, at, by, gone in rows
            ],
            ["key", "starts", "role", "created", "by", "revoked"],
        )
    )
    return 0


def _revoke_key(args: argparse.Namespace) -> int:
    """memory.revoke_api_key (the key authenticates nothing more, its role's grant ends),
    then the key's role dropped in the same transaction unless --keep-role."""
    import psycopg
    from psycopg import sql

    from swarm_memory.errors import translate

    with memory(args) as mem:
        tenant = resolve_tenant(mem, args.tenant)
    try:
        with psycopg.connect(resolve_dsn(args)) as conn, conn.transaction():
            role, _ = conn.execute(
                "SELECT * FROM memory.revoke_api_key(%s, %s)", (tenant, args.key)
            ).fetchone()
            if not args.keep_role:
                conn.execute(sql.SQL("DROP ROLE IF EXISTS {}").format(sql.Identifier(role)))
    except psycopg.Error as exc:
        raise translate(exc) from exc
    print(f"key {args.key} revoked; role {role} {'kept' if args.keep_role else 'dropped'}")
    return 0


def cmd_extract(args: argparse.Namespace) -> int:
    """Work a tenant's extraction queue as this role (a writer granted the tenant) until
    nothing is due, then say what was done."""
    from swarm_memory.extract import Extractor, LLMConfig, enter_role

    llm = LLMConfig.from_env(
        args.llm_base_url,
        args.llm_model,
        max_tokens=args.llm_max_tokens,
        max_items=args.llm_max_items,
    )
    if llm is None:
        raise ValueError(
            "no model endpoint: set LLM_BASE_URL and LLM_MODEL_NAME (as MiroFish does), "
            "or pass --llm-base-url and --llm-model"
        )
    mem = memory(args)
    tenant = resolve_tenant(mem, args.tenant)
    extractor = Extractor(mem, llm)
    import psycopg

    with psycopg.connect(resolve_dsn(args), autocommit=True) as conn:
        if args.retry_failed:
            with conn.transaction():
                queued = mem.zep_retry_episodes(tenant, args.graph, conn=conn)
            print(f"queued {queued} failed episode{'s' if queued != 1 else ''} again")
        extractor.drain(conn, tenant, enter_role(None), limit=args.limit)
    print(
        f"extracted {extractor.done} episode{'s' if extractor.done != 1 else ''}, "
        f"{extractor.failed} failed (episode.get shows why; they are retried)"
    )
    return 0 if not extractor.failed else 1


def cmd_key(args: argparse.Namespace) -> int:
    return {"create": _create_key, "list": _list_keys, "revoke": _revoke_key}[args.action](args)


def _llm_options(s: argparse.ArgumentParser) -> None:
    s.add_argument(
        "--llm-base-url",
        metavar="URL",
        help="chat-completions endpoint that extraction asks (default: $LLM_BASE_URL, "
        "MiroFish's setting); its key: $LLM_API_KEY",
    )
    s.add_argument("--llm-model", metavar="NAME", help="its model (default: $LLM_MODEL_NAME)")
    s.add_argument(
        "--llm-max-tokens",
        type=int,
        metavar="N",
        help="the most tokens one extraction's answer may take (1024)",
    )
    s.add_argument(
        "--llm-max-items",
        type=int,
        metavar="N",
        help="the most entities, and facts, one extraction may name (20; fewer for a small model)",
    )


def add_commands(sub: Subcommands) -> None:
    from swarm_memory.commands.common import uuid_arg

    s = sub.add_parser("serve", help="serve Zep's graph API over HTTP (docs/zep.md)")
    s.add_argument("--host", default="127.0.0.1", help="address to listen on (%(default)s)")
    s.add_argument("--port", type=int, default=8000, help="port (%(default)s)")
    s.add_argument(
        "--max-concurrent",
        type=int,
        default=4,
        metavar="N",
        help="requests one key may have in flight; more are answered 429 (%(default)s)",
    )
    s.add_argument(
        "--pool-size", type=int, default=10, metavar="N", help="database connections (%(default)s)"
    )
    s.add_argument("--log-level", default="info", help="uvicorn's log level (%(default)s)")
    s.add_argument(
        "--model",
        help="embedding model of the graphs graph.create makes (default: the tenant's, else "
        "the default model)",
    )
    s.add_argument(
        "--torch-threads",
        type=int,
        default=1,
        metavar="N",
        help="PyTorch threads of each request's embedding (%(default)s: requests run side by side)",
    )
    _llm_options(s)
    s.add_argument(
        "--no-extract",
        dest="extract",
        action="store_false",
        help="run no extractor in the service (run `swarm-memory extract` elsewhere)",
    )
    s.add_argument(
        "--poll",
        type=float,
        default=1.0,
        metavar="SECONDS",
        help="how often an idle extractor looks at the queue (%(default)s)",
    )
    s.set_defaults(func=cmd_serve)

    s = sub.add_parser("extract", help="turn a tenant's queued episodes into entities and facts")
    s.add_argument("--tenant", required=True, help="UUID or name")
    s.add_argument("--graph", help="with --retry-failed: only this graph's")
    s.add_argument("--limit", type=int, metavar="N", help="at most N episodes")
    s.add_argument(
        "--retry-failed", action="store_true", help="queue the failed episodes again first"
    )
    _llm_options(s)
    s.set_defaults(func=cmd_extract)

    s = sub.add_parser("key", help="API keys of `serve`, each bound to a tenant role (admin)")
    ksub = s.add_subparsers(dest="action", required=True)
    k = ksub.add_parser("create", help="issue a key (printed once) with a role of its own")
    k.add_argument("--tenant", required=True, help="UUID or name")
    k.add_argument("--reader", action="store_true", help="memory_reader (default: memory_writer)")
    k.add_argument("--role-name", help="name of the key's new role (default: zep_key_<random>)")
    k.add_argument(
        "--service-role",
        help="the role `serve` connects as, which may SET ROLE to the key's (default: this one)",
    )
    k = ksub.add_parser("list", help="a tenant's keys (first characters only)")
    k.add_argument("--tenant", required=True, help="UUID or name")
    add_json_flag(k)
    k = ksub.add_parser("revoke", help="revoke a key and drop its role")
    k.add_argument("--tenant", required=True, help="UUID or name")
    k.add_argument("key", type=uuid_arg, help="the key's id, as `key list` shows it")
    k.add_argument("--keep-role", action="store_true", help="keep the key's role")
    s.set_defaults(func=cmd_key)
