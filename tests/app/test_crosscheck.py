"""The max-flow cross-check in the editor: Design > Analysis > Cross-check with max flow, the
status bar's indicator, the background running it when the design is quiet, an edit cancelling
a cross-check under way, stale results dropped, and a disagreement reported."""

from __future__ import annotations

import threading

import pytest
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QApplication

import app.background as background
import planner.maxflow as maxflow
from app.background import CrossCheck
from planner.analysis import analyze
from widgets import giveway


def _action(window, action_id):
    acts = [a for a in window.findChildren(QAction) if a.objectName() == f"action-{action_id}"]
    assert acts
    return acts[0]


def test_cross_check_through_the_menu(window):
    doc, label = window.doc, window.cross_check_label
    assert label.state == "pending" and label.text() == "max flow: pending"
    _action(window, "cross-check").trigger()
    want = analyze(doc.topology, "planning", "read", cross_check=True)
    x = doc.cross_check
    assert x.revision == doc.topology.revision and x.aggregate == pytest.approx(want.aggregate)
    assert x.max_flow == pytest.approx(want.max_flow) and x.min_cut == want.min_cut
    assert label.state == "agrees" and label.text() == "max flow \u2713"
    assert f"{want.aggregate:,.1f} MB/s" in label.toolTip() and want.min_cut[0] in label.toolTip()
    assert "cross-check agrees" in window.message_label.text()

    window.delete_ids(["hba.d1s19"])  # an edit: the indicator waits for the new revision
    QApplication.processEvents()
    assert label.state == "pending"
    _action(window, "cross-check").trigger()
    assert label.state == "agrees" and doc.cross_check.revision == doc.topology.revision

    doc.set_direction("mixed")
    QApplication.processEvents()
    assert label.state == "n/a"
    _action(window, "cross-check").trigger()
    assert "choose one direction" in window.message_label.text()


def test_a_disagreement_is_reported(window, monkeypatch):
    monkeypatch.setattr(maxflow, "max_flow", lambda paths, loads, pause=None: (1.0, ["sw1.asic0"]))
    _action(window, "cross-check").trigger()
    label = window.cross_check_label
    assert label.state == "disagrees" and "claims more" in label.toolTip()
    assert (
        "max-flow cross-check disagrees" in window.message_label.text() and "sw1.asic0" in window.message_label.text()
    )


def test_stale_cross_check_is_dropped(window):
    doc = window.doc
    old = doc.analysis
    window.delete_ids(["hba.d1s19"])
    QApplication.processEvents()
    seen = []
    doc.crossChecked.connect(seen.append)
    doc.accept_cross_check(CrossCheck(old.revision, old.figures, old.direction, 1.0, 2.0, [], old.origin))
    assert seen == [] and doc.cross_check is None and window.cross_check_label.state == "pending"


@pytest.fixture
def quick_idle(monkeypatch):
    monkeypatch.setattr(background, "IDLE_S", 0.05)


def test_background_cross_checks_when_quiet(window, qtbot, quick_idle):
    doc = window.doc
    doc.synchronous = False
    window.delete_ids(["hba.d1s19"])
    qtbot.waitUntil(
        lambda: doc.cross_check is not None and doc.cross_check.revision == doc.topology.revision, timeout=10000
    )
    assert window.cross_check_label.state == "agrees"
    assert doc.cross_check.aggregate == pytest.approx(analyze(doc.topology, "planning", "read").aggregate)


def test_an_edit_cancels_the_cross_check_under_way(window, qtbot, quick_idle, monkeypatch):
    """The cross-check of revision N is running when an edit arrives: its result is never sent,
    and the cross-check of the new revision follows once the design is quiet again."""
    doc = window.doc
    doc.synchronous = False
    started, release = threading.Event(), threading.Event()
    real = maxflow.max_flow

    gave_up = []

    def slow(paths, loads, pause=None):
        if not release.is_set():
            started.set()
            release.wait(10)
            try:  # (the edit waits: given up at the first pause point)
                return real(paths, loads, pause)
            except giveway.GaveUp:
                gave_up.append(1)
                raise
        return real(paths, loads, pause)

    monkeypatch.setattr(maxflow, "max_flow", slow)
    window.delete_ids(["hba.d1s19"])
    qtbot.waitUntil(started.is_set, timeout=10000)
    first = doc.topology.revision
    bg = doc._background
    sent = []
    bg.crossChecked.connect(lambda x: sent.append(x.revision))
    doc.undo_stack.undo()  # the edit arrives while the cross-check runs
    qtbot.waitUntil(bg._check_lane.queued, timeout=10000)
    release.set()
    qtbot.waitUntil(
        lambda: doc.cross_check is not None and doc.cross_check.revision == doc.topology.revision, timeout=10000
    )
    assert first not in sent and doc.topology.revision != first and gave_up == [1]
    assert window.cross_check_label.state == "agrees"


def test_the_lanes_hand_the_gil_back_quickly(window):
    """With the background in use the GIL switch interval is at most GIL_SWITCH_S, so the GUI
    thread waits at most that long for a busy lane (CPython's default is 5 ms)."""
    import sys

    from app import gui_gc

    window.doc.synchronous = False
    window.delete_ids(["hba.d1s19"])
    window.doc.wait_for_analysis(10000)
    assert window.doc._background is not None
    assert sys.getswitchinterval() <= gui_gc.GIL_SWITCH_S + 1e-9 < 0.005
