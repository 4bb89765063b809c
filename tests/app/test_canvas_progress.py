"""The main window while the canvas makes its items a slice at a time (a design opened,
everything expanded): the status bar shows how far it got, then clears."""

from __future__ import annotations

import time

import widgets.canvas.scene as scene_module
from app.status import PROGRESS_EVERY_S


def test_the_status_bar_shows_the_progress_then_clears(window, qtbot, monkeypatch):
    scene = window.scene

    def quiet() -> bool:
        return scene._layout_asked is None and scene._build is None and not window.doc.background_busy()

    window.open_example("p690-benchmark")
    window.doc.synchronous = False
    monkeypatch.setattr(scene_module, "BUILD_SLICE_S", 0.0)  # a few dozen boxes a turn
    monkeypatch.setattr("widgets.canvas.building.BOXES_EVERY", 32)
    began = time.monotonic()
    seen: list[str] = []
    styled: list[str] = []  # (a style sheet set polishes the label again: only when it changes)
    real = window.message_label.setStyleSheet
    window.message_label.setStyleSheet = lambda sheet: (styled.append(sheet), real(sheet))
    scene.building.connect(lambda made, total: seen.append(window.message_label.text()))  # after the window's
    scene.set_all_collapsed(False)  # laid out in the lane, then made a slice at a time
    qtbot.waitUntil(lambda: quiet() and bool(seen), timeout=20000)
    assert len(seen) > 10
    assert all(t.startswith("Drawing the diagram: ") and " of " in t for t in seen[:-1])
    # a new count at most every PROGRESS_EVERY_S (each new text lays the status bar out again)
    assert 1 <= len(set(seen[:-1])) <= 1 + (time.monotonic() - began) / PROGRESS_EVERY_S
    assert seen[-1] == "" and window.message_label.text() == ""
    assert len(styled) <= 1
    window.show_message("no such port")  # an error: red, then plain again
    assert "#c62828" in window.message_label.styleSheet()
    window.show_message("saved", error=False)
    assert window.message_label.styleSheet() == "" and len(styled) <= 3
    assert len(scene.items_by_id) == len(scene.diagram.boxes) > 1000
