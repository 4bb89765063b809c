"""The inspector keeps its form when the next component selected has a form of the same shape
(one of the same kind, with a location row or not): it shows that component's values, with no
error or typed text left from the one before; the forms of the last shapes shown come back when
one of their shape is selected again; several components or a design replaced build anew."""

from __future__ import annotations

from planner import edit
from tests.widgets.test_panels import inspector


def test_the_next_component_of_the_kind_shown_keeps_the_form_and_shows_its_own_values(qtbot, doc, parts):
    panel = inspector(qtbot, doc, parts)
    topo = doc.topology
    first, second = topo.of_kind("cable")[:2]
    doc.select([first.id])
    name, end = panel.field("name"), panel.field("a")
    assert name.text() == first.name and end.currentData() == first["a"]
    panel.show_refusal("name", "names must be unique")  # a reason under the field, and typed text
    name.setText("typed, not applied")
    name.setModified(True)
    doc.select([second.id])
    assert panel.field("name") is name and panel.field("a") is end  # the form kept
    assert panel.shown_ids() == [second.id] and panel.error_text("name") == ""
    assert name.text() == second.name and end.currentData() == second["a"]
    assert panel.info_text("Id") == second.id
    name.setText("second renamed")  # an edit through the kept form goes to the one shown
    name.editingFinished.emit()
    assert doc.topology[second.id].name == "second renamed" and doc.topology[first.id].name == first.name
    doc.undo_stack.undo()
    hba = topo.of_kind("hba")[0]
    doc.select([hba.id])
    hba_name = panel.field("name")
    assert panel.field("a") is None and hba_name is not name and hba_name.text() == hba.name  # another kind
    panel.show_refusal("name", "names must be unique")
    doc.select([first.id])  # a cable again: the cable's form back, showing this cable
    assert panel.field("name") is name and name.text() == first.name and panel.field("a") is end
    assert end.currentData() == first["a"] and panel.info_text("Id") == first.id
    doc.select([first.id, second.id])
    assert panel.field("name") is None  # several: a form of their own
    doc.select([hba.id])
    assert panel.field("name") is hba_name and panel.error_text("name") == ""  # (nothing left of before)
    doc.select([second.id])
    assert panel.field("name") is name
    doc.run(edit.set_attr, second.id, "name", "renamed cable")
    assert name.text() == "renamed cable"
    doc.projectReplaced.emit()  # a design replaced: every form anew, whatever is selected
    assert panel.field("name") is not name and panel.field("name").text() == "renamed cable"
    doc.select([hba.id])
    assert panel.field("name") is not hba_name


def test_the_forms_kept_are_the_last_shapes_shown(qtbot, doc, parts, monkeypatch):
    import widgets.inspector as inspector_module

    monkeypatch.setattr(inspector_module, "FORMS_KEPT", 2)
    panel = inspector(qtbot, doc, parts)
    topo = doc.topology
    cable, hba, port, slot = (topo.of_kind(k)[0] for k in ("cable", "hba", "hba_port", "slot"))
    made = []
    for c in (cable, hba, port, slot):
        doc.select([c.id])
        made.append(panel.field("name"))
    assert len(panel._forms) == 2  # (hba_port, hba kept; the cable's deleted)
    doc.select([hba.id])
    assert panel.field("name") is made[1]
    doc.select([cable.id])
    assert panel.field("name") is not made[0] and panel.field("name").text() == cable.name
