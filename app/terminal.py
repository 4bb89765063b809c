"""What the command line prints reaches a terminal safely.

A design's names are checked at input, but a file from elsewhere, a path or an error text can
still carry escape sequences (set the window title, clear the screen, move the cursor) or
direction overrides. :class:`SafeText` wraps ``sys.stdout``/``sys.stderr``: every control
character except new line and tab is written as a visible escape (``\\x1b``, ``\\u202e``), so what
prints is what the file holds, and nothing in it can drive the terminal.
"""

from __future__ import annotations

import re
import sys
from contextlib import contextmanager
from typing import Any, TextIO

# C0 controls but tab and new line, DEL, C1 controls, bidi overrides and isolates, line separators,
# and lone surrogates (which cannot be encoded)
_UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029\ud800-\udfff]")


def _visible(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def escape_controls(text: str) -> str:
    """``text`` with every unsafe character written as a visible escape."""
    return _UNSAFE.sub(_visible, text)


class SafeText:
    """A text stream that escapes control characters before writing to ``stream``."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        self._stream.write(escape_controls(text))
        return len(text)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


@contextmanager
def safe_output():
    """Escape control characters in everything printed to stdout and stderr meanwhile."""
    out, err = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = SafeText(out), SafeText(err)
    try:
        yield
    finally:
        sys.stdout, sys.stderr = out, err
