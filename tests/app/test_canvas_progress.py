"""The main window while the canvas makes its items a slice at a time (a design opened,
everything expanded): the status bar shows how far it got, then clears."""

from __future__ import annotations

from PySide6.QtWidgets import QApplication

import widgets.canvas.scene as scene_module


def test_the_status_bar_shows_the_progress_then_clears(window, qtbot, monkeypatch):
    window.doc.synchronous = False
    monkeypatch.setattr(scene_module, "BUILD_SLICE_S", 0.0)
    window.scene.set_all_collapsed(True)
    qtbot.waitUntil(lambda: window.scene._build is None, timeout=10000)
    window.scene.set_all_collapsed(False)
    seen = []
    while window.scene._build is not None:
        seen.append(window.message_label.text())
        QApplication.processEvents()
    assert any(t.startswith("Drawing the diagram: ") and " of " in t for t in seen)
    assert window.message_label.text() == ""
    qtbot.waitUntil(lambda: not window.doc.background_busy() and window.scene._job is None, timeout=20000)
