"""Readers for MiroFish output: the graph export, `<run>/<platform>/actions.jsonl`, the profile
files and what the simulation folder says of the run.

They turn MiroFish's own field names into the items of the SQL API (without embeddings).
Action lines carry no id, so each gets a stable one derived from its content: the same log
always maps onto the same episodes.
"""

from __future__ import annotations

import csv
import hashlib
import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, tzinfo
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

GENERIC_LABELS = {"Entity", "Node"}
PLATFORMS = ("twitter", "reddit")
# Actions that say nothing of their own: stored, but neither embedded nor searched unless
# the import asks for them (--embed-all-actions).
CONTENTLESS_ACTIONS = frozenset(
    {"DO_NOTHING", "TREND", "REFRESH", "MUTE", "UNMUTE", "SEARCH_POSTS", "SEARCH_USER"}
)
# What MiroFish's simulation folder says of the run (state.json, simulation_config.json):
# these fields become the simulation's metadata.
SIMULATION_FIELDS = ("simulation_id", "project_id", "graph_id", "status", "created_at")


class BadInput(ValueError):
    """A file that cannot be imported as it is; the message names file and place."""


def node_type(labels: list[str]) -> str:
    """A node's type is its first label other than Entity and Node."""
    for label in labels:
        if label not in GENERIC_LABELS:
            return label
    return "Entity"


class Clock:
    """Reads MiroFish's timestamps. MiroFish writes naive local times
    (`datetime.now().isoformat()`); a naive time is read in this clock's zone (UTC unless
    the import names another) and counted, so that the report can say how many it read so."""

    def __init__(self, zone: str | tzinfo | None = None) -> None:
        if zone is None or zone == "UTC":
            self.zone: tzinfo = UTC
        elif isinstance(zone, str):
            try:
                self.zone = ZoneInfo(zone)
            except (ZoneInfoNotFoundError, ValueError) as exc:
                raise BadInput(
                    f"unknown time zone {zone!r}; use an IANA name such as Asia/Shanghai"
                ) from exc
        else:
            self.zone = zone
        self.naive = 0

    def iso(self, value: Any) -> str | None:
        """An ISO 8601 timestamp with a zone, or None."""
        if value in (None, ""):
            return None
        text = str(value)
        try:
            parsed = datetime.fromisoformat(text.replace("Z", "+00:00"))
        except ValueError:
            return text  # left for the database to judge (22023 naming the item)
        if parsed.tzinfo is None:
            self.naive += 1
            parsed = parsed.replace(tzinfo=self.zone)
        return parsed.isoformat()


def iso(value: Any) -> str | None:
    """An ISO 8601 timestamp with a zone (a naive one read as UTC), or None."""
    return Clock().iso(value)


@dataclass
class Graph:
    graph_id: str | None
    nodes: list[dict[str, Any]]
    edges: list[dict[str, Any]]


def read_graph(path: str | Path, clock: Clock | None = None, *, allow_empty: bool = False) -> Graph:
    """MiroFish's graph export, or the same object as MiroFish's API serves it, wrapped as
    {"success": ..., "data": {...}}. A file that yields no node and no edge is refused
    (naming the keys it has) unless allow_empty: imported, it would empty the graph."""
    path = Path(path)
    clock = clock or Clock()
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise BadInput(
            f"{path}: invalid JSON at line {exc.lineno} column {exc.colno}: {exc.msg}"
        ) from exc
    if isinstance(data, dict) and "success" in data and "nodes" not in data:
        if data["success"] is False:
            raise BadInput(f"{path}: MiroFish answered success=false: {data.get('error')!r}")
        if isinstance(data.get("data"), dict):
            data = data["data"]
    if not isinstance(data, dict):
        raise BadInput(f"{path}: expected a JSON object with nodes and edges")
    if not data.get("nodes") and not data.get("edges") and not allow_empty:
        keys = ", ".join(sorted(map(str, data))) or "none"
        raise BadInput(
            f"{path}: no nodes and no edges (top-level keys: {keys}); importing it would "
            "remove the simulation's graph: pass --allow-empty to mean that"
        )
    nodes: list[dict[str, Any]] = []
    seen: dict[str, int] = {}
    for i, raw in enumerate(data.get("nodes") or []):
        for key in ("uuid", "name"):
            if not raw.get(key):
                raise BadInput(f"{path}: nodes[{i}] has no {key!r}")
        uid = str(raw["uuid"])
        if uid in seen:
            raise BadInput(
                f"{path}: node id {uid} appears twice, at nodes[{seen[uid]}] and nodes[{i}]"
            )
        seen[uid] = i
        labels = [str(x) for x in raw.get("labels") or []]
        attributes = dict(raw.get("attributes") or {})
        if raw.get("created_at"):
            attributes.setdefault("created_at", raw["created_at"])
        nodes.append(
            {
                "id": uid,
                "name": str(raw["name"]),
                "type": node_type(labels),
                "labels": labels,
                "summary": raw.get("summary"),
                "attributes": attributes,
            }
        )
    edges: list[dict[str, Any]] = []
    for i, raw in enumerate(data.get("edges") or []):
        for key in ("uuid", "source_node_uuid", "target_node_uuid"):
            if not raw.get(key):
                raise BadInput(f"{path}: edges[{i}] has no {key!r}")
        attributes = dict(raw.get("attributes") or {})
        for key in ("created_at", "expired_at", "episodes", "fact_type"):
            if raw.get(key) not in (None, [], ""):
                attributes.setdefault(key, raw[key])
        edges.append(
            {
                "id": str(raw["uuid"]),
                "type": str(raw.get("name") or raw.get("fact_type") or "RELATED_TO"),
                "source_id": str(raw["source_node_uuid"]),
                "target_id": str(raw["target_node_uuid"]),
                "fact": raw.get("fact"),
                "attributes": attributes,
                "valid_at": clock.iso(raw.get("valid_at")),
                "invalid_at": clock.iso(raw.get("invalid_at")),
                # when the graph learned the fact, and learned that it no longer holds
                "learned_at": clock.iso(raw.get("created_at")),
                "expired_at": clock.iso(raw.get("expired_at")),
            }
        )
        edge = edges[-1]
        begins, ends = _instant(edge["valid_at"]), _instant(edge["invalid_at"])
        if begins and ends and ends < begins:
            raise BadInput(
                f"{path}: edge {edge['id']} (edges[{i}]) ends before it begins: "
                f"invalid_at {raw.get('invalid_at')} precedes valid_at {raw.get('valid_at')}"
            )
    return Graph(data.get("graph_id"), nodes, edges)


def _instant(iso: str | None) -> datetime | None:
    """An ISO time as Clock.iso gives it, or None (absent, or left for the database to judge)."""
    try:
        return datetime.fromisoformat(iso.replace("Z", "+00:00")) if iso else None
    except ValueError:
        return None


def action_text(line: dict[str, Any]) -> str:
    """What an action says: its own text, or for an action with none, a sentence built from
    its type and arguments."""
    args = line.get("action_args") or {}
    who = line.get("agent_name") or f"agent {line.get('agent_id')}"
    kind = str(line.get("action_type") or "")
    content = args.get("content")
    if kind == "QUOTE_POST":
        # MiroFish: quote_content is the quoting agent's own text, original_content the
        # quoted post's; some exports carry the own text as content instead.
        own = content or args.get("quote_content")
        quoted = args.get("original_content")
        author = args.get("original_author_name", "a post")
        if own and quoted and quoted != own:
            return f"{own} (quoting {author}: {quoted})"
        if own:
            return str(own)
    if kind == "CREATE_COMMENT" and content:
        return content
    if content:
        return str(content)
    author = args.get("post_author_name") or args.get("original_author_name") or "someone"
    post = args.get("post_content") or args.get("original_content") or ""
    if kind == "LIKE_POST":
        return f"{who} liked a post by {author}: {post}".strip()
    if kind == "DISLIKE_POST":
        return f"{who} disliked a post by {author}: {post}".strip()
    if kind == "REPOST":
        return f"{who} reposted {author}: {post}".strip()
    if kind == "FOLLOW":
        return f"{who} followed {args.get('target_user_name') or args.get('follow_id')}"
    if kind in ("LIKE_COMMENT", "DISLIKE_COMMENT"):
        verb = "liked" if kind == "LIKE_COMMENT" else "disliked"
        by = args.get("comment_author_name") or "someone"
        said = args.get("comment_content") or ""
        return f"{who} {verb} a comment by {by}: {said}".strip().rstrip(":")
    if kind == "DO_NOTHING":
        return f"{who} did nothing this round"
    described = ", ".join(f"{k}={v}" for k, v in sorted(args.items()))
    return f"{who} did {kind.lower().replace('_', ' ')}" + (f" ({described})" if described else "")


@dataclass
class ActionLog:
    platform: str
    path: Path
    episodes: list[dict[str, Any]] = field(default_factory=list)
    events: list[dict[str, Any]] = field(default_factory=list)
    skipped_lines: list[int] = field(default_factory=list)


REQUIRED_ACTION_FIELDS = ("round", "agent_id", "action_type")


def episode_id(platform: str, line: dict[str, Any], occurrence: int) -> str:
    canonical = json.dumps(
        [
            platform,
            line.get("round"),
            line.get("timestamp"),
            line.get("agent_id"),
            line.get("action_type"),
            line.get("action_args"),
        ],
        sort_keys=True,
        separators=(",", ":"),
        ensure_ascii=False,
    )
    digest = hashlib.sha256(canonical.encode("utf-8")).hexdigest()[:24]
    return f"{platform}:{digest}" + (f":{occurrence}" if occurrence else "")


def iter_lines(path: Path, skip_bad_lines: bool, skipped: list[int]) -> Iterator[tuple[int, dict]]:
    with open(path, encoding="utf-8") as fh:
        for number, text in enumerate(fh, start=1):
            if not text.strip():
                continue
            try:
                obj = json.loads(text)
                if not isinstance(obj, dict):
                    raise ValueError("not a JSON object")
            except ValueError as exc:
                if skip_bad_lines:
                    skipped.append(number)
                    continue
                raise BadInput(f"{path}:{number}: invalid JSON line ({exc})") from exc
            yield number, obj


def read_actions(
    path: str | Path, platform: str, *, skip_bad_lines: bool = False, clock: Clock | None = None
) -> ActionLog:
    path = Path(path)
    clock = clock or Clock()
    log = ActionLog(platform, path)
    occurrences: dict[str, int] = {}
    for number, line in iter_lines(path, skip_bad_lines, log.skipped_lines):
        if "event_type" in line:
            log.events.append({**line, "platform": platform, "line": number})
            continue
        missing = [k for k in REQUIRED_ACTION_FIELDS if line.get(k) in (None, "")]
        if missing:
            if skip_bad_lines:
                log.skipped_lines.append(number)
                continue
            raise BadInput(f"{path}:{number}: action line is missing {', '.join(missing)}")
        base = episode_id(platform, line, 0)
        n = occurrences.get(base, 0)
        occurrences[base] = n + 1
        log.episodes.append(
            {
                "id": episode_id(platform, line, n),
                "agent_id": line.get("agent_id"),
                "agent_name": line.get("agent_name"),
                "platform": platform,
                "round": line.get("round"),
                "action_type": str(line.get("action_type")),
                "content": action_text(line),
                "occurred_at": clock.iso(line.get("timestamp")),
                "metadata": {
                    "action_args": line.get("action_args") or {},
                    "result": line.get("result"),
                    "success": line.get("success"),
                    "line": number,
                    # the text as written: the episode's id derives from it, so an export
                    # writes it back unchanged (occurred_at is its reading in a zone)
                    "timestamp": line.get("timestamp"),
                },
            }
        )
    return log


def _reddit_agent_ids(path: Path, rows: list[Any]) -> list[int]:
    """OASIS gives a Reddit profile list's agents their place in the list; MiroFish writes
    that number as user_id. A list where some rows carry an id and others do not is
    ambiguous and refused."""
    if not all(isinstance(row, dict) for row in rows):
        raise BadInput(f"{path}: expected a JSON list of profile objects")
    ids = [row.get("user_id", row.get("agent_id")) for row in rows]
    given = [i for i in ids if i is not None]
    if not given:
        return list(range(len(rows)))
    if len(given) != len(rows):
        missing = next(i for i, v in enumerate(ids) if v is None)
        raise BadInput(
            f"{path}: profile [{missing}] has no user_id while others do; give every profile "
            "its user_id, or none (OASIS then numbers them by their place in the list)"
        )
    try:
        numbers = [int(i) for i in given]
    except (TypeError, ValueError) as exc:
        raise BadInput(f"{path}: user_id must be an integer ({exc})") from exc
    if len(set(numbers)) != len(numbers):
        raise BadInput(f"{path}: two profiles have the same user_id")
    return numbers


def read_profiles(run_dir: str | Path) -> list[dict[str, Any]]:
    """Agent profiles from reddit_profiles.json (or OASIS's user_data_*.json list) and
    twitter_profiles.csv, as OASIS maps them to agents: a Reddit list by user_id where every
    row has one, else by place in the list; a Twitter CSV by row (OASIS's agent_id is the
    row number; the CSV's user_id, an upstream Twitter id, is kept as an attribute)."""
    run = Path(run_dir)
    profiles: list[dict[str, Any]] = []
    reddit = run / "reddit_profiles.json"
    if reddit.exists():
        try:
            rows = json.loads(reddit.read_text(encoding="utf-8"))
        except json.JSONDecodeError as exc:
            raise BadInput(f"{reddit}: invalid JSON at line {exc.lineno}: {exc.msg}") from exc
        if not isinstance(rows, list):
            raise BadInput(f"{reddit}: expected a JSON list of profiles")
        for agent, row in zip(_reddit_agent_ids(reddit, rows), rows, strict=True):
            rest = {
                k: v
                for k, v in row.items()
                if k not in ("user_id", "agent_id", "username", "name", "bio", "persona")
            }
            profiles.append(
                {
                    "platform": "reddit",
                    "agent_id": agent,
                    "username": row.get("username"),
                    "name": row.get("name") or row.get("realname"),
                    "bio": row.get("bio"),
                    "persona": row.get("persona"),
                    "attributes": rest,
                }
            )
    twitter = run / "twitter_profiles.csv"
    if twitter.exists():
        with open(twitter, encoding="utf-8", newline="") as fh:
            reader = csv.DictReader(fh)
            needed = {"username", "description", "user_char"}
            if not needed <= set(reader.fieldnames or ()):
                raise BadInput(
                    f"{twitter}: an OASIS Twitter profile CSV has the columns "
                    f"{', '.join(sorted(needed))}; this one has {', '.join(reader.fieldnames or [])}"
                )
            for agent, row in enumerate(reader):
                rest = {
                    k: v
                    for k, v in row.items()
                    if k and k not in ("agent_id", "username", "name", "description", "user_char")
                }
                if rest.get("user_id") == str(agent):
                    del rest["user_id"]  # MiroFish writes the agent number as user_id
                profiles.append(
                    {
                        "platform": "twitter",
                        "agent_id": agent,
                        "username": row.get("username"),
                        "name": row.get("name"),
                        "bio": row.get("description"),
                        "persona": row.get("user_char"),
                        "attributes": rest,
                    }
                )
    return profiles


def profile_platforms(run_dir: str | Path) -> list[str]:
    """The platforms whose profile file the run has."""
    run = Path(run_dir)
    return [
        platform
        for platform, name in (
            ("reddit", "reddit_profiles.json"),
            ("twitter", "twitter_profiles.csv"),
        )
        if (run / name).exists()
    ]


def read_simulation(run_dir: str | Path) -> dict[str, Any]:
    """What a MiroFish simulation folder says of the run (state.json and
    simulation_config.json): its ids, status and creation time, for the simulation's
    metadata. Empty when the folder has neither."""
    run = Path(run_dir)
    found: dict[str, Any] = {}
    for name in ("simulation_config.json", "state.json"):
        path = run / name
        if not path.exists():
            continue
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except json.JSONDecodeError as exc:
            raise BadInput(f"{path}: invalid JSON at line {exc.lineno}: {exc.msg}") from exc
        if isinstance(data, dict):
            found.update({k: data[k] for k in SIMULATION_FIELDS if data.get(k) not in (None, "")})
    return found
