"""One check of a part record (planner.io.parts.part_problem), shared by the catalog and the loader."""

from __future__ import annotations

import copy
import json

import pytest

from catalogs.catalog import CatalogError, validate_part
from planner.examples import EXAMPLES, build_example
from planner.io import Project, ProjectError, open_project, part_problem, project_from_dict, project_to_dict
from tests.planner.io.helpers import GOLDEN

HBA = {
    "id": "MY-HBA",
    "kind": "hba",
    "name": "4 Gb HBA",
    "ports": 2,
    "figures": {"hba": {"rated": {"value": 400, "source": "vendor sheet"}}},
}


def changed(path: tuple, value=None, drop: bool = False) -> dict:
    part = copy.deepcopy(HBA)
    target = part
    for key in path[:-1]:
        target = target[key]
    if drop:
        del target[path[-1]]
    else:
        target[path[-1]] = value
    return part


BAD_PARTS = {
    "not an object": (["MY-HBA"], "must be an object"),
    "blank id": (changed(("id",), "  "), "needs an id"),
    "long id": (changed(("id",), "x" * 65), "needs an id of 1-64 characters"),
    "unknown kind": (changed(("kind",), "toaster"), "kind must be one of"),
    "kind not text": (changed(("kind",), ["hba"]), "kind must be one of"),
    "name not text": (changed(("name",), 5), "name must be text"),
    "figures not an object": (changed(("figures",), [1]), "figures must be an object"),
    "figure not sets": (changed(("figures", "hba"), 5), "figure hba must be an object of figure sets"),
    "unknown set": (changed(("figures", "hba", "guessed"), {"value": 1, "source": "s"}), "unknown set 'guessed'"),
    "entry not an object": (changed(("figures", "hba", "rated"), 400), "figure hba.rated must be an object"),
    "no source": (changed(("figures", "hba", "rated", "source"), drop=True), "figure hba.rated has no source"),
    "source not text": (changed(("figures", "hba", "rated", "source"), 5), "has no source"),
    "no value": (changed(("figures", "hba", "rated", "value"), drop=True), "has no value"),
    "negative": (changed(("figures", "hba", "rated", "value"), -1), "hba.rated.value must be a positive number"),
    "infinite": (changed(("figures", "hba", "rated", "value"), float("inf")), "positive number"),
    "bool": (changed(("figures", "hba", "rated", "read"), True), "hba.rated.read must be a positive number"),
    "estimate not bool": (changed(("figures", "hba", "rated", "estimate"), "yes"), "estimate must be true or false"),
    "reuses unknown": (changed(("figures", "hba", "rated", "reuses"), "other"), "reuses must name a figure set"),
    "layouts not a list": (changed(("layouts",), None), "layouts must be a list"),
    "layout row not object": (changed(("layouts",), [5]), "a layout row must be an object"),
    "layout row number": (
        changed(("layouts",), [{"raid_level": 5, "data_drives": 4, "segment_kb": 64, "read": "x", "write": 1}]),
        "layout row read must be a number",
    ),
    "layout row source": (
        changed(("layouts",), [{"raid_level": 5, "data_drives": 4, "segment_kb": 64, "read": 1, "write": 1}]),
        "a layout row lacks its source",
    ),
    "slot map row": (changed(("slot_map",), [{"planar": 1}]), "a slot map row lacks link"),
    "ports text": (changed(("ports",), "two"), "ports must be a number"),
    "multipath number": (changed(("multipath",), 5), "multipath must be text or a list"),
    "multipath list of numbers": (changed(("multipath",), [1]), "multipath must be text or a list"),
    "too deep": (changed(("x",), json.loads("[" * 20 + "]" * 20)), "nested too deeply"),
}


def test_a_good_part_has_no_problem():
    assert part_problem(HBA) is None
    assert validate_part(copy.deepcopy(HBA)) == HBA


@pytest.mark.parametrize("case", BAD_PARTS)
def test_the_catalog_and_the_loader_refuse_the_same_parts(case, one_drawer):
    part, expected = BAD_PARTS[case]
    problem = part_problem(part)
    assert problem is not None and expected in problem
    with pytest.raises(CatalogError, match="^part") as catalog:
        validate_part(part)
    assert problem in str(catalog.value)
    doc = project_to_dict(Project.single(one_drawer))
    key = part.get("id") if isinstance(part, dict) and isinstance(part.get("id"), str) else "MY-HBA"
    doc["parts"][key] = part  # under its own id: the loader's own check (id equals key) passes
    with pytest.raises(ProjectError, match="^x.json: ") as loader:
        project_from_dict(doc, where="x.json")
    assert f"part {key!r}" in str(loader.value) and expected in str(loader.value)


def test_a_catalog_part_needs_an_id_a_design_part_has_its_key():
    """In a design file the key of ``parts`` is the id (docs/file-format.md 1.3); a catalog row
    has no key, so it must carry its id."""
    part = changed(("id",), drop=True)
    assert "needs an id" in part_problem(part)
    with pytest.raises(CatalogError, match="needs an id"):
        validate_part(part)


def test_every_built_in_part_is_valid(parts):
    assert {pid: part_problem(part) for pid, part in parts.items() if part_problem(part)} == {}


@pytest.mark.parametrize("example", EXAMPLES)
def test_every_example_and_golden_file_part_is_valid(example, parts):
    designs = [build_example(example, parts), *(open_project(g).topology for g in sorted(GOLDEN.glob("*.sanplan")))]
    for topo in designs:
        for pid, part in topo.parts.items():
            assert part_problem(part) is None, pid
