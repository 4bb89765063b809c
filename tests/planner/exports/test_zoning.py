"""Zoning scripts, cabling lists, atomic writes and the ``sanplan export`` command."""

from __future__ import annotations

import csv
import io
import os
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.cli import main
from planner.exports import (
    CABLING_COLUMNS,
    NAME_RE,
    NETBOX_COLUMNS,
    ExportError,
    atomic_write,
    cabling_csv,
    cabling_netbox,
    cabling_rows,
    fabric_file_name,
    safe_name,
    spreadsheet_cell,
    zoning_plan,
    zoning_script,
)

GOLDEN = Path(__file__).resolve().parents[2] / "golden" / "zoning"
NASTY = "<b>&amp;\"q';$(reboot)\n`id`|x"  # markup, quotes, ; and shell expansions, a new line

# every line a script may hold: commands with generated names and validated WWPNs, or comments
NAME = r"[A-Za-z][A-Za-z0-9_]{0,63}"
WWPN = r"[0-9a-f]{2}(:[0-9a-f]{2}){7}"
COMMENT = r"[A-Za-z0-9_ :;,.()/-]*"
BROCADE_LINE = re.compile(
    rf'# {COMMENT}|alicreate "{NAME}", "{WWPN}"|zonecreate "{NAME}", "{NAME}(;{NAME})*"'
    rf'|cfgcreate "{NAME}", "{NAME}"|cfgadd "{NAME}", "{NAME}"|cfgsave|cfgenable "{NAME}"'
)
CISCO_LINE = re.compile(
    rf"! {COMMENT}|configure terminal|device-alias database|  device-alias name {NAME} pwwn {WWPN}|exit"
    rf"|device-alias commit|zone name {NAME} vsan \d+|  member device-alias {NAME}|zoneset name {NAME} vsan \d+"
    rf"|  member {NAME}|zoneset activate name {NAME} vsan \d+|end|copy running-config startup-config"
)


def nasty_design(topo):
    """The one-drawer design with user text that tries markup, quoting and shell injection."""
    topo.meta["name"] = "Design " + NASTY
    for cid, text in (
        ("hba.d1s1", "fcs0" + NASTY),
        ("sw1", "sw1;" + NASTY),
        ("fastt1", "fastt1 " + NASTY),
        ("z.Z_D1_FCS0_FASTT1_A", "Z " + NASTY),
        ("fab.FAB_D1", "FAB$(x)"),
        ("cab1", "=HYPERLINK(1)"),
    ):
        topo._set(cid, "name", text)
    topo._set("cab1", "label", "=cmd|' /C calc'!A0")
    topo._set("cab2", "label", "@SUM(1)\n" + NASTY)
    return topo


# -- names ---------------------------------------------------------------------------------------------


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=120), st.sampled_from(["A", "Z", "CFG", "x1"]))
def test_safe_name_is_always_valid(text, prefix):
    taken: set[str] = set()
    first = safe_name(text, prefix, taken)
    second = safe_name(text, prefix, taken)
    for name in (first, second):
        assert NAME_RE.fullmatch(name), name
    assert first.lower() != second.lower()


@given(st.from_regex(r"[A-Za-z][A-Za-z0-9]{0,30}(_[A-Za-z0-9]{1,10}){0,2}", fullmatch=True))
def test_safe_name_keeps_valid_names(name):
    assert safe_name(name, "Z") == name


def test_safe_name_examples():
    assert safe_name("Müller & Söhne", "A") == "Muller_Sohne"
    assert safe_name("1st zone", "Z") == "Z_1st_zone"
    assert safe_name("$(reboot)`id`", "A") == "reboot_id"
    assert safe_name("", "A") == "A"
    assert len(safe_name("x" * 300, "A")) == 64
    taken = {"x" * 64}
    assert safe_name("X" * 300, "A", taken) == "X" * 62 + "_2"
    with pytest.raises(ValueError):
        safe_name("x", "1bad")


# -- zoning scripts --------------------------------------------------------------------------------------


@pytest.mark.parametrize("vendor", ["brocade", "cisco"])
def test_zoning_scripts_match_the_golden_files(one_drawer, vendor):
    scripts = zoning_script(one_drawer, vendor)
    assert list(scripts) == ["FAB_D1"]
    golden = GOLDEN / f"one-drawer.{vendor}.txt"
    if os.environ.get("SANPLAN_REGEN_GOLDEN") == "1":
        golden.parent.mkdir(parents=True, exist_ok=True)
        golden.write_text(scripts["FAB_D1"], encoding="utf-8")
    assert scripts["FAB_D1"] == golden.read_text(encoding="utf-8"), "regenerate with SANPLAN_REGEN_GOLDEN=1 if intended"


def test_brocade_script_follows_fos_syntax(one_drawer):
    text = zoning_script(one_drawer, "brocade")["FAB_D1"]
    assert 'alicreate "LPAR1_FCS0", "10:00:00:00:c9:01:00:01"' in text
    assert 'zonecreate "Z_D1_FCS0_FASTT1_A", "LPAR1_FCS0;FASTT1_A1"' in text
    assert 'cfgcreate "CFG_FAB_D1", "Z_D1_FCS0_FASTT1_A"' in text
    assert text.count("cfgadd ") == 15
    assert text.rstrip().endswith('cfgsave\ncfgenable "CFG_FAB_D1"')


def test_cisco_script_uses_the_vsan(one_drawer):
    text = zoning_script(one_drawer, "cisco", vsan=42)["FAB_D1"]
    assert "  device-alias name LPAR1_FCS0 pwwn 10:00:00:00:c9:01:00:01" in text
    assert (
        "zone name Z_D1_FCS15_FASTT8_B vsan 42\n  member device-alias LPAR1_FCS15\n  member device-alias FASTT8_B1"
        in text
    )
    assert "zoneset activate name CFG_FAB_D1 vsan 42" in text
    assert text.rstrip().endswith("copy running-config startup-config")


def test_one_script_per_fabric(benchmark_design):
    scripts = zoning_script(benchmark_design, "brocade")
    assert list(scripts) == [f"FAB_D{d}" for d in range(1, 8)]
    assert all(s.count("zonecreate") == 16 for s in scripts.values())
    assert fabric_file_name("out/zones.txt", "FAB_D3") == os.path.join("out", "zones.FAB_D3.txt")


@pytest.mark.parametrize("vsan", [0, 4095, -1, True, 1.5, "7"])
def test_bad_vsan_is_refused(one_drawer, vsan):
    with pytest.raises(ExportError, match="VSAN"):
        zoning_script(one_drawer, "cisco", vsan)


def test_unknown_vendor_is_refused(one_drawer):
    with pytest.raises(ExportError, match="brocade or cisco"):
        zoning_script(one_drawer, "qlogic")


@pytest.mark.parametrize("vendor, grammar", [("brocade", BROCADE_LINE), ("cisco", CISCO_LINE)])
def test_user_text_cannot_inject_commands(one_drawer, vendor, grammar):
    topo = nasty_design(one_drawer)
    topo._set("fastt2.A1", "wwpn", '20:0a:00:a0:b8:01:01:00"; cfgclear; "')  # a damaged file's WWPN
    text = zoning_script(topo, vendor)["FAB_x"]
    for line in text.splitlines():
        assert grammar.fullmatch(line), line
    assert "cfgclear" not in text and "$(" not in text and "`" not in text and "<" not in text
    mark = "#" if vendor == "brocade" else "!"
    assert f"{mark} skipped: FASTT2_A1 left out of zone Z_D1_FCS2_FASTT2_A: its WWPN is not valid" in text


def test_members_without_a_valid_wwpn_are_left_out(one_drawer):
    one_drawer._set("fastt1.A1", "wwpn", "")
    one_drawer._set("fastt1.B1", "wwpn", "10:00:00:00:c9:01:00:01")  # same as fcs0
    plan = zoning_plan(one_drawer)[0]
    assert "FASTT1_A1 left out of zone Z_D1_FCS0_FASTT1_A: it has no WWPN" in plan.skipped
    assert "FASTT1_B1 left out of zone Z_D1_FCS1_FASTT1_B: it has the same WWPN as LPAR1_FCS0" in plan.skipped
    zone = next(z for z in plan.zones if z.name == "Z_D1_FCS0_FASTT1_A")
    assert zone.members == ["LPAR1_FCS0"]
    text = zoning_script(one_drawer, "brocade")["FAB_D1"]
    assert "FASTT1_A1" not in text.replace("# skipped: FASTT1_A1", "")


def test_zone_names_are_unique_in_a_fabric(one_drawer):
    one_drawer._set("z.Z_D1_FCS1_FASTT1_B", "name", "z_d1_fcs0_fastt1_a")  # differs only in case
    names = [z.name for z in zoning_plan(one_drawer)[0].zones]
    assert len({n.lower() for n in names}) == len(names)
    assert "z_d1_fcs0_fastt1_a_2" in names


# -- cabling ----------------------------------------------------------------------------------------------


def test_cabling_rows_name_both_ends(one_drawer):
    rows = cabling_rows(one_drawer)
    assert len(rows) == 32
    assert rows[0] == {
        "label": "D1-S1-SW1P00",
        "from_device": "p690",
        "from_port": "fcs0",
        "to_device": "sw1",
        "to_port": "port 0",
        "fabric": "FAB_D1",
        "length_m": 5.0,
        "media": "LC-LC OM2",
    }
    assert rows[1]["from_device"] == "fastt1" and rows[1]["from_port"] == "A1"


def test_cabling_csv_round_trips(one_drawer):
    rows = list(csv.DictReader(io.StringIO(cabling_csv(one_drawer))))
    assert tuple(rows[0]) == CABLING_COLUMNS and len(rows) == 32
    assert rows[0]["length_m"] == "5"


def test_netbox_columns_and_values(one_drawer):
    reader = csv.reader(io.StringIO(cabling_netbox(one_drawer)))
    header = next(reader)
    assert tuple(header) == NETBOX_COLUMNS
    first = dict(zip(header, next(reader)))
    assert first == {
        "side_a_device": "p690",
        "side_a_type": "dcim.interface",
        "side_a_name": "fcs0",
        "side_b_device": "sw1",
        "side_b_type": "dcim.interface",
        "side_b_name": "port 0",
        "type": "mmf-om2",
        "status": "planned",
        "label": "D1-S1-SW1P00",
        "color": "",
        "length": "5",
        "length_unit": "m",
    }


def test_csv_cells_cannot_run_as_formulas(one_drawer):
    topo = nasty_design(one_drawer)
    for text in (cabling_csv(topo), cabling_netbox(topo)):
        rows = list(csv.reader(io.StringIO(text)))
        cells = [c for row in rows[1:] for c in row]
        assert not any(c[:1] in ("=", "+", "-", "@") for c in cells)
        assert "'=cmd|' /C calc'!A0" in cells
        assert "'@SUM(1)\n" + NASTY in cells  # the new line survives, quoted
    assert spreadsheet_cell("-5") == "'-5" and spreadsheet_cell("a=b") == "a=b" and spreadsheet_cell(None) == ""


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


# -- the command line ------------------------------------------------------------------------------------------


@pytest.fixture(autouse=True)
def _home(tmp_path, monkeypatch):
    monkeypatch.setenv("SANPLAN_HOME", str(tmp_path / "home"))
    monkeypatch.delenv("SANPLAN_PAPER", raising=False)


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def one_file(tmp_path, capsys):
    path = tmp_path / "one.sanplan"
    assert run(capsys, "example", "p690-one-drawer", path)[0] == 0
    return path


def test_cli_pdf(one_file, tmp_path, capsys, monkeypatch):
    code, out, _ = run(capsys, "export", one_file, "--pdf", tmp_path / "a.pdf", "--labels")
    assert code == 0 and "wrote" in out and "A4" in out
    assert (tmp_path / "a.pdf").read_bytes().startswith(b"%PDF")
    monkeypatch.setenv("SANPLAN_PAPER", "letter")
    code, out, _ = run(capsys, "export", one_file, "--pdf", tmp_path / "b.pdf", "--figures", "measured")
    assert code == 0 and "Letter" in out
    code, out, _ = run(capsys, "export", one_file, "--pdf", tmp_path / "c.pdf", "--paper", "a4")
    assert code == 0 and "A4" in out


def test_cli_zoning_one_file_per_fabric(tmp_path, capsys):
    bench = tmp_path / "bench.sanplan"
    assert run(capsys, "example", "p690-benchmark", bench)[0] == 0
    code, out, _ = run(capsys, "export", bench, "--zoning", "brocade", tmp_path / "zones.txt")
    assert code == 0
    written = sorted(p.name for p in tmp_path.glob("zones*.txt"))
    assert written == [f"zones.FAB_D{d}.txt" for d in range(1, 8)]
    assert out.count("wrote") == 7


def test_cli_zoning_cisco_and_cabling(one_file, tmp_path, capsys):
    code, _, err = run(capsys, "export", one_file, "--zoning", "cisco", tmp_path / "z.txt", "--vsan", 12)
    assert code == 0 and "vsan 12" in (tmp_path / "z.txt").read_text() and err == ""
    code, _, err = run(capsys, "export", one_file, "--zoning", "cisco", tmp_path / "z1.txt")
    assert code == 0 and "VSAN 1" in err
    for fmt in ("csv", "netbox"):
        code, out, _ = run(capsys, "export", one_file, "--cabling", fmt, tmp_path / f"{fmt}.csv")
        assert code == 0 and "32 cables" in out
    assert (tmp_path / "netbox.csv").read_text().startswith("side_a_device,side_a_type")


@pytest.mark.parametrize(
    "extra, needle",
    [
        (["--zoning", "cisco", "OUT", "--vsan", "0"], "VSAN"),
        (["--zoning", "cisco", "OUT", "--vsan", "4095"], "VSAN"),
        (["--zoning", "cisco", "OUT", "--vsan", "ten"], "--vsan"),
        (["--zoning", "brocade", "OUT", "--vsan", "3"], "--vsan does not apply"),
        (["--zoning", "mcdata", "OUT"], "brocade or cisco"),
        (["--cabling", "xlsx", "OUT"], "csv or netbox"),
        (["--pdf", "OUT", "--json", "OUT"], "not allowed"),
        (["--json", "OUT", "--labels"], "--labels does not apply"),
        (["--json", "OUT", "--scenario", "Base"], "--scenario does not apply"),
        (["--pdf", "OUT", "--scenario", "Nope"], "Nope"),
        (["--pdf", "OUT", "--paper", "a3"], "a3"),
        ([], "one of the arguments"),
    ],
)
def test_cli_bad_options_are_one_line(one_file, tmp_path, capsys, extra, needle):
    argv = [str(tmp_path / "out.x") if a == "OUT" else a for a in extra]
    code, _, err = run(capsys, "export", one_file, *argv)
    assert code == 2 and needle in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err
    assert not (tmp_path / "out.x").exists()


def test_cli_bad_paper_setting(one_file, tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("SANPLAN_PAPER", "A3")
    code, _, err = run(capsys, "export", one_file, "--pdf", tmp_path / "a.pdf")
    assert code == 2 and "SANPLAN_PAPER" in err and not (tmp_path / "a.pdf").exists()


def test_cli_never_overwrites_the_design_or_writes_half_files(one_file, tmp_path, capsys):
    before = one_file.read_bytes()
    for argv in (["--pdf", one_file], ["--zoning", "brocade", one_file], ["--cabling", "csv", one_file]):
        code, _, err = run(capsys, "export", one_file, *argv)
        assert code == 2 and "design file itself" in err
    assert one_file.read_bytes() == before
    code, _, err = run(capsys, "export", one_file, "--pdf", tmp_path / "no" / "such" / "dir.pdf")
    assert code == 2 and "cannot be written" in err and len(err.strip().splitlines()) == 1
    code, _, err = run(capsys, "export", one_file, "--cabling", "csv", tmp_path)
    assert code == 2 and "is a folder" in err


def test_cli_json_still_works(one_file, tmp_path, capsys):
    code, out, _ = run(capsys, "export", one_file, "--json", tmp_path / "a.json")
    assert code == 0 and (tmp_path / "a.json").exists()
