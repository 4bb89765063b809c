"""The design file (.sanplan) and the JSON interchange: round trips, scenarios, revisions, golden
files of every version, refusals of bad files, atomic saves, and fuzzed loaders."""

from __future__ import annotations

import copy
import json
import os
import re
import signal
import sqlite3
import subprocess
import sys
import time
import zlib
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from planner import edit, project
from planner.analysis import analyze
from planner.commands import SetMeta
from planner.examples import build_example
from planner.model import KINDS, Topology
from planner.project import (
    APPLICATION_ID,
    COLLECTIONS,
    FILE_VERSION,
    MIGRATIONS,
    SCHEMA_VERSION,
    Project,
    ProjectError,
    export_json,
    import_json,
    list_revisions,
    open_project,
    project_from_dict,
    project_to_dict,
    restore_revision,
    save_project,
    topology_from_dict,
    topology_to_dict,
)

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = ROOT / "tests" / "golden"
FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def snapshot(t: Topology):
    """Everything a design is, independent of the interleaving of kinds in creation order."""
    return {
        "meta": dict(t.meta),
        "parts": copy.deepcopy(t.parts),
        "kinds": {k: [(c.id, c.name, c.parent, c.part, dict(c.attrs)) for c in t.of_kind(k)] for k in KINDS},
        "children": {c.id: [x.id for x in t.children(c.id)] for c in t.components() if t.children(c.id)},
    }


def same_design(a: Topology, b: Topology) -> None:
    sa, sb = snapshot(a), snapshot(b)
    assert sa["meta"] == sb["meta"]
    assert sa["parts"] == sb["parts"]
    assert sa["kinds"] == sb["kinds"]
    # children keep their order within each kind (kinds under one parent come in schema order)
    for pid, kids in sa["children"].items():
        for kind in KINDS:
            assert [k for k in kids if a[k].kind == kind] == [k for k in sb["children"][pid] if b[k].kind == kind]


def aggregate(t: Topology) -> float:
    return analyze(t, "measured", "read", "cache").aggregate


def leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".tmp") or "-journal" in p.name)


@pytest.fixture
def saved(one_drawer, tmp_path) -> Path:
    path = tmp_path / "design.sanplan"
    save_project(Project.single(one_drawer), path, message="first")
    return path


@pytest.fixture(scope="module")
def valid_files(tmp_path_factory) -> dict[str, bytes]:
    """Bytes of a valid .sanplan and a valid JSON export (two scenarios), for mutation fuzzing."""
    from catalogs.catalog import builtin_parts

    folder = tmp_path_factory.mktemp("valid")
    proj = Project.single(build_example("p690-one-drawer", builtin_parts()))
    proj.add_scenario("Upgrade")
    save_project(proj, folder / "v.sanplan", message="for fuzzing")
    export_json(proj, folder / "v.json")
    return {"sanplan": (folder / "v.sanplan").read_bytes(), "json": (folder / "v.json").read_bytes()}


@pytest.fixture(scope="module")
def fuzz_dir(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("fuzz")


# -- the JSON document ------------------------------------------------------------------------------


def test_collections_name_every_kind_in_domain_words():
    assert list(COLLECTIONS) == list(KINDS)
    assert len(set(COLLECTIONS.values())) == len(COLLECTIONS)
    for kind, schema in ((k, s.attrs) for k, s in KINDS.items()):
        assert not {"id", "name", "parent", "part", "kind"} & set(schema), kind


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
    assert sum(len(doc[c]) for c in COLLECTIONS.values()) == len(one_drawer)
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
    doc["scenarios"] = {"Other": project._without_format(topology_to_dict(one_drawer))}
    for design in (doc, doc["scenarios"]["Other"]):
        for cable in design["cables"]:
            cable["old_label"] = cable.pop("label")
    monkeypatch.setattr(project, "SCHEMA_VERSION", 2)
    monkeypatch.setattr(project, "JSON_MIGRATIONS", {1: rename_label})
    proj = project_from_dict(doc)
    for topo in proj.scenarios.values():
        assert topo["cab1"]["label"] == "D1-S1-SW1P00"


# -- the .sanplan file -------------------------------------------------------------------------------


def test_save_and_open_round_trip(one_drawer, saved):
    with sqlite3.connect(saved) as con:
        assert con.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID
        assert con.execute("PRAGMA user_version").fetchone()[0] == FILE_VERSION
    con.close()
    proj = open_project(saved)
    assert proj.path == saved and list(proj.scenarios) == ["Base"] and proj.current == "Base"
    same_design(one_drawer, proj.topology)
    assert proj.topology.revision == 0
    assert aggregate(proj.topology) == aggregate(one_drawer) == pytest.approx(2650)


def test_opening_never_writes(saved):
    before = saved.read_bytes()
    stamp = saved.stat().st_mtime_ns
    open_project(saved)
    list_revisions(saved)
    restore_revision(saved, 1)
    assert saved.read_bytes() == before and saved.stat().st_mtime_ns == stamp
    assert leftovers(saved.parent) == []


def _bodies(path: Path) -> list[tuple]:
    con = sqlite3.connect(path)
    try:
        return con.execute("SELECT name, position, is_current, body FROM scenarios ORDER BY position").fetchall()
    finally:
        con.close()


def test_save_load_save_gives_identical_bodies(saved, tmp_path):
    first = _bodies(saved)
    save_project(open_project(saved), tmp_path / "again.sanplan")
    save_project(open_project(saved), saved, message="second")
    assert _bodies(tmp_path / "again.sanplan") == first == _bodies(saved)


def test_the_file_carries_its_part_figures(one_drawer, saved):
    # another machine's catalog does not matter: change the design's own figure and it shows
    proj = open_project(saved)
    assert proj.topology.parts == one_drawer.parts
    proj.topology.parts["FC6239"]["figures"]["hba"]["measured"]["value"] = 100
    save_project(proj, saved)
    assert open_project(saved).topology.parts["FC6239"]["figures"]["hba"]["measured"]["value"] == 100


def test_save_goes_through_a_symlink(one_drawer, saved, tmp_path):
    link = tmp_path / "link.sanplan"
    link.symlink_to(saved)
    save_project(one_drawer, link, message="via link")
    assert link.is_symlink()
    assert [r[2] for r in list_revisions(saved)] == ["first", "via link"]


def test_save_into_a_missing_folder_is_refused(one_drawer, tmp_path):
    with pytest.raises(ProjectError, match=r"nowhere/a\.sanplan: cannot be written"):
        save_project(one_drawer, tmp_path / "nowhere" / "a.sanplan")


def test_save_refuses_values_a_file_cannot_store(one_drawer, tmp_path):
    one_drawer.parts["FC6239"]["weird"] = {1, 2}
    with pytest.raises(ProjectError, match="not saved: the design holds a value"):
        save_project(one_drawer, tmp_path / "a.sanplan")
    assert list(tmp_path.iterdir()) == []


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


# -- revisions -------------------------------------------------------------------------------------


def test_revisions_list_and_restore(one_drawer, saved):
    proj = open_project(saved)
    SetMeta("customer", "ACME").do(proj.topology)
    save_project(proj, saved, message="customer")
    proj.add_scenario("Upgrade")
    save_project(proj, saved, message="upgrade scenario")
    revs = list_revisions(saved)
    assert [(r[0], r[2], r[3]) for r in revs] == [
        (1, "first", ["Base"]),
        (2, "customer", ["Base"]),
        (3, "upgrade scenario", ["Base", "Upgrade"]),
    ]
    assert all(r[1].endswith("+00:00") for r in revs)
    old = restore_revision(saved, 1)
    assert list(old.scenarios) == ["Base"] and old.topology.meta["customer"] == "IBM pSeries Benchmark Center"
    same_design(one_drawer, old.topology)
    assert len(open_project(saved).scenarios) == 2  # restoring wrote nothing
    save_project(old, saved)
    assert list_revisions(saved)[-1][2:] == ("restored revision 1", ["Base"])
    assert list(open_project(saved).scenarios) == ["Base"]
    with pytest.raises(ProjectError, match=r"design\.sanplan: has no revision 9; choose one it keeps: 1, 2, 3, 4"):
        restore_revision(saved, 9)


def test_revisions_are_capped_dropping_the_oldest(one_drawer, tmp_path, monkeypatch):
    monkeypatch.setattr(project, "MAX_REVISIONS", 3)
    path = tmp_path / "a.sanplan"
    for n in range(5):
        save_project(one_drawer, path, message=f"save {n + 1}")
    assert [(r[0], r[2]) for r in list_revisions(path)] == [(3, "save 3"), (4, "save 4"), (5, "save 5")]


def test_revisions_of_a_json_file_are_refused(one_drawer, tmp_path):
    export_json(one_drawer, tmp_path / "a.json")
    with pytest.raises(ProjectError, match=r"a\.json: is not a \.sanplan design file"):
        list_revisions(tmp_path / "a.json")


# -- golden files of every version ------------------------------------------------------------------


def test_every_file_version_has_a_migration_and_a_golden_file():
    assert set(MIGRATIONS) == set(range(1, FILE_VERSION))
    for version in range(1, FILE_VERSION + 1):
        assert (GOLDEN / f"one-drawer-v{version}.sanplan").is_file()


@pytest.mark.parametrize("version", range(1, FILE_VERSION + 1))
def test_golden_files_open_and_analyse_like_the_example(version, one_drawer, tmp_path):
    golden = GOLDEN / f"one-drawer-v{version}.sanplan"
    before = golden.read_bytes()
    proj = open_project(golden)
    assert golden.read_bytes() == before  # migration happens in memory
    assert list(proj.scenarios) == ["Base"]
    same_design(one_drawer, proj.topology)
    assert aggregate(proj.topology) == aggregate(one_drawer) == pytest.approx(2650)
    with sqlite3.connect(golden) as con:
        assert con.execute("PRAGMA user_version").fetchone()[0] == version
    con.close()


def test_v1_file_migrates_to_scenario_and_revision(tmp_path):
    copy_ = tmp_path / "old.sanplan"
    copy_.write_bytes((GOLDEN / "one-drawer-v1.sanplan").read_bytes())
    assert [r[2:] for r in list_revisions(copy_)] == [("migrated from file version 1", ["Base"])]
    assert restore_revision(copy_, 1).topology.meta["name"] == "p690 one drawer"
    save_project(open_project(copy_), copy_, message="saved in version 2")
    con = sqlite3.connect(copy_)
    try:
        assert con.execute("PRAGMA user_version").fetchone()[0] == FILE_VERSION
        tables = {r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    finally:
        con.close()
    assert {"meta", "scenarios", "revisions"} <= tables and "design" not in tables
    assert [r[2] for r in list_revisions(copy_)] == ["migrated from file version 1", "saved in version 2"]


# -- files SANplan refuses -------------------------------------------------------------------------


def _sqlite(path: Path, app_id: int, version: int, *statements: str) -> None:
    con = sqlite3.connect(path)
    try:
        con.execute(f"PRAGMA application_id = {app_id}")
        con.execute(f"PRAGMA user_version = {version}")
        for s in statements:
            con.execute(s)
        con.commit()
    finally:
        con.close()


def _edit_copy(src: Path, dst: Path, *statements: str, params=()) -> None:
    dst.write_bytes(src.read_bytes())
    con = sqlite3.connect(dst)
    try:
        for s in statements:
            con.execute(s, params) if "?" in s else con.execute(s)
        con.commit()
    finally:
        con.close()


def _break_index(src: Path, dst: Path) -> None:
    """A file whose primary-key index no longer matches its table: only integrity_check sees it."""
    dst.write_bytes(src.read_bytes())
    con = sqlite3.connect(dst)
    try:
        root = con.execute("SELECT rootpage FROM sqlite_master WHERE name = 'sqlite_autoindex_meta_1'").fetchone()[0]
        page_size = con.execute("PRAGMA page_size").fetchone()[0]
    finally:
        con.close()
    data = bytearray(dst.read_bytes())
    start = (root - 1) * page_size
    # an index leaf page: its cells hold the keys; rewrite the key text so it matches no row
    page = data[start : start + page_size]
    for key in (b"application", b"saved"):
        i = page.find(key)
        if i >= 0:
            page[i : i + 1] = b"Z"
    data[start : start + page_size] = page
    dst.write_bytes(bytes(data))


BAD_FILES = {
    "missing": (lambda p, ok: None, "no such file"),
    "folder": (lambda p, ok: p.mkdir(), "is a folder"),
    "empty": (lambda p, ok: p.write_bytes(b""), "is empty"),
    "short header": (lambda p, ok: p.write_bytes(ok.read_bytes()[:8]), "is truncated"),
    "truncated": (lambda p, ok: p.write_bytes(ok.read_bytes()[:3000]), "is damaged or not a complete SANplan file"),
    "cut in half": (lambda p, ok: p.write_bytes(ok.read_bytes()[: len(ok.read_bytes()) // 2]), "is damaged"),
    "text": (lambda p, ok: p.write_text("hello, this is a shopping list\n"), "is not a SANplan design"),
    "binary": (lambda p, ok: p.write_bytes(bytes(range(256)) * 4), "is not a SANplan design"),
    "bad header": (
        lambda p, ok: p.write_bytes(ok.read_bytes()[:16] + b"\xff" * 84 + ok.read_bytes()[100:]),
        "is damaged",
    ),
    "other application": (
        lambda p, ok: _sqlite(p, 0x12345678, 1, "CREATE TABLE t (x)"),
        "SQLite database of another application",
    ),
    "plain sqlite": (lambda p, ok: _sqlite(p, 0, 0, "CREATE TABLE t (x)"), "SQLite database of another application"),
    "newer": (
        lambda p, ok: _sqlite(p, APPLICATION_ID, FILE_VERSION + 1, "CREATE TABLE future (x)"),
        f"written by a newer SANplan \\(file version {FILE_VERSION + 1}\\); upgrade SANplan",
    ),
    "version zero": (lambda p, ok: _sqlite(p, APPLICATION_ID, 0), "is damaged"),
    "integrity": (lambda p, ok: _break_index(ok, p), r"is damaged \(integrity check: .*missing from index"),
    "missing table": (lambda p, ok: _edit_copy(ok, p, "DROP TABLE revisions"), "no such table: revisions"),
    "no scenario": (lambda p, ok: _edit_copy(ok, p, "DELETE FROM scenarios"), "holds no scenario"),
    "malformed body": (
        lambda p, ok: _edit_copy(ok, p, "UPDATE scenarios SET body = '{\"format\": '"),
        "scenario 'Base': is not valid JSON",
    ),
    "body not a design": (
        lambda p, ok: _edit_copy(ok, p, "UPDATE scenarios SET body = '[1, 2]'"),
        "is not a SANplan design document",
    ),
    "body with bad value": (
        lambda p, ok: _edit_copy(
            ok,
            p,
            'UPDATE scenarios SET body = replace(body, \'"raid_level":5,"drives"\', \'"raid_level":"x","drives"\')',
        ),
        r"is damaged \(scenario 'Base': in arrays: component fastt1.arr1: raid_level: 'x' is not one of",
    ),
    "newer body": (
        lambda p, ok: _edit_copy(
            ok, p, "UPDATE scenarios SET body = replace(body, '\"schema_version\":1', '\"schema_version\":99')"
        ),
        "newer SANplan",
    ),
    "blob body": (lambda p, ok: _edit_copy(ok, p, "UPDATE scenarios SET body = x'00ff'"), "holds no design"),
    "bad revision": (
        lambda p, ok: _edit_copy(ok, p, "UPDATE revisions SET scenario_names = 'nope'"),
        "revision 1 does not list its scenarios",
    ),
    "v1 without design": (
        lambda p, ok: _sqlite(p, APPLICATION_ID, 1, "CREATE TABLE meta (key, value)", "CREATE TABLE design (body)"),
        "its design table holds 0 designs instead of one",
    ),
    "v1 bad design": (
        lambda p, ok: _sqlite(
            p,
            APPLICATION_ID,
            1,
            "CREATE TABLE meta (key, value)",
            "CREATE TABLE design (body)",
            "INSERT INTO design VALUES ('{oops')",
        ),
        "is not valid JSON",
    ),
    "json truncated": (
        lambda p, ok: p.write_bytes(json.dumps(topology_to_dict(open_project(ok).topology)).encode()[:5000]),
        "is not valid JSON.*truncated",
    ),
    "json other": (lambda p, ok: p.write_text('{"name": "a shopping list"}'), "is not a SANplan design document"),
    "json list": (lambda p, ok: p.write_text("[1, 2, 3]"), "is not a SANplan design"),
    "json nan": (
        lambda p, ok: p.write_text('{"format": "sanplan-design", "schema_version": 1, "meta": {"name": NaN}}'),
        "NaN",
    ),
    "json huge number": (
        lambda p, ok: p.write_text('{"format": "sanplan-design", "schema_version": 1, "x-a": 1e999}'),
        "out of range",
    ),
    "json deep": (lambda p, ok: p.write_text("{" + '"x-a":' + "[" * 100000 + "]" * 100000 + "}"), "nested too deeply"),
    "json latin-1": (
        lambda p, ok: p.write_bytes('{"meta": {"name": "caf\u00e9"}}'.encode("latin-1")),
        "byte 22 is not UTF-8 text",
    ),
    "json utf-16": (
        lambda p, ok: p.write_text('{"format": "sanplan-design"}', encoding="utf-16"),
        "is not a SANplan design",
    ),
}


@pytest.mark.parametrize("case", BAD_FILES)
def test_bad_files_give_one_clear_line(case, saved, tmp_path):
    make, expected = BAD_FILES[case]
    path = tmp_path / f"bad {case}.sanplan"
    make(path, saved)
    before = path.read_bytes() if path.is_file() else None
    with pytest.raises(ProjectError) as info:
        open_project(path)
    message = str(info.value)
    assert message.startswith(str(path) + ": ")
    assert "\n" not in message and "Traceback" not in message
    assert re.search(expected, message), message
    if before is not None:
        assert path.read_bytes() == before  # opening never writes


def test_import_json_refuses_a_sanplan_file(saved):
    with pytest.raises(ProjectError, match=r"design\.sanplan: is a \.sanplan design file, not a JSON export"):
        import_json(saved)


def test_unreadable_file(saved, monkeypatch):
    """A file the user may not read (simulated: tests run as root, which reads anything)."""
    import builtins

    real_open = builtins.open

    def guarded(file, *args, **kwargs):
        if os.fspath(file) == os.fspath(saved):
            raise PermissionError(13, "Permission denied", os.fspath(file))
        return real_open(file, *args, **kwargs)

    monkeypatch.setattr(builtins, "open", guarded)
    with pytest.raises(ProjectError, match="(?i)permission denied") as err:
        open_project(saved)
    assert saved.name in str(err.value)


# -- saving never destroys the user's files --------------------------------------------------------


REFUSED_TARGETS = {
    "text": (lambda p, ok: p.write_text("my notes\n"), "is not a SANplan design; choose another name"),
    "json export": (
        lambda p, ok: export_json(open_project(ok), p),
        "not saved: it is a SANplan JSON export, not a .sanplan file; choose",
    ),
    "other application": (
        lambda p, ok: _sqlite(p, 0x12345678, 1, "CREATE TABLE t (x)"),
        "not saved: it is not a SANplan design",
    ),
    "newer": (
        lambda p, ok: _sqlite(p, APPLICATION_ID, FILE_VERSION + 1, "CREATE TABLE future (x)"),
        "not saved: it was written by a newer SANplan",
    ),
    "damaged": (lambda p, ok: p.write_bytes(ok.read_bytes()[:3000]), "not saved: it is damaged"),
    "empty": (lambda p, ok: p.write_bytes(b""), "not saved: it is empty"),
}


@pytest.mark.parametrize("case", REFUSED_TARGETS)
def test_save_refuses_to_overwrite_other_files(case, one_drawer, saved, tmp_path):
    make, expected = REFUSED_TARGETS[case]
    path = tmp_path / f"target {case}.sanplan"
    make(path, saved)
    before = path.read_bytes()
    with pytest.raises(ProjectError, match=expected) as info:
        save_project(one_drawer, path)
    assert str(info.value).startswith(str(path) + ": ")
    assert path.read_bytes() == before
    assert leftovers(tmp_path) == []


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


@pytest.mark.parametrize(
    "failure", [OSError(28, "No space left on device"), sqlite3.OperationalError("disk I/O error")]
)
@pytest.mark.parametrize("where", ["writer", "replace"])
def test_a_failed_save_leaves_the_old_file_and_no_temp(failure, where, one_drawer, saved, monkeypatch):
    before = saved.read_bytes()

    def fail(*args, **kwargs):
        raise failure

    monkeypatch.setattr(project, "_write_sanplan", fail) if where == "writer" else monkeypatch.setattr(
        project.os, "replace", fail
    )
    SetMeta("customer", "changed").do(one_drawer)
    with pytest.raises(ProjectError, match=r"design\.sanplan: not saved .*nothing was overwritten"):
        save_project(one_drawer, saved, message="doomed")
    assert saved.read_bytes() == before
    assert leftovers(saved.parent) == []
    monkeypatch.undo()
    assert [r[2] for r in list_revisions(saved)] == ["first"]


def test_an_interrupted_save_leaves_the_old_file(one_drawer, saved, monkeypatch):
    before = saved.read_bytes()

    def interrupted(tmp, *args):
        Path(tmp).write_bytes(b"half a file")
        raise KeyboardInterrupt

    monkeypatch.setattr(project, "_write_sanplan", interrupted)
    with pytest.raises(KeyboardInterrupt):
        save_project(one_drawer, saved)
    assert saved.read_bytes() == before and leftovers(saved.parent) == []


def test_a_failed_export_leaves_the_old_file(one_drawer, tmp_path, monkeypatch):
    path = tmp_path / "a.json"
    export_json(one_drawer, path)
    before = path.read_bytes()

    def fail(*args):
        raise OSError(5, "Input/output error")

    monkeypatch.setattr(project.os, "replace", fail)
    SetMeta("customer", "changed").do(one_drawer)
    with pytest.raises(ProjectError, match=r"a\.json: not saved \(Input/output error\)"):
        export_json(one_drawer, path)
    assert path.read_bytes() == before and leftovers(tmp_path) == []


KILLER = """
import sys
from catalogs.catalog import builtin_parts
from planner.examples import build_example
from planner.project import Project, save_project
proj = Project.single(build_example("p690-benchmark", builtin_parts()))
n = 0
print("ready", flush=True)
while True:
    n += 1
    proj.topology.meta["customer"] = f"save {n}"
    save_project(proj, sys.argv[1], message=f"save {n}")
"""


@pytest.mark.skipif(os.name != "posix", reason="SIGKILL")
def test_killing_a_save_never_breaks_the_file(tmp_path):
    """Kill -9 a process that saves the benchmark in a loop, while it writes the new file."""
    path = tmp_path / "bench.sanplan"
    for _ in range(3):
        proc = subprocess.Popen([sys.executable, "-c", KILLER, str(path)], cwd=ROOT, stdout=subprocess.PIPE)
        try:
            assert proc.stdout.readline().strip() == b"ready"
            deadline = time.monotonic() + 20
            while time.monotonic() < deadline and not (path.exists() and leftovers(tmp_path)):
                time.sleep(0.001)  # kill as soon as a save is half-way (its temporary file exists)
        finally:
            proc.send_signal(signal.SIGKILL)
            proc.wait()
            proc.stdout.close()
        proj = open_project(path)  # the last complete save, whole
        assert proj.topology.meta["customer"] == list_revisions(path)[-1][2]
        assert len(proj.topology) == 3451
        for tmp in leftovers(tmp_path):  # what a killed save leaves: a stray temporary file, never the design
            (tmp_path / tmp).unlink()


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


def test_json_scenario_design_errors_name_the_scenario(one_drawer):
    doc = project_to_dict(Project.single(one_drawer))
    other = project._without_format(topology_to_dict(one_drawer))
    other["zones"][0]["members"] = 5
    doc["scenarios"] = {"Other": other}
    with pytest.raises(ProjectError, match="x.json: scenario 'Other': in zones: component"):
        project_from_dict(doc, where="x.json")


# -- fuzzing the loaders ---------------------------------------------------------------------------


def _opens_or_refuses(path: Path) -> None:
    try:
        result = open_project(path)
    except ProjectError as err:
        assert str(err).startswith(str(path)) and "\n" not in str(err)
    else:
        assert isinstance(result, Project)


@FUZZ
@given(
    data=st.one_of(
        st.binary(max_size=2048),
        st.binary(max_size=2048).map(lambda b: b"SQLite format 3\x00" + b),
        st.binary(max_size=512).map(lambda b: b"{" + b),
        st.text(max_size=300).map(lambda s: s.encode("utf-8")),
    )
)
def test_fuzz_arbitrary_bytes(data, fuzz_dir):
    path = fuzz_dir / "bytes.sanplan"
    path.write_bytes(data)
    _opens_or_refuses(path)


JSON_CHARACTERS = '{}[]",:0123456789.-eE truefalsnul\\'


@st.composite
def mutations(draw, size: int):
    """Up to four edits of a file: flip a bit, overwrite (random bytes or JSON-like text), zero or
    delete a range, or truncate. A quarter of the edits hit the header (first 128 bytes)."""

    def position():
        return draw(st.one_of(st.integers(0, 127), *[st.integers(0, size - 1)] * 3))

    edits = []
    for _ in range(draw(st.integers(1, 4))):
        kind = draw(st.sampled_from(["flip", "overwrite", "text", "zero", "delete", "truncate"]))
        if kind == "flip":
            edits.append((kind, position(), draw(st.integers(0, 7))))
        elif kind == "overwrite":
            edits.append((kind, position(), draw(st.binary(min_size=1, max_size=64))))
        elif kind == "text":
            edits.append(("overwrite", position(), draw(st.text(JSON_CHARACTERS, min_size=1, max_size=12)).encode()))
        elif kind in ("zero", "delete"):
            edits.append((kind, position(), draw(st.integers(1, 4096))))
        else:
            edits.append((kind, position(), None))
    return edits


def _mutate(data: bytes, edits) -> bytes:
    buf = bytearray(data)
    for kind, pos, arg in edits:
        if not buf:
            break
        pos %= len(buf)
        if kind == "flip":
            buf[pos] ^= 1 << arg
        elif kind == "overwrite":
            buf[pos : pos + len(arg)] = arg
        elif kind == "zero":
            buf[pos : pos + arg] = bytes(len(buf[pos : pos + arg]))
        elif kind == "delete":
            del buf[pos : pos + arg]
        else:
            del buf[pos:]
    return bytes(buf)


@FUZZ
@given(data=st.data())
def test_fuzz_mutated_sanplan_file(data, valid_files, fuzz_dir):
    good = valid_files["sanplan"]
    path = fuzz_dir / "mutated.sanplan"
    path.write_bytes(_mutate(good, data.draw(mutations(len(good)))))
    _opens_or_refuses(path)
    try:
        list_revisions(path)
    except ProjectError:
        pass


@FUZZ
@given(data=st.data())
def test_fuzz_mutated_json_export(data, valid_files, fuzz_dir):
    good = valid_files["json"]
    path = fuzz_dir / "mutated.json"
    path.write_bytes(_mutate(good, data.draw(mutations(len(good)))))
    _opens_or_refuses(path)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)


@FUZZ
@given(data=st.data(), value=json_values)
def test_fuzz_json_fields_with_arbitrary_values(data, value, valid_files):
    """Any value in any field of a valid document: the design loads or is refused, nothing else."""
    doc = json.loads(valid_files["json"])
    collections = [c for c in COLLECTIONS.values() if doc[c]]
    where = data.draw(st.sampled_from(["top", "entry", "part", "scenario"]))
    if where == "top":
        doc[data.draw(st.sampled_from([*doc, "x-extra", "unknown"]))] = value
    elif where == "entry":
        entries = doc[data.draw(st.sampled_from(collections))]
        entry = entries[data.draw(st.integers(0, len(entries) - 1))]
        entry[data.draw(st.sampled_from([*entry, "extra"]))] = value
    elif where == "part":
        part = doc["parts"][data.draw(st.sampled_from(sorted(doc["parts"])))]
        part[data.draw(st.sampled_from([*part, "figures", "layouts", "multipath"]))] = value
    else:
        doc["scenarios"]["Upgrade"][data.draw(st.sampled_from(["meta", "parts", *collections]))] = value
    try:
        result = project_from_dict(json.loads(json.dumps(doc)), where="fuzz.json")
    except ProjectError as err:
        assert str(err).startswith("fuzz.json: ")
    else:
        assert isinstance(result, Project)
        json.dumps(project_to_dict(result), allow_nan=False)  # what loads can be written again


def test_revision_body_is_compressed_json(saved):
    con = sqlite3.connect(saved)
    try:
        body = con.execute("SELECT body FROM revisions").fetchone()[0]
    finally:
        con.close()
    doc = json.loads(zlib.decompress(body))
    assert doc["current"] == "Base" and doc["scenarios"][0]["name"] == "Base"
    assert doc["scenarios"][0]["design"]["format"] == "sanplan-design"
