"""A large selection (Select All on a site) reaches the side panels on the next turn of the
event loop, after the canvas has shown it; a small one at once; the newest one always wins."""

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


def test_a_large_selection_reaches_the_panels_on_the_next_turn(qtbot, doc, monkeypatch):
    monkeypatch.setattr(deferred, "SELECTION_LATER_FROM", 3)
    tree, inspector = _panels(qtbot, doc)
    servers = doc.topology.ids_of_kind("server")
    small = [doc.topology.of_kind("drawer")[0].id]
    doc.select(small)
    assert tree.selected_ids() == small and inspector._ids == small  # at once
    many = [c.id for c in doc.topology.of_kind("drawer")][:5]
    doc.select(many)
    assert tree.selected_ids() == small and inspector._ids == small  # not yet: the canvas first
    qtbot.waitUntil(lambda: sorted(tree.selected_ids()) == sorted(many) and inspector._ids == many, timeout=2000)
    doc.select(many[:4])  # a large one pending ...
    doc.select(servers[:1])  # ... replaced by a small one before its turn
    assert tree.selected_ids() == servers[:1] and inspector._ids == servers[:1]
    for _ in range(5):
        QApplication.processEvents()
    assert tree.selected_ids() == servers[:1] and inspector._ids == servers[:1]


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
