"""MiroFish's formats: what reads a MiroFish run and what writes one back.

    swarm_memory.mirofish          the readers of a run's files (from .read): the graph
                                   export, `<platform>/actions.jsonl`, the profile files and
                                   the simulation folder, as items of the SQL API
    swarm_memory.mirofish.run      a whole run directory read at once (`parse_run`): what the
                                   importer stages, and what the import replaces
    swarm_memory.mirofish.export   a simulation written back as a run (`export_run`)

MiroFish's reports/ folders are read and written by swarm_memory.reports.

Importing the package gives the readers only: `run` and `export` import swarm_memory.reports,
which reads with these readers, so the package importing them would close an import cycle.
"""

from __future__ import annotations

from swarm_memory.mirofish.read import (
    CONTENTLESS_ACTIONS,
    GENERIC_LABELS,
    PLATFORMS,
    REQUIRED_ACTION_FIELDS,
    SIMULATION_FIELDS,
    ActionLog,
    BadInput,
    Clock,
    Graph,
    action_text,
    episode_id,
    iso,
    iter_lines,
    node_type,
    profile_platforms,
    read_actions,
    read_graph,
    read_profiles,
    read_simulation,
)

__all__ = [
    "CONTENTLESS_ACTIONS",
    "GENERIC_LABELS",
    "PLATFORMS",
    "REQUIRED_ACTION_FIELDS",
    "SIMULATION_FIELDS",
    "ActionLog",
    "BadInput",
    "Clock",
    "Graph",
    "action_text",
    "episode_id",
    "iso",
    "iter_lines",
    "node_type",
    "profile_platforms",
    "read_actions",
    "read_graph",
    "read_profiles",
    "read_simulation",
]
