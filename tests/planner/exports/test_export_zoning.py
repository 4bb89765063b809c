"""Zoning scripts: safe names, the Brocade and Cisco syntax, golden files, injection."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from planner.exports import NAME_RE, ExportError, fabric_file_name, safe_name, zoning_plan, zoning_script
from planner.fixtures import set_raw

GOLDEN = Path(__file__).resolve().parents[2] / "golden" / "zoning"

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
def test_user_text_cannot_inject_commands(nasty_design, vendor, grammar):
    topo = nasty_design
    set_raw(topo, "fastt2.A1", "wwpn", '20:0a:00:a0:b8:01:01:00"; cfgclear; "')  # a damaged file's WWPN
    text = zoning_script(topo, vendor)["FAB_x"]
    for line in text.splitlines():
        assert grammar.fullmatch(line), line
    assert "cfgclear" not in text and "$(" not in text and "`" not in text and "<" not in text
    mark = "#" if vendor == "brocade" else "!"
    assert f"{mark} skipped: FASTT2_A1 left out of zone Z_D1_FCS2_FASTT2_A: its WWPN is not valid" in text


def test_members_without_a_valid_wwpn_are_left_out(one_drawer):
    set_raw(one_drawer, "fastt1.A1", "wwpn", "")
    set_raw(one_drawer, "fastt1.B1", "wwpn", "10:00:00:00:c9:01:00:01")  # same as fcs0
    plan = zoning_plan(one_drawer)[0]
    assert "FASTT1_A1 left out of zone Z_D1_FCS0_FASTT1_A: it has no WWPN" in plan.skipped
    assert "FASTT1_B1 left out of zone Z_D1_FCS1_FASTT1_B: it has the same WWPN as LPAR1_FCS0" in plan.skipped
    zone = next(z for z in plan.zones if z.name == "Z_D1_FCS0_FASTT1_A")
    assert zone.members == ["LPAR1_FCS0"]
    text = zoning_script(one_drawer, "brocade")["FAB_D1"]
    assert "FASTT1_A1" not in text.replace("# skipped: FASTT1_A1", "")


def test_zone_names_are_unique_in_a_fabric(one_drawer):
    set_raw(one_drawer, "z.Z_D1_FCS1_FASTT1_B", "name", "z_d1_fcs0_fastt1_a")  # differs only in case
    names = [z.name for z in zoning_plan(one_drawer)[0].zones]
    assert len({n.lower() for n in names}) == len(names)
    assert "z_d1_fcs0_fastt1_a_2" in names
