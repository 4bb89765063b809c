"""Scenarios of a project: copy, rename, delete and switch, as methods and as undoable commands."""

from __future__ import annotations

import json

import pytest

from planner import edit
from planner.io import Project, ProjectError, export_json, open_project, save_project
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
