"""The walkthrough of `make demo`: two tenants, one imported MiroFish run, the reads, and
proof that the second tenant sees none of the first's memory."""

from __future__ import annotations

import textwrap
import uuid
from pathlib import Path

import psycopg

from swarm_memory.client import Memory
from swarm_memory.embed import Embedder
from swarm_memory.errors import NotFound, TenantAccessDenied
from swarm_memory.importer import import_run
from swarm_memory.migrate import migrate
from swarm_memory.progress import Progress
from swarm_memory.render import audit_table, print_import_report, table
from swarm_memory.server import as_role

ROLES = {
    "demo_admin": "memory_admin",
    "gateway_acme": "memory_writer",
    "gateway_globex": "memory_writer",
}
SIMULATION_ID = uuid.uuid5(uuid.NAMESPACE_URL, "swarm-memory/demo/harbourton-riverside")
QUESTION = "Will closing the riverside road to cars hurt the small shops nearby?"


def _title(text: str) -> None:
    print()
    print(text)
    print("=" * len(text))


def _ensure_roles(dsn: str) -> None:
    with psycopg.connect(dsn, autocommit=True) as conn:
        for role, group in ROLES.items():
            if not conn.execute("SELECT 1 FROM pg_roles WHERE rolname = %s", (role,)).fetchone():
                conn.execute(
                    psycopg.sql.SQL("CREATE ROLE {} LOGIN").format(psycopg.sql.Identifier(role))
                )
            conn.execute(
                psycopg.sql.SQL("GRANT {} TO {}").format(
                    psycopg.sql.Identifier(group), psycopg.sql.Identifier(role)
                )
            )


def run_demo(dsn: str, run_dir: Path) -> int:
    _title("1. Database")
    result = migrate(dsn)
    applied = ", ".join(f"V{v:04d}" for v in result.applied_versions) or "none pending"
    print(f"PostgreSQL at {dsn}")
    print(
        f"migrations applied: {applied}; functions and policies re-applied "
        f"({result.repeatable_files} files)"
    )
    _ensure_roles(dsn)

    _title("2. Two tenants, each granted to its own gateway role")
    with Memory(as_role(dsn, "demo_admin")) as admin:
        acme = admin.create_tenant("acme-research")
        globex = admin.create_tenant("globex-labs")
        admin.grant_tenant("gateway_acme", acme)
        admin.grant_tenant("gateway_globex", globex)
    print(f"acme-research  {acme}  -> role gateway_acme")
    print(f"globex-labs    {globex}  -> role gateway_globex")

    acme_mem = Memory(as_role(dsn, "gateway_acme"))
    globex_mem = Memory(as_role(dsn, "gateway_globex"))
    embedder = Embedder()
    try:
        _title(f"3. Import {run_dir.name} into acme-research (as gateway_acme)")
        report = import_run(
            as_role(dsn, "gateway_acme"),
            acme,
            SIMULATION_ID,
            run_dir,
            embedder=embedder,
            name="Harbourton riverside road debate",
            progress=Progress(),
        )
        print_import_report(report)
        print("(run the demo again: nothing is re-embedded and every count moves to 'unchanged')")

        stats = acme_mem.simulation_stats(acme, SIMULATION_ID)
        _title("4. Entities by type")
        for node_type, count in sorted(stats.node_types.items(), key=lambda kv: -kv[1]):
            nodes = acme_mem.nodes_by_type(acme, SIMULATION_ID, node_type, 4)
            more = f" (+{count - len(nodes)} more)" if count > len(nodes) else ""
            print(f"{node_type:>18} ({count}): " + ", ".join(n.name for n in nodes) + more)

        policies = acme_mem.nodes_by_type(acme, SIMULATION_ID, "Policy", 50)
        start = max(
            policies or acme_mem.nodes_by_type(acme, SIMULATION_ID, None, 50),
            key=lambda n: len(acme_mem.neighbors(acme, SIMULATION_ID, n.node_id, 1)),
        )
        walk = acme_mem.neighbors(acme, SIMULATION_ID, start.node_id, 2)
        _title(f"5. Depth-2 neighbourhood of '{start.name}' ({start.type})")
        print(
            table(
                [(w.depth, w.name, w.type, w.edge_type, w.fact) for w in walk],
                ["depth", "name", "type", "via", "fact"],
                width=64,
            )
        )

        _title("6. Semantic search over the agents' actions")
        print(f"question: {QUESTION}")
        hits = acme_mem.search_episodes(acme, SIMULATION_ID, embedder.encode_one(QUESTION), 5)
        for h in hits:
            print(
                f"\n  {h.similarity:.3f}  {h.platform}, round {h.round}, {h.agent_name} "
                f"({h.action_type})"
            )
            print(textwrap.indent(textwrap.fill(h.content or "", 86), "         "))

        reports = acme_mem.reports(acme, SIMULATION_ID)
        if reports:
            _title("6b. The run's MiroFish report: search its sections, read its predictions")
            r = reports[0]
            print(f"{r.report_id}: {r.title} ({r.status}, {r.sections} sections)")
            for h in acme_mem.search_reports(acme, SIMULATION_ID, embedder.encode_one(QUESTION), 2):
                print(f"\n  {h.similarity:.3f}  section {h.section_index}: {h.section_title}")
                print(textwrap.indent(textwrap.fill(h.content, 86), "         "))
            print()
            for p in acme_mem.predictions(acme, SIMULATION_ID):
                print(f"  {p.prediction_id}  {p.confidence}  by {p.horizon}: {p.claim}")

        _title("7. The second tenant sees none of it")
        try:
            globex_mem.search_episodes(acme, SIMULATION_ID, embedder.encode_one(QUESTION), 5)
            print("!! gateway_globex read acme-research: isolation is broken")
            return 1
        except TenantAccessDenied as exc:
            print(
                f"gateway_globex asks for acme-research's simulation -> {exc.sqlstate} "
                f"insufficient_privilege: {exc}"
            )
        try:
            globex_mem.simulation_stats(globex, SIMULATION_ID)
            print("!! the simulation is visible under globex-labs")
            return 1
        except NotFound as exc:
            print(
                f"gateway_globex asks for that simulation id under its own tenant -> "
                f"{exc.sqlstate} no_data_found"
            )
        with psycopg.connect(as_role(dsn, "gateway_globex"), autocommit=True) as conn:
            conn.execute("SELECT set_config('memory.tenant_id', %s, false)", (str(acme),))
            counts = conn.execute(
                "SELECT (SELECT count(*) FROM memory.nodes), (SELECT count(*) FROM memory.edges),"
                " (SELECT count(*) FROM memory.episodes)"
            ).fetchone()
        print(
            f"gateway_globex forges memory.tenant_id = acme-research and selects directly -> "
            f"nodes {counts[0]}, edges {counts[1]}, episodes {counts[2]}"
        )
        if any(counts):
            print("!! forged setting exposed rows: isolation is broken")
            return 1

        _title("8. Row-level security audit")
        with Memory(as_role(dsn, "demo_admin")) as admin:
            audit = admin.rls_audit()
        print(audit_table(audit))
        print(
            f"\nembedder: {embedder.sentences} texts at {embedder.rate:.0f} sentences/s "
            f"(all-MiniLM-L6-v2, CPU)"
        )
        return 0 if all(r.ok for r in audit) else 1
    finally:
        acme_mem.close()
        globex_mem.close()
