"""AIX LVM rules (planner.rules.lvm): each fires on a design that breaks it and stays quiet once fixed."""

from __future__ import annotations

from rules_helpers import LPAR, LV, VG, run

from planner import edit
from planner.fixtures import set_raw


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
    set_raw(one, LV, "stripe_kb", 2048)
    set_raw(one, LV, "width", 99)
    found = run(one, "LV_STRIPE")
    assert len(found) == 2 and all(f.severity == "error" and LV in f.components for f in found)
    edit.set_attr(one, LPAR, "aix_level", "5.3")
    set_raw(one, LV, "width", 16)
    assert not run(one, "LV_STRIPE")


def test_hdisk_not_mapped(one):
    assert not run(one, "HDISK_NOT_MAPPED")
    set_raw(one, "p690.lpar1.hdisk3", "logical_drive", "")
    found = run(one, "HDISK_NOT_MAPPED")
    assert [(f.severity, f.components) for f in found] == [("warning", (LPAR, "p690.lpar1.hdisk3"))]
