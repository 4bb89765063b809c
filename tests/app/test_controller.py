"""The controller without a window: every operation as one undo step, refusals with a reason."""

from __future__ import annotations

import pytest

from app.controller import Controller
from app.document import Document
from planner.io import Project


@pytest.fixture
def doc(qapp, parts, one_drawer):
    d = Document(parts)
    d.synchronous = True
    d.replace_project(Project(one_drawer), None)
    return d


@pytest.fixture
def ctl(doc, parts):
    return Controller(doc, parts)


@pytest.fixture
def messages(doc):
    got: list[str] = []
    doc.message.connect(got.append)
    return got


def undo_redo_undo(doc):
    doc.undo_stack.undo()
    doc.undo_stack.redo()
    doc.undo_stack.undo()


def test_lay_cable_and_undo(doc, ctl):
    cable = doc.topology.cable_at("hba.d1s1.0")
    assert ctl.delete([cable.id])
    assert ctl.lay_cable("hba.d1s1.0", "sw1.p0")
    assert {doc.topology.cable_at("sw1.p0")["a"], doc.topology.cable_at("sw1.p0")["b"]} == {"hba.d1s1.0", "sw1.p0"}
    assert doc.undo_stack.count() == 2
    undo_redo_undo(doc)
    assert doc.topology.cable_at("hba.d1s1.0") is None


def test_lay_cable_refused_says_why(doc, ctl, messages):
    assert not ctl.lay_cable("hba.d1s1.0", "sw1.p0")  # hba.d1s1.0 is cabled already
    assert "taken" in messages[-1] and doc.undo_stack.count() == 0


def test_drop_part_and_undo(doc, ctl, messages):
    before = len(doc.topology.of_kind("subsystem"))
    assert ctl.drop_part("FAStT900")
    assert len(doc.topology.of_kind("subsystem")) == before + 1
    undo_redo_undo(doc)
    assert len(doc.topology.of_kind("subsystem")) == before
    assert ctl.drop_part("FC6239", "d1.s4")
    assert doc.topology.children("d1.s4", "hba")
    assert not ctl.drop_part("no-such-part")
    assert "not in the catalog" in messages[-1]


def test_delete_a_slot_deletes_its_adapter_and_undo(doc, ctl):
    assert ctl.delete(["d1.s2"])
    assert not doc.topology.children("d1.s2", "hba") and "d1.s2" in doc.topology
    assert doc.topology.cable_at("sw1.p2") is None
    undo_redo_undo(doc)
    assert doc.topology.children("d1.s2", "hba") and doc.topology.cable_at("sw1.p2") is not None


def test_delete_a_structural_part_is_refused(doc, ctl, messages):
    assert not ctl.delete(["sw1.asic0"])
    assert "sw1.asic0" in doc.topology and "delete the whole switch" in messages[-1]
    assert doc.undo_stack.count() == 0


def test_duplicate_copy_paste_and_undo(doc, ctl, messages):
    n = len(doc.topology.of_kind("subsystem"))
    assert ctl.duplicate(["fastt1"])
    assert len(doc.topology.of_kind("subsystem")) == n + 1
    undo_redo_undo(doc)
    assert len(doc.topology.of_kind("subsystem")) == n
    assert not ctl.duplicate([])
    assert "select a drawer" in messages[-1]
    assert not ctl.paste()
    assert "nothing to paste" in messages[-1]
    assert ctl.copy(["fastt2"]) == 1
    assert ctl.paste() and ctl.paste()
    assert len(doc.topology.of_kind("subsystem")) == n + 2
    doc.undo_stack.undo()
    doc.undo_stack.undo()
    assert len(doc.topology.of_kind("subsystem")) == n


def test_move_boxes_and_auto_layout_and_undo(doc, ctl):
    assert ctl.move_boxes({"sw1": (500.0, 40.0), "fastt1": (900.0, 10.0)})
    assert doc.topology.positions == {"sw1": (500.0, 40.0), "fastt1": (900.0, 10.0)}
    assert doc.undo_stack.count() == 1  # one drag of two boxes: one step
    assert ctl.auto_layout()
    assert doc.topology.positions == {}
    doc.undo_stack.undo()
    assert doc.topology.positions["sw1"] == (500.0, 40.0)
    undo_redo_undo(doc)
    assert doc.topology.positions == {}
    assert not ctl.auto_layout()  # nothing placed: nothing to forget


def test_edit_attribute_single_and_several_as_one_step(doc, ctl):
    assert ctl.edit_attribute(["fastt1.arr1"], "segment_kb", "256")
    assert doc.topology["fastt1.arr1"]["segment_kb"] == 256
    arrays = ["fastt1.arr1", "fastt1.arr2", "fastt2.arr1"]
    assert ctl.edit_attribute(arrays, "raid_level", 10)
    assert [doc.topology[a]["raid_level"] for a in arrays] == [10, 10, 10]
    assert doc.undo_stack.count() == 2
    undo_redo_undo(doc)
    assert [doc.topology[a]["raid_level"] for a in arrays] == [5, 5, 5]
    doc.undo_stack.undo()
    assert doc.topology["fastt1.arr1"]["segment_kb"] == 128
    assert ctl.edit_attribute(["sw1"], "name", "core switch")
    assert doc.topology["sw1"].name == "core switch"
    doc.undo_stack.undo()
    assert doc.topology["sw1"].name != "core switch"


def test_edit_attribute_refused_goes_back_to_the_field(doc, ctl):
    refused: list[tuple[str, str]] = []
    ctl.editRefused.connect(lambda key, reason: refused.append((key, reason)))
    assert not ctl.edit_attribute(["fastt1.arr1"], "segment_kb", "abc")
    assert refused[-1][0] == "segment_kb" and "not a number" in refused[-1][1]
    assert not ctl.edit_attribute(["fastt1.ld1"], "owner", "fastt1")
    assert refused[-1][0] == "owner" and "is not a controller" in refused[-1][1]
    assert not ctl.edit_attribute(["sw1"], "name", "x" * 65)
    assert refused[-1][0] == "name" and "at most 64" in refused[-1][1]
    assert not ctl.edit_attribute(["fastt1.arr1", "sw1"], "name", "two kinds")
    assert doc.undo_stack.count() == 0 and doc.topology["fastt1.arr1"]["segment_kb"] == 128


def test_design_properties_are_one_step(doc, ctl):
    before = dict(doc.topology.meta)
    assert ctl.set_meta({"customer": "ACME", "author": "me", "name": before["name"]})
    assert doc.topology.meta["customer"] == "ACME" and doc.undo_stack.count() == 1
    undo_redo_undo(doc)
    assert doc.topology.meta == before
    assert not ctl.set_meta({"customer": before["customer"]})  # nothing changes: no step


def test_add_scenario_and_undo(doc, ctl):
    base = doc.topology
    assert ctl.add_scenario("Two fabrics")
    assert list(doc.project.scenarios) == ["Base", "Two fabrics"] and doc.project.current == "Two fabrics"
    assert doc.topology is not base and len(doc.topology) == len(base)
    copy = doc.topology
    doc.undo_stack.undo()
    assert list(doc.project.scenarios) == ["Base"] and doc.topology is base
    doc.undo_stack.redo()
    assert doc.project.current == "Two fabrics" and doc.topology is copy  # the same design comes back
    assert not ctl.add_scenario("Base")  # taken
    assert doc.undo_stack.count() == 1


def test_rename_scenario_and_undo(doc, ctl, messages):
    assert ctl.rename_scenario("Today")
    assert list(doc.project.scenarios) == ["Today"]
    undo_redo_undo(doc)
    assert list(doc.project.scenarios) == ["Base"] and doc.project.current == "Base"
    assert not ctl.rename_scenario("")
    assert messages and doc.undo_stack.count() == 1  # the undone rename is still redoable


def test_delete_scenario_and_undo(doc, ctl, messages):
    assert not ctl.delete_scenario()  # the only one
    assert "only scenario" in messages[-1]
    ctl.add_scenario("B")
    ctl.add_scenario("C")
    ctl.switch_scenario("B")
    b = doc.topology
    assert ctl.delete_scenario()
    assert list(doc.project.scenarios) == ["Base", "C"] and doc.project.current == "Base"
    undo_redo_undo(doc)
    assert list(doc.project.scenarios) == ["Base", "B", "C"]
    assert doc.project.current == "B" and doc.topology is b


def test_switch_scenario_and_undo(doc, ctl):
    ctl.add_scenario("B")
    assert ctl.switch_scenario("Base") and doc.project.current == "Base"
    assert not ctl.switch_scenario("Base")  # already current: no step
    undo_redo_undo(doc)
    assert doc.project.current == "B"


def test_history_is_linear_across_scenarios(doc, ctl):
    """Each design edit is undone in the scenario it was made in."""
    ctl.edit_attribute(["fastt1.arr1"], "segment_kb", 256)  # in Base
    ctl.add_scenario("B")
    ctl.delete(["fastt8"])  # in B
    ctl.switch_scenario("Base")
    assert "fastt8" in doc.topology and doc.topology["fastt1.arr1"]["segment_kb"] == 256
    doc.undo_stack.undo()  # the switch
    assert doc.project.current == "B" and "fastt8" not in doc.topology
    doc.undo_stack.undo()  # the delete, in B
    assert "fastt8" in doc.project.scenarios["B"]
    doc.undo_stack.undo()  # the new scenario
    doc.undo_stack.undo()  # the edit, in Base
    assert list(doc.project.scenarios) == ["Base"] and doc.topology["fastt1.arr1"]["segment_kb"] == 128
    for _ in range(4):
        doc.undo_stack.redo()
    assert doc.project.current == "Base" and "fastt8" not in doc.project.scenarios["B"]
    assert doc.project.scenarios["B"]["fastt1.arr1"]["segment_kb"] == 256
