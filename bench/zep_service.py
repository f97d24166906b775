"""The Zep-compatible service under a simulation's load: MiroFish's memory updater adding, its
report tools searching, over HTTP with the real zep-cloud SDK (3.13.0, the version MiroFish
pins) against `swarm-memory serve`'s application.

    python -m bench.zep_service [--adds 1000] [--questions 100] [--dsn SU_DSN] [--json OUT]

MiroFish's memory updater sends one graph.add per platform about every half second: five
action sentences joined by newlines ("Name: posted '...'", "Name: 点赞了X的帖子：「...」").
A run of 161 agents over 168 rounds on two platforms is 27,048 sentences, 5,409 adds.

1. Ingest: one writer adds as fast as the service answers (`--adds` adds, 1,000 by default;
   5,409 is the whole run), then two writers at once (two platforms, `--adds` between them,
   with the one key MiroFish's two platforms share). Adds/s sustained, an add's p50 and p99,
   and the headroom over MiroFish's pace (2 adds/s a platform, 4 for two). The service runs
   without an extractor: this measures accepting (embedding the text, committing it
   searchable, queueing it), not extraction.
2. Search: on the graph the ingest filled, `--questions` questions (most about the run's
   agents and topics, some about nothing in it) asked through graph.search (scope episodes
   and edges; bare HTTP and the SDK) and as the SQL call `memory.zep_search` on a connection
   acting as the key's role, in an order that turns per question. graph.search embeds its
   query inside the request, so the SQL side is timed with the same embedding (the graph's
   model) included, and the embedding's own time is given apart.

The service runs in this process (uvicorn in a thread, as tests/test_zep_serve.py starts it),
connected as the superuser DSN given; the client threads share the process (and its
interpreter lock) with it. Without --dsn it uses the embedded dev server (.cache/pgdata), in
a database of its own (`swarm_zep_service`, made afresh and migrated).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import random
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import httpx
import numpy as np
import psycopg
from psycopg import sql

# MiroFish's shape of a run and its updater's pace
AGENTS = 161
ROUNDS = 168
PLATFORMS = ("twitter", "reddit")
PER_ADD = 5
RUN_ADDS = AGENTS * ROUNDS // PER_ADD  # 27,048 sentences on both platforms: 5,409 adds
# what make bench adds a phase: stable figures in minutes on a loaded machine (--adds RUN_ADDS
# adds the whole run)
SAMPLE_ADDS = 1000
PACE_PER_PLATFORM = 2.0  # adds/s: a batch of five about every half second
SCOPES = ("episodes", "edges")
# the search goal: the service's p50 at most the SQL call's (with the embedding) plus this
OVERHEAD_MS = 2.0

FIRST = [
    "Maya",
    "Tom",
    "Ana",
    "Omar",
    "Lena",
    "Raj",
    "Chloe",
    "Diego",
    "Grace",
    "Ivan",
    "Nadia",
    "Sam",
    "Priya",
    "Luca",
    "Hana",
    "Ben",
    "Zoe",
    "Kofi",
    "Elif",
    "Noah",
    "Ines",
    "Yusuf",
    "Mira",
    "Leo",
]
LAST = [
    "Okafor",
    "Reyes",
    "Novak",
    "Haddad",
    "Berg",
    "Patel",
    "Moreau",
    "Silva",
    "Kim",
    "Petrov",
    "Costa",
    "Lund",
    "Shah",
    "Rossi",
    "Tanaka",
    "Walsh",
    "Adeyemi",
    "Demir",
    "Young",
    "Ortiz",
    "Sato",
    "Kowalski",
]
SURNAMES = [
    "李",
    "王",
    "张",
    "刘",
    "陈",
    "杨",
    "赵",
    "黄",
    "周",
    "吴",
    "徐",
    "孙",
    "胡",
    "朱",
    "高",
    "林",
    "何",
    "郭",
    "马",
    "罗",
]
GIVEN = [
    "娜",
    "伟",
    "芳",
    "敏",
    "静",
    "磊",
    "洋",
    "艳",
    "勇",
    "军",
    "杰",
    "娟",
    "涛",
    "明",
    "超",
    "秀英",
    "丽",
    "强",
    "平",
    "刚",
    "婷",
    "宇航",
    "子涵",
    "欣怡",
]

TOPICS_EN = [
    "the river cleanup plan",
    "rent control",
    "the new metro line",
    "tuition fees",
    "the food safety scandal",
    "the stadium bond",
    "night bus cuts",
    "the school lunch program",
    "the factory layoffs",
    "bike lanes on Main Street",
    "the mayor's budget",
    "the heatwave warning",
    "the hospital merger",
    "the library closing hours",
    "plastic bag ban",
    "the tech campus proposal",
]
VERDICTS_EN = [
    "needs a public hearing",
    "is long overdue",
    "will cost us more than they admit",
    "is a distraction from the real problem",
    "only helps the people who wrote it",
    "deserves a fair hearing before anyone votes",
    "was decided behind closed doors",
    "is the best news this town has had in years",
    "has no plan for the people it displaces",
    "should go to a referendum",
]
OPENERS_EN = ["", "Honestly, ", "Hot take: ", "Reminder: ", "Unpopular opinion: ", "Again: "]
TAILS_EN = ["", "", " #localpolitics", " Thoughts?", " Share if you agree.", " Sources below."]
COMMENTS_EN = [
    "Exactly this.",
    "Do you have a source for that?",
    "I was at the meeting and that is not what happened.",
    "This is why nobody trusts the council.",
    "Finally someone said it.",
    "My neighbours feel the same way.",
    "That is a stretch.",
    "Where was this energy last year?",
]
TOPICS_ZH = [
    "河道治理方案",
    "房租管控",
    "地铁新线",
    "学费上涨",
    "食品安全事件",
    "体育场债券",
    "夜班公交取消",
    "学校午餐计划",
    "工厂裁员",
    "主街自行车道",
    "市长预算案",
    "高温预警",
    "医院合并",
    "图书馆缩短开放时间",
    "限塑令",
    "科技园区规划",
]
VERDICTS_ZH = [
    "必须公开听证",
    "早就该推进了",
    "代价远比宣传的大",
    "只是在转移注意力",
    "只对少数人有利",
    "应该让市民投票决定",
    "是闭门决定的",
    "是这几年最好的消息",
    "完全没有考虑受影响的居民",
    "需要更多透明度",
]
COMMENTS_ZH = [
    "说得太对了。",
    "有数据来源吗？",
    "我去了那次会议，事实不是这样的。",
    "难怪大家不信任议会。",
    "终于有人说出来了。",
    "我的邻居也这么想。",
    "这个说法有点夸张。",
    "去年怎么没人关心？",
]
# questions about nothing the run holds: searches that should find little or nothing close
OFF_TOPIC = [
    "copper futures prices in 1987",
    "how to keep a sourdough starter alive",
    "the rules of cricket's follow-on",
    "quantum error correction thresholds",
    "migratory routes of arctic terns",
    "how a jet engine's compressor stalls",
    "Byzantine mosaics in Ravenna",
    "tax treatment of crypto staking rewards",
    "火星基地的氧气供应",
    "宋代瓷器的釉色",
    "深海热泉的微生物",
    "围棋定式的演变",
]


def _names(rng: random.Random, n: int) -> list[tuple[str, bool]]:
    """n distinct agent names, each with whether the agent writes in Chinese (about 40%)."""
    out: dict[str, bool] = {}
    while len(out) < n:
        if rng.random() < 0.4:
            out.setdefault(rng.choice(SURNAMES) + rng.choice(GIVEN), True)
        else:
            out.setdefault(f"{rng.choice(FIRST)} {rng.choice(LAST)}", False)
    return list(out.items())


class Platform:
    """One platform's stream of action sentences, in MiroFish's updater's shapes: an agent's
    own posts, and likes, reposts, quotes and comments of posts seen before, follows,
    searches, mutes; each agent in its language."""

    def __init__(self, name: str, agents: list[tuple[str, bool]], seed: int) -> None:
        self.name = name
        self.agents = agents
        self.rng = random.Random(seed)
        self.posts: list[tuple[str, str, bool]] = []  # (author, text, chinese)

    def _post_text(self, zh: bool) -> str:
        r = self.rng
        if zh:
            return f"{r.choice(TOPICS_ZH)}{r.choice(VERDICTS_ZH)}" + r.choice(
                ["", "！", "，大家怎么看？", "。转发支持", "，别再拖了"]
            )
        claim = f"{r.choice(TOPICS_EN)} {r.choice(VERDICTS_EN)}."
        opener = r.choice(OPENERS_EN)
        if opener in ("", "Again: ", "Hot take: ", "Reminder: "):
            claim = claim[0].upper() + claim[1:]
        return f"{opener}{claim}{r.choice(TAILS_EN)}"

    def sentence(self) -> str:
        r = self.rng
        who, zh = r.choice(self.agents)
        other, _ = r.choice(self.agents)
        kind = r.choices(
            ["post", "like", "repost", "quote", "comment", "follow", "dislike", "search", "mute"],
            weights=[22, 30, 14, 6, 14, 6, 4, 3, 1],
        )[0]
        if kind != "post" and kind not in ("follow", "search", "mute") and not self.posts:
            kind = "post"
        if kind == "post":
            text = self._post_text(zh)
            self.posts.append((who, text, zh))
            del self.posts[:-400]  # what agents see: the recent posts
            return f"{who}: 发布了一条帖子：「{text}」" if zh else f"{who}: posted '{text}'"
        author, text, _ = r.choice(self.posts[-60:]) if self.posts else (other, "", zh)
        comment = r.choice(COMMENTS_ZH if zh else COMMENTS_EN)
        if zh:
            return {
                "like": f"{who}: 点赞了{author}的帖子：「{text}」",
                "repost": f"{who}: 转发了{author}的帖子：「{text}」",
                "quote": f"{who}: 引用了{author}的帖子「{text}」，并评论：「{comment}」",
                "comment": f"{who}: 在{author}的帖子下评论：「{comment}」",
                "follow": f"{who}: 关注了用户「{other}」",
                "dislike": f"{who}: 点踩了{author}的帖子：「{text}」",
                "search": f"{who}: 搜索了「{r.choice(TOPICS_ZH)}」",
                "mute": f"{who}: 屏蔽了用户「{other}」",
            }[kind]
        return {
            "like": r.choice(
                [f"{who}: liked {author}'s post", f'{who}: liked {author}\'s post: "{text}"']
            ),
            "repost": f'{who}: reposted {author}\'s post: "{text}"',
            "quote": f'{who}: quoted {author}\'s post "{text}" and added: "{comment}"',
            "comment": f'{who}: commented on {author}\'s post: "{comment}"',
            "follow": f"{who}: followed {other}",
            "dislike": f'{who}: disliked {author}\'s post: "{text}"',
            "search": f'{who}: searched for "{r.choice(TOPICS_EN)}"',
            "mute": f"{who}: muted {other}",
        }[kind]

    def adds(self, n: int) -> list[str]:
        """n adds' texts: five sentences each, joined by newlines, as the updater sends."""
        return ["\n".join(self.sentence() for _ in range(PER_ADD)) for _ in range(n)]


def make_run(adds: int, seed: int = 17) -> tuple[list[str], list[list[str]], list[str]]:
    """The texts of one writer's `adds` adds (one platform), of two writers' (`adds` between
    two platforms), and the run's agent names."""
    rng = random.Random(seed)
    agents = _names(rng, AGENTS)
    one = Platform(PLATFORMS[0], agents, seed + 1).adds(adds)
    two = [Platform(p, agents, seed + 2 + i).adds(adds // 2) for i, p in enumerate(PLATFORMS)]
    return one, two, [a for a, _ in agents]


def make_questions(n: int, agents: list[str], seed: int = 23) -> list[str]:
    """n questions of a report agent: about the run's agents and topics in both languages,
    and one in eight about nothing the run holds."""
    rng = random.Random(seed)
    shapes = [
        lambda: f"What did {rng.choice(agents)} say about {rng.choice(TOPICS_EN)}?",
        lambda: f"Who supports {rng.choice(TOPICS_EN)}?",
        lambda: f"opposition to {rng.choice(TOPICS_EN)}",
        lambda: f"{rng.choice(agents)}'s posts and who liked them",
        lambda: f"Who followed {rng.choice(agents)}?",
        lambda: f"{rng.choice(TOPICS_ZH)}的争议",
        lambda: f"谁转发了关于{rng.choice(TOPICS_ZH)}的帖子？",
        lambda: f"{rng.choice(agents)}对{rng.choice(TOPICS_ZH)}的看法",
    ]
    out = []
    for i in range(n):
        out.append(rng.choice(OFF_TOPIC) if i % 8 == 7 else rng.choice(shapes)())
    return out


def pcts(values: list[float]) -> dict:
    a = np.array(values) * 1000
    return {
        "p50_ms": float(np.percentile(a, 50)),
        "p99_ms": float(np.percentile(a, 99)),
        "n": len(values),
    }


@contextlib.contextmanager
def serving(dsn: str) -> Iterator[str]:
    """`swarm-memory serve`'s application over Service(dsn), no extractor, in a thread of this
    process on a free port, until the block ends; one PyTorch thread a request, as `serve`
    sets it (the process's setting restored afterwards, for the sections that follow)."""
    import torch
    from swarm_memory.asgi import in_thread
    from swarm_memory.zep import Service, create_app

    threads = torch.get_num_threads()

    try:
        with in_thread(create_app(Service(dsn, torch_threads=1))) as url:
            yield url
    finally:
        torch.set_num_threads(threads)


def _cli(dsn: str, *args: str) -> str:
    from swarm_memory.cli import main

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = main(["--dsn", dsn, *args])
    if code != 0:
        raise RuntimeError(f"swarm-memory {' '.join(args)}: exit {code}: {out.getvalue()}")
    return out.getvalue()


def new_key(su_dsn: str, tenant: uuid.UUID) -> tuple[str, str, str]:
    """A writer key of the tenant, made by `swarm-memory key create`: (key, key id, role)."""
    printed = _cli(su_dsn, "key", "create", "--tenant", str(tenant)).splitlines()
    key, words = printed[0], printed[1].split()
    return key, words[1], words[words.index("role") + 1]


def ingest(url: str, key: str, graph_id: str, streams: list[list[str]]) -> dict:
    """Each stream added by a writer of its own (a thread, an SDK client), all at once, each
    add after the last answered. Adds/s over the whole; each add's latency."""
    from zep_cloud.client import Zep

    lat: list[list[float]] = [[] for _ in streams]
    errors: list[BaseException] = []
    start = threading.Barrier(len(streams) + 1)

    def writer(i: int) -> None:
        zep = Zep(api_key=key, base_url=f"{url}/api/v2", timeout=60)
        start.wait()
        try:
            for text in streams[i]:
                t = time.perf_counter()
                zep.graph.add(graph_id=graph_id, type="text", data=text)
                lat[i].append(time.perf_counter() - t)
        except BaseException as exc:  # noqa: BLE001 (reported after the join)
            errors.append(exc)

    threads = [threading.Thread(target=writer, args=(i,)) for i in range(len(streams))]
    for t in threads:
        t.start()
    start.wait()
    t0 = time.perf_counter()
    for t in threads:
        t.join()
    seconds = time.perf_counter() - t0
    if errors:
        raise errors[0]
    adds = sum(len(s) for s in streams)
    pace = PACE_PER_PLATFORM * len(streams)
    return {
        "writers": len(streams),
        "adds": adds,
        "sentences": adds * PER_ADD,
        "seconds": seconds,
        "adds_per_s": adds / seconds,
        "sentences_per_s": adds * PER_ADD / seconds,
        "pace_adds_per_s": pace,
        "headroom": adds / seconds / pace,
        **pcts([x for w in lat for x in w]),
    }


def search(
    url: str,
    key: str,
    su_dsn: str,
    role: str,
    tenant: uuid.UUID,
    graph_id: str,
    questions: list[str],
) -> dict:
    """Each question in each scope three ways, in an order that turns per question: bare HTTP
    to graph.search, the SDK's graph.search, and the SQL call (the query embedded with the
    graph's model, then memory.zep_search) on a connection acting as the key's role. The
    service and the SQL call must answer the same hits."""
    from swarm_memory.client import configure
    from swarm_memory.embed import embedder_for
    from zep_cloud.client import Zep

    zep = Zep(api_key=key, base_url=f"{url}/api/v2", timeout=60)
    http = httpx.Client(base_url=url, headers={"Authorization": f"Api-Key {key}"}, timeout=60)
    conn = psycopg.connect(su_dsn, autocommit=True)
    try:
        configure(conn)
        conn.execute(sql.SQL("SET ROLE {}").format(sql.Identifier(role)))
        model = conn.execute(
            "SELECT model FROM memory.zep_graph(%s, %s)", (tenant, graph_id)
        ).fetchone()[0]
        embedder = embedder_for(model)
        times: dict[str, dict[str, list[float]]] = {
            s: {"http": [], "sdk": [], "embed": [], "sql": [], "embed_sql": []} for s in SCOPES
        }
        found = {s: 0 for s in SCOPES}
        differ = 0

        def by_http(q: str, scope: str) -> list[str]:
            t = time.perf_counter()
            r = http.post(
                "/api/v2/graph/search",
                json={"graph_id": graph_id, "query": q, "scope": scope, "limit": 10},
            )
            times[scope]["http"].append(time.perf_counter() - t)
            r.raise_for_status()
            return [h["uuid"] for h in r.json()[scope]]

        def by_sdk(q: str, scope: str) -> list[str]:
            t = time.perf_counter()
            r = zep.graph.search(graph_id=graph_id, query=q, scope=scope, limit=10)
            times[scope]["sdk"].append(time.perf_counter() - t)
            return [h.uuid_ for h in getattr(r, scope) or []]

        def by_sql(q: str, scope: str) -> list[str]:
            t = time.perf_counter()
            vector = embedder.encode_query(q)
            t1 = time.perf_counter()
            rows = conn.execute(
                "SELECT r FROM memory.zep_search(%s, %s, %s, %s, %s, %s, %s) AS r",
                (tenant, graph_id, q, vector, scope, 10, model),
            ).fetchall()
            t2 = time.perf_counter()
            times[scope]["embed"].append(t1 - t)
            times[scope]["sql"].append(t2 - t1)
            times[scope]["embed_sql"].append(t2 - t)
            return [r[0]["uuid"] for r in rows]

        ways: list[Callable[[str, str], list[str]]] = [by_http, by_sdk, by_sql]
        # each way once first, untimed: a session's first call plans the statements
        for scope in SCOPES:
            for way in ways:
                way(questions[-1], scope)
            for v in times[scope].values():
                v.clear()
        for i, q in enumerate(questions):
            for scope in SCOPES:
                turn = (i + SCOPES.index(scope)) % len(ways)
                got = {way.__name__: way(q, scope) for way in ways[turn:] + ways[:turn]}
                found[scope] += bool(got["by_sql"])
                differ += got["by_http"] != got["by_sql"] or got["by_sdk"] != got["by_sql"]
    finally:
        conn.close()
        http.close()
    out: dict = {"questions": len(questions), "model": model, "answers_differ": differ}
    for scope in SCOPES:
        t = times[scope]
        row = {name: pcts(v) for name, v in t.items()}
        row["with_hits"] = found[scope]
        row["overhead_ms"] = row["http"]["p50_ms"] - row["embed_sql"]["p50_ms"]
        row["sdk_overhead_ms"] = row["sdk"]["p50_ms"] - row["embed_sql"]["p50_ms"]
        out[scope] = row
    return out


def run(
    su_dsn: str,
    log: Callable[[str], None] = print,
    adds: int = SAMPLE_ADDS,
    questions: int = 100,
    seed: int = 17,
) -> dict:
    """A fresh tenant, a writer key, the service; one writer's adds, two writers' adds, then
    the searches over the graph they filled. The key (and its role) is revoked afterwards."""
    from zep_cloud.client import Zep

    with psycopg.connect(su_dsn, autocommit=True) as conn:
        tenant = conn.execute(
            "SELECT memory.create_tenant(%s)", (f"zep-service-{uuid.uuid4().hex[:8]}",)
        ).fetchone()[0]
    key, key_id, role = new_key(su_dsn, tenant)
    one, two, agents = make_run(adds, seed)
    graph_id = f"mirofish_{uuid.uuid4().hex[:16]}"
    result: dict = {"adds": adds, "run_adds": RUN_ADDS, "agents": AGENTS, "rounds": ROUNDS}
    try:
        with serving(su_dsn) as url:
            zep = Zep(api_key=key, base_url=f"{url}/api/v2", timeout=60)
            zep.graph.create(
                graph_id=graph_id, name="bench", description="MiroFish Social Simulation Graph"
            )
            # one add and one search first, untimed: they load the model into the service
            zep.graph.add(graph_id=graph_id, type="text", data=one[0])
            zep.graph.search(graph_id=graph_id, query="warm", scope="episodes")
            log(f"  zep service: one writer, {len(one)} adds of {PER_ADD} sentences")
            result["one_writer"] = ingest(url, key, graph_id, [one])
            log(f"  zep service: two writers at once, {sum(map(len, two))} adds")
            result["two_writers"] = ingest(url, key, graph_id, two)
            n_episodes = 1 + len(one) + sum(map(len, two))
            log(f"  zep service: {questions} questions over {n_episodes} episodes, 2 scopes")
            result["episodes"] = n_episodes
            result["search"] = search(
                url, key, su_dsn, role, tenant, graph_id, make_questions(questions, agents)
            )
    finally:
        _cli(su_dsn, "key", "revoke", "--tenant", str(tenant), key_id)
    result["table"] = table(result)
    return result


def ingest_met(r: dict) -> bool:
    return r["headroom"] >= 1.0


def search_met(r: dict) -> bool:
    return r["overhead_ms"] <= OVERHEAD_MS


def table(result: dict) -> str:
    lines = [
        f"Ingest: MiroFish's graph.add (five sentences an add) through the SDK, without an "
        f"extractor; the pace is {PACE_PER_PLATFORM:g} adds/s a platform",
        "",
        "| writers | adds | adds/s | sentences/s | p50 | p99 | MiroFish's pace | headroom |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for k in ("one_writer", "two_writers"):
        r = result[k]
        lines.append(
            f"| {r['writers']} | {r['adds']:,} | {r['adds_per_s']:.1f} | "
            f"{r['sentences_per_s']:.0f} | {r['p50_ms']:.1f} ms | {r['p99_ms']:.1f} ms | "
            f"{r['pace_adds_per_s']:g}/s | {r['headroom']:.1f}x |"
        )
    s = result["search"]
    lines += [
        "",
        f"Search: {s['questions']} questions a scope over {result['episodes']:,} episodes, "
        f"interleaved; SQL = the query embedded ({s['model']}) then memory.zep_search, as the "
        f"key's role; goal: graph.search's p50 at most the SQL's + {OVERHEAD_MS:g} ms",
        "",
        "| scope (questions with hits) | graph.search, HTTP | graph.search, SDK | embedding | "
        "zep_search | embedding + zep_search | service over SQL, p50 | |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for scope in SCOPES:
        r = s[scope]

        def cell(name: str, r: dict = r) -> str:
            return f"{r[name]['p50_ms']:.2f} / {r[name]['p99_ms']:.2f} ms"

        lines.append(
            f"| {scope} ({r['with_hits']}) | {cell('http')} | {cell('sdk')} | {cell('embed')} | "
            f"{cell('sql')} | {cell('embed_sql')} | {r['overhead_ms']:+.2f} ms (SDK "
            f"{r['sdk_overhead_ms']:+.2f} ms) | {'met' if search_met(r) else 'NOT MET'} |"
        )
    lines.append("")
    lines.append(
        "(p50 / p99; the hits of the three ways differed on "
        f"{s['answers_differ']} of {2 * s['questions']} calls)"
    )
    return "\n".join(lines)


def rows(results: dict) -> list[str]:
    """The summary table's rows (bench/run.py)."""
    r = results.get("zep_service")
    if not r:
        return []
    out = []
    for k in ("one_writer", "two_writers"):
        x = r[k]
        out.append(
            f"| Zep service ingest, {x['writers']} writer{'s' if x['writers'] > 1 else ''}, "
            f"{x['adds']:,} adds of {PER_ADD} sentences | keeps MiroFish's pace "
            f"({x['pace_adds_per_s']:g} adds/s) | {x['adds_per_s']:.1f} adds/s "
            f"({x['headroom']:.1f}x), p50 {x['p50_ms']:.1f} ms, p99 {x['p99_ms']:.1f} ms "
            f"| {'met' if ingest_met(x) else 'NOT MET'} |"
        )
    for scope in SCOPES:
        x = r["search"][scope]
        out.append(
            f"| Zep service graph.search, scope {scope}, beside embedding + memory.zep_search "
            f"| p50 <= SQL's + {OVERHEAD_MS:g} ms | {x['http']['p50_ms']:.2f} against "
            f"{x['embed_sql']['p50_ms']:.2f} ms ({x['overhead_ms']:+.2f} ms; embedding "
            f"{x['embed']['p50_ms']:.2f} ms) | {'met' if search_met(x) else 'NOT MET'} |"
        )
    return out


def main(argv: list[str] | None = None) -> None:
    from bench.recall_eval import _dev_database

    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--dsn", help="a migrated database, as a superuser (default: the dev server)")
    p.add_argument(
        "--adds", type=int, default=SAMPLE_ADDS, help=f"adds a phase ({RUN_ADDS}: a whole run)"
    )
    p.add_argument("--questions", type=int, default=100)
    p.add_argument("--json", type=Path, help="also write the figures here")
    args = p.parse_args(argv)
    dsn = args.dsn or _dev_database("swarm_zep_service")
    result = run(dsn, adds=args.adds, questions=args.questions)
    if args.json:
        args.json.write_text(json.dumps(result, indent=2, ensure_ascii=False))
    print()
    print(result["table"])


if __name__ == "__main__":
    main()
