"""The autosave's way of saving: detached documents encoded in small steps give the same file
contents as a save of the live project."""

from __future__ import annotations

import math

import pytest

from planner.io import Project, ProjectError, open_project, save_project
from planner.io.document import dumps, dumps_in_steps, topology_to_dict
from planner.io.sanfile import save_designs


def test_the_stepwise_encoder_writes_the_same_text(benchmark_design):
    doc = topology_to_dict(benchmark_design)
    doc["meta"]["note"] = 'Überprüfung ✓ \u2028 "quoted"'  # non-ASCII and escapes as the file keeps them
    doc["meta"]["ratio"] = 0.1 + 0.2
    assert dumps_in_steps(doc) == dumps(doc)
    with pytest.raises(ValueError):
        dumps_in_steps({"x": math.nan})  # refused, as dumps refuses it


def test_saved_designs_open_as_the_project_saved(benchmark_design, tmp_path):
    project = Project(benchmark_design)
    project.add_scenario("Copy")
    designs = [(name, topology_to_dict(topo)) for name, topo in project.scenarios.items()]
    first = save_designs(designs, project.current, tmp_path / "a.sanplan", "autosave")
    again = save_designs(designs, project.current, tmp_path / "a.sanplan", "autosave")
    assert (first, again) == (1, 2)  # revisions appended, as save_project does
    save_project(project, tmp_path / "b.sanplan")
    a, b = open_project(tmp_path / "a.sanplan"), open_project(tmp_path / "b.sanplan")
    assert list(a.scenarios) == list(b.scenarios) == ["Base", "Copy"]
    for name in a.scenarios:
        assert topology_to_dict(a.scenarios[name]) == topology_to_dict(b.scenarios[name])
    with pytest.raises(ProjectError, match="folder"):
        save_designs(designs, project.current, tmp_path, "autosave")


def test_the_text_made_in_steps_is_the_text_encoded_whole(benchmark_design):
    from planner.io.document import topology_text_in_steps

    design = benchmark_design.clone()
    design.positions["p690"] = (10.0, 20.0)
    design.meta["name"] = 'Zwei "Fabrics" ✓'
    steps = list(topology_text_in_steps(design, per_step=500))
    assert steps[-1] == dumps(topology_to_dict(design))
    assert all(s is None for s in steps[:-1]) and len(steps) > len(design) // 500  # a piece per 500 of a kind
    design._set("sw1", "domain_id", math.nan)  # a value JSON cannot store: refused, as dumps refuses it
    with pytest.raises(ValueError):
        list(topology_text_in_steps(design))


def test_save_designs_takes_texts_and_documents_alike(benchmark_design, tmp_path):
    from planner.io import open_project

    other = benchmark_design.clone()
    other.meta["name"] = "Two"
    save_designs(
        [("Base", dumps(topology_to_dict(benchmark_design))), ("Two", topology_to_dict(other))],
        "Two",
        tmp_path / "m.sanplan",
    )
    project = open_project(tmp_path / "m.sanplan")
    assert project.current == "Two" and project.scenarios["Two"].meta["name"] == "Two"
    assert len(project.scenarios["Base"]) == len(benchmark_design)


def test_a_revision_body_put_together_from_the_rows_is_the_one_encoded_whole(benchmark_design):
    import zlib

    from planner.io.sanfile import _body_of_texts

    other = benchmark_design.clone()
    other.meta["name"] = "Zwei Fabrics ✓"
    designs = [("Base", topology_to_dict(benchmark_design)), ('Zwei "Fabrics"', topology_to_dict(other))]
    doc = {"current": "Base", "scenarios": [{"name": n, "design": d} for n, d in designs]}
    got = _body_of_texts("Base", [(n, dumps(d)) for n, d in designs])
    assert zlib.decompress(got).decode("utf-8") == dumps(doc)
