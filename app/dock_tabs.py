"""Tidying the main window's tabbed docks."""

from __future__ import annotations

from typing import Any


def hide_stale_tab_bars(window: Any) -> None:
    """Hide the tab bars QMainWindow leaves on screen from earlier layouts of its tabbed docks
    (each dock added to a group while the window was built made a bar; the groups' bars of the
    final layout sit between the docks, the stale ones stayed where the group once was, over
    the docks' contents: a "Parts | Model" bar over the outline's header, another over the
    Properties panel and one over the bottom panels). A bar is stale when it covers part of a
    dock shown or when it repeats the tabs of a bar that does not (or some of them)."""
    from PySide6.QtWidgets import QDockWidget, QTabBar

    bars = [b for b in window.findChildren(QTabBar) if b.parent() is window and b.isVisible()]
    docks = [d.geometry() for d in window.findChildren(QDockWidget) if d.isVisible() and not d.isFloating()]
    over = {b for b in bars if any(b.geometry().intersects(g) for g in docks)}
    texts = {b: {b.tabText(i) for i in range(b.count())} for b in bars}
    for b in bars:
        if b in over or any(o is not b and o not in over and texts[b] <= texts[o] for o in bars):
            b.hide()
