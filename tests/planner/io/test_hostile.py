"""Hostile files, hostile names and two writers (issue 9): each reproducer is built here, and each
ends as one clear refusal (or a kept save), never a hang, a leak, a traceback or a lost update."""

from __future__ import annotations

import json
import sqlite3
import zlib
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from planner import edit, fixtures
from planner.exports import write_cabling_csv
from planner.exports.buildsheet import build_sheet
from planner.exports.output import ExportError
from planner.exports.zoning import write_zoning
from planner.io import (
    Project,
    ProjectError,
    list_revisions,
    open_project,
    project_to_dict,
    restore_revision,
    save_project,
)
from planner.io.sanfile import ChangedOnDisk
from planner.model import ModelError

UNSEAL = "DELETE FROM meta WHERE key LIKE 'sha256:%'"


def _edit(src: Path, dst: Path, *statements: str) -> Path:
    dst.write_bytes(src.read_bytes())
    con = sqlite3.connect(dst)
    try:
        for s in statements:
            con.execute(s)
        con.commit()
    finally:
        con.close()
    return dst


@pytest.mark.parametrize("table", ["meta", "scenarios", "revisions"])
def test_a_recursive_view_in_place_of_a_table_is_refused_before_any_read(saved, tmp_path, table):
    columns = {"meta": "key, value", "scenarios": "name, position, is_current, body", "revisions": "*"}[table]
    bomb = _edit(
        saved,
        tmp_path / "view.sanplan",
        f"ALTER TABLE {table} RENAME TO old_{table}",
        f"CREATE VIEW {table} AS WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) "
        f"SELECT {columns} FROM old_{table}, r",
    )
    with pytest.raises(ProjectError, match="is damaged \\(it holds a (view|table) .* not part of a SANplan file"):
        open_project(bomb)
    with pytest.raises(ProjectError, match="not part of a SANplan file"):
        list_revisions(bomb)


def test_a_trigger_is_refused(saved, tmp_path):
    bad = _edit(saved, tmp_path / "trigger.sanplan", "CREATE TRIGGER t AFTER INSERT ON meta BEGIN SELECT 1; END")
    with pytest.raises(ProjectError, match="trigger 't'"):
        open_project(bad)


def test_a_zlib_bomb_in_a_revision_is_refused(saved, tmp_path):
    bomb = zlib.compress(b"{" + b" " * (80 << 20) + b"}", 9)  # 80 MiB of JSON in about 80 KB
    bad = _edit(saved, tmp_path / "bomb.sanplan", UNSEAL)
    con = sqlite3.connect(bad)
    con.execute("UPDATE revisions SET body = ?", (bomb,))
    con.commit()
    con.close()
    with pytest.raises(ProjectError, match="revision 1 is damaged \\(it unpacks to more than 64 MiB"):
        restore_revision(bad, 1)


@pytest.mark.parametrize("where", ["position", "part field"])
def test_a_400_digit_integer_is_refused(one_drawer, tmp_path, where):
    doc = project_to_dict(Project.single(one_drawer))
    big = "9" * 400
    if where == "position":
        doc["positions"] = {"fastt1": [1, 2]}
    else:
        doc["parts"]["FC6239"]["ports"] = 1
    text = json.dumps(doc)
    text = (
        text.replace('"fastt1": [1, 2]', f'"fastt1": [{big}, 2]')
        if where == "position"
        else text.replace('"ports": 1', f'"ports": {big}')
    )
    path = tmp_path / "big.json"
    path.write_text(text)
    with pytest.raises(ProjectError, match="has 400 digits; at most 18"):
        open_project(path)


def test_a_schema_with_bytes_that_are_not_utf8_is_refused(saved, tmp_path):
    bad = _edit(saved, tmp_path / "latin.sanplan", "CREATE TABLE zz_bad_name (x)")
    data = bad.read_bytes().replace(b"zz_bad_name", b"zz\xff\xfebad_nam")
    bad.write_bytes(data)
    with pytest.raises(ProjectError) as err:
        open_project(bad)
    assert "is damaged" in str(err.value) and "\n" not in str(err.value)


def test_a_lone_surrogate_is_refused_at_load_and_at_input(one_drawer, tmp_path):
    doc = project_to_dict(Project.single(one_drawer))
    doc["drawers"][0]["name"] = "PLACEHOLDER"
    path = tmp_path / "surrogate.json"
    path.write_text(json.dumps(doc).replace("PLACEHOLDER", "bad\\ud800name"))
    with pytest.raises(ProjectError, match="lone surrogate"):
        open_project(path)
    with pytest.raises(ModelError, match="lone surrogate"):
        edit.set_attr(one_drawer, "d1", "name", "bad\ud800name")


@pytest.mark.parametrize("name", ["x\r=cmd|' /C calc'!A0", "a\x1b]0;owned\x07", "evil\u202etxt", "nul\x00"])
def test_control_characters_are_refused_in_every_text_at_input(one_drawer, tmp_path, name):
    with pytest.raises(ModelError, match="control characters|U\\+"):
        edit.set_attr(one_drawer, "d1", "name", name)
    cable = one_drawer.of_kind("cable")[0].id
    with pytest.raises(ModelError):
        edit.set_attr(one_drawer, cable, "label", name)
    doc = project_to_dict(Project.single(one_drawer))
    doc["cables"][0]["name"] = name
    path = tmp_path / "hostile.json"
    path.write_text(json.dumps(doc))
    with pytest.raises(ProjectError, match="control characters|U\\+"):
        open_project(path)


def test_a_formula_cell_is_neutralised_in_the_csv(one_drawer, tmp_path):
    cable = one_drawer.of_kind("cable")[0].id
    edit.set_attr(one_drawer, cable, "label", "=HYPERLINK(1)")
    out = tmp_path / "c.csv"
    write_cabling_csv(one_drawer, out)
    assert "'=HYPERLINK(1)" in out.read_text() and "\n=HYPERLINK" not in out.read_text()


def test_a_truncated_file_is_refused(saved, tmp_path):
    data = saved.read_bytes()
    for cut in (1, 100, 4095):
        bad = tmp_path / f"cut{cut}.sanplan"
        bad.write_bytes(data[:-cut])
        with pytest.raises(ProjectError, match="is truncated"):
            open_project(bad)


def test_a_changed_body_is_refused_by_its_checksum_and_names_an_intact_revision(saved, tmp_path):
    bad = _edit(saved, tmp_path / "flip.sanplan", "UPDATE scenarios SET body = replace(body, '\"lun\":0', '\"lun\":7')")
    with pytest.raises(ProjectError, match="do not match their checksum\\); restore its revision 1"):
        open_project(bad)
    restored = restore_revision(bad, 1)  # the revision is intact
    assert "fastt1" in restored.topology
    save_project(restored, bad)  # and saving it over the damaged file repairs the file
    assert "fastt1" in open_project(bad).topology


def test_two_writers_keep_both_saves(one_drawer, tmp_path):
    """Twenty saves from two threads at once: every save is kept as a revision, none vanishes."""
    path = tmp_path / "shared.sanplan"

    def save(i: int) -> str:
        project = Project.single(one_drawer.clone())
        save_project(project, path, message=f"writer {i}")
        return f"writer {i}"

    with ThreadPoolExecutor(2) as pool:
        done = list(pool.map(save, range(20)))
    messages = [m for _, _, m, _ in list_revisions(path)]
    assert sorted(messages) == sorted(done)
    assert not list(tmp_path.glob(".*"))  # no lock or temporary file is left


def test_a_save_over_a_file_changed_since_it_was_opened_is_refused(saved):
    mine = open_project(saved)
    theirs = open_project(saved)
    edit.set_attr(theirs.topology, "d1", "name", "theirs")
    save_project(theirs, saved, message="theirs")
    edit.set_attr(mine.topology, "d1", "name", "mine")
    with pytest.raises(ChangedOnDisk, match="saved elsewhere since you opened it \\(revision 2"):
        save_project(mine, saved, message="mine")
    assert open_project(saved).topology["d1"].name == "theirs"  # nothing was lost
    save_project(mine, saved, message="mine", force=True)  # the user confirmed
    assert [m for _, _, m, _ in list_revisions(saved)] == ["first", "theirs", "mine"]


def test_a_100000_character_name_is_refused_and_cannot_stall_the_pdf(one_drawer, tmp_path):
    with pytest.raises(ModelError, match="at most 64 characters, this one has 100000"):
        edit.set_attr(one_drawer, "d1", "name", "N" * 100_000)
    fixtures.set_raw(one_drawer, "d1", "name", "N" * 100_000)  # as a damaged design could hold it
    one_drawer.meta["name"] = "M" * 100_000
    out = tmp_path / "long.pdf"
    build_sheet(one_drawer, out)
    assert out.stat().st_size > 10_000


def test_a_wal_mode_file_opens_without_leaving_files(saved, tmp_path):
    wal = _edit(saved, tmp_path / "wal.sanplan", "PRAGMA journal_mode=WAL")
    before = sorted(p.name for p in tmp_path.iterdir())
    assert "fastt1" in open_project(wal).topology
    list_revisions(wal)
    assert sorted(p.name for p in tmp_path.iterdir()) == before


def test_a_refusal_never_echoes_a_whole_value(one_drawer, tmp_path):
    doc = project_to_dict(Project.single(one_drawer))
    doc["hba_ports"][0]["wwpn"] = 1  # not text
    doc["arrays"][0]["raid_level"] = "R" * 10_000_000
    path = tmp_path / "huge.json"
    path.write_text(json.dumps(doc))
    with pytest.raises(ProjectError) as err:
        open_project(path)
    assert len(str(err.value)) < 1000
    with pytest.raises(ModelError) as err2:
        edit.set_attr(one_drawer, "fastt1.arr1", "raid_level", "R" * 10_000_000)
    assert len(str(err2.value)) <= 400


def test_a_multi_fabric_zoning_export_is_written_all_or_none(monkeypatch, tmp_path, parts):
    from planner.examples import build_example

    topo = build_example("p690-benchmark", parts)
    real_fdopen = __import__("os").fdopen
    calls = {"n": 0}

    def failing_fdopen(fd, *args, **kwargs):
        calls["n"] += 1
        if calls["n"] == 4:  # the fourth fabric's file: the disk is full
            __import__("os").close(fd)
            raise OSError(28, "No space left on device")
        return real_fdopen(fd, *args, **kwargs)

    monkeypatch.setattr("os.fdopen", failing_fdopen)
    with pytest.raises(
        ExportError, match="not written \\(No space left on device\\); no file of this export was written"
    ):
        write_zoning(topo, "brocade", tmp_path / "zones.txt")
    assert list(tmp_path.iterdir()) == []
