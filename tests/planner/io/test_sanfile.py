"""The .sanplan file: round trips, revisions, golden files of every version, refusals of bad files,
and atomic saves that never destroy the user's files."""

from __future__ import annotations

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

from planner.commands import SetMeta
from planner.fixtures import set_raw
from planner.io import (
    APPLICATION_ID,
    FILE_VERSION,
    MIGRATIONS,
    ProjectError,
    atomic,
    export_json,
    list_revisions,
    open_project,
    restore_revision,
    sanfile,
    save_project,
    topology_to_dict,
)
from tests.planner.io.helpers import GOLDEN, ROOT, aggregate, leftovers, same_design

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


@pytest.mark.parametrize("as_json", [False, True])
def test_opening_reports_its_progress_and_stops_when_told(one_drawer, saved, tmp_path, monkeypatch, as_json):
    """A project of two scenarios read with a progress callback: the shares rise from 0 to
    near 1 across both (each scenario its half), the text counts components; an exception
    from the callback (the editor's Cancel) stops the read and is raised as it is."""
    from planner.io import Project, document, export_json

    monkeypatch.setattr(document, "PROGRESS_EVERY", 16)
    project = Project.single(one_drawer)
    project.add_scenario("Other")
    path = tmp_path / ("two.json" if as_json else "two.sanplan")
    if as_json:
        export_json(project, path)
    else:
        save_project(project, path)
    told: list[tuple[float, str]] = []
    opened = open_project(path, lambda share, text: told.append((share, text)))
    shares = [s for s, _ in told]
    assert list(opened.scenarios) == ["Base", "Other"]
    assert shares == sorted(shares) and shares[0] == 0 and 0.9 < shares[-1] < 1
    assert any(s < 0.5 for s in shares) and any(s >= 0.5 for s in shares)  # both scenarios
    assert told[1][1] == f"Reading 16 of {len(one_drawer):,} components"

    class Stop(Exception):
        pass

    def stop(share: float, text: str) -> None:
        if share > 0.2:
            raise Stop

    with pytest.raises(Stop):
        open_project(path, stop)


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
    monkeypatch.setattr(sanfile, "MAX_REVISIONS", 3)
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
    # a file keeps the part figures it was saved with: compare with the example built from them
    from planner.examples import build_example

    example = build_example("p690-one-drawer", proj.topology.parts)
    # the example marks its made-up WWPNs as placeholders; files older than that mark read as "not"
    ports = [c for k in ("hba_port", "host_port") for c in proj.topology.of_kind(k)]
    assert ports and not any(p["wwpn_placeholder"] for p in ports)
    assert all(p["wwpn_placeholder"] for k in ("hba_port", "host_port") for p in example.of_kind(k) if p["wwpn"])
    for k in ("hba_port", "host_port"):
        for p in example.of_kind(k):
            set_raw(example, p.id, "wwpn_placeholder", False)
    same_design(example, proj.topology, shown_names=True)
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


# a file edited by a tool that drops SANplan's checksums (as files from before them have none):
# the loader's own checks of the content still apply
UNSEAL = "DELETE FROM meta WHERE key LIKE 'sha256:%'"

BAD_FILES = {
    "missing": (lambda p, ok: None, "no such file"),
    "folder": (lambda p, ok: p.mkdir(), "is a folder"),
    "empty": (lambda p, ok: p.write_bytes(b""), "is empty"),
    "short header": (lambda p, ok: p.write_bytes(ok.read_bytes()[:8]), "is truncated"),
    "truncated": (lambda p, ok: p.write_bytes(ok.read_bytes()[:3000]), r"is truncated \(3,000 of [\d,]+ bytes\)"),
    "cut in half": (lambda p, ok: p.write_bytes(ok.read_bytes()[: len(ok.read_bytes()) // 2]), "is truncated"),
    "cut by one byte": (lambda p, ok: p.write_bytes(ok.read_bytes()[:-1]), "is truncated"),
    "cut by a page": (lambda p, ok: p.write_bytes(ok.read_bytes()[:-4095]), "is truncated"),
    "edited body": (
        lambda p, ok: _edit_copy(ok, p, "UPDATE scenarios SET body = replace(body, '\"size_gb\"', '\"size_gb\" ')"),
        r"its scenarios do not match their checksum\); restore its revision 1",
    ),
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
    "missing table": (lambda p, ok: _edit_copy(ok, p, "DROP TABLE revisions"), "its table 'revisions' is missing"),
    "no scenario": (lambda p, ok: _edit_copy(ok, p, "DELETE FROM scenarios"), "holds no scenario"),
    "malformed body": (
        lambda p, ok: _edit_copy(ok, p, UNSEAL, "UPDATE scenarios SET body = '{\"format\": '"),
        "scenario 'Base': is not valid JSON",
    ),
    "body not a design": (
        lambda p, ok: _edit_copy(ok, p, UNSEAL, "UPDATE scenarios SET body = '[1, 2]'"),
        "is not a SANplan design document",
    ),
    "body with bad value": (
        lambda p, ok: _edit_copy(
            ok,
            p,
            UNSEAL,
            'UPDATE scenarios SET body = replace(body, \'"raid_level":5,"drives"\', \'"raid_level":"x","drives"\')',
        ),
        r"is damaged \(scenario 'Base': in arrays: component fastt1.arr1: raid_level: 'x' is not one of",
    ),
    "newer body": (
        lambda p, ok: _edit_copy(
            ok, p, UNSEAL, "UPDATE scenarios SET body = replace(body, '\"schema_version\":1', '\"schema_version\":99')"
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
    "damaged": (lambda p, ok: p.write_bytes(ok.read_bytes()[:3000]), "not saved: it is truncated"),
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


@pytest.mark.parametrize(
    "failure", [OSError(28, "No space left on device"), sqlite3.OperationalError("disk I/O error")]
)
@pytest.mark.parametrize("where", ["writer", "replace"])
def test_a_failed_save_leaves_the_old_file_and_no_temp(failure, where, one_drawer, saved, monkeypatch):
    before = saved.read_bytes()

    def fail(*args, **kwargs):
        raise failure

    monkeypatch.setattr(sanfile, "_write_sanplan", fail) if where == "writer" else monkeypatch.setattr(
        atomic.os, "replace", fail
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

    monkeypatch.setattr(sanfile, "_write_sanplan", interrupted)
    with pytest.raises(KeyboardInterrupt):
        save_project(one_drawer, saved)
    assert saved.read_bytes() == before and leftovers(saved.parent) == []


KILLER = """
import sys
from catalogs.catalog import builtin_parts
from planner.examples import build_example
from planner.io import Project, save_project
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
        assert len(proj.topology) == 3463  # the benchmark: 3451 components, a site and 11 racks
        for tmp in leftovers(tmp_path):  # what a killed save leaves: a stray temporary file, never the design
            (tmp_path / tmp).unlink()


def test_revision_body_is_compressed_json(saved):
    con = sqlite3.connect(saved)
    try:
        body = con.execute("SELECT body FROM revisions").fetchone()[0]
    finally:
        con.close()
    doc = json.loads(zlib.decompress(body))
    assert doc["current"] == "Base" and doc["scenarios"][0]["name"] == "Base"
    assert doc["scenarios"][0]["design"]["format"] == "sanplan-design"
