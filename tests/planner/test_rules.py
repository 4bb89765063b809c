"""Tests for planner.rules: each rule fires on a design that breaks it and stays quiet once fixed.

Designs are the bundled examples plus small edits through planner.edit; states the editor
refuses (a malformed WWPN, two adapters in one slot) are set with the loader primitives, as a
loaded file could hold them.
"""

from __future__ import annotations

import pytest

from catalogs.catalog import builtin_parts
from planner import edit
from planner.analysis import analyze
from planner.examples import build_example
from planner.model import Component, default_attrs
from planner.rules import RULES, SEVERITIES, Context, Finding, Rule, check, raid_drive_problem, rule, rules_table

LPAR = "p690.lpar1"
VG = "p690.lpar1.datavg"
LV = "p690.lpar1.datavg.stripelv01"
WL = "p690.lpar1.datavg.stripelv01.wl"


@pytest.fixture(scope="module")
def parts():
    return builtin_parts()


@pytest.fixture
def one(parts):
    return build_example("p690-one-drawer", parts)


@pytest.fixture(scope="module")
def benchmark(parts):
    return build_example("p690-benchmark", parts)


def of(findings, rule_id, severity=None):
    return [f for f in findings if f.rule == rule_id and (severity is None or f.severity == severity)]


def run(topo, *rule_ids, **kw):
    return check(topo, rules=rule_ids, **kw)


def comps(findings):
    return {c for f in findings for c in f.components}


# -- helpers building extra SAN pieces ---------------------------------------------------------


def new_hba(topo, parts, slot, lpar=LPAR, wwpn=None):
    s = edit.find_slot(topo, "d1", slot)
    edit.add_hba(topo, s.id, parts["FC6239"], lpar=lpar, wwpns=[wwpn or f"10:00:00:00:c9:ff:00:{slot:02x}"])
    return f"hba.d1s{slot}.0"


def second_fabric(topo, parts, tag="X"):
    edit.add_fabric(topo, f"FAB_{tag}")
    edit.add_switch(topo, parts["2109-F32"], f"fab.FAB_{tag}", f"sw{tag}", domain_id=9)
    return f"fab.FAB_{tag}", f"sw{tag}"


def fastt900(topo, parts, name="f900"):
    """A FAStT900 (two host ports per controller) with one EXP700, two arrays, LUN A and LUN B."""
    edit.add_subsystem(topo, parts["FAStT900"], name, wwpn_base="20:0b:00:a0:b8:11:22:00")
    edit.add_enclosure(topo, name, parts["EXP700"], drive_part=parts["DRV-36G-15K"], drives=14)
    free = [d.id for d in edit.free_drives(topo, name)]
    edit.add_array(topo, name, 5, free[:9], segment_kb=128)
    edit.add_array(topo, name, 5, free[9:14], segment_kb=256)
    edit.add_logical_drive(topo, f"{name}.arr1", f"{name}.A", size_gb=270)
    edit.add_logical_drive(topo, f"{name}.arr2", f"{name}.B", size_gb=140)
    return name


def rdac_design(topo, parts, extra_zones=()):
    """Two new HBAs (slots 4 and 10) on a second fabric to a FAStT900, zoned HBA1 -> A1, HBA2 -> B1
    (P690 Appendix B, two HBAs to one FAStT), plus ``extra_zones`` (member lists)."""
    h1, h2 = new_hba(topo, parts, 4), new_hba(topo, parts, 10)
    fab, sw = second_fabric(topo, parts)
    sub = fastt900(topo, parts)
    edit.add_host_mapping(topo, sub, "P_F900", [h1, h2], [f"{sub}.ld1", f"{sub}.ld2"])
    for i, port in enumerate((h1, h2, f"{sub}.A1", f"{sub}.A2", f"{sub}.B1", f"{sub}.B2")):
        edit.add_cable(topo, port, f"{sw}.p{i}")
    edit.add_zone(topo, fab, "Z_H1_A1", [h1, f"{sub}.A1"])
    edit.add_zone(topo, fab, "Z_H2_B1", [h2, f"{sub}.B1"])
    for n, members in enumerate(extra_zones):
        edit.add_zone(topo, fab, f"Z_EXTRA{n}", members)
    return h1, h2, sub


def fourth_adapter_with_path(topo, parts):
    """A fourth adapter on PHB1 of planar 0 (slot 4) with its own switch and FAStT600 Turbo."""
    h = new_hba(topo, parts, 4)
    fab, sw = second_fabric(topo, parts)
    edit.add_subsystem(
        topo,
        parts["FAStT600-Turbo"],
        "fx",
        wwpn_base="20:0c:00:a0:b8:33:44:00",
        drive_part=parts["DRV-36G-15K"],
        drives=14,
    )
    free = [d.id for d in edit.free_drives(topo, "fx")]
    edit.add_array(topo, "fx", 5, free[:9], segment_kb=128)
    edit.add_logical_drive(topo, "fx.arr1", "fx.A", size_gb=270)
    edit.add_host_mapping(topo, "fx", "P_FX", [h], ["fx.ld1"])
    edit.add_cable(topo, h, f"{sw}.p0")
    edit.add_cable(topo, "fx.A1", f"{sw}.p1")
    edit.add_zone(topo, fab, "Z_FX", [h, "fx.A1"])
    return h


# -- the API -----------------------------------------------------------------------------------


def test_registry_holds_the_rules_with_valid_metadata():
    required = {
        "PV_PER_VG",
        "ASIC_CROSSING",
        "PHB_SATURATED",
        "LINK_SATURATED",
        "PLANAR_SATURATED",
        "DRAWER_SATURATED",
        "SLOT_INVALID",
        "RDAC_PATHS",
        "LUN_OWNERSHIP_BALANCE",
        "FULL_STRIPE_ALIGNMENT",
        "LTG_MAX_TRANSFER",
        "RAID_DRIVE_COUNT",
        "SEGMENT_SIZE",
        "WWPN_INVALID",
        "WWPN_DUPLICATE",
        "ZONE_MEMBER_MISSING",
        "UNREACHABLE",
        "SINGLE_POINT_OF_FAILURE",
        "SPEED_MISMATCH",
        "WORK_ON_RAID5",
        "DIO_REQUEST_SIZE",
        "SGIO_BUFFER_LIMIT",
        "HBA_NO_LPAR",
        "MAPPING_EMPTY",
    }
    assert required <= set(RULES)
    for rid, r in RULES.items():
        assert r.id == rid and r.severity in SEVERITIES and r.title and r.source and callable(r.fn)
        assert r.fn.__doc__, f"{rid} has no docstring"
    assert [row["id"] for row in rules_table()] == list(RULES)


def test_rule_decorator_refuses_duplicates_and_bad_severity():
    with pytest.raises(ValueError, match="twice"):
        rule("PV_PER_VG", "error", "again", "x")(lambda topo, ctx: [])
    with pytest.raises(ValueError, match="severity"):
        rule("NEW_RULE", "fatal", "x", "x")


def test_finding_to_dict_has_exactly_the_documented_keys(one):
    edit.add_host_mapping(one, "fastt1", "EMPTY", [], [])
    findings = check(one)
    assert findings
    for f in findings:
        d = f.to_dict()
        assert set(d) == {"rule", "severity", "components", "message", "fix", "source"}
        assert isinstance(d["components"], list) and d["components"] == list(f.components)
        assert f.message and f.fix and f.source
    with pytest.raises(ValueError):
        Finding("X", "fatal", (), "m", "f", "s")


def test_findings_are_sorted_by_severity_rule_and_components(one):
    one._set("hba.d1s1.0", "wwpn", "60:05:07:68:01:80:80:98")  # error
    edit.add_host_mapping(one, "fastt1", "EMPTY", [], [])  # warning
    edit.set_attr(one, "sw1.p0", "speed_gbps", 1)  # advice
    findings = check(one)
    keys = [(SEVERITIES.index(f.severity), f.rule, f.components) for f in findings]
    assert keys == sorted(keys)
    assert {f.severity for f in findings} == set(SEVERITIES)


def test_unknown_rule_id_and_options_are_refused(one):
    with pytest.raises(ValueError, match="NO_SUCH"):
        check(one, rules=["NO_SUCH"])
    with pytest.raises(ValueError, match="figure set"):
        check(one, figures="guess")
    with pytest.raises(ValueError, match="direction"):
        check(one, direction="sideways")


def test_a_crashing_rule_becomes_an_internal_finding_and_others_still_run(one, monkeypatch):
    def boom(topo, ctx):
        raise KeyError("broken")

    monkeypatch.setitem(RULES, "BOOM", Rule("BOOM", "error", "Boom check", "test", boom))
    edit.add_host_mapping(one, "fastt1", "EMPTY", [], [])
    findings = check(one, rules=["BOOM", "MAPPING_EMPTY"])
    internal = of(findings, "INTERNAL")
    assert len(internal) == 1 and internal[0].severity == "error"
    assert "BOOM" in internal[0].message and "KeyError" in internal[0].message
    assert of(findings, "MAPPING_EMPTY")


def test_check_does_not_change_the_design(one):
    before = one.revision
    check(one)
    assert one.revision == before


def test_context_computes_the_analysis_once_and_a_given_analysis_wins(one):
    ctx = Context(one, "planning")
    assert ctx.analysis is ctx.analysis
    measured = analyze(one, "measured", "read", "cache", cross_check=False)
    assert Context(one, "planning", analysis=measured).figures == "measured"
    # the measured profile saturates link1 of both planars (P690 Figure 4); planning does not
    assert of(check(one, analysis=measured), "LINK_SATURATED")
    assert not of(check(one, "planning"), "LINK_SATURATED")


def test_labels_name_components_with_their_place(one):
    ctx = Context(one)
    assert ctx.label("d1.phb1") == "PHB1 (drawer PHB1) of Drawer 1"
    assert ctx.label("d1.p0.link1") == "link1 of Planar 0 of Drawer 1"
    assert ctx.label("sw1.p3") == "sw1 port 3"
    assert ctx.label("hba.d1s1") == "fcs0 in Slot 1 of Drawer 1"


# -- the paper's designs -----------------------------------------------------------------------


def test_benchmark_has_no_errors_with_planning_figures(benchmark):
    findings = check(benchmark, "planning")
    assert not [f for f in findings if f.severity == "error"], [f.message for f in findings if f.severity == "error"]
    # one switch per drawer is the paper's choice: one grouped warning, not 112
    spof = of(findings, "SINGLE_POINT_OF_FAILURE")
    assert len(spof) == 1
    assert sum(1 for c in spof[0].components if c.endswith((".ld1", ".ld2"))) == 112
    assert {f"sw{d}" for d in range(1, 8)} <= set(spof[0].components)
    assert len(findings) < 10


# -- AIX LVM -----------------------------------------------------------------------------------


def test_pv_per_vg(benchmark):
    topo = benchmark.clone()
    assert not run(topo, "PV_PER_VG")  # 112 PVs in a big VG
    edit.set_attr(topo, VG, "vg_type", "normal")
    found = run(topo, "PV_PER_VG")
    assert [(f.rule, f.severity) for f in found] == [("PV_PER_VG", "error")]
    assert found[0].components == (VG,) and "112" in found[0].message and "32" in found[0].message
    edit.set_attr(topo, VG, "vg_type", "scalable")  # AIX 5.3 only
    found = run(topo, "PV_PER_VG")
    assert len(found) == 1 and found[0].severity == "error" and LPAR in found[0].components
    edit.set_attr(topo, LPAR, "aix_level", "5.3")
    assert not run(topo, "PV_PER_VG")


def test_ltg_above_max_transfer(one):
    assert not run(one, "LTG_MAX_TRANSFER")
    edit.set_attr(one, "p690.lpar1.hdisk5", "max_transfer_kb", 256)
    found = run(one, "LTG_MAX_TRANSFER")
    assert len(found) == 1 and found[0].severity == "error"
    assert found[0].components == (VG, "p690.lpar1.hdisk5")
    assert "max_transfer=0x100000" in found[0].fix
    edit.set_attr(one, "p690.lpar1.hdisk5", "max_transfer_kb", 1024)
    assert not run(one, "LTG_MAX_TRANSFER")


def test_ltg_above_1mb_needs_aix_53(one):
    for hd in one.children(LPAR, "hdisk"):
        edit.set_attr(one, hd.id, "max_transfer_kb", 2048)
    edit.set_attr(one, VG, "ltg_kb", 2048)
    found = run(one, "LTG_MAX_TRANSFER")
    assert len(found) == 1 and LPAR in found[0].components and "5.3" in found[0].message
    edit.set_attr(one, LPAR, "aix_level", "5.3")
    assert not run(one, "LTG_MAX_TRANSFER")


def test_lv_stripe_limits(one):
    assert not run(one, "LV_STRIPE")
    one._set(LV, "stripe_kb", 2048)
    one._set(LV, "width", 99)
    found = run(one, "LV_STRIPE")
    assert len(found) == 2 and all(f.severity == "error" and LV in f.components for f in found)
    edit.set_attr(one, LPAR, "aix_level", "5.3")
    one._set(LV, "width", 16)
    assert not run(one, "LV_STRIPE")


# -- RAID arrays and logical drives ------------------------------------------------------------


@pytest.mark.parametrize(
    ("level", "drives", "ok"),
    [
        (0, 1, True),
        (0, 0, False),
        (1, 2, True),
        (1, 1, False),
        (1, 3, False),
        (1, 4, True),
        (3, 2, False),
        (3, 3, True),
        (5, 2, False),
        (5, 3, True),
        (5, 30, True),
        (5, 31, False),
        (10, 2, False),
        (10, 4, True),
        (10, 5, False),
        (6, 8, False),
    ],
)
def test_raid_drive_problem_table(level, drives, ok):
    assert (raid_drive_problem(level, drives, 30) is None) is ok


def test_raid_drive_count(one, parts):
    assert not run(one, "RAID_DRIVE_COUNT")
    drives = one["fastt1.arr1"]["drives"]
    one._set("fastt1.arr1", "drives", drives[:2])  # RAID 5 on two drives
    found = run(one, "RAID_DRIVE_COUNT")
    assert len(found) == 1 and found[0].severity == "error" and found[0].components == ("fastt1.arr1",)
    assert "at least 3" in found[0].message
    one._set("fastt1.arr1", "drives", drives[:3])
    assert not run(one, "RAID_DRIVE_COUNT")
    # more than the 30 drives a FAStT array holds (P690 Appendix B)
    many = [d.id for d in one.descendants("fastt2") if d.kind == "drive"] + [
        d.id for d in one.descendants("fastt3") if d.kind == "drive"
    ][:3]
    one._set("fastt1.arr1", "drives", tuple(many))
    found = run(one, "RAID_DRIVE_COUNT")
    assert len(found) == 1 and "at most 30" in found[0].message


def test_raid_level_the_subsystem_does_not_offer(one, parts):
    edit.add_subsystem(one, parts["ESS800"], "ess", drive_part=parts["DRV-36G-15K"], drives=8)
    free = [d.id for d in edit.free_drives(one, "ess")]
    edit.add_array(one, "ess", 0, free[:4], segment_kb=32)  # ESS 800 offers RAID 5 and 10
    found = run(one, "RAID_DRIVE_COUNT")
    assert len(found) == 1 and found[0].components == ("ess.arr1",) and "not offered" in found[0].message
    one._set("ess.arr1", "raid_level", 10)
    assert not run(one, "RAID_DRIVE_COUNT")


def test_segment_size(one):
    assert not run(one, "SEGMENT_SIZE")
    one._set("fastt1.arr1", "segment_kb", 512)
    one._set("fastt2.arr2", "segment_kb", 512)
    found = run(one, "SEGMENT_SIZE")
    assert len(found) == 1 and found[0].severity == "error"
    assert set(found[0].components) == {"fastt1.arr1", "fastt2.arr2"}
    one._set("fastt1.arr1", "segment_kb", 256)
    one._set("fastt2.arr2", "segment_kb", 128)
    assert not run(one, "SEGMENT_SIZE")


def test_full_stripe_alignment(one):
    assert not run(one, "FULL_STRIPE_ALIGNMENT")  # 8+P x 128 KB = 1 MB = LTG = LV stripe
    drives = one["fastt1.arr1"]["drives"]
    one._set("fastt1.arr1", "drives", drives[:7])  # RAID5 6+P
    one._set("fastt1.arr1", "segment_kb", 256)  # 1.5 MB full stripe
    found = run(one, "FULL_STRIPE_ALIGNMENT")
    assert len(found) == 1 and found[0].severity == "advice"  # the workloads only read
    assert {VG, "fastt1.arr1", LV} <= set(found[0].components)
    assert "1.5 MB" in found[0].message
    edit.set_attr(one, WL, "read_pct", 50)  # writes: RAID 5 partial-stripe writes
    assert [f.severity for f in run(one, "FULL_STRIPE_ALIGNMENT")] == ["warning"]
    one._set("fastt1.arr1", "drives", drives[:5])  # 4+P x 256 KB = 1 MB
    assert not run(one, "FULL_STRIPE_ALIGNMENT")
    one._set("fastt1.arr1", "segment_kb", 128)  # 4+P x 128 KB = 512 KB: two per LTG, still aligned
    assert not run(one, "FULL_STRIPE_ALIGNMENT")


def test_lun_ownership_balance(one):
    assert not run(one, "LUN_OWNERSHIP_BALANCE")
    edit.set_attr(one, "fastt1.ld2", "owner", "fastt1.A")
    found = run(one, "LUN_OWNERSHIP_BALANCE")
    assert len(found) == 1 and found[0].severity == "warning"
    assert found[0].components[:2] == ("fastt1", "fastt1.B")
    edit.set_attr(one, "fastt1.ld2", "owner", "fastt1.B")
    edit.set_attr(one, "fastt2.ld1", "size_gb", 1000)  # one LUN each, but 1000 GB against 274 GB
    found = run(one, "LUN_OWNERSHIP_BALANCE")
    assert len(found) == 1 and found[0].components == ("fastt2",) and "GB" in found[0].message
    edit.set_attr(one, "fastt2.ld1", "size_gb", 274)
    assert not run(one, "LUN_OWNERSHIP_BALANCE")


# -- server I/O placement ----------------------------------------------------------------------


def test_fourth_adapter_on_phb1_is_advice_without_traffic(one, parts):
    assert not run(one, "PHB_SATURATED", "PLANAR_SATURATED", "DRAWER_SATURATED", "LINK_SATURATED")
    new_hba(one, parts, 4)  # uncabled: the analysis does not see it, placement alone does
    found = run(one, "PHB_SATURATED")
    assert [(f.severity, f.components) for f in found] == [("advice", ("d1.phb1", "hba.d1s4"))]
    assert "fourth adapter" in found[0].message
    # 17 adapters at 150 MB/s exceed the drawer's 2400 and planar 0's 1200
    assert [f.severity for f in run(one, "DRAWER_SATURATED")] == ["advice"]
    assert run(one, "PLANAR_SATURATED")[0].components[0] == "d1.p0"
    assert not run(one, "LINK_SATURATED")  # link0 feeds only PHB1: 600 of 750


def test_phb_saturated_warning_when_it_binds_paths(one, parts):
    fourth_adapter_with_path(one, parts)
    found = run(one, "PHB_SATURATED")
    assert [(f.severity, f.components) for f in found] == [("warning", ("d1.phb1",))]
    assert "4 paths" in found[0].message and "450" in found[0].message


def test_link_and_drawer_saturated_in_the_measured_profile(one):
    a = analyze(one, "measured", "read", "cache", cross_check=False)
    links = check(one, analysis=a, rules=["LINK_SATURATED"])
    assert len(links) == 1 and set(links[0].components) == {"d1.p0.link1", "d1.p1.link1"}
    assert "814" in links[0].message and links[0].severity == "warning"
    drawers = check(one, analysis=a, rules=["DRAWER_SATURATED"])
    assert [(f.severity, f.components) for f in drawers] == [("warning", ("d1",))]
    assert not check(one, "planning", rules=["LINK_SATURATED", "DRAWER_SATURATED"])


def test_planar_saturated(one):
    edit.delete(one, [h.id for h in one.of_kind("hba") if one[h.parent]["number"] > 10])
    a = analyze(one, "measured", "read", "cache", cross_check=False)
    found = check(one, analysis=a, rules=["PLANAR_SATURATED"])
    assert [(f.severity, f.components) for f in found] == [("warning", ("d1.p0",))]
    assert "1332" in found[0].message
    assert not check(
        one, analysis=analyze(one, "planning", "read", "cache", cross_check=False), rules=["PLANAR_SATURATED"]
    )


def test_slot_invalid(one):
    assert not run(one, "SLOT_INVALID")
    attrs = default_attrs("hba") | {"lpar": LPAR}
    one._add(Component("hba.extra", "hba", "fcs99", "d1.s1", "FC6239", attrs))
    found = run(one, "SLOT_INVALID")
    assert len(found) == 1 and found[0].components == ("d1.s1", "hba.d1s1", "hba.extra")
    one._reparent("hba.extra", "d1.s4")
    assert not run(one, "SLOT_INVALID")
    one._reparent("d1.s4", "d1.phb2")  # slot 4 is wired to PHB1, not PHB2
    found = run(one, "SLOT_INVALID")
    assert len(found) == 1 and found[0].components == ("d1.s4", "d1.phb2")


def test_hba_without_lpar(one, parts):
    new_hba(one, parts, 4, lpar="")
    found = run(one, "HBA_NO_LPAR")
    assert [(f.severity, f.components) for f in found] == [("warning", ("hba.d1s4",))]
    edit.set_attr(one, "hba.d1s4", "lpar", LPAR)
    assert not run(one, "HBA_NO_LPAR")


# -- SAN -----------------------------------------------------------------------------------------


def test_asic_crossing_error_on_the_worst_cabling(parts):
    worst = build_example("p690-worst-cabling", parts)
    found = run(worst, "ASIC_CROSSING")
    assert len(found) == 1 and found[0].severity == "error"
    assert found[0].components[:2] == ("sw1", "sw1.bp")
    assert {"hba.d1s1.0", "fastt1.A1", "z.Z_D1_FCS0_FASTT1_A"} <= set(found[0].components)
    assert "16 paths" in found[0].message and "1600" in found[0].message


def test_asic_crossing_warning_when_the_backplane_keeps_up(parts):
    worst = build_example("p690-worst-cabling", parts)
    edit.delete(worst, [z.id for z in worst.of_kind("zone")][4:])  # 4 crossing paths: 600 of 1600 MB/s
    found = run(worst, "ASIC_CROSSING")
    assert len(found) == 1 and found[0].severity == "warning"
    assert sum(1 for c in found[0].components if c.startswith("z.")) == 4


def test_no_asic_crossing_when_cabled_asic_local(one):
    assert not run(one, "ASIC_CROSSING")


def test_rdac_one_hba_port_zoned_to_both_controllers(one):
    assert not run(one, "RDAC_PATHS")
    edit.add_zone(one, "fab.FAB_D1", "Z_BAD", ["hba.d1s1.0", "fastt1.B1"])
    found = run(one, "RDAC_PATHS")
    assert len(found) == 1 and found[0].severity == "error"
    # partition P_FASTT1 now sees controller B through fcs0 and fcs1
    assert {LPAR, "fastt1.B", "hba.d1s1.0", "hba.d1s2.0", "fastt1.B1", "z.Z_BAD"} <= set(found[0].components)
    edit.set_attr(one, LPAR, "multipath", "MPIO")  # MPIO lifts the one-path rule
    assert not run(one, "RDAC_PATHS")


def test_rdac_two_ports_of_one_controller_on_a_fastt900(one, parts):
    h1, h2, sub = rdac_design(one, parts, extra_zones=[["hba.d1s4.0", "f900.A2"]])
    found = run(one, "RDAC_PATHS")
    assert len(found) == 1 and found[0].severity == "error"
    assert {h1, "f900.A", "f900.A1", "f900.A2"} <= set(found[0].components)
    assert h2 not in found[0].components


def test_rdac_correct_two_hba_layout_passes(one, parts):
    rdac_design(one, parts)
    assert not run(one, "RDAC_PATHS")


def test_rdac_controller_reached_by_no_hba_is_a_warning(one, parts):
    rdac_design(one, parts)
    edit.delete(one, ["z.Z_H2_B1"])
    found = run(one, "RDAC_PATHS")
    assert [(f.severity, f.components) for f in found] == [("warning", (LPAR, "f900.B", "f900.map.P_F900"))]


def test_wwpn_invalid(one):
    assert not run(one, "WWPN_INVALID")
    one._set("hba.d1s1.0", "wwpn", "60:05:07:68:01:80:80:98")  # NAA 6: the 16-byte form
    one._set("fastt1.A1", "wwpn", "20:0a:00")
    one._set("hba.d1s2.0", "wwpn", "")  # cabled: zoning needs it
    found = run(one, "WWPN_INVALID")
    errors = of(found, "WWPN_INVALID", "error")
    assert {f.components for f in errors} == {("hba.d1s1.0",), ("fastt1.A1",)}
    assert [f.components for f in of(found, "WWPN_INVALID", "warning")] == [("hba.d1s2.0",)]
    one._set("hba.d1s1.0", "wwpn", "10:00:00:00:c9:01:00:00")
    one._set("fastt1.A1", "wwpn", "20:0a:00:a0:b8:01:00:00")
    one._set("hba.d1s2.0", "wwpn", "10:00:00:00:c9:01:00:01")
    assert not run(one, "WWPN_INVALID")


def test_wwpn_duplicate_is_one_finding_per_wwpn(one):
    assert not run(one, "WWPN_DUPLICATE")
    w = one["hba.d1s1.0"]["wwpn"]
    edit.set_attr(one, "hba.d1s2.0", "wwpn", w)
    one._set("fastt1.A1", "wwpn", w.replace(":", ""))  # the same name written without colons
    found = run(one, "WWPN_DUPLICATE")
    assert len(found) == 1 and found[0].severity == "error"
    assert found[0].components == ("hba.d1s1.0", "hba.d1s2.0", "fastt1.A1")
    edit.set_attr(one, "hba.d1s2.0", "wwpn", "10:00:00:00:c9:aa:aa:aa")
    one._set("fastt1.A1", "wwpn", "20:0a:00:a0:b8:bb:bb:bb")
    assert not run(one, "WWPN_DUPLICATE")


def test_zone_member_missing(one, parts):
    assert not run(one, "ZONE_MEMBER_MISSING")
    edit.set_attr(one, "z.Z_D1_FCS0_FASTT1_A", "members", ["hba.d1s1.0"])
    edit.add_zone(one, "fab.FAB_D1", "Z_HBAS", ["hba.d1s2.0", "hba.d1s3.0"])
    found = run(one, "ZONE_MEMBER_MISSING")
    assert {f.components for f in found} == {
        ("z.Z_D1_FCS0_FASTT1_A", "hba.d1s1.0"),
        ("z.Z_HBAS", "hba.d1s2.0", "hba.d1s3.0"),
    }
    assert all(f.severity == "warning" for f in found)
    edit.set_attr(one, "z.Z_D1_FCS0_FASTT1_A", "members", ["hba.d1s1.0", "fastt1.A1"])
    edit.delete(one, ["z.Z_HBAS"])
    assert not run(one, "ZONE_MEMBER_MISSING")


def test_zone_member_in_another_fabric_or_uncabled(one, parts):
    h = new_hba(one, parts, 4)
    fab, sw = second_fabric(one, parts)
    edit.add_cable(one, h, f"{sw}.p0")
    fastt900(one, parts)  # not cabled
    edit.add_zone(one, "fab.FAB_D1", "Z_WRONG", [h, "f900.A1"])
    found = run(one, "ZONE_MEMBER_MISSING")
    assert {(f.severity, f.components) for f in found} == {
        ("error", ("z.Z_WRONG", h)),
        ("warning", ("z.Z_WRONG", "f900.A1")),
    }
    edit.delete(one, ["z.Z_WRONG"])
    edit.add_cable(one, "f900.A1", f"{sw}.p1")
    edit.add_zone(one, fab, "Z_RIGHT", [h, "f900.A1"])
    assert not run(one, "ZONE_MEMBER_MISSING")


def test_speed_mismatch(one):
    assert not run(one, "SPEED_MISMATCH")
    edit.set_attr(one, "sw1.p0", "speed_gbps", 1)
    found = run(one, "SPEED_MISMATCH")
    cable = one.cable_at("hba.d1s1.0").id
    assert [(f.severity, f.components) for f in found] == [("advice", (cable, "hba.d1s1.0", "sw1.p0"))]
    assert "1 Gbps" in found[0].message


# -- reachability and redundancy ---------------------------------------------------------------


def test_unreachable(one):
    assert not run(one, "UNREACHABLE")
    edit.delete(one, [one.cable_at("hba.d1s1.0").id])
    found = run(one, "UNREACHABLE")
    by_sev = {(f.severity, f.components) for f in found}
    assert ("warning", ("hba.d1s1.0",)) in by_sev
    assert ("warning", ("fastt1.A1",)) in by_sev  # cabled, but no path uses it
    assert ("error", ("fastt1.ld1",)) in by_sev  # owned by A, mapped, reached by nothing


def test_unmapped_logical_drive_is_a_warning(one):
    free = [d.id for d in edit.free_drives(one, "fastt1")]
    edit.add_array(one, "fastt1", 5, free[:5], segment_kb=256)
    edit.add_logical_drive(one, "fastt1.arr3", "fastt1.A", size_gb=140)
    found = run(one, "UNREACHABLE")
    assert [(f.severity, f.components) for f in found] == [("warning", ("fastt1.ld3",))]
    edit.set_attr(one, "fastt1.map.P_FASTT1", "logical_drives", ["fastt1.ld1", "fastt1.ld2", "fastt1.ld3"])
    assert not run(one, "UNREACHABLE")


def test_single_point_of_failure_hba_and_controller(one):
    edit.delete(one, ["z.Z_D1_FCS1_FASTT1_B"])
    found = run(one, "SINGLE_POINT_OF_FAILURE")
    hba = [f for f in found if "hba.d1s1" in f.components]
    ctl = [f for f in found if "fastt1.A" in f.components]
    assert len(hba) == 1 and {"fastt1.ld1", "fastt1.ld2"} <= set(hba[0].components)
    assert len(ctl) == 1 and {"fastt1.ld1", "fastt1.ld2"} <= set(ctl[0].components)
    assert all(f.severity == "warning" for f in found)


def test_single_point_of_failure_fixed_with_a_second_fabric(one, parts):
    fab, sw = second_fabric(one, parts, "B")
    edit.delete(one, ["z.Z_D1_FCS1_FASTT1_B", one.cable_at("hba.d1s2.0").id, one.cable_at("fastt1.B1").id])
    edit.add_cable(one, "hba.d1s2.0", f"{sw}.p0")
    edit.add_cable(one, "fastt1.B1", f"{sw}.p1")
    edit.add_zone(one, fab, "Z_FCS1_FASTT1_B", ["hba.d1s2.0", "fastt1.B1"])
    found = run(one, "SINGLE_POINT_OF_FAILURE")
    assert "fastt1.ld1" not in comps(found) and "fastt1.ld2" not in comps(found)
    assert "fastt2.ld1" in comps(found)  # the rest still hang on sw1


def test_mapping_empty(one):
    assert not run(one, "MAPPING_EMPTY")
    edit.add_host_mapping(one, "fastt1", "EMPTY", [], [])
    found = run(one, "MAPPING_EMPTY")
    assert [(f.severity, f.components) for f in found] == [("warning", ("fastt1.map.EMPTY",))]


def test_hdisk_not_mapped(one):
    assert not run(one, "HDISK_NOT_MAPPED")
    one._set("p690.lpar1.hdisk3", "logical_drive", "")
    found = run(one, "HDISK_NOT_MAPPED")
    assert [(f.severity, f.components) for f in found] == [("warning", (LPAR, "p690.lpar1.hdisk3"))]


# -- workloads ---------------------------------------------------------------------------------


def test_work_on_raid5(one):
    assert not run(one, "WORK_ON_RAID5")
    edit.set_attr(one, WL, "purpose", "WORK")
    found = run(one, "WORK_ON_RAID5")
    assert len(found) == 1 and found[0].severity == "warning"
    assert found[0].components[:3] == (WL, LV, "fastt1.arr1")
    for arr in one.of_kind("array"):
        one._set(arr.id, "raid_level", 0)  # WORK on RAID 0 [NT, SUN]
    assert not run(one, "WORK_ON_RAID5")


def test_dio_request_size(one):
    assert not run(one, "DIO_REQUEST_SIZE")
    edit.set_attr(one, WL, "request_kb", 16)
    edit.set_attr(one, WL, "bufno", 4)
    found = run(one, "DIO_REQUEST_SIZE")
    assert {(f.severity, f.components[0]) for f in found} == {("warning", WL), ("advice", WL)}
    edit.set_attr(one, WL, "request_kb", 512)  # still below the 1 MB LV stripe
    assert "stripe" in of(run(one, "DIO_REQUEST_SIZE"), "DIO_REQUEST_SIZE", "warning")[0].message
    edit.set_attr(one, WL, "request_kb", 1024)
    edit.set_attr(one, WL, "bufno", 16)
    assert not run(one, "DIO_REQUEST_SIZE")


def test_sgio_buffer_limit(one):
    edit.set_attr(one, WL, "platform", "windows")
    edit.set_attr(one, WL, "bufsize_kb", 1024)
    edit.set_attr(one, WL, "bufno", 128)  # 128 MB
    found = run(one, "SGIO_BUFFER_LIMIT")
    assert [(f.severity, f.components) for f in found] == [("error", (WL,))]
    assert "64 MB" in found[0].message
    assert not run(one, "DIO_REQUEST_SIZE")  # Windows workloads are checked by the SGIO rule
    edit.set_attr(one, WL, "bufsize_kb", 6)
    edit.set_attr(one, WL, "bufno", 8)
    assert sorted(f.severity for f in run(one, "SGIO_BUFFER_LIMIT")) == ["advice", "warning"]
    edit.set_attr(one, WL, "bufsize_kb", 12)
    edit.set_attr(one, WL, "bufno", 32)
    assert [f.severity for f in run(one, "SGIO_BUFFER_LIMIT")] == ["advice"]  # 64-bit SAS needs 8 KB
    edit.set_attr(one, WL, "bufsize_kb", 16)
    edit.set_attr(one, WL, "bufno", 128)  # the paper's fastest 32-bit run: about 2 MB per I/O
    assert not run(one, "SGIO_BUFFER_LIMIT")


def test_saturation_fix_names_a_free_slot_with_spare_bandwidth(one, parts):
    edit.delete(one, ["hba.d1s18", "hba.d1s19"])  # planar 1 and the drawer now have room
    new_hba(one, parts, 4)
    found = run(one, "PHB_SATURATED")
    assert len(found) == 1 and found[0].severity == "advice"
    fix = found[0].fix
    assert fix.startswith("Move fcs d1s4 in Slot 4 of Drawer 1 to Slot 18 of Drawer 1")
    assert "150 MB/s spare" in fix


@pytest.mark.parametrize(
    "kind",
    [
        "drawer",
        "phb",
        "slot",
        "hba",
        "switch",
        "asic",
        "subsystem",
        "controller",
        "host_port",
        "array",
        "logical_drive",
        "host_mapping",
        "hdisk",
        "volume_group",
        "cable",
        "zone",
        "fabric",
        "lpar",
    ],
)
def test_rules_survive_half_built_designs(one, kind):
    """Deleting any part (with what hangs on it) leaves a draft the rules must judge, not crash on."""
    comps = one.of_kind(kind)
    edit.delete(one, [comps[len(comps) // 2].id])
    findings = check(one)
    assert not of(findings, "INTERNAL"), [f.message for f in of(findings, "INTERNAL")]
