"""Progress of a long ``sanplan export`` (the PDF build sheet of a site) on the terminal.

Printed on stderr, so the command's output on stdout ("wrote ...") stays as it was: on a terminal
one line rewritten in place; with ``--progress`` and no terminal (a log) one line per step.
Kept out of app/cli.py, which holds the commands.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import TextIO

Progress = Callable[[float, str], None]


class TerminalProgress:
    """A ``progress(fraction, text)`` callback writing "  42 %  laid out Paths  (12 s)" to ``stream``.

    ``in_place``: rewrite one line (a terminal) instead of one line per step. Call :meth:`close`
    when the job ends (it ends the rewritten line)."""

    def __init__(self, stream: TextIO, in_place: bool) -> None:
        self.stream, self.in_place = stream, in_place
        self.start = time.monotonic()
        self.last = ("", -1)
        self.width = 0  # of the line shown (to blank what a shorter one leaves)

    def __call__(self, fraction: float, text: str = "") -> None:
        pct = int(max(0.0, min(1.0, fraction)) * 100)
        if (text, pct) == self.last:
            return
        self.last = (text, pct)
        line = f"{pct:3d} %  {text}  ({time.monotonic() - self.start:.0f} s)"
        if self.in_place:
            self.stream.write("\r" + line.ljust(self.width))
            self.width = len(line)
        else:
            self.stream.write(line + "\n")
        self.stream.flush()

    def close(self) -> None:
        if self.in_place and self.width:
            self.stream.write("\n")
            self.stream.flush()


def terminal_progress(asked: bool, stream: TextIO | None = None) -> TerminalProgress | None:
    """The progress printer for ``sanplan export``: when ``stream`` (default stderr) is a terminal,
    or when ``--progress`` was ``asked``; else None (nothing printed)."""
    stream = stream if stream is not None else sys.stderr
    tty = bool(getattr(stream, "isatty", lambda: False)())
    if not (tty or asked):
        return None
    return TerminalProgress(stream, in_place=tty)


def add_progress_flag(parser) -> None:
    """``--progress`` on ``sanplan export``."""
    parser.add_argument(
        "--progress", action="store_true", help="print progress on stderr (default: only when it is a terminal)"
    )
