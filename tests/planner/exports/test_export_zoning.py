"""Zoning scripts: safe names, the Brocade and Cisco syntax, golden files, injection."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from planner.exports import NAME_RE, ExportError, fabric_file_name, safe_name, zoning_plan, zoning_script
from planner.exports.zoning import write_zoning, zone_name_text
from planner.fixtures import set_raw

GOLDEN = Path(__file__).resolve().parents[2] / "golden" / "zoning"

# every line a script may hold: commands with generated names and validated WWPNs, or comments
NAME = r"[A-Za-z][A-Za-z0-9_]{0,63}"
WWPN = r"[0-9a-f]{2}(:[0-9a-f]{2}){7}"
COMMENT = r"[A-Za-z0-9_ :;,.()\[\]/-]*"
# Fabric OS command syntax (one command a line; cfgenable / cfgsave prompt, so only ever last)
BROCADE_LINE = re.compile(
    rf'# {COMMENT}|alicreate "{NAME}", "{WWPN}"|zonecreate "{NAME}", "{NAME}(;{NAME})*"'
    rf'|cfgcreate "{NAME}", "{NAME}"|cfgadd "{NAME}", "{NAME}"|cfgsave|cfgenable "{NAME}"'
    rf'|cfgremove "{NAME}", "{NAME}"|cfgdelete "{NAME}"|zonedelete "{NAME}"|alidelete "{NAME}"'
)
VSAN = r"(\d{1,3}|[1-3]\d{3}|40[0-8]\d|409[0-3])"
CISCO_LINE = re.compile(
    rf"! {COMMENT}|configure terminal|device-alias database|  (no )?device-alias name {NAME}( pwwn {WWPN})?|exit"
    rf"|device-alias commit|(no )?zone name {NAME} vsan {VSAN}|  member device-alias {NAME}"
    rf"|(no )?zoneset name {NAME} vsan {VSAN}|  (no )?member {NAME}|zoneset activate name {NAME} vsan {VSAN}"
    rf"|zone commit vsan {VSAN}|vsan database|  vsan {VSAN}( interface fc\d+/\d+)?"
    rf"|end|copy running-config startup-config"
)
PROMPTING = ("cfgenable", "cfgsave", "cfgdisable", "cfgclear")


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

VARIANTS = {
    "brocade": ("brocade", {}),
    "brocade.replace": ("brocade", {"mode": "replace"}),
    "brocade.backout": ("brocade", {"backout": True}),
    "brocade.replace.backout": ("brocade", {"mode": "replace", "backout": True}),
    "cisco": ("cisco", {}),
    "cisco.replace": ("cisco", {"mode": "replace", "vsan": 20}),
    "cisco.backout": ("cisco", {"backout": True, "vsan": 20, "config": "ZS_PROD"}),
}


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_zoning_scripts_match_the_golden_files(one_drawer, variant):
    """Golden files, regenerated deliberately for issue 12 (mode add, paste-safe, zone commit,
    zone names from the member aliases)."""
    vendor, options = VARIANTS[variant]
    scripts = zoning_script(one_drawer, vendor, **options)
    assert list(scripts) == ["FAB_D1"]
    golden = GOLDEN / f"one-drawer.{variant}.txt"
    if os.environ.get("SANPLAN_REGEN_GOLDEN") == "1":
        golden.parent.mkdir(parents=True, exist_ok=True)
        golden.write_text(scripts["FAB_D1"], encoding="utf-8")
    assert scripts["FAB_D1"] == golden.read_text(encoding="utf-8"), "regenerate with SANPLAN_REGEN_GOLDEN=1 if intended"


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_every_line_follows_the_command_syntax_and_only_the_last_prompts(one_drawer, variant):
    vendor, options = VARIANTS[variant]
    lines = zoning_script(one_drawer, vendor, **options)["FAB_D1"].splitlines()
    grammar = BROCADE_LINE if vendor == "brocade" else CISCO_LINE
    for line in lines:
        assert grammar.fullmatch(line), line
    prompting = [n for n, line in enumerate(lines) if line.startswith(PROMPTING)]
    if vendor == "brocade":  # paste-safe: a prompt swallows the next pasted line, so none follows it
        assert prompting == [len(lines) - 1]
        assert "Type y and press Enter" in "\n".join(lines)


def _nxos_tree(lines: list[str]) -> list[tuple[str, list[str]]]:
    """A small NX-OS config parser: (command, its sub-commands); sub-commands are indented and
    only follow a mode command; ``exit`` closes the mode. Raises AssertionError on bad nesting."""
    tree: list[tuple[str, list[str]]] = []
    modes = ("device-alias database", "zone name ", "zoneset name ", "vsan database")
    open_mode = False
    for line in (x for x in lines if not x.startswith("!")):
        if line.startswith("  "):
            assert open_mode, f"sub-command outside a mode: {line!r}"
            tree[-1][1].append(line.strip())
        elif line == "exit":
            assert open_mode, "exit without a mode"
            open_mode = False
        else:
            assert not open_mode or line.startswith(modes), f"{line!r} inside {tree[-1][0]!r} without exit"
            open_mode = line.startswith(modes) and not line.startswith("no ")
            tree.append((line, []))
    assert not open_mode
    return tree


def test_cisco_script_parses_as_nxos_config(one_drawer):
    tree = _nxos_tree(zoning_script(one_drawer, "cisco", vsan=42)["FAB_D1"].splitlines())
    commands = [c for c, _ in tree]
    assert commands[0] == "configure terminal" and commands[-2:] == ["end", "copy running-config startup-config"]
    zoneset = dict(tree)["zoneset name CFG_FAB_D1 vsan 42"]
    assert len(zoneset) == 16 and zoneset[0] == "member Z_LPAR1_FCS0_FASTT1_A1"
    # enhanced zoning: activate, then commit (else the change stays pending and the lock held)
    assert commands.index("zone commit vsan 42") == commands.index("zoneset activate name CFG_FAB_D1 vsan 42") + 1
    assert commands.index("device-alias commit") < commands.index("zone name Z_LPAR1_FCS0_FASTT1_A1 vsan 42")
    back = _nxos_tree(zoning_script(one_drawer, "cisco", vsan=42, backout=True)["FAB_D1"].splitlines())
    assert dict(back)["zoneset name CFG_FAB_D1 vsan 42"][0] == "no member Z_LPAR1_FCS0_FASTT1_A1"


def test_brocade_script_follows_fos_syntax(one_drawer):
    text = zoning_script(one_drawer, "brocade")["FAB_D1"]
    assert 'alicreate "LPAR1_FCS0", "10:00:00:00:c9:01:00:01"' in text
    assert 'zonecreate "Z_LPAR1_FCS0_FASTT1_A1", "LPAR1_FCS0;FASTT1_A1"' in text
    assert "\ncfgcreate" not in text and "\ncfgsave" not in text  # mode add; cfgenable saves
    assert text.count('cfgadd "CFG_FAB_D1", ') == 16
    assert text.rstrip().endswith('cfgadd "CFG_FAB_D1", "Z_LPAR1_FCS15_FASTT8_B1"\ncfgenable "CFG_FAB_D1"')
    assert "(yes, y, no, n): [no]" in text


def test_mode_replace_creates_a_new_configuration_with_a_loud_warning(one_drawer):
    text = zoning_script(one_drawer, "brocade", mode="replace", config="PROD_CFG")["FAB_D1"]
    assert 'cfgcreate "PROD_CFG", "Z_LPAR1_FCS0_FASTT1_A1"' in text and text.count("cfgadd ") == 15
    assert "# WARNING - REPLACE MODE" in text and "EVERY ZONE NOT IN THIS SCRIPT STOPS WORKING" in text
    cisco = zoning_script(one_drawer, "cisco", 7, mode="replace")["FAB_D1"]
    assert "! WARNING - REPLACE MODE" in cisco
    assert "WARNING" not in zoning_script(one_drawer, "cisco", 7)["FAB_D1"]


def test_config_names_the_configuration_in_effect(one_drawer):
    text = zoning_script(one_drawer, "brocade", config="fab_a_cfg")["FAB_D1"]
    assert 'cfgadd "fab_a_cfg", "Z_LPAR1_FCS0_FASTT1_A1"' in text and text.endswith('cfgenable "fab_a_cfg"\n')
    assert "zoneset name ZS1 vsan 5\n" in zoning_script(one_drawer, "cisco", 5, config="ZS1")["FAB_D1"]
    for bad in ("1cfg", "a b", 'x";cfgclear', "x" * 65):
        with pytest.raises(ExportError, match="configuration name"):
            zoning_script(one_drawer, "brocade", config=bad)
    with pytest.raises(ExportError, match="mode"):
        zoning_script(one_drawer, "brocade", mode="merge")


@pytest.mark.parametrize("vendor", ["brocade", "cisco"])
@pytest.mark.parametrize("mode", ["add", "replace"])
def test_backout_undoes_exactly_what_the_script_adds(one_drawer, vendor, mode):
    script = zoning_script(one_drawer, vendor, 9, mode=mode)["FAB_D1"]
    back = zoning_script(one_drawer, vendor, 9, mode=mode, backout=True)["FAB_D1"]
    if vendor == "brocade":
        added = set(re.findall(r'^(?:alicreate|zonecreate) "(\w+)"', script, re.M))
        removed = set(re.findall(r'^(?:alidelete|zonedelete) "(\w+)"', back, re.M))
        members = set(re.findall(r'^cfg(?:add|create) "\w+", "(\w+)"', script, re.M))
        taken_out = set(re.findall(r'^cfgremove "\w+", "(\w+)"', back, re.M))
        assert taken_out == (members if mode == "add" else set()) and ("cfgdelete" in back) == (mode == "replace")
    else:
        added = set(re.findall(r"^  device-alias name (\w+) pwwn|^zone name (\w+) vsan", script, re.M))
        removed = set(re.findall(r"^  no device-alias name (\w+)()$|^no zone name ()(\w+) vsan", back, re.M))
        added = {a or b for a, b in added}
        removed = {a or b or c or d for a, b, c, d in removed}
        assert "zone commit vsan 9" in back
    assert added == removed and len(added) == 48


def test_write_zoning_writes_the_backout_beside_the_script(one_drawer, tmp_path):
    written = write_zoning(one_drawer, "brocade", tmp_path / "z.txt", backout=True, config="C1")
    assert [os.path.basename(p) for p, _ in written] == ["z.txt", "z.backout.txt"]
    assert (tmp_path / "z.backout.txt").read_text().rstrip().endswith('cfgenable "C1"')


def test_cisco_script_uses_the_vsan(one_drawer):
    text = zoning_script(one_drawer, "cisco", vsan=42)["FAB_D1"]
    assert "  device-alias name LPAR1_FCS0 pwwn 10:00:00:00:c9:01:00:01" in text
    assert (
        "zone name Z_LPAR1_FCS15_FASTT8_B1 vsan 42\n  member device-alias LPAR1_FCS15\n  member device-alias FASTT8_B1"
        in text
    )
    assert "zoneset activate name CFG_FAB_D1 vsan 42\nzone commit vsan 42\n" in text
    assert text.rstrip().endswith("copy running-config startup-config")
    assert (
        "VSAN 1 is the default VSAN" not in text
        and "VSAN 1 is the default VSAN" in zoning_script(one_drawer, "cisco")["FAB_D1"]
    )


def test_vsan_ports_use_nxos_port_names_where_the_part_says_so(one_drawer):
    text = zoning_script(one_drawer, "cisco", 30, vsan_ports=True)["FAB_D1"]
    assert "does not name ports fc1/N" in text and "interface" not in text  # a Brocade 2109-F32
    part = one_drawer.part_of(one_drawer.of_kind("switch")[0])
    part.update(port_names="fc1/N", switch_os="nx-os", vendor="Cisco")
    text = zoning_script(one_drawer, "cisco", 30, vsan_ports=True)["FAB_D1"]
    tree = dict(_nxos_tree(text.splitlines()))
    ports = tree["vsan database"]
    assert ports[0] == "vsan 30" and len(ports) == 1 + 32
    assert all(re.fullmatch(r"vsan 30 interface fc1/([1-9]|[12]\d|3[0-2])", p) for p in ports[1:])
    assert "NOTE" not in text  # NX-OS script for NX-OS switches
    brocade = zoning_script(one_drawer, "brocade")["FAB_D1"]
    assert "run Cisco MDS NX-OS, not" in brocade and "Export with --zoning cisco" in brocade


def test_script_for_the_other_vendor_says_so(one_drawer):
    assert "run Brocade Fabric OS, not" in zoning_script(one_drawer, "cisco", 3)["FAB_D1"]
    assert "NOTE" not in zoning_script(one_drawer, "brocade")["FAB_D1"]


def test_one_script_per_fabric(benchmark_design):
    scripts = zoning_script(benchmark_design, "brocade")
    assert list(scripts) == [f"FAB_D{d}" for d in range(1, 8)]
    assert all(s.count("zonecreate") == 16 for s in scripts.values())
    assert fabric_file_name("out/zones.txt", "FAB_D3") == os.path.join("out", "zones.FAB_D3.txt")


def test_zone_names_follow_the_alias_scheme(benchmark_design):
    """Today's stored name Z_D7_FCS13_FASTT55_B holds LPAR1_FCS109: exported names are built from
    the member aliases, the scheme zoning_edit.zone_name uses for new zones."""
    for plan in zoning_plan(benchmark_design):
        for z in plan.zones:
            assert z.name == safe_name(zone_name_text(z.members), "Z"), z.name
    d7 = next(p for p in zoning_plan(benchmark_design) if p.name == "FAB_D7")
    zone = next(z for z in d7.zones if "LPAR1_FCS109" in z.members)
    assert zone.name.startswith("Z_LPAR1_FCS109_FASTT")


@pytest.mark.parametrize("vsan", [0, 4095, -1, True, 1.5, "7"])
def test_bad_vsan_is_refused(one_drawer, vsan):
    with pytest.raises(ExportError, match="VSAN"):
        zoning_script(one_drawer, "cisco", vsan)


def test_isolated_vsan_is_refused_and_the_range_accepted(one_drawer):
    with pytest.raises(ExportError, match="VSAN 4094 is the isolated VSAN"):
        zoning_script(one_drawer, "cisco", 4094)
    for vsan in (2, 4093):
        assert f"zone commit vsan {vsan}" in zoning_script(one_drawer, "cisco", vsan)["FAB_D1"]


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


def test_members_without_a_valid_wwpn_never_make_a_one_member_zone(one_drawer):
    set_raw(one_drawer, "fastt1.A1", "wwpn", "")
    set_raw(one_drawer, "fastt1.B1", "wwpn", "10:00:00:00:c9:01:00:01")  # same as fcs0
    plan = zoning_plan(one_drawer)[0]
    assert "FASTT1_A1 left out of zone Z_D1_FCS0_FASTT1_A: it has no WWPN" in plan.skipped
    assert (
        "zone Z_D1_FCS0_FASTT1_A left out: only LPAR1_FCS0 has a valid WWPN (a zone needs two members)" in plan.skipped
    )
    assert "FASTT1_B1 left out of zone Z_D1_FCS1_FASTT1_B: it has the same WWPN as LPAR1_FCS0" in plan.skipped
    assert len(plan.zones) == 14 and all(len(z.members) >= 2 for z in plan.zones)
    assert "LPAR1_FCS0" not in {a.name for a in plan.aliases}  # no alias left unused
    for vendor in ("brocade", "cisco"):
        text = zoning_script(one_drawer, vendor, 3)["FAB_D1"]
        commands = "\n".join(x for x in text.splitlines() if not x.startswith(("#", "!")))
        assert "FASTT1_A1" not in commands and "LPAR1_FCS0" not in commands


def test_check_reports_the_ports_left_out(one_drawer):
    """sanplan check reports them with the WWPN rules (WWPN_INVALID, WWPN_DUPLICATE)."""
    from planner.rules import check

    set_raw(one_drawer, "fastt1.A1", "wwpn", "")
    set_raw(one_drawer, "fastt1.B1", "wwpn", "10:00:00:00:c9:01:00:01")
    found = {(f.rule, c) for f in check(one_drawer) for c in f.components}
    assert ("WWPN_INVALID", "fastt1.A1") in found and ("WWPN_DUPLICATE", "fastt1.B1") in found


def test_zone_names_are_unique_in_a_fabric(one_drawer):
    zone = one_drawer["z.Z_D1_FCS1_FASTT1_B"]
    set_raw(one_drawer, zone.id, "members", list(one_drawer["z.Z_D1_FCS0_FASTT1_A"]["members"]))
    names = [z.name for z in zoning_plan(one_drawer)[0].zones]
    assert len({n.lower() for n in names}) == len(names)
    assert names[:2] == ["Z_LPAR1_FCS0_FASTT1_A1", "Z_LPAR1_FCS0_FASTT1_A1_2"]


def test_cli_flags_reach_the_scripts(one_drawer, tmp_path, capsys, monkeypatch):
    from app.cli import main

    monkeypatch.setenv("SANPLAN_HOME", str(tmp_path / "home"))
    design = tmp_path / "one.sanplan"
    assert main(["example", "p690-one-drawer", str(design)]) == 0
    out = tmp_path / "z.txt"
    argv = ["export", str(design), "--zoning", "cisco", str(out), "--vsan", "12", "--mode", "replace"]
    assert main([*argv, "--config", "ZS_A", "--backout", "--vsan-ports"]) == 0
    assert "zoneset activate name ZS_A vsan 12" in out.read_text() and "REPLACE MODE" in out.read_text()
    assert "no zoneset name ZS_A vsan 12" in (tmp_path / "z.backout.txt").read_text()
    assert "back-out script of fabric FAB_D1" in capsys.readouterr().out
    assert main(["export", str(design), "--zoning", "cisco", str(out), "--vsan", "4094"]) != 0
    assert "isolated VSAN" in capsys.readouterr().err
