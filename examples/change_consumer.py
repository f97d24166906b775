"""Follow a simulation through the change feed and keep a networkx copy of its graph.

    python examples/change_consumer.py --dsn DSN --tenant T --simulation S [--state FILE]

The consumer stores its graph and its cursor together (one pickle, replaced atomically), so
a restart resumes from the last change it applied and sees every later change exactly once
(memory.changes_since answers in commit order). It sleeps on LISTEN memory_changes (the
NOTIFY carries no ids) and reads the feed when woken, or every few seconds.

What each change does to the copy:
- nodes / edges, op upsert: the changed ids are read back (get_node / get_edge);
- nodes / edges, op import (no ids: the kind of the simulation changed by an import): the
  graph is read again whole, a page at a time (graph_nodes / graph_edges);
- simulation, op delete or retention: the copy is emptied;
- anything else (episodes, profiles, outcomes, compaction, re-embed): nothing to mirror.
"""

from __future__ import annotations

import argparse
import os
import pickle
import time
import uuid
from collections.abc import Callable
from pathlib import Path

import networkx as nx
import psycopg
from swarm_memory import Memory, NotFound
from swarm_memory.client import Change


class GraphMirror:
    """A networkx MultiDiGraph of one simulation, kept in sync from the feed."""

    def __init__(self, mem: Memory, tenant: uuid.UUID, simulation: uuid.UUID) -> None:
        self.mem, self.tenant, self.simulation = mem, tenant, simulation
        self.graph = nx.MultiDiGraph()
        self.cursor: int | None = None
        self.applied = 0

    def resync(self) -> None:
        g = nx.MultiDiGraph()
        after = None
        while page := self.mem.graph_nodes(self.tenant, self.simulation, limit=1000, after=after):
            for n in page:
                g.add_node(n.node_id, name=n.name, type=n.type)
            after = page[-1].node_id
        after = None
        while page := self.mem.graph_edges(self.tenant, self.simulation, limit=1000, after=after):
            for e in page:
                g.add_edge(e.source_id, e.target_id, key=e.edge_id, type=e.type, fact=e.fact)
            after = page[-1].edge_id
        self.graph = g

    def _node(self, node_id: str) -> None:
        try:
            n = self.mem.get_node(self.tenant, self.simulation, node_id)
        except NotFound:
            if node_id in self.graph:
                self.graph.remove_node(node_id)
            return
        self.graph.add_node(node_id, name=n.name, type=n.type)

    def _edge(self, edge_id: str) -> None:
        for u, v, k in list(self.graph.edges(keys=True)):
            if k == edge_id:
                self.graph.remove_edge(u, v, k)
        try:
            e = self.mem.get_edge(self.tenant, self.simulation, edge_id)
        except NotFound:
            return
        self.graph.add_edge(e.source_id, e.target_id, key=e.edge_id, type=e.type, fact=e.fact)

    def apply(self, change: Change) -> None:
        if change.simulation_id == self.simulation:
            if change.kind == "simulation" and change.op in ("delete", "retention"):
                self.graph = nx.MultiDiGraph()
            elif change.kind in ("nodes", "edges") and change.ids is None:
                self.resync()
            elif change.kind == "nodes":
                for i in change.ids or []:
                    self._node(i)
            elif change.kind == "edges":
                for i in change.ids or []:
                    self._edge(i)
        self.cursor = change.change_id
        self.applied += 1

    def poll(self, on_change: Callable[[Change], None] | None = None) -> int:
        """Apply every change after the cursor; returns how many."""
        n = 0
        while changes := self.mem.changes_since(self.tenant, self.cursor, 1000):
            for c in changes:
                self.apply(c)
                if on_change:
                    on_change(c)
            n += len(changes)
        return n

    def save(self, path: Path) -> None:
        tmp = path.with_suffix(".tmp")
        tmp.write_bytes(pickle.dumps((self.cursor, self.graph)))
        os.replace(tmp, path)  # graph and cursor together, or neither

    def load(self, path: Path) -> None:
        if path.exists():
            self.cursor, self.graph = pickle.loads(path.read_bytes())
        else:
            self.resync_from_start()

    def resync_from_start(self) -> None:
        """A new consumer: the graph as it stands, then the feed from its current end."""
        last = None
        while page := self.mem.changes_since(self.tenant, last, 10000):
            last = page[-1].change_id
        self.resync()
        self.cursor = last


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--dsn", default=os.environ.get("SWARM_MEMORY_DSN"))
    p.add_argument("--tenant", required=True, type=uuid.UUID)
    p.add_argument("--simulation", required=True, type=uuid.UUID)
    p.add_argument("--state", type=Path, default=Path("change_consumer.pickle"))
    args = p.parse_args()
    with Memory(args.dsn) as mem, psycopg.connect(args.dsn, autocommit=True) as listener:
        mirror = GraphMirror(mem, args.tenant, args.simulation)
        mirror.load(args.state)
        listener.execute("LISTEN memory_changes")
        while True:
            if mirror.poll():
                mirror.save(args.state)
                g = mirror.graph
                print(
                    f"cursor {mirror.cursor}: {g.number_of_nodes()} nodes, {g.number_of_edges()} edges"
                )
            for _ in listener.notifies(timeout=5, stop_after=1):
                pass
            time.sleep(0)


if __name__ == "__main__":
    main()
