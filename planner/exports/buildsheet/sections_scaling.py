"""The build sheet's scaling section: aggregate read MB/s as the HBAs are added in placement order
(:mod:`planner.scaling`), like the P690 Redpaper's Figure 4 profile, with the binding hop named
at each knee, then the knees as a table.

The chart is drawn for greyscale printing: a black curve, a knee where the slope falls (a hop
saturates) as a filled diamond, one where it rises (a new planar or drawer starts) as a hollow
circle; every text is at least 7 pt.
"""

from __future__ import annotations

from typing import Any

from planner.exports.buildsheet.document import FONT, rl_api
from planner.exports.buildsheet.sheet import Sheet, data_table, mbps, new_section
from planner.scaling import Scaling, scaling
from planner.schema import kind_name

TEXT_PT = 7.0
MAX_LABELS = 6  # knee labels on the chart, one per cause (the table lists every knee)
MAX_ROWS = 40


def section(sheet: Sheet) -> list[Any]:
    """The scaling section: an introduction, the chart and the table of knees."""
    result = scaling(sheet.topo, sheet.figures, "read", "disk")
    out = [*new_section(sheet, "Scaling: MB/s as HBAs are added")]
    if not result.points:
        return out + [sheet.p("The design has no HBA yet: there is no curve to draw.")]
    last = result.points[-1]
    out.append(
        sheet.p(
            f"Aggregate read from disk ({sheet.figures} figures) with only the first 1, 2, ... "
            f"{len(result.points)} HBAs running, in the order they were placed, as the P690 paper profiled "
            "one adapter, a PHB, a link, a planar and a drawer (Figure 4). A knee is where adding an HBA "
            "adds more or less than the one before: the hop named there binds the new adapter's paths. "
            f"With all of them: {mbps(last.mbps)} MB/s, the analysis' aggregate."
        )
    )
    out.append(chart(sheet, result))
    if not result.knees:
        return out + [sheet.p("No knee: every HBA added adds the same MB/s up to the last one.")]
    rows = [
        [
            str(k.count),
            mbps(k.mbps),
            mbps(k.slope_before),
            mbps(k.slope_after),
            k.text,
        ]
        for k in result.knees[:MAX_ROWS]
    ]
    out += sheet.sub(f"Knees ({len(rows)} of {len(result.knees)})")
    head = ("HBAs", "MB/s", "MB/s per HBA before", "after", "Cause")
    out.append(data_table(sheet, head, rows, (0.08, 0.12, 0.16, 0.12, 0.52), numeric=(0, 1, 2, 3)))
    return out


# long function: one drawing, its axes, the curve, the knee marks and their labels, the legend
def chart(sheet: Sheet, result: Scaling, height: float = 230.0) -> Any:
    """The curve as a reportlab Drawing the width of the portrait frame."""
    from reportlab.graphics.charts.lineplots import LinePlot
    from reportlab.graphics.shapes import Circle, Polygon

    rl = rl_api()
    width = sheet.portrait.width
    d = rl.Drawing(width, height)
    xs = [0] + [p.count for p in result.points]
    ys = [0.0] + [p.mbps for p in result.points]
    plot = LinePlot()
    plot.x, plot.y, plot.width, plot.height = 48, 34, width - 62, height - 62
    plot.data = [list(zip(xs, ys))]
    plot.lines[0].strokeColor = rl.colors.black
    plot.lines[0].strokeWidth = 1.2
    top = max(ys) * 1.12 or 1.0
    plot.xValueAxis.valueMin, plot.xValueAxis.valueMax = 0, xs[-1]
    plot.yValueAxis.valueMin, plot.yValueAxis.valueMax = 0, top
    for axis in (plot.xValueAxis, plot.yValueAxis):
        axis.labels.fontName, axis.labels.fontSize = FONT, TEXT_PT
    plot.yValueAxis.labelTextFormat = lambda v: f"{v:,.0f}"
    plot.xValueAxis.labelTextFormat = lambda v: f"{v:,.0f}"
    plot.yValueAxis.visibleGrid = True
    plot.yValueAxis.gridStrokeColor = rl.colors.HexColor("#d0d0d0")
    plot.yValueAxis.gridStrokeWidth = 0.3
    d.add(plot)

    def at(x: float, y: float) -> tuple[float, float]:
        return plot.x + plot.width * x / max(xs[-1], 1), plot.y + plot.height * y / top

    shown: set[str] = set()
    boxes = _curve_boxes([at(x, y) for x, y in zip(xs, ys)])  # labels keep off the curve too
    for k in result.knees:
        px, py = at(k.count, k.mbps)
        if k.falls:
            d.add(Polygon([px, py + 4, px + 4, py, px, py - 4, px - 4, py], fillColor=rl.colors.black, strokeWidth=0))
        else:
            d.add(Circle(px, py, 3.2, fillColor=rl.colors.white, strokeColor=rl.colors.black, strokeWidth=0.9))
        if k.text in shown or len(shown) >= MAX_LABELS:
            continue
        shown.add(k.text)
        text = f"{k.count}: {k.text}"
        w = rl.stringWidth(text, FONT, TEXT_PT)
        anchor = "end" if px > plot.x + plot.width * 0.6 else "start"
        x0 = px - 3 - w if anchor == "end" else px + 3
        ty = _free_row(boxes, x0, w, py, k.falls, plot.y + 4, plot.y + plot.height)
        boxes.append((x0, x0 + w, ty - 2, ty + TEXT_PT))
        d.add(rl.Line(px, py, px, ty + (-2 if ty > py else TEXT_PT + 1), strokeColor=rl.colors.grey, strokeWidth=0.4))
        d.add(rl.String(x0, ty, text, fontName=FONT, fontSize=TEXT_PT))
    d.add(
        rl.String(
            plot.x,
            height - 12,
            f"aggregate read MB/s ({result.figures} figures, from disk)",
            fontName=FONT,
            fontSize=TEXT_PT + 1,
        )
    )
    d.add(
        rl.String(
            plot.x + plot.width / 2,
            8,
            f"{result.unit}s added in placement order",
            fontName=FONT,
            fontSize=TEXT_PT + 1,
            textAnchor="middle",
        )
    )
    lx = plot.x + plot.width - 250
    d.add(
        Polygon(
            [lx, height - 6, lx + 4, height - 10, lx, height - 14, lx - 4, height - 10],
            fillColor=rl.colors.black,
            strokeWidth=0,
        )
    )
    d.add(rl.String(lx + 8, height - 13, "a hop saturates", fontName=FONT, fontSize=TEXT_PT))
    d.add(Circle(lx + 110, height - 10, 3.2, fillColor=rl.colors.white, strokeColor=rl.colors.black, strokeWidth=0.9))
    d.add(rl.String(lx + 118, height - 13, "a new planar or drawer starts", fontName=FONT, fontSize=TEXT_PT))
    return d


def _curve_boxes(points: list[tuple[float, float]], step: float = 3.0) -> list[tuple[float, float, float, float]]:
    """Small boxes along the drawn curve, ``step`` points apart."""
    out = []
    for (x0, y0), (x1, y1) in zip(points, points[1:]):
        n = max(1, int(((x1 - x0) ** 2 + (y1 - y0) ** 2) ** 0.5 / step))
        for i in range(n + 1):
            x, y = x0 + (x1 - x0) * i / n, y0 + (y1 - y0) * i / n
            out.append((x - 1.5, x + 1.5, y - 1.5, y + 1.5))
    return out


def _free_row(
    boxes: list[tuple[float, float, float, float]], x0: float, w: float, py: float, above: bool, low: float, high: float
) -> float:
    """The baseline of a label near a knee at height ``py`` that overlaps no label placed so far:
    above the curve for a fall, below it for a rise (above too when below would leave the plot)."""
    ups = [py + 8 + 10 * i for i in range(12)]
    downs = [py - 12 - 10 * i for i in range(12) if py - 12 - 10 * i >= low]
    for ty in ups if above else downs + ups:
        if ty + TEXT_PT > high + 10:
            continue
        if not any(x0 < b[1] and b[0] < x0 + w and ty - 2 < b[3] and b[2] < ty + TEXT_PT for b in boxes):
            return ty
    return ups[0]


def knee_kinds(result: Scaling) -> list[str]:
    """The hop kinds named at the knees, in order of first appearance (for the summary and tests)."""
    return list(dict.fromkeys(kind_name(k.kind) for k in result.knees if k.kind))
