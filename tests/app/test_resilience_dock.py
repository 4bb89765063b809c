"""The main window's Resilience dock."""

from __future__ import annotations


def test_the_main_window_has_the_dock(window):
    assert "resilience" in window.docks
    window.resilience.run()
    assert window.resilience.select_component("sw1")
    assert window.doc.selection == ["sw1"]
