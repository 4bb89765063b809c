"""Helpers of the rule tests: finding filters and builders of extra SAN pieces (through planner.edit)."""

from __future__ import annotations

from planner import edit
from planner.fixtures import add_raw, remove_raw
from planner.rules import check

LPAR = "p690.lpar1"
VG = "p690.lpar1.datavg"
LV = "p690.lpar1.datavg.stripelv01"
WL = "p690.lpar1.datavg.stripelv01.wl"


def of(findings, rule_id, severity=None):
    return [f for f in findings if f.rule == rule_id and (severity is None or f.severity == severity)]


def run(topo, *rule_ids, **kw):
    return check(topo, rules=rule_ids, **kw)


def comps(findings):
    return {c for f in findings for c in f.components}


def reparent_raw(topo, cid, parent):
    """Move ``cid`` (and what it holds) under ``parent`` without the editor's checks, as a damaged
    file could hold it: removed and added again through planner.fixtures."""
    subtree = [topo[cid], *topo.descendants(cid)]
    remove_raw(topo, cid)
    for c in subtree:
        add_raw(topo, c.kind, c.id, parent if c.id == cid else c.parent, c.name, c.part, **c.attrs)


# -- builders of extra SAN pieces -----------------------------------------------------------------


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
