"""Make the second run of the example scenario from the first (examples/mirofish_run).

The same debate run again, as a gateway running a scenario daily would see it: MiroFish gives
every entity and fact of a new run new ids, and three things change, each on purpose (tests
assert that `swarm-memory diff` shows exactly these):

1. A stance turns: Nadia Haddad, who supported the River Road Car-Free Plan, opposes it; her
   posts say so (and the likes and comments quoting them follow).
2. An entity is renamed with an alias: Quayside Coffee Co. is Quayside Roasters, its old name
   kept in `attributes.aliases`.
3. A new actor: Elena Vasquez, a delivery firm's owner, who opposes the plan and joins the
   Chamber of Commerce, with posts of her own on Twitter.

    python3 examples/make_second_run.py                 # writes examples/mirofish_run_2/
    python3 examples/make_second_run.py --out DIR       # or somewhere else

Standard library only, no network, byte-identical output on every run.
"""

from __future__ import annotations

import argparse
import json
import shutil
import uuid
from pathlib import Path

HERE = Path(__file__).resolve().parent
FIRST = HERE / "mirofish_run"
NAMESPACE = uuid.UUID("6b1d3f0e-2c55-4a8e-9d1e-5f0c2a91d7b4")

TURNED = "Nadia Haddad"
OLD_NAME, NEW_NAME = "Quayside Coffee Co.", "Quayside Roasters"
NEWCOMER = "Elena Vasquez"
NEWCOMER_ID = 20

NADIA_POSTS = [
    "I have changed my mind on River Road. Our takings are down and the trial has no plan for deliveries. I now oppose the car-free plan.",
    "Closing River Road to cars will empty the Old Quay. Small shops like ours cannot survive a year of this.",
    "The council never answered how suppliers reach us before 10am. Until it does, count me against the closure.",
    "I backed this plan once. Seeing the delivery chaos, I can no longer support closing River Road.",
    "Traders on the quay deserve better than a closure drawn up without us. Vote no on the River Road plan.",
]
ELENA_POSTS = [
    "Vasquez Deliveries runs twelve vans through River Road every morning. Closing it adds forty minutes to every route.",
    "Nobody asked the delivery firms before drawing up the car-free plan. We oppose it as written.",
    "Our drivers already start at 5am. A River Road closure means later drops for every shop on the quay.",
    "Joined the Chamber of Commerce today to fight the River Road closure alongside the traders.",
]


def new_id(old: str) -> str:
    """A new run gives every entity and fact a new id: derived here, so the run is stable."""
    return str(uuid.uuid5(NAMESPACE, old))


def rename(text: str | None) -> str | None:
    return None if text is None else text.replace(OLD_NAME, NEW_NAME)


def graph(first: dict) -> dict:
    data = first.get("data", first)
    ids = {n["uuid"]: new_id(n["uuid"]) for n in data["nodes"]}
    nodes = []
    for n in data["nodes"]:
        n = json.loads(json.dumps(n))
        n["uuid"] = ids[n["uuid"]]
        n["summary"] = rename(n["summary"])
        n["attributes"] = {
            k: rename(v) if isinstance(v, str) else v for k, v in n["attributes"].items()
        }
        if n["name"] == OLD_NAME:
            n["name"] = NEW_NAME
            n["attributes"]["aliases"] = [OLD_NAME]
        if n["name"] == TURNED:
            n["summary"] = (
                f"Nadia Haddad co-owns {NEW_NAME} on the Old Quay. She first backed the "
                "plan but now opposes it, saying it leaves traders without deliveries."
            )
            n["attributes"]["stance_on_river_road_plan"] = "opposes"
        nodes.append(n)
    by_name = {n["name"]: n["uuid"] for n in nodes}
    edges = []
    for e in data["edges"]:
        e = json.loads(json.dumps(e))
        e["uuid"] = new_id(e["uuid"])
        e["source_node_uuid"] = ids[e["source_node_uuid"]]
        e["target_node_uuid"] = ids[e["target_node_uuid"]]
        e["fact"] = rename(e["fact"])
        e["episodes"] = [new_id(x) for x in e.get("episodes", [])]
        if (
            e["name"] == "SUPPORTS"
            and e["source_node_uuid"] == by_name[TURNED]
            and e["target_node_uuid"] == by_name["River Road Car-Free Plan"]
        ):
            e["name"] = e["fact_type"] = "OPPOSES"
            e["fact"] = "Nadia Haddad opposes the River Road Car-Free Plan."
        edges.append(e)
    elena = new_id("node:" + NEWCOMER)
    nodes.append(
        {
            "uuid": elena,
            "name": NEWCOMER,
            "labels": ["Entity", "Person"],
            "summary": "Elena Vasquez owns Vasquez Deliveries, whose vans serve the shops of the Old Quay. "
            "She opposes the River Road Car-Free Plan.",
            "attributes": {
                "role": "Owner of Vasquez Deliveries",
                "affiliation": "Vasquez Deliveries",
                "neighbourhood": "Eastbank",
                "stance_on_river_road_plan": "opposes",
            },
            "created_at": "2025-05-06T09:04:00.000000Z",
        }
    )
    for kind, target, fact in (
        (
            "OPPOSES",
            "River Road Car-Free Plan",
            "Elena Vasquez opposes the River Road Car-Free Plan.",
        ),
        (
            "MEMBER_OF",
            "Harbourton Chamber of Commerce",
            "Elena Vasquez is a member of the Harbourton Chamber of Commerce.",
        ),
    ):
        edges.append(
            {
                "uuid": new_id(f"edge:{NEWCOMER}:{kind}"),
                "name": kind,
                "fact": fact,
                "fact_type": kind,
                "source_node_uuid": elena,
                "target_node_uuid": by_name[target],
                "attributes": {},
                "created_at": "2025-05-06T09:08:00.000000Z",
                "valid_at": "2025-05-06T00:00:00Z",
                "invalid_at": None,
                "expired_at": None,
                "episodes": [],
            }
        )
    return {"graph_id": new_id(data["graph_id"]), "nodes": nodes, "edges": edges}


def actions(lines: list[str], platform: str) -> list[str]:
    out: list[str] = []
    said: dict[str, str] = {}  # Nadia's old texts to her new ones, for the likes that quote them
    k = 0
    for line in lines:
        a = json.loads(line)
        args = a.get("action_args") or {}
        if a.get("agent_name") == TURNED and isinstance(args.get("content"), str):
            said[args["content"]] = NADIA_POSTS[k % len(NADIA_POSTS)]
            args["content"] = said[args["content"]]
            k += 1
        for key in ("post_content", "comment_content", "quote_content"):
            if isinstance(args.get(key), str):
                args[key] = said.get(args[key], args[key])
        for key in list(args):
            if isinstance(args[key], str):
                args[key] = rename(args[key])
        out.append(json.dumps(a, ensure_ascii=False))
        if (
            platform == "twitter"
            and a.get("event_type") == "round_end"
            and a["round"] <= len(ELENA_POSTS)
        ):
            out.insert(
                len(out) - 1,
                json.dumps(
                    {
                        "round": a["round"],
                        "timestamp": a["timestamp"],
                        "agent_id": NEWCOMER_ID,
                        "agent_name": NEWCOMER,
                        "action_type": "CREATE_POST",
                        "action_args": {"content": ELENA_POSTS[a["round"] - 1]},
                        "result": None,
                        "success": True,
                    },
                    ensure_ascii=False,
                ),
            )
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=HERE / "mirofish_run_2")
    out = parser.parse_args().out
    out.mkdir(parents=True, exist_ok=True)
    first = json.loads((FIRST / "graph.json").read_text(encoding="utf-8"))
    (out / "graph.json").write_text(
        json.dumps(graph(first), ensure_ascii=False, indent=2) + "\n", encoding="utf-8"
    )
    for platform in ("twitter", "reddit"):
        lines = (FIRST / platform / "actions.jsonl").read_text(encoding="utf-8").splitlines()
        (out / platform).mkdir(exist_ok=True)
        (out / platform / "actions.jsonl").write_text(
            "\n".join(actions(lines, platform)) + "\n", encoding="utf-8"
        )
    for name in ("reddit_profiles.json", "twitter_profiles.csv"):
        shutil.copyfile(FIRST / name, out / name)


if __name__ == "__main__":
    main()
