"""SAN rules (planner.rules.san): WWPNs, zones, ASIC crossing, speeds, reachability and redundancy."""

from __future__ import annotations

from rules_helpers import comps, fastt900, new_hba, of, run, second_fabric

from planner import edit
from planner.examples import build_example
from planner.fixtures import set_raw


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


def test_wwpn_invalid(one):
    assert not run(one, "WWPN_INVALID")
    set_raw(one, "hba.d1s1.0", "wwpn", "60:05:07:68:01:80:80:98")  # NAA 6: the 16-byte form
    set_raw(one, "fastt1.A1", "wwpn", "20:0a:00")
    set_raw(one, "hba.d1s2.0", "wwpn", "")  # cabled: zoning needs it
    found = run(one, "WWPN_INVALID")
    errors = of(found, "WWPN_INVALID", "error")
    assert {f.components for f in errors} == {("hba.d1s1.0",), ("fastt1.A1",)}
    assert [f.components for f in of(found, "WWPN_INVALID", "warning")] == [("hba.d1s2.0",)]
    set_raw(one, "hba.d1s1.0", "wwpn", "10:00:00:00:c9:01:00:00")
    set_raw(one, "fastt1.A1", "wwpn", "20:0a:00:a0:b8:01:00:00")
    set_raw(one, "hba.d1s2.0", "wwpn", "10:00:00:00:c9:01:00:01")
    assert not run(one, "WWPN_INVALID")


def test_wwpn_duplicate_is_one_finding_per_wwpn(one):
    assert not run(one, "WWPN_DUPLICATE")
    w = one["hba.d1s1.0"]["wwpn"]
    edit.set_attr(one, "hba.d1s2.0", "wwpn", w)
    set_raw(one, "fastt1.A1", "wwpn", w.replace(":", ""))  # the same name written without colons
    found = run(one, "WWPN_DUPLICATE")
    assert len(found) == 1 and found[0].severity == "error"
    assert found[0].components == ("hba.d1s1.0", "hba.d1s2.0", "fastt1.A1")
    edit.set_attr(one, "hba.d1s2.0", "wwpn", "10:00:00:00:c9:aa:aa:aa")
    set_raw(one, "fastt1.A1", "wwpn", "20:0a:00:a0:b8:bb:bb:bb")
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
