"""A style sheet is set on a widget only when it changes (each set polishes it again and lays
out its parent: the status bar and the headline change with every analysis)."""

from __future__ import annotations

from PySide6.QtWidgets import QLabel

from widgets.style import set_style_sheet


def test_a_style_sheet_is_set_only_when_it_changes(qtbot):
    label = QLabel("3")
    qtbot.addWidget(label)
    sets: list[str] = []
    real = label.setStyleSheet
    label.setStyleSheet = lambda sheet: (sets.append(sheet), real(sheet))
    for sheet in ("", "color: #c62828", "color: #c62828", "", ""):
        set_style_sheet(label, sheet)
    assert sets == ["color: #c62828", ""] and label.styleSheet() == ""
