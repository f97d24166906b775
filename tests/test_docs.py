"""The front door holds: every relative link of the project's Markdown points at a file that
exists (and an #anchor at a heading of it), and the README's quickstart runs as written,
command by command, against a fresh embedded server of its own."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGES = sorted(
    [
        ROOT / "README.md",
        ROOT / "bench" / "README.md",
        ROOT / "sql" / "README.md",
        *(ROOT / "docs").glob("*.md"),
        *(ROOT / "sql" / "functions").rglob("README.md"),
        *(ROOT / "python").rglob("README.md"),
    ]
)
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")


def slug(heading: str) -> str:
    """GitHub's anchor of a heading: lower case, punctuation but - and _ dropped, spaces -."""
    text = re.sub(r"[`*]", "", heading.strip().lower())
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(page: Path) -> set[str]:
    """Every heading's anchor; GitHub numbers a repeated one: x, x-1, x-2."""
    text = re.sub(r"```.*?```", "", page.read_text(encoding="utf-8"), flags=re.S)
    seen: dict[str, int] = {}
    found = set()
    for heading in re.findall(r"^#+ (.+)$", text, re.M):
        base = slug(heading)
        count = seen.get(base, 0)
        seen[base] = count + 1
        found.add(f"{base}-{count}" if count else base)
    return found


def links(page: Path) -> list[str]:
    text = re.sub(r"```.*?```", "", page.read_text(encoding="utf-8"), flags=re.S)
    return [t for t in LINK.findall(text) if not re.match(r"[a-z]+:", t)]


def test_the_link_checker_can_fail(tmp_path):
    page = tmp_path / "p.md"
    page.write_text(
        "# A title\n\n## A title\n\n## `Code`, and: more\n\n"
        "[x](#a-title) [x](#a-title-1) [x](#code-and-more) [y](missing.md) [z](#nowhere)"
        " [z](#a-title-2) [w](p.md#nowhere)\n"
    )
    assert broken(page) == ["missing.md", "#nowhere", "#a-title-2", "p.md#nowhere"]


def broken(page: Path) -> list[str]:
    bad = []
    for target in links(page):
        path, _, anchor = target.partition("#")
        dest = (page.parent / path).resolve() if path else page
        if not dest.exists() or anchor and dest.suffix == ".md" and anchor not in anchors(dest):
            bad.append(target)
    return bad


@pytest.mark.parametrize("page", PAGES, ids=[str(p.relative_to(ROOT)) for p in PAGES])
def test_every_relative_link_resolves(page):
    assert broken(page) == []


def test_the_readme_is_a_front_door():
    assert len((ROOT / "README.md").read_text(encoding="utf-8").splitlines()) <= 300


def quickstart() -> list[str]:
    """The commands of the README's quickstart block, as written."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = re.search(r"^## Quickstart\n(.*?)(?=^## )", text, re.M | re.S).group(1)
    block = re.search(r"```sh\n(.*?)```", section, re.S).group(1)
    return [line.split("  #")[0].strip() for line in block.splitlines() if line.strip()]


def test_the_quickstart_runs_as_written(tmp_path):
    """Each command on a fresh embedded server of its own (the commands' default data
    directory, .cache/pgdata, is the test's own through the working directory), exit 0;
    the question's answer is not empty. `make demo` is run as its CLI form, against the
    same directory."""
    commands = quickstart()
    assert commands[0] == "make demo" and len(commands) >= 4
    work = tmp_path / "w"
    work.mkdir()
    (work / "examples").symlink_to(ROOT / "examples")
    env = {**os.environ, "PATH": f"{ROOT / '.venv' / 'bin'}:{os.environ['PATH']}"}
    env.pop("PGHOST", None)
    outputs = []
    try:
        for command in commands:
            argv = shlex.split(command)
            if argv == ["make", "demo"]:
                argv = [sys.executable, "-m", "swarm_memory.cli", "demo"]
            elif argv[0].endswith("swarm-memory"):
                argv = [sys.executable, "-m", "swarm_memory.cli", *argv[1:]]
            proc = subprocess.run(
                argv, cwd=work, env=env, capture_output=True, text=True, timeout=900, check=False
            )
            assert proc.returncode == 0, f"{command}\n{proc.stdout}\n{proc.stderr}"
            outputs.append(proc.stdout)
        answer = outputs[-1].splitlines()
        assert len(answer) > 2, outputs[-1]
    finally:
        subprocess.run(
            [sys.executable, "-m", "swarm_memory.cli", "db", "down"],
            cwd=work,
            env=env,
            capture_output=True,
            timeout=120,
            check=False,
        )
