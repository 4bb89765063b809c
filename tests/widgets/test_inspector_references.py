"""The inspector's reference fields whose candidates span the whole design (``WIDE_REFS``)."""

from __future__ import annotations

from planner import edit
from tests.widgets.test_panels import inspector


def test_a_cable_end_lists_the_free_ports_once_the_user_opens_it(qtbot, doc, parts, monkeypatch):
    """A cable's end may name every free port of the design: the inspector shows the end it has
    and lists the others once the combo is opened (or focused, scrolled, typed on)."""
    import widgets.candidates as candidates

    looked = []
    real = candidates._free_ports_for
    monkeypatch.setattr(candidates, "_free_ports_for", lambda *a: looked.append(1) or real(*a))
    panel = inspector(qtbot, doc, parts)
    topo = doc.topology
    cable, other = topo.of_kind("cable")[:2]
    doc.run(edit.delete, [other.id])  # its ports are free
    doc.select([cable.id])
    combo = panel.field("a")
    assert [combo.itemData(i) for i in range(combo.count())] == ["", cable["a"]]
    assert combo.currentData() == cable["a"] and not looked
    combo.showPopup()
    combo.hidePopup()
    choices = [combo.itemData(i) for i in range(combo.count())]
    cabled = {c[end] for c in topo.of_kind("cable") for end in ("a", "b")}
    free = next(p for p in choices if p and p not in cabled)
    assert looked and combo.currentData() == cable["a"] and len(choices) > 2
    combo.setCurrentIndex(combo.findData(free))
    assert doc.topology[cable.id]["a"] == free
    doc.undo_stack.undo()
    assert doc.topology[cable.id]["a"] == cable["a"] and panel.field("a").count() == 2
    doc.select([c.id for c in doc.topology.of_kind("cable")[:2]])
    assert panel.field("a") is None  # two cables never share an end
