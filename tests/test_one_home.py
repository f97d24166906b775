"""Constants with one home. Where a number must be written as a literal (a cast's type
modifier, which an expression index must match, or a hot check that cannot afford a call),
every copy is held here to its home:

- the width of a stored vector: the vector columns' type (memory._stored_dimensions());
- the cosine at which two vectors are copies of one text: memory._near_copy()."""

from __future__ import annotations

import re

from helpers import SQL_FUNCTIONS, function_files, without_comments

CODE = function_files()


def code(path) -> str:
    """A function file without its comments."""
    return without_comments(path.read_text(encoding="utf-8"))


def test_every_vector_width_written_out_is_the_columns(connect):
    (dims,) = connect().execute("SELECT memory._stored_dimensions()").fetchone()
    found = {}
    for path in CODE:
        text = code(path)
        for m in re.finditer(r"\b(?:vector|halfvec)\((\d+)\)", text):
            found.setdefault(int(m.group(1)), []).append(path.stem)
        # the batch check's literal width (memory._field_problem, once an item)
        for m in re.finditer(r"jsonb_array_length\(p_value\) <> (\d+)", text):
            found.setdefault(int(m.group(1)), []).append(path.stem)
    assert found and set(found) == {dims}, found


def test_the_near_copy_cosine_has_one_home(connect):
    conn = connect()
    (home,) = conn.execute("SELECT memory._near_copy()").fetchone()
    literal = f"{home:g}"
    copies = [p.stem for p in CODE if p.stem != "_near_copy" and literal in code(p)]
    # a signature's default is the one copy a caller reads: held equal to the home
    assert copies == ["compact_episodes"]
    (default,) = conn.execute(
        "SELECT pg_get_function_arguments('memory.compact_episodes(uuid, uuid, real, boolean)'"
        "::regprocedure)"
    ).fetchone()
    assert re.search(r"p_similarity real DEFAULT ([0-9.]+)", default).group(1) == literal


# A figure measured by the bench, quoted in a comment: a timing, a rate, a percentile of a
# run, a before -> after. The per-operation costs that explain a rule ("about 2 us a
# lookup") and health's percentile estimates (a feature, not a measurement) are not figures.
FIGURE = re.compile(
    r"\d(\.\d+)? ?ms\b|\bp50\b|\b(episodes|rows)/s\b|\d+(\.\d+)? s\b|-> ?\d|"
    r"\d+(\.\d+)? (against|instead of) \d"
)


def test_no_function_comment_quotes_a_benchmark_figure():
    """Numbers live in bench/README.md; a comment keeps the reason and points there."""
    found = []
    for path in CODE:
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            comment = line.partition("--")[2] if "--" in line else ""
            if FIGURE.search(comment):
                found.append(f"{path.relative_to(SQL_FUNCTIONS)}:{n}: {line.strip()}")
    assert found == []
