"""The build sheet's paths section: utilization by hop level (chart and table) and every path
with its switch ports and the hop that binds it."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from planner.analysis import Analysis
from planner.exports.buildsheet.document import FONT, rl_api
from planner.exports.buildsheet.sheet import (
    AMBER_AT,
    KIND_NAMES,
    RED_AT,
    STRONG,
    Sheet,
    data_table,
    mbps,
    new_section,
    pct,
    util_cells,
)
from planner.exports.cabling import endpoint
from planner.model import Topology

CHART_LEVELS = (
    "hba",
    "phb",
    "rio_link",
    "planar",
    "drawer",
    "server",
    "switch_port",
    "asic",
    "backplane",
    "host_port",
    "subsystem",
    "array",
)


# -- paths, findings, bill of materials, labels ---------------------------------------------------------


def paths(sheet: Sheet) -> list[Any]:
    topo = sheet.topo
    write = {p.id: p for p in sheet.write.paths}
    rows = []
    for n, p in enumerate(sheet.read.paths, 1):
        hba = topo.get(topo[p.hba_port].parent)
        slot = topo.get(hba.parent) if hba is not None else None
        drawer = topo.ancestor(p.hba_port, "drawer")
        sub = topo.ancestor(p.host_port, "subsystem")
        wp = write.get(p.id)
        rows.append(
            [
                n,
                hba.label() if hba else p.hba_port,
                ", ".join(x.label() for x in (drawer, slot) if x is not None),
                _switch_hops(topo, p.hops),
                " ".join(endpoint(topo, p.host_port)),
                f"{topo[p.logical_drive].label()} on {sub.label() if sub else ''}",
                mbps(p.mbps),
                mbps(wp.mbps if wp else None),
                sheet.label(p.bottleneck) or "-",
            ]
        )
    head = (
        "#",
        "HBA",
        "Drawer, slot",
        "Switch ports",
        "Storage port",
        "Logical drive",
        "Read MB/s",
        "Write MB/s",
        "Binding hop (read)",
    )
    widths = (0.04, 0.07, 0.13, 0.15, 0.1, 0.14, 0.08, 0.08, 0.21)
    out = [
        *new_section(sheet, "Paths and utilization"),
        *sheet.sub("Utilization by hop level"),
        _chart(sheet),
        _level_table(sheet),
        *sheet.sub(f"Paths ({len(rows)})"),
    ]
    out.append(
        data_table(sheet, head, rows, widths, numeric=(0, 6, 7))
        if rows
        else sheet.p("The design has no complete path.")
    )
    return out


def _switch_hops(topo: Topology, hops: Sequence[str]) -> str:
    """'sw1: 0 > 1 (ASIC 0)' for each switch a path crosses."""
    parts = []
    for i in range(1, len(hops) - 1):
        mid = topo[hops[i]]
        if mid.kind in ("asic", "backplane") and topo[hops[i - 1]].kind == "switch_port":
            sw = topo.ancestor(mid.id, "switch")
            a, b = topo[hops[i - 1]], topo[hops[i + 1]]
            parts.append(
                f"{sw.label() if sw else ''}: {a['index']} > {b['index']} ({mid.label() if mid.kind == 'asic' else 'backplane'})"
            )
    return "; ".join(parts)


def _level_stats(result: Analysis) -> dict[str, tuple[int, Any]]:
    """Hop level -> (parts with a capacity, the busiest part's Load)."""
    out: dict[str, tuple[int, Any]] = {}
    for ld in result.components.values():
        if ld.kind not in CHART_LEVELS or not ld.capacity:
            continue
        n, top = out.get(ld.kind, (0, None))
        out[ld.kind] = (n + 1, ld if top is None or (ld.utilization or 0) > (top.utilization or 0) else top)
    return out


def _chart(sheet: Sheet) -> Any:
    rl = rl_api()
    read, write = _level_stats(sheet.read), _level_stats(sheet.write)
    levels = [k for k in CHART_LEVELS if k in read]
    width, height = sheet.portrait.width, 190.0
    d = rl.Drawing(width, height)
    if not levels:
        d.add(rl.String(0, height / 2, "No part carries a load with a known capacity.", fontName=FONT, fontSize=9))
        return d
    data = [
        [100 * (read[k][1].utilization or 0) for k in levels],
        [100 * ((write[k][1].utilization or 0) if k in write else 0) for k in levels],
    ]
    top = max(100.0, math.ceil(max(max(r) for r in data) / 20) * 20)
    chart = rl.VerticalBarChart()
    chart.x, chart.y, chart.width, chart.height = 36, 42, width - 50, height - 62
    chart.data = data
    chart.valueAxis.valueMin, chart.valueAxis.valueMax, chart.valueAxis.valueStep = 0, top, 20
    chart.valueAxis.labels.fontName, chart.valueAxis.labels.fontSize = FONT, 7
    chart.valueAxis.labelTextFormat = "%d %%"
    chart.categoryAxis.categoryNames = [KIND_NAMES[k] for k in levels]
    chart.categoryAxis.labels.fontName, chart.categoryAxis.labels.fontSize = FONT, 7
    chart.categoryAxis.labels.angle, chart.categoryAxis.labels.boxAnchor = 25, "ne"
    chart.bars[0].fillColor = rl.colors.HexColor("#4f7cac")
    chart.bars[1].fillColor = rl.colors.HexColor("#e39b4b")
    chart.barSpacing, chart.groupSpacing = 1, 8
    d.add(chart)
    for limit, colour in ((AMBER_AT, STRONG["amber"]), (RED_AT, STRONG["red"])):
        y = chart.y + chart.height * limit * 100 / top
        d.add(
            rl.Line(
                chart.x,
                y,
                chart.x + chart.width,
                y,
                strokeColor=rl.colors.HexColor(colour),
                strokeWidth=0.7,
                strokeDashArray=[3, 2],
            )
        )
    x = chart.x
    for text, colour in (("read", "#4f7cac"), ("write", "#e39b4b"), ("70 %", STRONG["amber"]), ("95 %", STRONG["red"])):
        d.add(rl.Rect(x, height - 10, 8, 6, fillColor=rl.colors.HexColor(colour), strokeColor=None))
        d.add(rl.String(x + 11, height - 10, text, fontName=FONT, fontSize=7))
        x += 50
    d.add(rl.String(x + 10, height - 10, "highest utilization at each hop level", fontName=FONT, fontSize=7))
    return d


def _level_table(sheet: Sheet) -> Any:
    read, write = _level_stats(sheet.read), _level_stats(sheet.write)
    rows, ur, uw = [], [], []
    for k in (k for k in CHART_LEVELS if k in read):
        n, top = read[k]
        wtop = write.get(k, (0, None))[1]
        rows.append(
            [
                KIND_NAMES[k],
                n,
                sheet.label(top.id),
                f"{top.load:,.0f} / {top.capacity:,.0f}",
                pct(top.utilization),
                pct(wtop.utilization if wtop else None),
            ]
        )
        ur.append(top.utilization)
        uw.append(wtop.utilization if wtop else None)
    head = ("Hop level", "Parts", "Busiest part (read)", "Read MB/s of capacity", "Read util", "Write util (busiest)")
    return data_table(
        sheet,
        head,
        rows,
        (0.14, 0.07, 0.37, 0.16, 0.1, 0.16),
        numeric=(1, 3, 4, 5),
        cells=util_cells(4, ur) + util_cells(5, uw),
    )
