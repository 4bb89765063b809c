"""The registry of export formats (no Qt): what it lists, how a format runs, and a new format
appearing in ``sanplan export`` with no other edit; atomic writes."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from app.cli import _parser, main
from planner.exports import (
    CliFlag,
    ExportError,
    ExportFormat,
    ExportOption,
    ExportSource,
    Written,
    atomic_write,
    formats,
    get,
    register,
    unregister,
    write_text,
    zoning_script,
)
from planner.exports.registry import cli_flags, cli_options

BUILTIN = [
    "pdf",
    "zoning-brocade",
    "zoning-cisco",
    "cabling-csv",
    "netbox",
    "netbox-import",
    "cabling-schedule",
    "json",
]


def export_options(parser: argparse.ArgumentParser) -> set[str]:
    """The option strings of ``sanplan export``."""
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return {s for a in sub.choices["export"]._actions for s in a.option_strings}


def _write_rows(source: ExportSource, path: str, *, options: dict, progress) -> list[Written]:
    progress(0.5, "counting")
    rows = [options["separator"].join((c.kind, c.id)) for c in source.topology.of_kind("hba")]
    write_text(path, "\n".join(rows) + "\n")
    return [Written(path, f": {len(rows)} HBAs")]


HBA_LIST = ExportFormat(
    id="hba-list",
    title="&HBA list...",
    file_filter="Text (*.txt)",
    extension=".txt",
    write=_write_rows,
    cli=CliFlag("--hba-list", "write the list of HBAs", order=90),
    options=(ExportOption("separator", ";", "--separator", "HBA list: the field separator", question="Separator"),),
)


@pytest.fixture
def hba_list():
    register(HBA_LIST)
    yield HBA_LIST
    unregister(HBA_LIST.id)


def test_builtin_formats_in_menu_order():
    assert [f.id for f in formats()] == BUILTIN
    for fmt in formats():
        assert fmt.extension in fmt.file_filter and fmt.title.endswith("...")
        assert get(fmt.id) is fmt
    assert [flag.flag for flag, _ in cli_flags()] == [
        "--json",
        "--pdf",
        "--zoning",
        "--cabling",
        "--schedule",
        "--netbox",
    ]
    assert [o.flag for o in cli_options()] == [
        "--paper",
        "--figures",
        "--labels",
        "--changes-from",
        "--mode",
        "--config",
        "--backout",
        "--vsan",
        "--vsan-ports",
    ]


def test_unknown_format_and_double_registration_are_refused():
    with pytest.raises(ExportError, match="choose one of pdf"):
        get("xlsx")
    register(get("json"))  # the same record again is harmless
    with pytest.raises(ValueError, match="registered already"):
        register(ExportFormat("json", "x", "x", ".x", _write_rows, CliFlag("--x", "x")))


def test_a_format_runs_with_defaults_and_refuses_unknown_options(one_drawer, tmp_path):
    cisco = get("zoning-cisco")
    [written] = cisco.export(one_drawer, tmp_path / "z.txt", {"vsan": 42})
    assert Path(written.path).read_text() == zoning_script(one_drawer, "cisco", 42)["FAB_D1"]
    assert written.summary == ": fabric FAB_D1, 32 aliases, 16 zones"
    get("zoning-brocade").export(ExportSource.of(one_drawer), tmp_path / "b.txt")
    assert (tmp_path / "b.txt").read_text() == zoning_script(one_drawer, "brocade")["FAB_D1"]
    with pytest.raises(ExportError, match="no option 'vsan'"):
        get("cabling-csv").export(one_drawer, tmp_path / "c.csv", {"vsan": 3})
    assert not (tmp_path / "c.csv").exists()


def test_a_registered_format_appears_in_the_cli(hba_list, one_drawer, tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("SANPLAN_HOME", str(tmp_path / "home"))
    assert "hba-list" in [f.id for f in formats()]
    assert {"--hba-list", "--separator"} <= export_options(_parser())
    design = tmp_path / "one.sanplan"
    assert main(["example", "p690-one-drawer", str(design)]) == 0
    out = tmp_path / "hbas.txt"
    assert main(["export", str(design), "--hba-list", str(out), "--separator", ","]) == 0
    assert capsys.readouterr().out.endswith(f"wrote {out}: 16 HBAs\n")
    assert out.read_text().splitlines()[0] == "hba,hba.d1s1"
    assert main(["export", str(design), "--pdf", str(tmp_path / "x.pdf"), "--separator", ","]) == 2
    assert "--separator does not apply to --pdf" in capsys.readouterr().err
    unregister("hba-list")
    assert "--hba-list" not in export_options(_parser())


# -- atomic writes ------------------------------------------------------------------------------------------


def test_failed_write_leaves_no_file(tmp_path):
    target = tmp_path / "out.txt"

    def broken(tmp):
        Path(tmp).write_text("half")
        raise RuntimeError("disk on fire")

    with pytest.raises(RuntimeError):
        atomic_write(target, broken)
    assert list(tmp_path.iterdir()) == []
    target.write_text("old")
    with pytest.raises(RuntimeError):
        atomic_write(target, broken)
    assert target.read_text() == "old" and [p.name for p in tmp_path.iterdir()] == ["out.txt"]


def test_unwritable_target_is_one_clear_error(tmp_path):
    with pytest.raises(ExportError, match="cannot be written"):
        atomic_write(tmp_path / "missing" / "out.txt", lambda tmp: None)
    with pytest.raises(ExportError, match="is a folder"):
        atomic_write(tmp_path, lambda tmp: None)
