"""Each assistant: what it does, its refusals, and that undo restores the design."""

from __future__ import annotations

import pytest

from planner import assist, edit
from planner.analysis import analyze
from planner.assist.san import pair_ports
from planner.model import ModelError, Topology
from planner.rules import check
from tests.planner.assist.conftest import build_partial, snapshot


def _drawer(parts) -> Topology:
    t = Topology()
    edit.add_server(t, parts["7040-681"], "p690")
    edit.add_lpar(t, "p690", "lpar1")
    edit.add_drawer(t, "p690", parts["7040-61D"])
    return t


def test_place_hbas_paper_slots_spread(parts):
    t = _drawer(parts)
    before = snapshot(t)
    a = assist.place_hbas(t, "d1", parts["FC6239"], 16)
    slots = sorted(t[h.parent]["number"] for h in t.of_kind("hba"))
    assert slots == [1, 2, 3, 5, 6, 7, 8, 9, 11, 12, 13, 15, 16, 17, 18, 19]
    assert all(h["lpar"] == "p690.lpar1" for h in t.of_kind("hba"))
    assert len(a.lines) >= 16 and "P690" in a.lines[-1]
    a.undo(t)
    assert snapshot(t) == before


def test_place_two_hbas_on_different_planars(parts):
    t = _drawer(parts)
    assist.place_hbas(t, "d1", parts["FC6239"], 2)
    planars = {t.ancestor(h.id, "planar").id for h in t.of_kind("hba")}
    assert len(planars) == 2


def test_place_hbas_spreads_over_phbs_and_links(parts):
    t = _drawer(parts)
    assist.place_hbas(t, "d1", parts["FC6239"], 6)
    phbs = [t.ancestor(h.id, "phb").id for h in t.of_kind("hba")]
    assert max(phbs.count(p) for p in phbs) <= 2  # six adapters over six PHBs, none doubled up early
    assert not [f for f in check(t) if f.rule in ("PHB_SATURATED", "LINK_SATURATED")]


def test_place_hbas_refuses_when_slots_run_out(parts):
    t = _drawer(parts)
    assist.place_hbas(t, "d1", parts["FC6239"], 14)
    before = snapshot(t)
    with pytest.raises(ModelError, match="2 free slot"):
        assist.place_hbas(t, "d1", parts["FC6239"], 3)
    assert snapshot(t) == before
    with pytest.raises(ModelError, match="no drawer"):
        assist.place_hbas(t, "nope", parts["FC6239"], 1)


def test_pairing_follows_appendix_b(parts):
    t = build_partial(parts, slots=(1, 2, 3, 5), subsystems=1, lpar=True)
    hbas = [p.id for p in t.of_kind("hba_port")]
    hosts = ["fastt1.A1", "fastt1.B1"]
    pairs = pair_ports(t, hbas, hosts, lambda h, t: 0)
    assert [t_ for _, t_ in pairs] == ["fastt1.A1", "fastt1.B1", "fastt1.A1", "fastt1.B1"]
    one = pair_ports(t, hbas[:1], hosts, lambda h, t: 0)
    assert [t_ for _, t_ in one] == ["fastt1.A1", "fastt1.B1"]  # one HBA sees both controllers once


def test_cable_asic_local_pairs_share_an_asic(parts):
    t = build_partial(parts, lpar=True)
    before = snapshot(t)
    a = assist.cable_asic_local(t)
    assert len(t.of_kind("cable")) == 8
    for cab in t.of_kind("cable"):
        assert cab["label"] and cab["length_m"] > 0
    asic = {p: t[t.peer_port(p)].parent for p in ("hba.d1s1.0", "fastt1.A1", "hba.d1s11.0", "fastt1.B1")}
    assert asic["hba.d1s1.0"] == asic["fastt1.A1"] and asic["hba.d1s11.0"] == asic["fastt1.B1"]
    assert any("estimate" in line for line in a.lines)
    a.undo(t)
    assert snapshot(t) == before


def test_cable_refusals(parts):
    t = build_partial(parts)
    edit.delete(t, ["sw1"])
    with pytest.raises(ModelError, match="no switch"):
        assist.cable_asic_local(t)
    t = build_partial(parts)
    assist.cable_asic_local(t)
    with pytest.raises(assist.NothingToDo, match="already cabled"):
        assist.cable_asic_local(t)


def test_zone_rdac_one_port_per_controller(parts):
    t = build_partial(parts, lpar=True)
    assist.cable_asic_local(t)
    a = assist.zone_for_multipath(t)
    assert len(t.of_kind("zone")) == 4
    assert any("Appendix B" in line for line in a.lines)
    assert not [f for f in check(t) if f.rule in ("RDAC_PATHS", "ASIC_CROSSING")]
    with pytest.raises(assist.NothingToDo):
        assist.zone_for_multipath(t)


def test_zone_sdd_says_its_rule(parts):
    t = build_partial(parts, lpar=True)
    edit.set_attr(t, "p690.lpar1", "multipath", "SDD")
    assist.cable_asic_local(t)
    a = assist.zone_for_multipath(t)
    assert any(line.startswith("SDD") and "SASAIX" in line for line in a.lines)


def test_layout_arrays_table1(parts):
    t = build_partial(parts, lpar=True)
    a = assist.layout_arrays(t, "fastt1")
    arrays = t.children("fastt1", "array")
    assert [(x["raid_level"], len(x["drives"]), x["segment_kb"]) for x in arrays] == [(5, 9, 128)] * 2
    owners = {ld["owner"] for x in arrays for ld in t.children(x.id, "logical_drive")}
    assert owners == {"fastt1.A", "fastt1.B"}
    assert any("Table 1" in line and "357" in line for line in a.lines)
    edit.delete(t, [d.id for d in t.descendants("fastt2.e1")])
    assist.layout_arrays(t, "fastt2")  # 14 drives: two 4+P x 256 KB
    assert [(len(x["drives"]), x["segment_kb"]) for x in t.children("fastt2", "array")] == [(5, 256)] * 2


def test_layout_arrays_refusals(parts):
    t = build_partial(parts, subsystems=1)
    edit.delete(t, [d.id for d in t.descendants("fastt1") if d.kind == "drive"][2:])
    with pytest.raises(ModelError, match="too few"):
        assist.layout_arrays(t, "fastt1")
    full = build_partial(parts, subsystems=1)
    assist.layout_arrays(full, "fastt1", count=3)  # 27 of the 28 drives
    with pytest.raises(ModelError, match="1 free drive"):
        assist.layout_arrays(full, "fastt1")


def test_map_luns_and_lvm(parts):
    t = build_partial(parts, lpar=True)
    for s in ("fastt1", "fastt2"):
        assist.layout_arrays(t, s)
    assist.cable_asic_local(t)
    assist.zone_for_multipath(t)
    before = snapshot(t)
    a = assist.map_luns(t)
    maps = t.of_kind("host_mapping")
    assert len(maps) == 2 and all(len(m["hba_ports"]) == 2 and len(m["logical_drives"]) == 2 for m in maps)
    a.undo(t)
    assert snapshot(t) == before
    a.do(t)
    lvm = assist.build_lvm(t, "p690.lpar1")
    vg = t.of_kind("volume_group")[0]
    assert (vg["vg_type"], vg["ltg_kb"], vg["pp_mb"], len(vg["pvs"])) == ("normal", 1024, 512, 4)
    lv = t.of_kind("logical_volume")[0]
    assert (lv["stripe_kb"], lv["width"]) == (1024, 4)
    assert all(h["max_transfer_kb"] >= 1024 for h in t.of_kind("hdisk"))
    assert any("normal" in line for line in lvm.lines)
    assert not [f for f in check(t) if f.severity == "error"]
    with pytest.raises(assist.NothingToDo):
        assist.build_lvm(t, "p690.lpar1")


def test_map_luns_balances_ownership(parts):
    t = build_partial(parts, lpar=True, subsystems=1)
    assist.layout_arrays(t, "fastt1")
    for ld in t.of_kind("logical_drive"):
        edit.set_attr(t, ld.id, "owner", "fastt1.A")
    assist.cable_asic_local(t)
    assist.zone_for_multipath(t)
    a = assist.map_luns(t)
    assert {ld["owner"] for ld in t.of_kind("logical_drive")} == {"fastt1.A", "fastt1.B"}
    assert any("owned by" in line for line in a.lines)


def test_vg_type_by_pv_count():
    from planner.assist.lvm import vg_type_for

    assert vg_type_for(32, "5.2") == "normal"
    assert vg_type_for(112, "5.2") == "big"
    assert vg_type_for(200, "5.3") == "scalable"
    with pytest.raises(ModelError, match="AIX 5.2"):
        vg_type_for(200, "5.2")


def test_complete_partial_design(parts, partial):
    before = snapshot(partial)
    a = assist.complete(partial, parts)
    result = analyze(partial, "planning", "read")
    assert len(result.paths) == 4 and all(p.mbps and p.mbps > 0 for p in result.paths)
    assert not [f for f in check(partial) if f.severity == "error"]
    assert len(a.lines) > 10
    a.undo(partial)
    assert snapshot(partial) == before
    a.do(partial)
    assert len(analyze(partial).paths) == 4


def test_complete_places_hbas_when_there_are_none(parts):
    t = build_partial(parts, slots=())
    assist.complete(t, parts)
    assert len(t.of_kind("hba")) == 4
    assert len(analyze(t).paths) == 4
    assert not [f for f in check(t) if f.severity == "error"]


def test_complete_refuses_a_finished_design(one_drawer, parts):
    with pytest.raises(assist.NothingToDo, match="nothing to complete"):
        assist.complete(one_drawer, parts)
