"""The build sheet's workloads section: every workload with its throughput target and what the
design gives it, read and write (demand-capped fair sharing, see planner.demand)."""

from __future__ import annotations

from typing import Any

from planner.demand import WorkloadResult
from planner.exports.buildsheet.sheet import Sheet, data_table, mbps, new_section
from planner.naming import label, short_label


def _verdict(res: WorkloadResult | None) -> str:
    """'1,760 UNMET' / '640 met' / '-' (no target in this direction)."""
    if res is None or not res.target_mbps:
        return "-"
    return f"{mbps(res.achieved_mbps)} {'met' if res.met else 'UNMET'}"


def workloads(sheet: Sheet) -> list[Any]:
    """One row per workload; nothing when the design has no workload."""
    topo = sheet.topo
    found = topo.of_kind("workload")
    if not found:
        return []
    read = {r.id: r for r in sheet.read.workloads}
    write = {r.id: r for r in sheet.write.workloads}
    rows = []
    for wl in found:
        r, w = read.get(wl.id), write.get(wl.id)
        binding = [x.bottleneck for x in (r, w) if x is not None and not x.met and x.bottleneck]
        rows.append(
            [
                short_label(wl),
                label(topo, wl.parent) if wl.parent else "-",
                wl["purpose"],
                f"{wl['read_pct']:g}",
                mbps(wl["target_mbps"]) if wl["target_mbps"] else "-",
                _verdict(r),
                _verdict(w),
                label(topo, binding[0]) if binding else "-",
            ]
        )
    head = ("Workload", "Logical volume", "Purpose", "Reads %", "Target MB/s", "Read MB/s", "Write MB/s", "Binding hop")
    note = (
        "A target caps the paths of its workload (its reads and writes split by the read share); the LV spreads "
        "its I/O evenly over its physical volumes and each over its paths. Read and write columns: what the "
        "workload gets when every path runs at once, and whether that meets its target. Binding hop: the hop "
        "that holds most of an unmet workload's shortfall."
    )
    return [
        *new_section(sheet, "Workloads"),
        sheet.p(note),
        data_table(sheet, head, rows, (0.14, 0.2, 0.07, 0.07, 0.09, 0.11, 0.11, 0.21), numeric=(3, 4, 5, 6)),
    ]
