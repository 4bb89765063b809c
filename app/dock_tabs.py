"""Tidying the main window's tabbed docks."""

from __future__ import annotations

from typing import Any


def hide_stale_tab_bars(window: Any) -> None:
    """QMainWindow sometimes leaves the tab bar of an earlier, smaller tab group of the same
    docks on screen after a third dock joins the group; hide such leftovers."""
    from PySide6.QtWidgets import QTabBar

    bars = [b for b in window.findChildren(QTabBar) if b.parent() is window]
    texts = {b: {b.tabText(i) for i in range(b.count())} for b in bars}
    for b in bars:
        if any(o is not b and texts[b] < texts[o] for o in bars):
            b.hide()
