"""Scenarios of a project: copy, rename, delete and switch, as methods and as undoable commands."""

from __future__ import annotations

import json

import pytest

from planner import edit
from planner.commands import Macro
from planner.io import (
    AddScenario,
    DeleteScenario,
    Project,
    ProjectError,
    RenameScenario,
    SwitchScenario,
    export_json,
    open_project,
    save_project,
)
from tests.planner.io.helpers import same_design

# -- scenarios -------------------------------------------------------------------------------------


def test_scenarios_copy_rename_delete_and_switch(one_drawer):
    proj = Project.single(one_drawer)
    upgrade = proj.add_scenario("Upgrade")
    assert upgrade is not one_drawer and proj.current == "Base"
    edit.set_attr(upgrade, "fastt1.arr1", "segment_kb", 256)
    assert one_drawer["fastt1.arr1"]["segment_kb"] == 128  # a deep copy
    proj.add_scenario("Worst", from_name="Upgrade")
    assert proj.scenarios["Worst"]["fastt1.arr1"]["segment_kb"] == 256
    assert proj.switch("Upgrade") is upgrade and proj.topology is upgrade
    proj.rename_scenario("Upgrade", "Two drawers")
    assert list(proj.scenarios) == ["Base", "Two drawers", "Worst"] and proj.current == "Two drawers"
    proj.delete_scenario("Two drawers")
    assert list(proj.scenarios) == ["Base", "Worst"] and proj.current == "Base"
    proj.delete_scenario("Base")
    assert proj.current == "Worst"
    with pytest.raises(ProjectError, match="only scenario"):
        proj.delete_scenario("Worst")


@pytest.mark.parametrize("name", ["", "   ", "x" * 65, "a\tb", "new\nline", " lead", 5, "Base"])
def test_bad_scenario_names_are_refused(one_drawer, name):
    proj = Project.single(one_drawer)
    with pytest.raises(ProjectError, match="scenario name"):
        proj.add_scenario(name)
    with pytest.raises(ProjectError, match="scenario"):
        proj.switch("nope")
    assert list(proj.scenarios) == ["Base"]


def test_scenarios_survive_save_and_json(one_drawer, tmp_path):
    proj = Project.single(one_drawer)
    edit.set_attr(proj.add_scenario("Upgrade"), "fastt1.arr1", "segment_kb", 256)
    proj.add_scenario("Spare")
    proj.switch("Upgrade")  # the current one is not the first
    save_project(proj, tmp_path / "s.sanplan")
    export_json(proj, tmp_path / "s.json")
    for back in (open_project(tmp_path / "s.sanplan"), open_project(tmp_path / "s.json")):
        assert list(back.scenarios) == ["Base", "Upgrade", "Spare"] and back.current == "Upgrade"
        assert back.topology["fastt1.arr1"]["segment_kb"] == 256
        assert back.scenarios["Base"]["fastt1.arr1"]["segment_kb"] == 128
        for name in proj.scenarios:
            same_design(proj.scenarios[name], back.scenarios[name])
    doc = json.loads((tmp_path / "s.json").read_text())
    assert doc["scenario"] == "Upgrade" and doc["scenario_order"] == ["Base", "Upgrade", "Spare"]
    assert list(doc["scenarios"]) == ["Base", "Spare"] and "format" not in doc["scenarios"]["Base"]
    export_json(open_project(tmp_path / "s.json"), tmp_path / "t.json")
    assert (tmp_path / "t.json").read_bytes() == (tmp_path / "s.json").read_bytes()


# -- scenario operations as undoable commands --------------------------------------------------------


def state(proj: Project) -> tuple:
    """Everything undo must restore: the names in order, the current one, and the design objects."""
    return list(proj.scenarios), proj.current, [id(t) for t in proj.scenarios.values()]


@pytest.fixture
def three(one_drawer) -> Project:
    proj = Project.single(one_drawer)
    proj.add_scenario("Upgrade")
    proj.add_scenario("Spare")
    proj.switch("Upgrade")
    return proj


def test_add_scenario_command_undo_and_redo(three):
    before = state(three)
    cmd = AddScenario("Worst", from_name="Spare", make_current=True)
    cmd.do(three)
    added = three.scenarios["Worst"]
    assert list(three.scenarios) == ["Base", "Upgrade", "Spare", "Worst"] and three.current == "Worst"
    assert added is not three.scenarios["Spare"]
    same_design(three.scenarios["Spare"], added)
    cmd.undo(three)
    assert state(three) == before
    cmd.do(three)  # redo puts the same design back
    assert three.scenarios["Worst"] is added and three.current == "Worst"
    assert cmd.text == "Add scenario Worst"


def test_add_scenario_command_keeps_the_current_one_unless_asked(three):
    cmd = AddScenario("Copy")
    cmd.do(three)
    assert three.current == "Upgrade" and list(three.scenarios)[-1] == "Copy"
    same_design(three.scenarios["Upgrade"], three.scenarios["Copy"])


@pytest.mark.parametrize("name", ["", "Base", "x" * 65])
def test_refused_add_scenario_command_changes_nothing(three, name):
    before = state(three)
    with pytest.raises(ProjectError, match="scenario name"):
        AddScenario(name).do(three)
    assert state(three) == before


def test_rename_scenario_command_undo(three):
    before = state(three)
    cmd = RenameScenario("Upgrade", "Two drawers")
    cmd.do(three)
    assert list(three.scenarios) == ["Base", "Two drawers", "Spare"] and three.current == "Two drawers"
    cmd.undo(three)
    assert state(three) == before
    with pytest.raises(ProjectError, match="already used"):
        RenameScenario("Upgrade", "Base").do(three)
    assert state(three) == before


@pytest.mark.parametrize("name", ["Base", "Upgrade", "Spare"])
def test_delete_scenario_command_undo_restores_the_exact_state(three, name):
    three.switch("Upgrade")
    before = state(three)
    deleted = three.scenarios[name]
    cmd = DeleteScenario(name)
    cmd.do(three)
    assert name not in three.scenarios and three.current in three.scenarios
    cmd.undo(three)
    assert state(three) == before and three.scenarios[name] is deleted
    cmd.do(three)  # redo
    assert name not in three.scenarios


def test_delete_the_only_scenario_command_is_refused(one_drawer):
    proj = Project.single(one_drawer)
    with pytest.raises(ProjectError, match="only scenario"):
        DeleteScenario("Base").do(proj)
    assert list(proj.scenarios) == ["Base"] and proj.topology is one_drawer


def test_switch_scenario_command_undo(three):
    cmd = SwitchScenario("Base")
    cmd.do(three)
    assert three.current == "Base"
    cmd.undo(three)
    assert three.current == "Upgrade"
    with pytest.raises(ProjectError, match="does not exist"):
        SwitchScenario("nope").do(three)
    assert three.current == "Upgrade"


def test_a_macro_of_scenario_commands_is_one_step(three):
    """Duplicate and rename as one gesture: planner.commands.Macro undoes both, or neither is left."""
    before = state(three)
    step = Macro("Duplicate scenario", [AddScenario("Copy", make_current=True), RenameScenario("Copy", "Final")])
    step.do(three)
    assert list(three.scenarios) == ["Base", "Upgrade", "Spare", "Final"] and three.current == "Final"
    step.undo(three)
    assert state(three) == before
    failing = Macro("Duplicate scenario", [AddScenario("Copy"), RenameScenario("Copy", "Base")])
    with pytest.raises(ProjectError):
        failing.do(three)
    assert state(three) == before


def test_scenario_commands_in_sequence_undo_in_reverse(three):
    history = [state(three)]
    cmds = [
        AddScenario("A"),
        RenameScenario("A", "B"),
        SwitchScenario("B"),
        DeleteScenario("Base"),
        DeleteScenario("B"),
    ]
    for cmd in cmds:
        cmd.do(three)
        history.append(state(three))
    for cmd in reversed(cmds):
        history.pop()
        cmd.undo(three)
        assert state(three) == history[-1]
