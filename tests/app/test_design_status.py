"""File > Design properties sets the document status the build sheet shows, as one undo step."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QTimer

from planner.commands import SetMeta
from planner.model import ModelError


def _answer(window, status_index: int, accept: bool = True) -> None:
    def fill() -> None:
        dlg = window.last_dialog
        dlg.status.setCurrentIndex(status_index)
        dlg.accept() if accept else dlg.reject()

    QTimer.singleShot(0, fill)


def test_status_is_set_in_the_properties_dialog_and_undone(window):
    w = window
    assert "status" not in w.doc.topology.meta
    steps = w.doc.undo_stack.count()
    _answer(w, 0)  # OK with the status left at draft: no change, no undo step
    w.act_properties.trigger()
    assert w.doc.undo_stack.count() == steps and "status" not in w.doc.topology.meta
    _answer(w, 1)
    w.act_properties.trigger()
    assert w.doc.topology.meta["status"] == "for review"
    assert w.doc.undo_stack.count() == steps + 1
    _answer(w, 2, accept=False)  # cancelled: nothing changes
    w.act_properties.trigger()
    assert w.doc.topology.meta["status"] == "for review"
    _answer(w, 2)
    w.act_properties.trigger()
    assert w.doc.topology.meta["status"] == "approved"
    w.act_undo.trigger()
    assert w.doc.topology.meta["status"] == "for review"


def test_an_unknown_status_is_refused_with_the_choices():
    with pytest.raises(ModelError, match="draft, for review, approved"):
        SetMeta("status", "final")
