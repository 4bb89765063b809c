"""In the editor a selection reaches the side panels on a later turn of the event loop, after
the canvas has shown it, one panel a turn; the newest one always wins; a document working
synchronously (tests, scripts) has them follow at once."""

from __future__ import annotations

from PySide6.QtWidgets import QApplication

from widgets import deferred
from widgets.inspector import InspectorPanel
from widgets.model_tree import ModelTreePanel


def _panels(qtbot, doc):
    tree, inspector = ModelTreePanel(doc), InspectorPanel(doc)
    for panel in (tree, inspector):
        qtbot.addWidget(panel)
        panel.show()
    return tree, inspector


def test_a_selection_reaches_the_panels_on_a_later_turn_one_panel_a_turn(qtbot, doc):
    tree, inspector = _panels(qtbot, doc)
    doc.synchronous = False  # (as in the editor)
    cables = [c.id for c in doc.topology.of_kind("cable")][:3]
    server = doc.topology.ids_of_kind("server")[:1]
    doc.select(cables[:1])
    assert tree.selected_ids() != cables[:1] and inspector._ids != cables[:1]  # not yet: the canvas first
    qtbot.waitUntil(lambda: tree.selected_ids() == cables[:1] and inspector._ids == cables[:1], timeout=2000)
    doc.select(cables)
    shown_in_one_turn = []
    for _ in range(20):
        QApplication.processEvents()
        shown_in_one_turn.append((sorted(tree.selected_ids()) == sorted(cables), inspector._ids == cables))
        if all(shown_in_one_turn[-1]):
            break
    assert all(shown_in_one_turn[-1])
    assert (True, False) in shown_in_one_turn or (False, True) in shown_in_one_turn  # one panel a turn
    doc.select(cables[1:2])  # one pending ...
    doc.select(server)  # ... replaced by the newest before its turn
    qtbot.waitUntil(lambda: tree.selected_ids() == server and inspector._ids == server, timeout=2000)
    for _ in range(5):
        QApplication.processEvents()
    assert tree.selected_ids() == server and inspector._ids == server
    doc.select([])  # none: at once
    assert inspector._ids == [] and tree.selected_ids() == []


def test_a_synchronous_document_has_the_panels_follow_at_once(qtbot, doc):
    tree, inspector = _panels(qtbot, doc)
    assert doc.synchronous
    cables = [c.id for c in doc.topology.of_kind("cable")][:3]
    doc.select(cables)
    assert sorted(tree.selected_ids()) == sorted(cables) and inspector._ids == cables


def test_work_put_off_runs_one_piece_a_turn_the_newest_per_owner(qtbot):
    """Panels that put a large selection off a turn run one a turn, not back to back in Qt's
    next pass over its timers (Select All on the 16x site: 25 ms in one block)."""
    from PySide6.QtCore import QObject

    owners = [QObject() for _ in range(3)]
    ran: list[str] = []
    queue = deferred.turns()
    queue.put(owners[0], lambda: ran.append("a"))
    queue.put(owners[1], lambda: ran.append("b"))
    queue.put(owners[0], lambda: ran.append("a2"))  # the newer piece of the same owner replaces it
    queue.put(owners[2], lambda: ran.append("c"))
    queue.drop(owners[2])
    gone = QObject()
    queue.put(gone, lambda: ran.append("gone"))
    import shiboken6

    shiboken6.delete(gone)  # (its owner deleted meanwhile: skipped)
    turns = 0
    while queue._todo and turns < 50:
        before = len(ran)
        QApplication.processEvents()
        assert len(ran) - before <= 1  # one piece a turn
        turns += 1
    assert ran == ["b", "a2"] and turns >= 2
