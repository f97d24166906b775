"""Tests against a real Citus cluster (issue 15): `make test-citus` sets SWARM_MEMORY_CITUS=1
after starting a coordinator and two workers (tests/citus/cluster.py). Without it (the plain
`make test`) nothing here is collected.

One database per session on the cluster (Citus metadata is per database, so a database per
test would mean registering the workers each time), migrated and distributed; beside it a
database of the coordinator without the citus extension stands for "one node" where a test
compares (tests/citus/world.py builds both).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent

if os.environ.get("SWARM_MEMORY_CITUS") != "1":
    collect_ignore_glob = ["test_*.py"]

sys.path.insert(0, str(HERE))
import cluster  # noqa: E402
import world  # noqa: E402
from world import SIM_A, SIM_B, TENANT_A, TENANT_B, Cluster  # noqa: E402, F401


@pytest.fixture(scope="session")
def citus() -> Iterator[Cluster]:
    why = cluster.available()
    if why:
        pytest.skip(f"citus not available: {why}")
    c = world.build(f"citus_test_{os.getpid()}", f"citus_single_{os.getpid()}")
    yield c
    if os.environ.get("SWARM_MEMORY_CITUS_KEEP") != "1":
        world.drop(c)
