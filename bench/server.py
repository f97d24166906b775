"""A dedicated embedded PostgreSQL for the benchmarks, tuned for this machine."""

from __future__ import annotations

import atexit
import contextlib
import os
import shutil
import subprocess
from pathlib import Path

import psycopg
from swarm_memory import migrate, server

DATADIR = Path(
    os.environ.get(
        "SWARM_MEMORY_BENCH_PGDATA", Path(__file__).resolve().parents[1] / ".cache" / "bench" / "pg"
    )
)

SETTINGS = {
    "shared_buffers": "6GB",
    "effective_cache_size": "16GB",
    "maintenance_work_mem": "4GB",
    "work_mem": "64MB",
    "max_wal_size": "16GB",
    "checkpoint_timeout": "30min",
    "max_parallel_maintenance_workers": "1",
    "jit": "off",
}


# The kernel's pool of huge pages, and its size before reserve_huge_pages raised it (None:
# untouched), restored by stop().
NR_HUGEPAGES = Path("/proc/sys/vm/nr_hugepages")
_huge_pages_before: int | None = None


def fresh(settings: dict[str, str] | None = None, huge_pages: bool = False) -> str:
    """A new, empty, tuned and migrated server; returns the superuser DSN. With huge_pages,
    its shared memory in huge pages where this process may reserve them (reserve_huge_pages)."""
    if DATADIR.exists():
        server.stop(DATADIR)
        shutil.rmtree(DATADIR)
    DATADIR.parent.mkdir(parents=True, exist_ok=True)
    dsn = server.start(DATADIR)
    with psycopg.connect(dsn, autocommit=True) as conn:
        for key, value in (settings or SETTINGS).items():
            conn.execute(f"ALTER SYSTEM SET {key} = '{value}'")
    server.stop(DATADIR)
    if huge_pages:
        reserve_huge_pages()
    dsn = server.start(DATADIR)
    migrate.migrate(dsn)
    return dsn


def reserve_huge_pages() -> None:
    """Reserve the kernel's huge pages the stopped server's shared memory needs (PostgreSQL
    counts them: shared_memory_size_in_huge_pages), as a database host with shared_buffers
    of 6 GB is set up; the server's huge_pages = try (its default) then maps its buffers in
    2 MiB pages instead of 4 KiB ones.

    Why: a search through an HNSW index reads a few thousand buffers scattered over the
    buffer pool, each an address to translate, and 2 MiB pages cover the pool with 512
    times fewer entries of the processor's translation cache; on a copy of this
    benchmark's loaded store routed recall at 200,000 episodes was faster in huge pages
    (bench/README.md, "Huge pages").

    Only as root on Linux (the pool is a system setting, /proc/sys/vm/nr_hugepages), and
    only where the kernel lets it be raised; raised by what is missing and given back by
    stop() or at exit. Elsewhere nothing changes and the server uses what the machine
    offers (the results' machine.huge_pages says which)."""
    global _huge_pages_before
    if os.geteuid() != 0 or not NR_HUGEPAGES.exists():
        return
    try:
        need = int(
            subprocess.run(
                server.as_server_user(
                    [
                        str(server.bin_dir() / "postgres"),
                        "-D",
                        str(DATADIR),
                        "-C",
                        "shared_memory_size_in_huge_pages",
                    ]
                ),
                check=True,
                capture_output=True,
                text=True,
            ).stdout.strip()
        )
        # Free pages count those other servers have reserved; HugePages_Total counts the
        # surplus pages a server took while the pool was larger, which raising the pool
        # turns into its own pages first: the pool must cover what others hold and our need.
        total = _meminfo("HugePages_Total")
        available = _meminfo("HugePages_Free") - _meminfo("HugePages_Rsvd")
        if need > 0 and available < need:
            before = int(NR_HUGEPAGES.read_text())
            with contextlib.suppress(OSError):  # room for 2 MiB pages in a fragmented memory
                Path("/proc/sys/vm/compact_memory").write_text("1")
            NR_HUGEPAGES.write_text(str(total - available + need))
            if _huge_pages_before is None:
                _huge_pages_before = before
                atexit.register(_release_huge_pages)
    except (OSError, ValueError, subprocess.CalledProcessError):
        pass  # a read-only /proc/sys (a container), a server that cannot say: 4 KiB pages


def _meminfo(key: str) -> int:
    for line in Path("/proc/meminfo").read_text().splitlines():
        if line.startswith(key + ":"):
            return int(line.split()[1])
    return 0


def _release_huge_pages() -> None:
    global _huge_pages_before
    if _huge_pages_before is not None:
        with contextlib.suppress(OSError):
            NR_HUGEPAGES.write_text(str(_huge_pages_before))
        _huge_pages_before = None


def settle(dsn: str) -> None:
    """Let a load's aftermath settle before the next measurement: vacuum and analyze what was
    written (what autovacuum would otherwise do while the next calls are timed: on two cores
    it has none to itself) and write the dirty pages out."""
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute("VACUUM ANALYZE")
        conn.execute("CHECKPOINT")


def stop() -> None:
    server.stop(DATADIR)
    _release_huge_pages()
