"""Zoning edits: zones named like the zoning scripts' aliases, unzoning, WWPNs typed and pasted."""

from __future__ import annotations

import pytest

from planner import zoning_edit as ze
from planner.commands import UndoStack
from planner.exports.zoning import zoning_plan
from planner.model import ModelError

FAB = "fab.FAB_D1"
FCS0, FCS1 = "hba.d1s1.0", "hba.d1s2.0"

LSCFG = """
  fcs0             U1.9-P1-I1/Q1  FC Adapter

        Part Number.................00P4494
        Serial Number...............1A31005059
        Network Address.............10000000C9AABB01
        ROS Level and ID............02881955
        Device Specific.(Z8)........20000000C9AABB01
  fcs1             U1.9-P1-I2/Q1  FC Adapter
        Network Address.............10000000C9AABB02
        Device Specific.(Z8)........20000000C9AABB02
"""


def _zones(topo):
    return {z.name: z["members"] for z in topo.children(FAB, "zone")}


def test_ports_of_a_fabric_are_the_cabled_and_zoned_ones(one_drawer):
    assert len(ze.fabric_ports(one_drawer, FAB, "hba_port")) == 16
    assert [p.id for p in ze.fabric_ports(one_drawer, FAB, "host_port")][:2] == ["fastt1.A1", "fastt1.B1"]
    assert ze.fabric_for(one_drawer, "sw1") == FAB
    assert ze.fabric_for(one_drawer, "hba.d1s1") == FAB
    assert ze.fabric_for(one_drawer, "fastt3.B1") == FAB
    with pytest.raises(ModelError, match="no fabric"):
        ze.fabric_ports(one_drawer, "sw1", "hba_port")


def test_a_zone_is_named_by_the_aliases_of_the_zoning_scripts(one_drawer):
    assert ze.zone_name(one_drawer, FCS0, "fastt2.A1") == "Z_LPAR1_FCS0_FASTT2_A1"
    stack = UndoStack(one_drawer)
    stack.push(ze.set_zoned(one_drawer, FAB, FCS0, "fastt2.A1"), applied=True)
    assert _zones(one_drawer)["Z_LPAR1_FCS0_FASTT2_A1"] == (FCS0, "fastt2.A1")
    plan = zoning_plan(one_drawer)[0]
    zone = next(z for z in plan.zones if z.design_name == "Z_LPAR1_FCS0_FASTT2_A1")
    assert zone.name == "Z_LPAR1_FCS0_FASTT2_A1" and zone.members == ["LPAR1_FCS0", "FASTT2_A1"]
    assert ze.zoned_with(one_drawer, FCS0) == ["fastt1.A1", "fastt2.A1"]
    with pytest.raises(ModelError, match="already"):
        ze.set_zoned(one_drawer, FAB, FCS0, "fastt2.A1")
    stack.undo()
    assert "Z_LPAR1_FCS0_FASTT2_A1" not in _zones(one_drawer)


def test_unzoning_removes_a_two_port_zone_and_splits_bigger_ones(one_drawer):
    before = dict(_zones(one_drawer))
    stack = UndoStack(one_drawer)
    stack.push(ze.set_zoned(one_drawer, FAB, FCS0, "fastt1.A1", zoned=False), applied=True)
    assert "Z_D1_FCS0_FASTT1_A" not in _zones(one_drawer)
    stack.undo()
    assert _zones(one_drawer) == before
    # one zone of two initiators and two targets: unzoning one pair keeps the other three
    from planner import edit

    edit.add_zone(one_drawer, FAB, "BIG", [FCS0, FCS1, "fastt3.A1", "fastt3.B1"])
    stack.push(ze.set_zoned(one_drawer, FAB, FCS0, "fastt3.A1", zoned=False), applied=True)
    pairs = ze.zoned_pairs(one_drawer, FAB)
    assert (FCS0, "fastt3.A1") not in pairs
    assert {(FCS0, "fastt3.B1"), (FCS1, "fastt3.A1"), (FCS1, "fastt3.B1")} <= pairs
    with pytest.raises(ModelError, match="share no zone"):
        ze.set_zoned(one_drawer, FAB, FCS0, "fastt3.A1", zoned=False)
    with pytest.raises(ModelError, match="not a hba_port"):
        ze.set_zoned(one_drawer, FAB, "fastt3.A1", FCS0)


def test_a_typed_wwpn_is_normalised_or_refused_naming_the_port(one_drawer):
    ze.set_wwpn(one_drawer, FCS0, "10000000C9AABB01")
    assert one_drawer[FCS0]["wwpn"] == "10:00:00:00:c9:aa:bb:01"
    with pytest.raises(ModelError, match=r"fcs0 port 0 .*NAA type 0"):
        ze.set_wwpn(one_drawer, FCS0, "00:00:00:00:c9:aa:bb:01")
    assert one_drawer[FCS0]["wwpn"] == "10:00:00:00:c9:aa:bb:01"
    ze.set_wwpn(one_drawer, FCS0, " ")
    assert one_drawer[FCS0]["wwpn"] == ""


def test_pasted_text_from_lscfg_a_switch_and_a_spreadsheet():
    text = LSCFG + (
        " N    010100;      2,3;10:00:00:00:c9:aa:bb:03;20:00:00:00:c9:aa:bb:03; na\n"
        "    Fabric Port Name: 20:01:00:05:1e:34:00:70\n"
        "fc1/1   1   0x010100  21:00:00:e0:8b:05:76:28  20:00:00:e0:8b:05:76:28\n"
        "fcs5\t10-00-00-00-c9-aa-bb-05\n"
        "00:00:00:00:00:00:00:00\n"
        "10000000C9AABB01\n"
    )
    got = ze.parse_wwpns(text)
    assert [(e.label, e.wwpn) for e in got[:5]] == [
        ("fcs0", "10:00:00:00:c9:aa:bb:01"),
        ("fcs1", "10:00:00:00:c9:aa:bb:02"),
        ("", "10:00:00:00:c9:aa:bb:03"),
        ("fc1/1", "21:00:00:e0:8b:05:76:28"),
        ("fcs5", "10:00:00:00:c9:aa:bb:05"),
    ]
    assert "all zeros" in got[5].problem and "listed twice" in got[6].problem


def test_pasted_wwpns_go_to_the_named_ports_then_the_chosen_ones(one_drawer):
    ports = [p.id for p in ze.fabric_ports(one_drawer, FAB, "hba_port")]
    pasted = ze.parse_wwpns(LSCFG + "10:00:00:00:c9:aa:bb:09\n")
    assert ze.match_wwpns(one_drawer, pasted, ports, preferred=["hba.d1s3.0"]) == [FCS0, FCS1, "hba.d1s3.0"]
    stack = UndoStack(one_drawer)
    old = one_drawer[FCS0]["wwpn"]
    stack.push(ze.set_wwpns(one_drawer, {FCS0: pasted[0].wwpn, FCS1: pasted[1].wwpn}), applied=True)
    assert one_drawer[FCS1]["wwpn"] == "10:00:00:00:c9:aa:bb:02"
    stack.undo()
    assert one_drawer[FCS0]["wwpn"] == old
    with pytest.raises(ModelError, match="given to both"):
        ze.set_wwpns(one_drawer, {FCS0: pasted[0].wwpn, FCS1: pasted[0].wwpn})
