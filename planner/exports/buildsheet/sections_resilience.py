"""The build sheet's resilience section: what survives each single failure
(:mod:`planner.resilience`), worst first."""

from __future__ import annotations

from typing import Any

from planner.exports.buildsheet.sheet import Sheet, data_table, key_values, mbps, new_section
from planner.naming import label
from planner.resilience import impact_text
from planner.schema import kind_name

MAX_ROWS = 60  # every failure that loses data, then the worst bandwidth losses, up to this many


def section(sheet: Sheet) -> list[Any]:
    topo = sheet.topo
    res = sheet.resilience  # computed once for the summary and this section
    out = [*new_section(sheet, "Resilience: single failures")]
    worst = res.worst
    if worst is None:
        return out + [sheet.p("No component carries a path: there is nothing to fail.")]
    lose = res.data_loss
    out.append(
        key_values(
            sheet,
            [
                (
                    "Aggregate, nothing failed",
                    f"{mbps(res.baseline_mbps)} MB/s read ({res.figures} figures, from disk)",
                ),
                (
                    "Worst single failure",
                    f"{label(topo, worst.component)} ({kind_name(worst.kind)}): {mbps(worst.aggregate_mbps)} MB/s "
                    f"left; {impact_text(topo, worst)}",
                ),
                ("Failures that lose data access", f"{len(lose)} of {len(res.failures)} components"),
                (
                    "Multipath behaviour",
                    "RDAC: a logical drive whose owning controller lost every path moves to the other "
                    "controller; SDD/MPIO: the remaining paths carry it (P690 Appendix B).",
                ),
            ],
        )
    )
    shown = lose + [f for f in res.failures if not f.loses_data and f.loss_mbps > 0.05]
    rows = [
        [label(topo, f.component), kind_name(f.kind), mbps(f.aggregate_mbps), mbps(f.loss_mbps), impact_text(topo, f)]
        for f in shown[:MAX_ROWS]
    ]
    out += sheet.sub(f"Failures, worst first ({len(rows)} of {len(res.failures)})")
    head = ("Failed component", "Kind", "MB/s left", "MB/s lost", "Impact")
    out.append(data_table(sheet, head, rows, (0.24, 0.1, 0.1, 0.1, 0.46), numeric=(2, 3)))
    return out
