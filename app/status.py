"""What the main window's status bar says about work in progress on the canvas."""

from __future__ import annotations

import time
from typing import Any

DRAWING = "Drawing the diagram"
#: the progress of the drawing is shown at most this often: each new text lays the status bar
#: out again (3-5 ms), which every 8 ms slice of the 16x site's 44,864 boxes paid
PROGRESS_EVERY_S = 0.1


def show_building(window: Any, made: int, total: int) -> None:
    """The canvas making its items a slice at a time (a site opened or expanded): how far it
    got (at most every PROGRESS_EVERY_S), then nothing (a message of another kind that came
    meanwhile stays)."""
    now = time.monotonic()
    shown = window.message_label.text().startswith(DRAWING)
    if made < total:
        if not shown or now - getattr(window, "_building_shown_at", 0.0) >= PROGRESS_EVERY_S:
            window._building_shown_at = now
            window.show_message(f"{DRAWING}: {made:,} of {total:,} boxes...", error=False)
    elif shown:
        window.show_message("", error=False)
