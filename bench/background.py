"""What else the bench server did while `make bench` measured: its autovacuum workers,
sampled once a second from pg_stat_activity on a connection of their own, counted against
the phase of the run that was going on (the last `bench: ...` or `clumps: ...` line logged).

A 2-core machine has no core to spare: an autovacuum worker that vacuums a table loaded a
minute before takes CPU and memory bandwidth from the call being timed. The table in
bench/results says, for each phase in which a worker ran, for how many of its seconds and
on which tables, so that a slow figure can be told from a busy server.
"""

from __future__ import annotations

import threading

import psycopg

SAMPLE_SQL = (
    "SELECT pg_catalog.regexp_replace(a.query, '^autovacuum: ', '')"
    "  FROM pg_catalog.pg_stat_activity AS a"
    " WHERE a.backend_type = 'autovacuum worker' AND a.query <> ''"
)


class Sampler:
    """Samples the server's autovacuum workers once every `interval` seconds in a thread."""

    def __init__(self, su_dsn: str, interval: float = 1.0) -> None:
        self.dsn = su_dsn
        self.interval = interval
        self.phase = "start"
        self.phases: dict[str, dict] = {}
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="autovacuum-sampler", daemon=True)

    def start(self) -> Sampler:
        self._thread.start()
        return self

    def see(self, message: str) -> None:
        """A line of the run's log: a new phase when it names one."""
        for prefix in ("bench: ", "clumps: "):
            if message.startswith(prefix):
                self.phase = message[len(prefix) :].strip()

    def _run(self) -> None:
        with psycopg.connect(self.dsn, autocommit=True) as conn:
            while not self._stop.wait(self.interval):
                try:
                    work = [r[0] for r in conn.execute(SAMPLE_SQL).fetchall()]
                except psycopg.Error:  # the server is being restarted or stopped
                    return
                p = self.phases.setdefault(
                    self.phase, {"samples": 0, "busy_samples": 0, "work": {}}
                )
                p["samples"] += 1
                p["busy_samples"] += bool(work)
                for w in work:
                    p["work"][w] = p["work"].get(w, 0) + 1

    def stop(self) -> dict:
        self._stop.set()
        self._thread.join(timeout=10 * self.interval + 5)
        return {"interval_s": self.interval, "phases": self.phases}


def table(background: dict) -> str:
    """The phases in which an autovacuum worker ran, with what it did (seconds sampled)."""
    step = background.get("interval_s", 1.0)
    busy = [(name, p) for name, p in background.get("phases", {}).items() if p["busy_samples"]]
    if not busy:
        return "No autovacuum worker ran while the run measured (sampled once a second)."
    lines = [
        "| phase | seconds | with an autovacuum worker | what it did (seconds) |",
        "|---|---|---|---|",
    ]
    for name, p in busy:
        work = ", ".join(
            f"{w} ({n * step:.0f})" for w, n in sorted(p["work"].items(), key=lambda x: -x[1])
        )
        lines.append(
            f"| {name} | {p['samples'] * step:.0f} | {p['busy_samples'] * step:.0f} | {work} |"
        )
    return "\n".join(lines)
