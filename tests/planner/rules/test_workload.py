"""Workload rules (planner.rules.workload): SAS WORK, direct I/O, SGIO, full-stripe alignment."""

from __future__ import annotations

from rules_helpers import LV, VG, WL, of, run

from planner import edit
from planner.fixtures import set_raw


def test_full_stripe_alignment(one):
    assert not run(one, "FULL_STRIPE_ALIGNMENT")  # 8+P x 128 KB = 1 MB = LTG = LV stripe
    drives = one["fastt1.arr1"]["drives"]
    set_raw(one, "fastt1.arr1", "drives", drives[:7])  # RAID5 6+P
    set_raw(one, "fastt1.arr1", "segment_kb", 256)  # 1.5 MB full stripe
    found = run(one, "FULL_STRIPE_ALIGNMENT")
    assert len(found) == 1 and found[0].severity == "advice"  # the workloads only read
    assert {VG, "fastt1.arr1", LV} <= set(found[0].components)
    assert "1.5 MB" in found[0].message
    edit.set_attr(one, WL, "read_pct", 50)  # writes: RAID 5 partial-stripe writes
    assert [f.severity for f in run(one, "FULL_STRIPE_ALIGNMENT")] == ["warning"]
    set_raw(one, "fastt1.arr1", "drives", drives[:5])  # 4+P x 256 KB = 1 MB
    assert not run(one, "FULL_STRIPE_ALIGNMENT")
    set_raw(one, "fastt1.arr1", "segment_kb", 128)  # 4+P x 128 KB = 512 KB: two per LTG, still aligned
    assert not run(one, "FULL_STRIPE_ALIGNMENT")


def test_work_on_raid5(one):
    assert not run(one, "WORK_ON_RAID5")
    edit.set_attr(one, WL, "purpose", "WORK")
    found = run(one, "WORK_ON_RAID5")
    assert len(found) == 1 and found[0].severity == "warning"
    assert found[0].components[:3] == (WL, LV, "fastt1.arr1")
    for arr in one.of_kind("array"):
        set_raw(one, arr.id, "raid_level", 0)  # WORK on RAID 0 [NT, SUN]
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
