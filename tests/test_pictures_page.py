"""The pictures page of `swarm-memory serve` (/pictures) in a real headless browser: Debian's
chromium and chromedriver (make setup installs them), driven by selenium, against the service
running in-process on the example run (tests/test_zep_serve.py's `served`). The page logs in
with a reader key, draws the plan's neighbourhood, and the test holds what it drew to the SQL
answers: the nodes and edges of memory.neighbors, the states of memory.facts before and after
the as-of slider moves, the timeline and a fact's history. Screenshots are kept under
.cache/artefacts/."""

from __future__ import annotations

import json
import shutil
import time
import uuid
from datetime import datetime
from pathlib import Path

import httpx
import pytest
from swarm_memory.client import Memory

from tests.test_zep_serve import NAME, ROOT, served  # noqa: F401 (the fixture)

PLAN = "River Road Car-Free Plan"
CHAMBER = "Harbourton Chamber of Commerce"
ARTEFACTS = ROOT / ".cache" / "artefacts"

CHROMIUM = shutil.which("chromium")
CHROMEDRIVER = shutil.which("chromedriver")
pytestmark = pytest.mark.skipif(
    not (CHROMIUM and CHROMEDRIVER),
    reason="needs Debian's chromium and chromium-driver (make setup installs them)",
)


@pytest.fixture
def browser():
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service as DriverService

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1400,950"):
        options.add_argument(arg)
    # the system's driver and browser: selenium downloads nothing
    driver = webdriver.Chrome(service=DriverService(CHROMEDRIVER), options=options)
    driver.set_script_timeout(20)
    try:
        yield driver
    finally:
        driver.quit()


def _wait(driver, condition, what: str, timeout: float = 20):
    from selenium.webdriver.support.ui import WebDriverWait

    try:
        return WebDriverWait(driver, timeout, poll_frequency=0.05).until(lambda d: condition(d))
    except Exception:
        message = driver.find_element("id", "message").text
        raise AssertionError(f"the page did not show {what} (its message: {message!r})") from None


def _drawn(driver) -> dict:
    """What the page drew: its nodes, and each edge with its state and where it came from."""
    return driver.execute_script(
        """
        const svg = document.getElementById('picture');
        return {
          asOf: svg.dataset.asOf,
          nodes: [...svg.querySelectorAll('g.node')].map((g) => g.dataset.nodeId),
          edges: [...svg.querySelectorAll('g.edge')].map((g) => ({
            id: g.dataset.edgeId, state: g.dataset.state, from: g.dataset.from,
            dash: getComputedStyle(g.querySelector('path')).strokeDasharray})),
        };"""
    )


def _screenshot(driver, name: str) -> Path:
    ARTEFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTEFACTS / f"pictures-{name}.png"
    driver.save_screenshot(str(path))
    print(f"screenshot: {path}")
    return path


def test_the_page_draws_the_sql_answer_and_follows_the_as_of_slider(served, world, browser):  # noqa: F811
    tenant = world.tenant_a  # key_a's
    # statistics of the freshly imported run, as autovacuum would gather them: without them
    # the reads below (and the page's) at times took over a minute instead of 0.1 s
    with world.connect() as conn:
        conn.execute("ANALYZE")
    t0 = time.monotonic()
    with Memory(world.dsn("app_a")) as mem:
        sims = mem.list_simulations(tenant)
        simulation = next(s.simulation_id for s in sims if s.name == NAME)
        (plan,) = mem.nodes_named(tenant, simulation, PLAN)
        walk = mem.neighbors(tenant, simulation, plan.node_id, 2, include_ended=True, limit=200)
        facts = mem.facts(tenant, simulation, plan.node_id, "all", None, 1000)
        t1 = time.monotonic()
        events = mem.timeline(tenant, simulation, plan.node_id, 200)
        print(f"memory.timeline in {time.monotonic() - t1:.1f} s")
    print(f"SQL answers in {time.monotonic() - t0:.1f} s")
    # the Chamber's support of the plan, ended when it turned against it
    supports = next(f for f in facts if f.type == "SUPPORTS" and f.source_name == CHAMBER)
    assert supports.state == "ended"

    # the endpoints answer nothing without the key
    response = httpx.get(f"{served.url}/pictures/api/simulations")
    assert response.status_code == 401

    started = time.monotonic()
    browser.get(f"{served.url}/pictures#simulation={simulation}&node={plan.node_id}")
    _wait(browser, lambda d: d.find_element("tag name", "body").get_attribute("data-state")
          == "login", "its login form")  # fmt: skip
    # a wrong key: refused, forgotten, the form again
    browser.find_element("id", "key").send_keys("smk_" + uuid.uuid4().hex)
    browser.find_element("css selector", "#login button").click()
    _wait(browser, lambda d: "unknown or revoked" in d.find_element("id", "message").text,
          "the refusal")  # fmt: skip
    assert browser.find_element("tag name", "body").get_attribute("data-state") == "login"
    assert browser.execute_script("return sessionStorage.getItem('swarm-memory-key')") is None

    browser.find_element("id", "key").send_keys(served.key_a)
    browser.find_element("css selector", "#login button").click()
    _wait(browser, lambda d: d.find_element("tag name", "body").get_attribute("data-state")
          == "drawn", "a drawing")  # fmt: skip
    assert browser.execute_script("return sessionStorage.getItem('swarm-memory-key')")

    now = _drawn(browser)
    assert now["asOf"] == ""
    assert set(now["nodes"]) == {plan.node_id} | {r.node_id for r in walk}
    assert len(now["nodes"]) == len(walk) + 1
    by_id = {e["id"]: e for e in now["edges"]}
    assert {e["id"] for e in now["edges"] if e["from"] == "walk"} == {r.edge_id for r in walk}
    for r in walk:
        assert by_id[r.edge_id]["state"] == r.state
    # the plan's other facts between nodes on the page: its ended support among them, dashed
    assert by_id[supports.edge_id]["state"] == "ended"
    assert by_id[supports.edge_id]["dash"] not in ("none", "")
    for f in facts:
        if f.edge_id in by_id:
            assert by_id[f.edge_id]["state"] == f.state
    _screenshot(browser, "now")
    print(f"drawn after {time.monotonic() - started:.1f} s")

    # the timeline: memory.timeline's events
    _wait(browser, lambda d: len(d.find_elements("css selector", "#timeline li")) == len(events),
          "the timeline")  # fmt: skip

    # the slider to the day the Chamber's support began: then it is current
    stops = json.loads(browser.find_element("id", "as-of").get_attribute("data-stops"))
    began = supports.valid_at
    index = next(i for i, s in enumerate(stops) if datetime.fromisoformat(s) == began)
    browser.execute_script(
        "const s = document.getElementById('as-of'); s.value = arguments[0];"
        "s.dispatchEvent(new Event('input'));",
        index,
    )
    _wait(browser, lambda d: _drawn(d)["asOf"] == stops[index]
          and d.find_element("tag name", "body").get_attribute("data-state") == "drawn",
          "the neighbourhood as of " + stops[index])  # fmt: skip
    then = _drawn(browser)
    with Memory(world.dsn("app_a")) as mem:
        walk_then = mem.neighbors(
            tenant, simulation, plan.node_id, 2, as_of=stops[index], include_ended=True, limit=200
        )
        facts_then = {
            f.edge_id: f.state
            for f in mem.facts(tenant, simulation, plan.node_id, "all", stops[index], 1000)
        }
    assert facts_then[supports.edge_id] == "current"
    by_id = {e["id"]: e for e in then["edges"]}
    assert by_id[supports.edge_id]["state"] == "current"
    assert by_id[supports.edge_id]["dash"] in ("none", "")
    assert set(then["nodes"]) == {plan.node_id} | {r.node_id for r in walk_then}
    for r in walk_then:
        assert by_id[r.edge_id]["state"] == r.state
    assert browser.find_element("id", "as-of-label").text.startswith(began.strftime("%Y-%m-%d"))
    _screenshot(browser, "as-of")
    print(f"as of {stops[index]} after {time.monotonic() - started:.1f} s")

    # a fact's history: memory.history's versions
    browser.find_element("css selector", f"#facts li[data-edge-id='{supports.edge_id}'] a").click()
    with Memory(world.dsn("app_a")) as mem:
        versions = mem.history(tenant, simulation, "edge", supports.edge_id)
    _wait(browser, lambda d: len(d.find_elements("css selector", "#history li")) == len(versions),
          "the fact's history")  # fmt: skip
    print(f"history after {time.monotonic() - started:.1f} s")
