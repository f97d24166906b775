"""Write the example run's MiroFish report: examples/mirofish_run/reports/<report_id>/.

The files are laid out and filled as MiroFish's ReportAgent writes them (ReportManager in
backend/app/services/report_agent.py): meta.json, outline.json, progress.json, section_NN.md
("## {title}\\n\\n{content}\\n\\n"), full_report.md, agent_log.jsonl, console_log.txt; plus
predictions.json, swarm-memory's own file of the report's predictions (MiroFish writes
none). Naive local timestamps, as MiroFish writes them. Standard library only, no network,
byte-identical on every run.

    python3 examples/make_example_report.py            # into examples/mirofish_run/
    python3 examples/make_example_report.py --out DIR  # into DIR/reports/
"""

from __future__ import annotations

import argparse
import json
from datetime import datetime, timedelta
from pathlib import Path

REPORT_ID = "report_5e0c2a91d7b4"
SIMULATION_ID = "sim_7c1e9a4b2d30"
GRAPH_ID = "mirofish_3b8d61f0a2c94e17"
REQUIREMENT = (
    "Harbourton City Council proposes closing River Road to private cars. How will residents, "
    "traders and commuters react over the next six months?"
)
TITLE = "River Road Car-Free Plan: A Forecast of Public Reaction"
SUMMARY = (
    "Traders fear lost footfall while residents and cyclists back the plan; the simulation "
    "points to a narrow approval with a trial period and delivery exemptions."
)
SECTIONS = [
    (
        "Shopkeepers' fears and the footfall question",
        "The loudest opposition in the simulation came from small traders on River Road. "
        "The River Road Traders' Association argued that customers who drive in from the "
        "suburbs would simply go to the retail park instead, and several shop owners posted "
        "estimates of a 20 to 30 percent drop in weekend takings.\n\n"
        "Their fear was not shared by everyone on the high street. Two café owners pointed to "
        "cities where pedestrianised streets gained foot traffic after the first year, and the "
        "university lab's footfall counts were quoted more than any other source.\n\n"
        "> \"If the vans can still reach us before ten, I can live with it.\" — a hardware shop "
        "owner, round 6\n\n"
        "**Delivery access** became the compromise most agents converged on: loading windows in "
        "the early morning were the condition under which most traders softened their stance.",
    ),
    (
        "居民与通勤者的分歧",
        "沿河居民协会是支持禁行计划最积极的群体。居民们反复提到夜间车流噪音和河边步道的安全问题，"
        "认为禁行之后老人和孩子可以放心地在河边散步。\n\n"
        "通勤者的态度则明显分化。依赖私家车从东岸进城的上班族担心绕行会让通勤时间增加二十分钟以上；"
        "而骑自行车和乘坐公交的通勤者普遍欢迎这项计划，并要求市政府同步增加公交班次。\n\n"
        "交通局发言人在第五轮表示，如果计划通过，将在高峰时段把滨河公交线路的班次加密一倍。"
        "这一表态明显缓和了部分通勤者的反对情绪。",
    ),
    (
        "Outlook: what the next six months hold",
        "Taken together, the simulated debate suggests the council will approve the plan by a "
        "narrow margin, most likely as a twelve-month trial rather than a permanent closure.\n\n"
        "Opposition is likely to stay concentrated among traders and car commuters from the east "
        "bank, and a legal challenge by the traders' association remains possible if delivery "
        "exemptions are left out of the final scheme.",
    ),
]
PREDICTIONS = [
    {
        "id": "p1",
        "claim": "The council approves the River Road car-free plan as a twelve-month trial.",
        "horizon": "2026-06-30",
        "confidence": 0.7,
        "section_index": 3,
    },
    {
        "id": "p2",
        "claim": "滨河公交线路在高峰时段的班次加密一倍。",
        "horizon": "6 months",
        "confidence": 0.55,
        "section_index": 2,
    },
    {
        "id": "p3",
        "claim": "The River Road Traders' Association files a legal challenge against the closure.",
        "horizon": "2026-09-30",
        "confidence": 0.25,
        "section_index": 3,
        "rationale": "likely only if delivery exemptions are dropped",
    },
]


def section_file(title: str, content: str) -> str:
    return f"## {title}\n\n{content}\n\n"


def full_report() -> str:
    md = f"# {TITLE}\n\n> {SUMMARY}\n\n---\n\n"
    for title, content in SECTIONS:
        md += section_file(title, content)
    return md


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=str(Path(__file__).parent / "mirofish_run"))
    folder = Path(parser.parse_args().out) / "reports" / REPORT_ID
    folder.mkdir(parents=True, exist_ok=True)
    start = datetime(2026, 1, 12, 15, 4, 11, 218604)
    clock = [start]

    def now(seconds: float) -> str:
        clock[0] = clock[0] + timedelta(seconds=seconds)
        return clock[0].isoformat()

    log: list[dict] = []

    def entry(action, stage, details, after, title=None, index=None):
        stamp = now(after)
        log.append(
            {
                "timestamp": stamp,
                "elapsed_seconds": round((clock[0] - start).total_seconds(), 2),
                "report_id": REPORT_ID,
                "action": action,
                "stage": stage,
                "section_title": title,
                "section_index": index,
                "details": details,
            }
        )

    outline = {
        "title": TITLE,
        "summary": SUMMARY,
        "sections": [{"title": t, "content": ""} for t, _ in SECTIONS],
    }
    entry(
        "report_start",
        "pending",
        {
            "simulation_id": SIMULATION_ID,
            "graph_id": GRAPH_ID,
            "simulation_requirement": REQUIREMENT,
            "message": "报告生成任务开始",
        },
        0.01,
    )
    entry("planning_start", "planning", {"message": "开始规划报告大纲"}, 0.02)
    entry("planning_complete", "planning", {"message": "大纲规划完成", "outline": outline}, 14.37)
    for i, (title, content) in enumerate(SECTIONS, start=1):
        entry("section_start", "generating", {"message": f"开始生成章节: {title}"}, 0.05, title, i)
        entry(
            "tool_call",
            "generating",
            {
                "iteration": 1,
                "tool_name": "insight_forge",
                "parameters": {"query": title},
                "message": "调用工具: insight_forge",
            },
            6.4,
            title,
            i,
        )
        entry(
            "tool_result",
            "generating",
            {
                "iteration": 1,
                "tool_name": "insight_forge",
                "result": f"[facts about: {title}]",
                "result_length": len(f"[facts about: {title}]"),
                "message": "工具 insight_forge 返回结果",
            },
            3.1,
            title,
            i,
        )
        entry(
            "section_content",
            "generating",
            {
                "content": content,
                "content_length": len(content),
                "tool_calls_count": 1,
                "message": f"章节 {title} 内容生成完成",
            },
            21.8,
            title,
            i,
        )
        full = f"## {title}\n\n{content}"
        entry(
            "section_complete",
            "generating",
            {"content": full, "content_length": len(full), "message": f"章节 {title} 生成完成"},
            0.04,
            title,
            i,
        )
    completed = now(0.5)
    entry(
        "report_complete",
        "completed",
        {
            "total_sections": len(SECTIONS),
            "total_time_seconds": round((clock[0] - start).total_seconds(), 2),
            "message": "报告生成完成",
        },
        0.01,
    )
    outline_done = {
        "title": TITLE,
        "summary": SUMMARY,
        "sections": [{"title": t, "content": c} for t, c in SECTIONS],
    }
    markdown = full_report()
    meta = {
        "report_id": REPORT_ID,
        "simulation_id": SIMULATION_ID,
        "graph_id": GRAPH_ID,
        "simulation_requirement": REQUIREMENT,
        "status": "completed",
        "outline": outline_done,
        "markdown_content": markdown,
        "created_at": start.isoformat(),
        "completed_at": completed,
        "error": None,
    }
    progress = {
        "status": "completed",
        "progress": 100,
        "message": "报告生成完成",
        "current_section": None,
        "completed_sections": [t for t, _ in SECTIONS],
        "updated_at": completed,
    }

    def dump(name: str, obj: object) -> None:
        (folder / name).write_text(json.dumps(obj, ensure_ascii=False, indent=2), encoding="utf-8")

    dump("meta.json", meta)
    dump("outline.json", outline_done)
    dump("progress.json", progress)
    for i, (title, content) in enumerate(SECTIONS, start=1):
        (folder / f"section_{i:02d}.md").write_text(section_file(title, content), encoding="utf-8")
    (folder / "full_report.md").write_text(markdown, encoding="utf-8")
    (folder / "agent_log.jsonl").write_text(
        "".join(json.dumps(e, ensure_ascii=False) + "\n" for e in log), encoding="utf-8"
    )
    (folder / "console_log.txt").write_text(
        f"[15:04:11] INFO: 报告 {REPORT_ID} 开始生成\n[15:06:02] INFO: 报告 {REPORT_ID} 生成完成\n",
        encoding="utf-8",
    )
    dump("predictions.json", PREDICTIONS)


if __name__ == "__main__":
    main()
