"""The build sheet's paths section: utilization by hop level (chart and table) and every path
with its switch ports and the hop that binds it."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from planner import bands
from planner.analysis import Analysis
from planner.exports.buildsheet.document import FONT, rl_api
from planner.exports.buildsheet.sheet import (
    Sheet,
    data_table,
    mbps,
    new_section,
    pct,
    threshold,
    util_cells,
)
from planner.exports.cabling import endpoint
from planner.model import Topology
from planner.naming import label, short_label
from planner.schema import chart_kinds, kind_name


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
                short_label(hba) if hba else p.hba_port,
                ", ".join(short_label(x) for x in (drawer, slot) if x is not None),
                _switch_hops(topo, p.hops),
                " ".join(endpoint(topo, p.host_port)),
                f"{short_label(topo[p.logical_drive])} on {short_label(sub) if sub else ''}",
                mbps(p.mbps),
                mbps(wp.mbps if wp else None),
                label(topo, p.bottleneck) or "-",
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
                f"{short_label(sw) if sw else ''}: {a['index']} > {b['index']} ({short_label(mid) if mid.kind == 'asic' else 'backplane'})"
            )
    return "; ".join(parts)


def _level_stats(result: Analysis) -> dict[str, tuple[int, Any]]:
    """Hop level -> (parts with a capacity, the busiest part's Load)."""
    out: dict[str, tuple[int, Any]] = {}
    levels = set(chart_kinds())
    for ld in result.components.values():
        if ld.kind not in levels or not ld.capacity:
            continue
        n, top = out.get(ld.kind, (0, None))
        out[ld.kind] = (n + 1, ld if top is None or (ld.utilization or 0) > (top.utilization or 0) else top)
    return out


def _chart(sheet: Sheet) -> Any:
    rl = rl_api()
    read, write = _level_stats(sheet.read), _level_stats(sheet.write)
    levels = [k for k in chart_kinds() if k in read]
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
    chart.categoryAxis.categoryNames = [kind_name(k) for k in levels]
    chart.categoryAxis.labels.fontName, chart.categoryAxis.labels.fontSize = FONT, 7
    chart.categoryAxis.labels.angle, chart.categoryAxis.labels.boxAnchor = 25, "ne"
    chart.bars[0].fillColor = rl.colors.HexColor("#4f7cac")
    chart.bars[1].fillColor = rl.colors.HexColor("#e39b4b")
    chart.barSpacing, chart.groupSpacing = 1, 8
    d.add(chart)
    limits = ((bands.OK_BELOW, bands.STRONG["busy"]), (bands.OVER_FROM, bands.STRONG["over"]))
    for limit, colour in limits:
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
    for text, colour in (("read", "#4f7cac"), ("write", "#e39b4b"), *((threshold(v), c) for v, c in limits)):
        d.add(rl.Rect(x, height - 10, 8, 6, fillColor=rl.colors.HexColor(colour), strokeColor=None))
        d.add(rl.String(x + 11, height - 10, text, fontName=FONT, fontSize=7))
        x += 50
    d.add(rl.String(x + 10, height - 10, "highest utilization at each hop level", fontName=FONT, fontSize=7))
    return d


def _level_table(sheet: Sheet) -> Any:
    read, write = _level_stats(sheet.read), _level_stats(sheet.write)
    rows, ur, uw = [], [], []
    for k in (k for k in chart_kinds() if k in read):
        n, top = read[k]
        wtop = write.get(k, (0, None))[1]
        rows.append(
            [
                kind_name(k),
                n,
                label(sheet.topo, top.id),
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
