"""The JSON interchange document: layout, round trips, migrations, and refusals of wrong values."""

from __future__ import annotations

import json

import pytest

from planner import schema
from planner.commands import SetMeta
from planner.io import (
    SCHEMA_VERSION,
    Project,
    ProjectError,
    atomic,
    document,
    export_json,
    import_json,
    open_project,
    project_from_dict,
    project_to_dict,
    topology_from_dict,
    topology_to_dict,
)
from planner.schema import KINDS
from tests.planner.io.helpers import aggregate, leftovers, same_design

# -- the JSON document ------------------------------------------------------------------------------


#: the collections of the JSON document, in the order it is written and read (docs/file-format.md 1.4);
#: the names come from planner.schema, and this list pins them: changing one changes the file format
DOCUMENT_COLLECTIONS = [
    "servers", "lpars", "drawers", "planars", "rio_links", "phbs", "slots", "hbas", "hba_ports", "fabrics",
    "switches", "asics", "backplanes", "switch_ports", "subsystems", "controllers", "host_ports", "enclosures",
    "drives", "arrays", "logical_drives", "host_mappings", "hdisks", "volume_groups", "logical_volumes",
    "workloads", "cables", "zones", "sites", "racks",
]  # fmt: skip


def test_collections_name_every_kind_in_domain_words(one_drawer):
    collections = [schema.collection(kind) for kind in KINDS]
    assert collections == DOCUMENT_COLLECTIONS
    assert [schema.kind_of_collection(c) for c in collections] == list(KINDS)
    assert len(set(collections)) == len(collections)
    assert [key for key in topology_to_dict(one_drawer) if key in collections] == collections
    for kind, spec in KINDS.items():
        assert not {"id", "name", "parent", "part", "kind"} & set(spec.attrs), kind


def test_json_layout_uses_flat_entries(one_drawer):
    doc = topology_to_dict(one_drawer)
    assert (doc["format"], doc["schema_version"]) == ("sanplan-design", SCHEMA_VERSION)
    assert doc["meta"]["name"] == "p690 one drawer"
    assert set(doc["parts"]) == set(one_drawer.parts)
    cable = doc["cables"][0]
    assert list(cable) == ["id", "name", "a", "b", "label", "length_m", "media"]
    assert cable["label"] == "D1-S1-SW1P00" and cable["length_m"] == 5
    zone = doc["zones"][0]
    assert list(zone) == ["id", "name", "parent", "members"]
    assert zone["parent"] == "fab.FAB_D1" and isinstance(zone["members"], list)
    assert doc["servers"][0]["part"] == "7040-681" and "parent" not in doc["servers"][0]
    assert sum(len(doc[c]) for c in DOCUMENT_COLLECTIONS) == len(one_drawer)
    json.dumps(doc, allow_nan=False)  # plain JSON values only


def test_json_round_trip_is_identical(one_drawer, tmp_path):
    back = topology_from_dict(json.loads(json.dumps(topology_to_dict(one_drawer))))
    same_design(one_drawer, back)
    assert topology_to_dict(back) == topology_to_dict(one_drawer)
    export_json(one_drawer, tmp_path / "a.json")
    imported = import_json(tmp_path / "a.json")
    same_design(one_drawer, imported.topology)
    assert imported.path is None
    export_json(imported, tmp_path / "b.json")
    assert (tmp_path / "a.json").read_bytes() == (tmp_path / "b.json").read_bytes()
    assert aggregate(imported.topology) == aggregate(one_drawer)


def test_private_keys_are_ignored_and_unknown_keys_refused(one_drawer):
    doc = topology_to_dict(one_drawer)
    doc["x-reviewed-by"] = "ops"
    doc["cables"][0]["x-note"] = "spare"
    assert len(topology_from_dict(doc)) == len(one_drawer)
    doc["cabels"] = []
    with pytest.raises(ProjectError, match="here.json: has an unknown key 'cabels'"):
        topology_from_dict(doc, where="here.json")


def test_newer_json_schema_is_refused(one_drawer, tmp_path):
    doc = topology_to_dict(one_drawer)
    doc["schema_version"] = SCHEMA_VERSION + 1
    path = tmp_path / "new.json"
    path.write_text(json.dumps(doc))
    with pytest.raises(ProjectError, match=r"new\.json: was written by a newer SANplan .*upgrade SANplan"):
        open_project(path)


def test_json_migrations_apply_to_every_scenario(one_drawer, monkeypatch):
    # a pretend schema 2 that renamed the cable attribute "label" to "tag": old documents migrate
    def rename_label(design):
        for cable in design.get("cables", []):
            cable["label"] = cable.pop("old_label")
        return design

    doc = project_to_dict(Project.single(one_drawer))
    doc["scenario_order"] = ["Base", "Other"]
    doc["scenarios"] = {"Other": document.without_format(topology_to_dict(one_drawer))}
    for design in (doc, doc["scenarios"]["Other"]):
        for cable in design["cables"]:
            cable["old_label"] = cable.pop("label")
    monkeypatch.setattr(document, "SCHEMA_VERSION", 2)
    monkeypatch.setattr(document, "JSON_MIGRATIONS", {1: rename_label})
    proj = project_from_dict(doc)
    for topo in proj.scenarios.values():
        assert topo["cab1"]["label"] == "D1-S1-SW1P00"


def test_import_json_refuses_a_sanplan_file(saved):
    with pytest.raises(ProjectError, match=r"design\.sanplan: is a \.sanplan design file, not a JSON export"):
        import_json(saved)


def test_export_refuses_to_overwrite_other_files(one_drawer, saved, tmp_path):
    notes = tmp_path / "notes.json"
    notes.write_text('{"shopping": ["milk"]}')
    for target in (notes, saved):
        before = target.read_bytes()
        with pytest.raises(ProjectError, match="is not a SANplan JSON export; choose another name"):
            export_json(one_drawer, target)
        assert target.read_bytes() == before
    export_json(one_drawer, tmp_path / "ok.json")
    export_json(one_drawer, tmp_path / "ok.json")  # an earlier export may be replaced
    assert leftovers(tmp_path) == []


def test_a_failed_export_leaves_the_old_file(one_drawer, tmp_path, monkeypatch):
    path = tmp_path / "a.json"
    export_json(one_drawer, path)
    before = path.read_bytes()

    def fail(*args):
        raise OSError(5, "Input/output error")

    monkeypatch.setattr(atomic.os, "replace", fail)
    SetMeta("customer", "changed").do(one_drawer)
    with pytest.raises(ProjectError, match=r"a\.json: not saved \(Input/output error\)"):
        export_json(one_drawer, path)
    assert path.read_bytes() == before and leftovers(tmp_path) == []


# -- JSON with wrong values --------------------------------------------------------------------------


def _set(path: tuple, value):
    def change(doc):
        target = doc
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value

    return change


def _drop(path: tuple):
    def change(doc):
        target = doc
        for key in path[:-1]:
            target = target[key]
        del target[path[-1]]

    return change


WRONG = {
    "members not a list": (
        _set(("zones", 0, "members"), 5),
        "in zones: component z.Z_D1_FCS0_FASTT1_A: members: 5 is not a list of component ids",
    ),
    "members not ids": (_set(("zones", 0, "members"), [1, 2]), "members: a list of component ids holds something else"),
    "raid level text": (
        _set(("arrays", 0, "raid_level"), "x"),
        "in arrays: component fastt1.arr1: raid_level: 'x' is not one of 0, 1, 3, 5, 10",
    ),
    "missing id": (_drop(("cables", 0, "id")), r"cables\[0\] has no id"),
    "id not text": (_set(("cables", 0, "id"), 5), r"cables\[0\] has no id"),
    "name not text": (_set(("cables", 0, "name"), ["a"]), "name must be text"),
    "parent not text": (_set(("zones", 0, "parent"), [1]), "parent must be a component id"),
    "part not text": (_set(("servers", 0, "part"), 7), "part must be a component id"),
    "dangling parent": (_set(("zones", 0, "parent"), "nope"), "its parent 'nope' is missing"),
    "wrong parent kind": (_set(("zones", 0, "parent"), "p690"), "a zone cannot sit inside a server"),
    "dangling reference": (_set(("cables", 0, "a"), "nope"), "a names 'nope', which does not exist"),
    "reference of the wrong kind": (
        _set(("cables", 0, "a"), "p690"),
        "must name a hba_port or switch_port or host_port",
    ),
    "duplicate id": (_set(("cables", 1, "id"), "cab1"), "appears twice"),
    "unknown attribute": (_set(("cables", 0, "colour"), "red"), "a cable has no attribute 'colour'"),
    "kind key": (_set(("cables", 0, "kind"), "cable"), "no attribute 'kind'"),
    "length negative": (_set(("cables", 0, "length_m"), -1), "length_m: -1 is below the minimum 0"),
    "length text": (_set(("cables", 0, "length_m"), "far"), "length_m: 'far' is not a number"),
    "bool for number": (_set(("arrays", 0, "segment_kb"), True), "segment_kb"),
    "collection not a list": (_set(("cables",), {"a": 1}), "cables must be a list"),
    "entry not an object": (_set(("cables", 0), "cab1"), r"cables\[0\] is not an object"),
    "unknown part": (_set(("servers", 0, "part"), "nope"), "part 'nope' is not in the design's parts"),
    "meta not an object": (_set(("meta",), ["x"]), "meta must be an object"),
    "meta value not text": (_set(("meta", "name"), 5), "meta must be an object of text"),
    "parts not an object": (_set(("parts",), []), "parts must be an object"),
    "part not an object": (_set(("parts", "FC6239"), 1), "part 'FC6239' must be an object"),
    "part id mismatch": (_set(("parts", "FC6239", "id"), "other"), "must match its key"),
    "figure value text": (_set(("parts", "FC6239", "figures", "hba", "measured", "value"), "fast"), "positive number"),
    "figure value negative": (_set(("parts", "FC6239", "figures", "hba", "measured", "value"), -3), "positive number"),
    "figures not object": (_set(("parts", "FC6239", "figures"), [1]), "figures must be an object"),
    "layout row bad": (_set(("parts", "FAStT600-Turbo", "layouts", 0, "read"), None), "layout row read"),
    "layouts not list": (_set(("parts", "FAStT600-Turbo", "layouts"), 5), "layouts must be a list"),
    "multipath number": (_set(("parts", "FAStT600-Turbo", "multipath"), 5), "multipath"),
    "part too deep": (_set(("parts", "FC6239", "x"), json.loads("[" * 40 + "]" * 40)), "nested too deeply"),
    "format wrong": (_set(("format",), "other"), "is not a SANplan design document"),
    "format missing": (_drop(("format",)), "is not a SANplan design document"),
    "schema version text": (_set(("schema_version",), "1"), "schema_version '1'"),
    "schema version bool": (_set(("schema_version",), True), "schema_version True"),
    "schema version zero": (_set(("schema_version",), 0), "schema_version 0"),
    "scenario name bad": (_set(("scenario",), ""), "scenario '' is empty"),
    "scenarios not object": (_set(("scenarios",), []), "scenarios must be an object"),
    "scenario not a design": (_set(("scenarios",), {"Other": 5}), "scenario 'Other': a design must be a JSON object"),
    "scenario repeated": (_set(("scenarios",), {"Base": {}}), "scenario 'Base' is already used"),
    "scenario with format": (
        _set(("scenarios",), {"Other": {"format": "sanplan-design"}}),
        "scenario 'Other': has an unknown key 'format'",
    ),
    "scenario order wrong": (
        _set(("scenario_order",), ["Base", "Other"]),
        "scenario_order must list each scenario once",
    ),
    "scenario order not text": (_set(("scenario_order",), [1]), "scenario_order"),
}


@pytest.mark.parametrize("case", WRONG)
def test_json_with_wrong_values_is_refused(case, one_drawer, tmp_path):
    change, expected = WRONG[case]
    doc = project_to_dict(Project.single(one_drawer))
    change(doc)
    path = tmp_path / "edited.json"
    path.write_text(json.dumps(doc))
    with pytest.raises(ProjectError, match=expected) as info:
        open_project(path)
    message = str(info.value)
    assert message.startswith(f"{path}: ") and "\n" not in message
    assert "docs/file-format.md" in message


def test_a_part_without_id_takes_its_key(one_drawer, tmp_path):
    """docs/file-format.md 1.3: a part's id is optional; when present it must equal its key."""
    doc = project_to_dict(Project.single(one_drawer))
    del doc["parts"]["FC6239"]["id"]
    path = tmp_path / "no-id.json"
    path.write_text(json.dumps(doc))
    topo = open_project(path).topology
    assert "FC6239" in topo.parts


def test_json_scenario_design_errors_name_the_scenario(one_drawer):
    doc = project_to_dict(Project.single(one_drawer))
    other = document.without_format(topology_to_dict(one_drawer))
    other["zones"][0]["members"] = 5
    doc["scenarios"] = {"Other": other}
    with pytest.raises(ProjectError, match="x.json: scenario 'Other': in zones: component"):
        project_from_dict(doc, where="x.json")
