"""The create operations behind the editor's dialogs (planner.edit_create): each makes its
component as one undo step, refuses bad input with the reason its dialog shows."""

from __future__ import annotations

import pytest

from planner import edit
from planner import edit_create as ec
from planner.model import ModelError, Topology


@pytest.fixture
def blank(parts):
    """A p690 with one drawer, two HBAs and an empty FAStT600 Turbo."""
    t = Topology()
    edit.add_server(t, parts["7040-681"])
    edit.add_drawer(t, "p690", next(p for p in parts.values() if p["kind"] == "drawer"))
    edit.add_hba(t, edit.find_slot(t, "d1", 1).id, parts["FC6239"], wwpns=["10:00:00:00:c9:00:00:01"])
    edit.add_hba(t, edit.find_slot(t, "d1", 5).id, parts["FC6239"], wwpns=["10:00:00:00:c9:00:00:02"])
    edit.add_subsystem(t, parts["FAStT600-Turbo"], "fastt1")
    return t


def test_lpar_with_hbas_and_refusals(blank):
    t = blank
    hbas = [h.id for h in ec.server_hbas(t, "p690")]
    assert ec.lpar_problem(t, "p690", "") and "name" in ec.lpar_problem(t, "p690", "")
    assert "below the minimum" in ec.lpar_problem(t, "p690", "lp", cpus=0)
    cmd = ec.new_lpar(t, "p690", "lpar1", hbas=hbas[:1], multipath="RDAC", aix_level="5.2", cpus=8, memory_gb=32)
    lp = t.of_kind("lpar")[0]
    assert (lp.name, lp["cpus"], lp["memory_gb"]) == ("lpar1", 8, 32)
    assert t[hbas[0]]["lpar"] == lp.id and t[hbas[1]]["lpar"] == ""
    assert "already has an LPAR" in ec.lpar_problem(t, "p690", "lpar1")
    cmd.undo(t)
    assert not t.of_kind("lpar") and t[hbas[0]]["lpar"] == ""


def test_assign_hbas_from_the_hba_and_from_the_lpar(blank):
    t = blank
    hbas = [h.id for h in ec.server_hbas(t, "p690")]
    ec.new_lpar(t, "p690", "a")
    ec.new_lpar(t, "p690", "b")
    a, b = (lp.id for lp in t.of_kind("lpar"))
    cmd = ec.assign_hbas(t, hbas, a)
    assert all(t[h]["lpar"] == a for h in hbas)
    cmd.undo(t)
    assert all(t[h]["lpar"] == "" for h in hbas)
    cmd.do(t)
    ec.set_lpar_hbas(t, b, hbas[1:])
    assert t[hbas[0]]["lpar"] == a and t[hbas[1]]["lpar"] == b
    ec.set_lpar_hbas(t, a, [])
    assert t[hbas[0]]["lpar"] == ""
    assert "choose at least one HBA" in ec.assign_problem(t, [], a)
    with pytest.raises(ModelError, match="no LPAR"):
        ec.assign_hbas(t, hbas, "nope")


def test_drives_add_remove_replace(blank, parts):
    t = blank
    enc = t.children("fastt1", "enclosure")[0].id
    assert "drive part" in ec.drives_problem(t, enc, None, 2)
    assert "free bay" in ec.drives_problem(t, enc, parts["DRV-36G-15K"], 15)
    cmd = ec.add_drives(t, enc, parts["DRV-36G-15K"], 4)
    assert [d["bay"] for d in t.children(enc, "drive")] == [1, 2, 3, 4]
    ec.new_array(t, "fastt1", 5, [d.id for d in t.children(enc, "drive")[:3]], 128)
    drives = [d.id for d in t.children(enc, "drive")]
    assert "is in array" in ec.remove_drive_problem(t, drives[:1])
    with pytest.raises(ModelError, match="is in array"):
        ec.remove_drives(t, drives[:1])
    rm = ec.remove_drives(t, drives[3:])
    assert len(t.children(enc, "drive")) == 3
    rm.undo(t)
    arr = t.of_kind("array")[0]
    rep = ec.replace_drive(t, drives[1])
    new = [d for d in t.children(enc, "drive") if d["bay"] == 2][0]
    assert new.id != drives[1] and new.part == "DRV-36G-15K"
    assert t[arr.id]["drives"] == (drives[0], new.id, drives[2])  # takes the failed drive's place
    rep.undo(t)
    assert t[arr.id]["drives"] == tuple(drives[:3]) and drives[1] in t
    cmd.undo(t)


def test_array_checks_raid_segment_and_free_drives(blank, parts):
    t = blank
    enc = t.children("fastt1", "enclosure")[0].id
    ec.add_drives(t, enc, parts["DRV-36G-15K"], 14)
    free = [d.id for d in edit.free_drives(t, "fastt1")]
    assert "at least 3" in ec.array_problem(t, "fastt1", 5, free[:2], 128)
    assert "segment sizes" in ec.array_problem(t, "fastt1", 5, free[:9], 100)
    assert "even number" in ec.array_problem(t, "fastt1", 10, free[:5], 128)
    cmd = ec.new_array(t, "fastt1", 5, free[:9], 128)
    arr = t.of_kind("array")[0]
    assert "already in an array" in ec.array_problem(t, "fastt1", 5, free[:3], 128)
    assert ec.full_stripe_kb(5, 9, 128) == 1024
    assert ec.array_capacity_gb(t, 5, free[:9]) == 8 * 36
    assert "No volume group" in ec.alignment_notes(t, arr.id, 5, 9, 128)[0]
    ec.change_array(t, arr.id, 5, free[:7], 256)
    assert t[arr.id]["segment_kb"] == 256 and len(t[arr.id]["drives"]) == 7
    cmd.undo(t)
    assert not t.of_kind("array")


def test_logical_drive_size_owner_and_lun(blank, parts):
    t = blank
    enc = t.children("fastt1", "enclosure")[0].id
    ec.add_drives(t, enc, parts["DRV-36G-15K"], 9)
    ec.new_array(t, "fastt1", 5, [d.id for d in edit.free_drives(t, "fastt1")], 128)
    arr = t.of_kind("array")[0].id
    owner = ec.balanced_owner(t, "fastt1")
    assert "free" in ec.logical_drive_problem(t, arr, 300, owner, 0)
    assert "size" in ec.logical_drive_problem(t, arr, 0, owner, 0)
    assert "controller" in ec.logical_drive_problem(t, arr, 10, "p690", 0)
    cmd = ec.new_logical_drive(t, arr, owner, 100, 0, "data0")
    assert ec.array_free_gb(t, arr) == 8 * 36 - 100
    assert ec.balanced_owner(t, "fastt1") != owner and ec.next_lun(t, "fastt1") == 1
    assert "LUN 0 is already" in ec.logical_drive_problem(t, arr, 10, owner, 0)
    cmd.undo(t)
    assert not t.of_kind("logical_drive")


def _mapped(t, parts):
    enc = t.children("fastt1", "enclosure")[0].id
    ec.add_drives(t, enc, parts["DRV-36G-15K"], 9)
    ec.new_array(t, "fastt1", 5, [d.id for d in edit.free_drives(t, "fastt1")], 128)
    arr = t.of_kind("array")[0].id
    ec.new_logical_drive(t, arr, "fastt1.A", 100, 0)
    ec.new_logical_drive(t, arr, "fastt1.B", 100, 1)
    ec.new_lpar(t, "p690", "lpar1", hbas=[h.id for h in ec.server_hbas(t, "p690")])
    ports = [p.id for p in t.of_kind("hba_port")]
    lds = [ld.id for ld in t.of_kind("logical_drive")]
    return ports, lds


def test_host_mapping_create_edit_and_refusals(blank, parts):
    t = blank
    ports, lds = _mapped(t, parts)
    assert "LUN 0 is given to both" in ec.host_mapping_problem(t, "fastt1", "P1", ports, lds, {lds[1]: 0})
    assert "HBA port" in ec.host_mapping_problem(t, "fastt1", "P1", [], lds)
    cmd = ec.set_host_mapping(t, "fastt1", "P1", ports, lds, {lds[1]: 5})
    m = t.of_kind("host_mapping")[0]
    assert m["hba_ports"] == tuple(ports) and t[lds[1]]["lun"] == 5
    assert "already in mapping P1" in ec.host_mapping_problem(t, "fastt1", "P2", ports[:1], lds)
    change = ec.set_host_mapping(t, "fastt1", "P1b", ports[:1], lds[:1], mapping=m.id)
    assert t[m.id].name == "P1b" and t[m.id]["logical_drives"] == (lds[0],)
    assert ec.hba_port_title(t, ports[0]).startswith("10:00:00:00:c9:00:00:01")
    assert "(lpar1)" in ec.hba_port_title(t, ports[0])
    change.undo(t)
    assert t[m.id].name == "P1" and t[m.id]["hba_ports"] == tuple(ports)
    cmd.undo(t)
    assert not t.of_kind("host_mapping") and t[lds[1]]["lun"] == 1


def test_hdisks_vg_lv_workload(blank, parts):
    t = blank
    ports, lds = _mapped(t, parts)
    lp = t.of_kind("lpar")[0].id
    with pytest.raises(ModelError, match="no logical drive is mapped"):
        ec.create_hdisks(t, lp)
    ec.set_host_mapping(t, "fastt1", "P1", ports, lds)
    cmd = ec.create_hdisks(t, lp)
    hd = [h.id for h in t.children(lp, "hdisk")]
    assert len(hd) == 2
    with pytest.raises(ModelError, match="already has an hdisk"):
        ec.create_hdisks(t, lp)
    assert "at least one hdisk" in ec.volume_group_problem(t, lp, "datavg", [], "normal", 1024, 64)
    assert "AIX 5.3" in ec.volume_group_problem(t, lp, "datavg", hd, "scalable", 1024, 64)
    ec.new_volume_group(t, lp, "datavg", hd, "big", 1024, 64)
    vg = t.of_kind("volume_group")[0].id
    assert "aligns with the 1024 KB LTG" in ec.alignment_notes(t, t.of_kind("array")[0].id, 5, 9, 128)[0]
    assert "not a free hdisk" in ec.volume_group_problem(t, lp, "vg2", hd[:1], "normal", 128, 64)
    assert "exceeds" in ec.logical_volume_problem(t, vg, "lv", 1024, 3, 10)
    assert "at least 2" in ec.logical_volume_problem(t, vg, "lv", 1024, 1, 10)
    assert "GB free" in ec.logical_volume_problem(t, vg, "lv", 1024, 2, 500)
    ec.new_logical_volume(t, vg, "saslv", 1024, 2, 150)
    assert ec.vg_free_gb(t, vg) == 50
    lv = t.of_kind("logical_volume")[0].id
    assert ec.workload_problem(t, lv, "w", read_pct=120)
    w = ec.new_workload(t, lv, "SAS read", purpose="data", request_kb=512, read_pct=100)
    assert t.of_kind("workload")[0]["request_kb"] == 512
    w.undo(t)
    assert not t.of_kind("workload")
    cmd.undo(t)
