"""Each mechanical fix removes its finding, as one undo step."""

from __future__ import annotations

import pytest

from planner import assist, edit
from planner.analysis import analyze
from planner.assist.fixes import FIXERS, fix_all, fix_for
from planner.fixtures import add_raw, set_raw
from planner.rules import check
from tests.planner.assist.conftest import build_partial, snapshot


def _finished(parts):
    t = build_partial(parts, lpar=True)
    assist.complete(t, parts)
    return t


def _fix(t, rule):
    findings = [f for f in check(t) if f.rule == rule]
    assert findings, f"no {rule} finding to fix"
    fix = fix_for(t, findings[0])
    assert fix is not None and fix.preview
    before = snapshot(t)
    cmd = fix.apply(t)
    assert (rule, tuple(findings[0].components)) not in {(f.rule, tuple(f.components)) for f in check(t)}
    cmd.undo(t)
    assert snapshot(t) == before
    cmd.do(t)
    return fix


def test_every_required_rule_has_a_fixer():
    needed = {"ASIC_CROSSING", "RDAC_PATHS", "LUN_OWNERSHIP_BALANCE", "PV_PER_VG", "FULL_STRIPE_ALIGNMENT"}
    assert needed | {"HBA_NO_LPAR", "HDISK_NOT_MAPPED"} <= set(FIXERS)


def test_asic_crossing(worst_cabling):
    assert analyze(worst_cabling).aggregate == pytest.approx(1600)
    fix = _fix(worst_cabling, "ASIC_CROSSING")
    assert "unplugged" in fix.preview
    assert analyze(worst_cabling).aggregate == pytest.approx(2400)


def test_rdac_paths(parts):
    t = _finished(parts)
    z = next(z for z in t.of_kind("zone") if "fastt1.B1" in z["members"])
    edit.set_attr(t, z.id, "members", [z["members"][0], "fastt1.A1"])  # both HBAs to controller A
    _fix(t, "RDAC_PATHS")
    assert not [f for f in check(t) if f.rule == "RDAC_PATHS"]


def test_rdac_paths_four_hbas_one_partition(parts):
    t = build_partial(parts, slots=(1, 11, 5, 15), subsystems=1, lpar=True)
    assist.layout_arrays(t, "fastt1", count=3)  # three logical drives: enough for two partitions
    assist.complete(t, parts)
    maps = t.of_kind("host_mapping")
    assert len(maps) == 2  # HBA1+HBA2, HBA3+HBA4 (P690 Appendix B)
    lds = [ld for m in maps for ld in m["logical_drives"]]
    ports = [p for m in maps for p in m["hba_ports"]]
    edit.delete(t, [m.id for m in maps])
    edit.add_host_mapping(t, "fastt1", "ALL", ports, lds)
    _fix(t, "RDAC_PATHS")
    assert not [f for f in check(t) if f.severity == "error"]


def test_lun_ownership(parts):
    t = _finished(parts)
    for ld in t.children("fastt1.arr2", "logical_drive"):
        edit.set_attr(t, ld.id, "owner", "fastt1.A")
    _fix(t, "LUN_OWNERSHIP_BALANCE")


def test_pv_per_vg(parts):
    t = _finished(parts)
    vg = t.of_kind("volume_group")[0]
    edit.set_attr(t, "p690.lpar1", "aix_level", "5.2")
    edit.set_attr(t, vg.id, "vg_type", "scalable")
    fix = _fix(t, "PV_PER_VG")
    assert "normal" in fix.preview


def test_full_stripe_alignment(parts):
    t = _finished(parts)
    vg = t.of_kind("volume_group")[0]
    edit.set_attr(t, vg.id, "ltg_kb", 128)
    edit.set_attr(t, t.of_kind("logical_volume")[0].id, "stripe_kb", 64)
    fix = _fix(t, "FULL_STRIPE_ALIGNMENT")
    assert "LTG 1024 KB" in fix.preview
    assert t[vg.id]["ltg_kb"] == 1024


def test_hba_no_lpar(parts):
    t = build_partial(parts)
    fix = _fix(t, "HBA_NO_LPAR")
    assert "lpar1" in fix.preview


def test_hdisk_not_mapped(parts):
    t = _finished(parts)
    m = t.of_kind("host_mapping")[0]
    ld = m["logical_drives"][0]
    edit.set_attr(t, m.id, "logical_drives", m["logical_drives"][1:])
    fix = _fix(t, "HDISK_NOT_MAPPED")
    assert ld in t[m.id]["logical_drives"] and "mapped" in fix.preview


def test_ltg_max_transfer(parts):
    t = _finished(parts)
    for h in t.of_kind("hdisk"):
        edit.set_attr(t, h.id, "max_transfer_kb", 256)
    _fix(t, "LTG_MAX_TRANSFER")


def test_zone_member_missing(parts):
    t = _finished(parts)
    z = t.of_kind("zone")[0]
    set_raw(t, z.id, "members", (*z["members"], "gone.port"))
    _fix(t, "ZONE_MEMBER_MISSING")


def test_mapping_empty(parts):
    t = _finished(parts)
    add_raw(t, "host_mapping", "fastt1.map.EMPTY", "fastt1", "EMPTY")
    _fix(t, "MAPPING_EMPTY")


def test_no_fix_for_a_judgement_call(one_drawer):
    f = next(f for f in check(one_drawer) if f.rule == "SINGLE_POINT_OF_FAILURE")
    assert fix_for(one_drawer, f) is None


def test_fix_all(worst_cabling):
    before = snapshot(worst_cabling)
    a = fix_all(worst_cabling)
    assert not [f for f in check(worst_cabling) if f.severity == "error"]
    assert a.lines[0].startswith("ASIC_CROSSING")
    a.undo(worst_cabling)
    assert snapshot(worst_cabling) == before
    with pytest.raises(assist.NothingToDo):
        fix_all(worst_cabling, rules=["PV_PER_VG"])
