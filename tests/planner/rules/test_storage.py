"""Storage rules (planner.rules.storage): RAID arrays, segments, ownership, RDAC paths, host mappings."""

from __future__ import annotations

import pytest
from rules_helpers import LPAR, rdac_design, run

from planner import edit
from planner.fixtures import set_raw
from planner.rules import raid_drive_problem


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
    set_raw(one, "fastt1.arr1", "drives", drives[:2])  # RAID 5 on two drives
    found = run(one, "RAID_DRIVE_COUNT")
    assert len(found) == 1 and found[0].severity == "error" and found[0].components == ("fastt1.arr1",)
    assert "at least 3" in found[0].message
    set_raw(one, "fastt1.arr1", "drives", drives[:3])
    assert not run(one, "RAID_DRIVE_COUNT")
    # more than the 30 drives a FAStT array holds (P690 Appendix B)
    many = [d.id for d in one.descendants("fastt2") if d.kind == "drive"] + [
        d.id for d in one.descendants("fastt3") if d.kind == "drive"
    ][:3]
    set_raw(one, "fastt1.arr1", "drives", tuple(many))
    found = run(one, "RAID_DRIVE_COUNT")
    assert len(found) == 1 and "at most 30" in found[0].message


def test_raid_level_the_subsystem_does_not_offer(one, parts):
    edit.add_subsystem(one, parts["ESS800"], "ess", drive_part=parts["DRV-36G-15K"], drives=8)
    free = [d.id for d in edit.free_drives(one, "ess")]
    edit.add_array(one, "ess", 0, free[:4], segment_kb=32)  # ESS 800 offers RAID 5 and 10
    found = run(one, "RAID_DRIVE_COUNT")
    assert len(found) == 1 and found[0].components == ("ess.arr1",) and "not offered" in found[0].message
    set_raw(one, "ess.arr1", "raid_level", 10)
    assert not run(one, "RAID_DRIVE_COUNT")


def test_segment_size(one):
    assert not run(one, "SEGMENT_SIZE")
    set_raw(one, "fastt1.arr1", "segment_kb", 512)
    set_raw(one, "fastt2.arr2", "segment_kb", 512)
    found = run(one, "SEGMENT_SIZE")
    assert len(found) == 1 and found[0].severity == "error"
    assert set(found[0].components) == {"fastt1.arr1", "fastt2.arr2"}
    set_raw(one, "fastt1.arr1", "segment_kb", 256)
    set_raw(one, "fastt2.arr2", "segment_kb", 128)
    assert not run(one, "SEGMENT_SIZE")


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


def test_rdac_one_hba_port_zoned_to_both_controllers(one):
    assert not run(one, "RDAC_PATHS")
    edit.add_zone(one, "fab.FAB_D1", "Z_BAD", ["hba.d1s1.0", "fastt1.B1"])
    found = run(one, "RDAC_PATHS")
    assert len(found) == 1 and found[0].severity == "error"
    # partition P_FASTT1 now sees controller B through fcs0 and fcs1
    assert {LPAR, "fastt1.B", "hba.d1s1.0", "hba.d1s2.0", "fastt1.B1", "z.Z_BAD"} <= set(found[0].components)
    assert "uses RDAC, and partition " in found[0].message and "P_FASTT1 (" in found[0].message  # (who, named)
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
    assert found[0].message.startswith("partition ") and "P_F900 (" in found[0].message


def test_mapping_empty(one):
    assert not run(one, "MAPPING_EMPTY")
    edit.add_host_mapping(one, "fastt1", "EMPTY", [], [])
    found = run(one, "MAPPING_EMPTY")
    assert [(f.severity, f.components) for f in found] == [("warning", ("fastt1.map.EMPTY",))]
