"""What the main window's status bar says about work in progress on the canvas."""

from __future__ import annotations

from typing import Any

DRAWING = "Drawing the diagram"


def show_building(window: Any, made: int, total: int) -> None:
    """The canvas making its items a slice at a time (a site opened or expanded): how far it
    got, then nothing (a message of another kind that came meanwhile stays)."""
    if made < total:
        window.show_message(f"{DRAWING}: {made:,} of {total:,} boxes...", error=False)
    elif window.message_label.text().startswith(DRAWING):
        window.show_message("", error=False)
