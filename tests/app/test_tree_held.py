"""The model tree behind another tab holds the model events and applies them when raised (a
server deleted on the 16x site cost it 2-4 ms of the edit's own turn while no one could see
it): raised, it shows what a tree that followed every edit shows, and the document's selection."""

from __future__ import annotations

import pytest

from planner import edit
from widgets import deferred
from widgets.deferred import covered
from widgets.model_tree import ID_ROLE, ModelTreePanel


def _shown(tree: ModelTreePanel) -> dict[str, tuple]:
    """Every row built: id -> (its parent row's id, name text, details text)."""
    out = {}
    for cid, item in tree.rows.items():
        holder = item.parent() or tree.model.invisibleRootItem()
        out[cid] = (
            item.parent().data(ID_ROLE) if item.parent() else None,
            item.text(),
            holder.child(item.row(), 1).text(),
        )
    return out


def _edits(window, qtbot):
    """A subsystem deleted, a server renamed, the delete undone, a cable deleted; then a selection."""
    doc, topo = window.doc, window.doc.topology
    sub = topo.ids_of_kind("subsystem")[0]
    server = topo.ids_of_kind("server")[0]
    cable = topo.ids_of_kind("cable")[0]
    doc.run(edit.delete, [sub])
    doc.run(edit.set_attr, server, "name", "renamed-p690")
    doc.undo_stack.undo()
    doc.undo_stack.undo()
    doc.run(edit.delete, [cable])
    doc.run(edit.set_attr, server, "name", "another-name")
    doc.select([topo.ids_of_kind("hba")[0]])


@pytest.mark.parametrize("overflow", [False, True])
def test_a_covered_model_tree_applies_the_edits_made_behind_it_when_raised(window, qtbot, monkeypatch, overflow):
    doc, tree = window.doc, window.model_tree
    window.docks["tree"].raise_()
    qtbot.waitExposed(tree.view)
    tree.expand_all()
    twin = ModelTreePanel(doc)  # a bare panel: never covered, follows each edit as it comes
    qtbot.addWidget(twin)
    twin.expand_all()
    assert _shown(twin) == _shown(tree)
    window.docks["palette"].raise_()
    qtbot.waitUntil(lambda: covered(tree), timeout=5000)
    if overflow:
        monkeypatch.setattr(deferred, "HELD_AT_MOST", 5)
    before = _shown(tree)
    _edits(window, qtbot)
    assert tree._held.pending and _shown(tree) == before  # nothing done behind the Parts tab
    assert _shown(twin) != before
    window.docks["tree"].raise_()
    qtbot.waitUntil(lambda: not tree._held.pending, timeout=5000)
    if overflow:  # built afresh: the rows it has are those of a tree built now
        fresh = ModelTreePanel(doc)
        qtbot.addWidget(fresh)
        fresh.expand_all()
        tree.expand_all()
        assert _shown(tree) == _shown(fresh)
    else:  # the branches it had open, as the tree that followed every edit shows them
        assert _shown(tree) == _shown(twin)
    assert tree.selected_ids() == twin.selected_ids() == doc.selection


def test_a_covered_tree_asked_for_its_rows_applies_what_it_holds_first(window, qtbot):
    tree, doc = window.model_tree, window.doc
    window.docks["palette"].raise_()
    qtbot.waitUntil(lambda: covered(tree), timeout=5000)
    server = doc.topology.ids_of_kind("server")[0]
    tree.items[server]  # (its row built)
    doc.run(edit.set_attr, server, "name", "renamed-p690")
    assert tree._held.pending and "renamed-p690" not in tree.rows[server].text()
    assert "renamed-p690" in tree.items[server].text() and not tree._held.pending
