"""The inspector keeps its form when the next component selected has a form of the same shape
(one of the same kind, with a location row or not): it shows that component's values, with no
error or typed text left from the one before; another kind, several components or a design
replaced build the form anew."""

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
    assert panel.field("a") is None and panel.field("name") is not name  # another kind: anew
    doc.select([first.id])
    again = panel.field("name")
    assert again is not name and again.text() == first.name
    doc.select([first.id, second.id])
    assert panel.field("name") is None  # several: anew
    doc.select([second.id])
    kept = panel.field("name")
    doc.run(edit.set_attr, second.id, "name", "renamed cable")
    assert kept.text() == "renamed cable"
    doc.projectReplaced.emit()  # a design replaced: anew, whatever is selected
    assert panel.field("name") is not kept
