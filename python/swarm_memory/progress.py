"""Progress of an import, one phase at a time: a bar with counts and rate on a terminal,
one plain log line per phase otherwise, nothing when quiet."""

from __future__ import annotations

import sys
import time
from typing import TextIO


class Progress:
    def __init__(self, stream: TextIO | None = None, quiet: bool = False) -> None:
        self.stream = stream or sys.stderr
        self.quiet = quiet
        self.tty = hasattr(self.stream, "isatty") and self.stream.isatty()
        self.timings: dict[str, float] = {}
        self._phase = ""
        self._total = 0
        self._done = 0
        self._start = 0.0
        self._drawn = 0.0

    def start(self, phase: str, total: int, unit: str = "rows") -> None:
        self._phase, self._total, self._done, self._unit = phase, total, 0, unit
        self._start = time.perf_counter()
        self._draw(force=True)

    def advance(self, n: int) -> None:
        self._done += n
        self._draw()

    def finish(self, note: str = "") -> None:
        elapsed = time.perf_counter() - self._start
        self.timings[self._phase] = elapsed
        if self.quiet:
            return
        rate = self._done / elapsed if elapsed > 0 else 0.0
        line = (
            f"{self._phase:<9} {self._done}/{self._total} {self._unit} in {elapsed:.2f} s"
            f" ({rate:,.0f}/s)" + (f"  {note}" if note else "")
        )
        if self.tty:
            self.stream.write("\r\033[K" + line + "\n")
        else:
            self.stream.write(line + "\n")
        self.stream.flush()

    def note(self, message: str) -> None:
        if not self.quiet:
            self.stream.write(("\r\033[K" if self.tty else "") + message + "\n")
            self.stream.flush()

    def _draw(self, force: bool = False) -> None:
        if self.quiet or not self.tty:
            return
        now = time.perf_counter()
        if not force and now - self._drawn < 0.1 and self._done < self._total:
            return
        self._drawn = now
        width = 30
        frac = self._done / self._total if self._total else 1.0
        filled = int(width * frac)
        elapsed = now - self._start
        rate = self._done / elapsed if elapsed > 0 else 0.0
        self.stream.write(
            f"\r{self._phase:<9} [{'#' * filled}{'.' * (width - filled)}] "
            f"{self._done}/{self._total} {self._unit} {rate:,.0f}/s"
        )
        self.stream.flush()
