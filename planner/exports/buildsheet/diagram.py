"""The build sheet's topology diagram: an overview with drawers, switches and subsystems collapsed,
then one page per drawer; vector drawings with parts coloured by utilization, split into bands
across pages so labels stay readable."""

from __future__ import annotations

import bisect
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from planner.bands import OK_BELOW, OVER_FROM, PALE, STRONG, band
from planner.exports.buildsheet.document import BOLD, FONT, MAX_FONT, MIN_FONT, fit_text, one_line, rl_api
from planner.exports.buildsheet.sheet import Page, Sheet, new_section, pct, threshold
from planner.layout import ROW, Box, Diagram, layout
from planner.model import Component, Topology
from planner.naming import short_label
from planner.schema import KINDS, collapsible_kinds, count_label

HEADING_H = 30.0  # room a diagram page's title takes
LEGEND_H = 16.0
PDF_COLUMN = 120.0  # width on paper of a column whose kind gives none (schema KindSpec.pdf_width)
PDF_GAP = 22.0
MIN_SY = MIN_FONT / (0.6 * (ROW - 3))  # vertical scale below which leaf labels would be under MIN_FONT


@dataclass
class _Band:
    y0: float  # layout coordinates
    y1: float


@dataclass
class _Geometry:
    page: Page
    sx: float
    sy: float
    old: dict[str, tuple[float, float]]  # column -> (x, width) in the layout
    new: dict[str, tuple[float, float]]  # column -> (x, width) on paper
    bands: list[_Band]

    def x(self, box: Box) -> tuple[float, float]:
        ox, ow = self.old[box.column]
        nx, nw = self.new[box.column]
        return nx + (box.x - ox) / ow * nw, box.w / ow * nw


def _pdf_width(column: str) -> float:
    """Width on paper (points before scaling) of the diagram column headed by ``column``."""
    spec = KINDS.get(column)
    return spec.pdf_width if spec is not None and spec.pdf_width is not None else PDF_COLUMN


def _geometry(sheet: Sheet, d: Diagram) -> _Geometry:
    """Columns packed side by side on paper, the page orientation with the fewest pages, and the
    horizontal bands the diagram is split into so labels stay at least MIN_FONT high."""
    boxes = list(d.boxes.values())
    old: dict[str, tuple[float, float]] = {}
    for b in boxes:
        x0, w0 = old.get(b.column, (b.x, b.w))
        lo, hi = min(x0, b.x), max(x0 + w0, b.x + b.w)
        old[b.column] = (lo, max(hi - lo, 1.0))
    columns = sorted(old, key=lambda c: old[c][0])
    total = sum(_pdf_width(c) for c in columns) + PDF_GAP * max(len(columns) - 1, 0)
    top = min((b.y for b in boxes), default=0.0) - 4
    bottom = max((b.y + b.h for b in boxes), default=0.0) + 4
    best = None
    for page in (sheet.portrait, sheet.landscape):
        sx = min(1.25, page.width / total)
        room = page.height - HEADING_H - LEGEND_H - 2
        sy = max(min(1.0, room / (bottom - top)), MIN_SY)
        pages = math.ceil((bottom - top) * sy / room - 1e-9)
        score = (sx < 0.5, pages, -min(sx, 1.0))
        if best is None or score < best[0]:
            best = (score, page, sx, sy, room)
    _, page, sx, sy, room = best
    new, x = {}, 0.0
    for c in columns:
        w = _pdf_width(c) * sx
        new[c] = (x, w)
        x += w + PDF_GAP * sx
    return _Geometry(page, sx, sy, old, new, _bands(boxes, top, bottom, room / sy))


def _bands(boxes: Sequence[Box], top: float, bottom: float, height: float) -> list[_Band]:
    """Split [top, bottom] into bands of at most ``height``; each cut goes through as few small
    boxes as it can (between rows), as low as it can. O(n log n) per cut."""
    small = [b for b in boxes if b.h < height / 2]
    starts, ends = sorted(b.y for b in small), sorted(b.y + b.h for b in small)

    def crossing(y: float) -> int:  # small boxes with top < y < bottom
        return bisect.bisect_left(starts, y) - bisect.bisect_right(ends, y)

    out, start = [], top
    while bottom - start > height:
        lo, hi = start + 0.3 * height, start + height
        cuts = [hi] + [y for b in small for y in (b.y - 0.5, b.y + b.h + 0.5) if lo < y <= hi]
        cut = min(cuts, key=lambda y: (crossing(y), -y))
        out.append(_Band(start, cut))
        start = cut
    out.append(_Band(start, bottom))
    return out


def _box_utilization(sheet: Sheet, d: Diagram) -> dict[str, float]:
    """Box id -> utilization: the box's own part when it has a capacity, else the busiest part it shows."""
    own: dict[str, float] = {}
    inner: dict[str, float] = {}
    for cid, ld in sheet.read.components.items():
        u = ld.utilization
        if u is None:
            continue
        box = d.visible(cid)
        if box is None:
            continue
        if box == cid:
            own[box] = u
        else:
            inner[box] = max(inner.get(box, 0.0), u)
    return {**inner, **own}


def _link_utilization(sheet: Sheet, topo: Topology, d: Diagram) -> dict[frozenset, float]:
    """Pair of visible boxes -> the highest utilization of the cables drawn between them."""
    out: dict[frozenset, float] = {}
    comps = sheet.read.components
    for cab in topo.of_kind("cable"):
        ld = comps.get(cab.id)
        caps = [comps[e].capacity for e in (cab["a"], cab["b"]) if e in comps and comps[e].capacity]
        if ld is None or not caps:
            continue
        key = frozenset((d.visible(cab["a"]) or "", d.visible(cab["b"]) or ""))
        out[key] = max(out.get(key, 0.0), ld.load / min(caps))
    return out


def diagrams(sheet: Sheet) -> list[Any]:
    topo = sheet.topo
    overview = topo.clone()
    overview.positions = {}  # the paper layout packs columns itself
    groups = {c.id for kind in collapsible_kinds() for c in overview.of_kind(kind)}
    pages = _diagram_pages(
        sheet, overview, layout(overview, groups), "Overview: drawers, switches and subsystems collapsed", first=True
    )
    for drawer in topo.of_kind("drawer"):
        view, n_subs = _drawer_view(sheet, drawer)
        where = f" ({one_line(drawer['location'])})" if drawer["location"] else ""
        title = (
            f"{short_label(drawer)}{where}: its slots, switches and the {count_label(n_subs, 'subsystem')} it reaches"
        )
        pages += _diagram_pages(sheet, view, layout(view, set()), title)
    return pages + [rl_api().NextPageTemplate("portrait")]


def _drawer_view(sheet: Sheet, drawer: Component) -> tuple[Topology, int]:
    """A design of one drawer with the switches its HBAs are cabled or routed to and the
    subsystems they reach (zones and paths), for that drawer's diagram page."""
    topo = sheet.topo
    ports = {c.id for c in topo.descendants(drawer.id) if c.kind == "hba_port"}
    switches: dict[str, None] = {}
    subsystems: dict[str, None] = {}
    for pid in ports:
        peer = topo.peer_port(pid)
        sw = topo.ancestor(peer, "switch") if peer else None
        sub = topo.ancestor(peer, "subsystem") if peer else None  # direct attach
        if sw is not None:
            switches[sw.id] = None
        if sub is not None:
            subsystems[sub.id] = None
    for p in sheet.read.paths:
        if p.hba_port in ports:
            for hop in p.hops:
                if topo[hop].kind == "switch_port":
                    switches[topo.ancestor(hop, "switch").id] = None
            sub = topo.ancestor(p.host_port, "subsystem")
            if sub is not None:
                subsystems[sub.id] = None
    zones = [z for z in topo.of_kind("zone") if ports.intersection(z["members"])]
    for z in zones:
        for m in z["members"]:
            sub = topo.ancestor(m, "subsystem") if m in topo else None
            if sub is not None:
                subsystems[sub.id] = None
    view = Topology(topo.meta.get("name", ""))
    view.parts = topo.parts
    server = topo.ancestor(drawer.id, "server")
    if server is not None:
        view._add_silent(server.copy())  # without its other drawers and partitions
    for root in [drawer.id, *switches, *subsystems]:
        _copy_tree(topo, view, topo[root])
    for fab in dict.fromkeys(z.parent for z in zones):
        view._add_silent(topo[fab].copy())
    for z in zones:
        view._add_silent(z.copy())
    for cab in topo.of_kind("cable"):
        if cab["a"] in view and cab["b"] in view:
            view._add_silent(cab.copy())
    return view, len(subsystems)


def _copy_tree(topo: Topology, view: Topology, comp: Component) -> None:
    """Copy a component and everything below it, keeping the sibling order."""
    view._add_silent(comp.copy())  # a view for drawing, not an edit: no events, no undo
    for child in topo.children(comp.id):
        _copy_tree(topo, view, child)


def _diagram_pages(sheet: Sheet, view: Topology, d: Diagram, title: str, first: bool = False) -> list[Any]:
    rl = rl_api()
    if not d.boxes:
        return (
            [*new_section(sheet, "Topology diagram"), sheet.p("The design has nothing to draw yet.")] if first else []
        )
    geo = _geometry(sheet, d)
    utils = _box_utilization(sheet, d)
    links = _link_utilization(sheet, view, d)
    for sw in view.of_kind("switch"):  # the backplane is drawn as its switch: say how busy it is
        box = d.boxes.get(sw.id)
        for bp in view.children(sw.id, "backplane"):
            if box is not None and sheet.util(bp.id) is not None:
                box.label = f"{one_line(short_label(sw))}: backplane {pct(sheet.util(bp.id))}"
    out: list[Any] = []
    for i, b in enumerate(geo.bands):
        part = f" (part {i + 1} of {len(geo.bands)})" if len(geo.bands) > 1 else ""
        out += [rl.NextPageTemplate(geo.page.template), rl.PageBreak()]
        out.append(
            sheet.heading(title + part, 0 if first and i == 0 else 1, "Topology diagram" if first and i == 0 else None)
        )
        out.append(_drawing(d, geo, b, utils, links))
    return out


def _drawing(d: Diagram, geo: _Geometry, b: _Band, utils: dict[str, float], links: dict[frozenset, float]) -> Any:
    rl = rl_api()
    sy = geo.sy
    height = (b.y1 - b.y0) * sy + LEGEND_H + 2
    drawing = rl.Drawing(geo.page.width, height)

    def y_of(y: float) -> float:
        return LEGEND_H + 2 + (b.y1 - y) * sy

    font = min(MAX_FONT, max(MIN_FONT, 0.6 * (ROW - 3) * sy))
    containers = {x.container for x in d.boxes.values() if x.container}
    depth = {bid: _depth(d, bid) for bid in d.boxes}
    visible = [x for x in d.boxes.values() if x.y < b.y1 and x.y + x.h > b.y0]
    outer = sorted((x for x in visible if x.id in containers), key=lambda x: depth[x.id])
    for box in outer:
        _draw_box(drawing, box, geo, b, y_of, font, utils.get(box.id), container=True)
    for link in d.links:
        _draw_link(drawing, d, link, geo, b, y_of, links)
    for box in visible:
        if box.id not in containers:
            _draw_box(drawing, box, geo, b, y_of, font, utils.get(box.id), container=False)
    _legend(drawing)
    return drawing


def _depth(d: Diagram, bid: str) -> int:
    n, box = 0, d.boxes.get(bid)
    while box is not None and box.container and n < 16:
        n, box = n + 1, d.boxes.get(box.container)
    return n


def _draw_box(
    drawing: Any,
    box: Box,
    geo: _Geometry,
    b: _Band,
    y_of: Callable[[float], float],
    font: float,
    util: float | None,
    container: bool,
) -> None:
    rl = rl_api()
    x, w = geo.x(box)
    top, bottom = max(box.y, b.y0), min(box.y + box.h, b.y1)
    colour = band(util)
    fill = PALE[colour] if colour or not container else "#f4f5f7"
    drawing.add(
        rl.Rect(
            x,
            y_of(bottom),
            w,
            (bottom - top) * geo.sy,
            fillColor=rl.colors.HexColor(fill),
            strokeColor=rl.colors.HexColor(STRONG[colour]),
            strokeWidth=0.6 if colour else 0.4,
        )
    )
    lines = [one_line(box.label)] if container else [ln for ln in box.label.split("\n") if ln.strip()]
    if container or (box.collapsed and len(lines) == 1):
        if box.y < b.y0 and container:
            lines = [f"{lines[0]} (continued)"] if lines else []
        lines = lines[:1] if container else lines
        first = y_of(top) - font * 1.15
    else:
        mid = (y_of(top) + y_of(bottom)) / 2
        first = mid + (len(lines) - 1) * font * 0.6 - font * 0.35
    for i, text in enumerate(lines):
        y = first - i * font * 1.2
        if y < y_of(bottom) + 0.5:
            break
        shown, size = fit_text(text, w - 4, font, BOLD if container else FONT, rl.stringWidth)
        drawing.add(
            rl.String(
                x + 2,
                y,
                shown,
                fontName=BOLD if container else FONT,
                fontSize=size,
                fillColor=rl.colors.HexColor("#1a1a1a"),
            )
        )


def _draw_link(
    drawing: Any,
    d: Diagram,
    link: Any,
    geo: _Geometry,
    b: _Band,
    y_of: Callable[[float], float],
    links: dict[frozenset, float],
) -> None:
    rl = rl_api()
    a, c = d.boxes.get(link.a), d.boxes.get(link.b)
    if a is None or c is None:
        return
    (xa, wa), (xc, wc) = geo.x(a), geo.x(c)
    ya, yc = a.y + a.h / 2, c.y + c.h / 2
    if a.column == c.column:  # two ports of one column (an ISL): loop out to the right
        xr = max(xa + wa, xc + wc) + 6
        points = [(xa + wa, ya), (xr, ya), (xr, yc), (xc + wc, yc)]
    elif xa < xc:
        points = [(xa + wa, ya), (xc, yc)]
    else:
        points = [(xc + wc, yc), (xa, ya)]
    if link.kind == "cable":
        colour = STRONG[band(links.get(frozenset((link.a, link.b))))]
        style = {"strokeWidth": 0.8}
    elif link.kind == "tree":
        colour, style = "#b5b5b5", {"strokeWidth": 0.5}
    else:
        colour, style = (
            "#7d7d7d",
            {"strokeWidth": 0.5, "strokeDashArray": [2, 1.5] if link.kind == "owner" else [0.6, 1.4]},
        )
    for (x0, y0), (x1, y1) in zip(points, points[1:]):
        seg = _clip(x0, y0, x1, y1, b.y0, b.y1)
        if seg is not None:
            drawing.add(
                rl.Line(seg[0], y_of(seg[1]), seg[2], y_of(seg[3]), strokeColor=rl.colors.HexColor(colour), **style)
            )


def _clip(x0: float, y0: float, x1: float, y1: float, lo: float, hi: float) -> tuple[float, float, float, float] | None:
    """The part of a segment between the horizontal lines y = lo and y = hi, or None."""
    if (y0 < lo and y1 < lo) or (y0 > hi and y1 > hi):
        return None
    if y0 == y1:
        return x0, y0, x1, y1

    def at(y: float) -> float:
        return x0 + (x1 - x0) * (y - y0) / (y1 - y0)

    ya, yb = min(max(y0, lo), hi), min(max(y1, lo), hi)
    return at(ya), ya, at(yb), yb


def _legend(drawing: Any) -> None:
    rl = rl_api()
    x, y = 0.0, 3.0
    entries = [
        ("ok", f"below {threshold(OK_BELOW)}"),
        ("busy", f"{threshold(OK_BELOW).removesuffix(' %')} to {threshold(OVER_FROM)}"),
        ("over", f"{threshold(OVER_FROM)} or more (binds)"),
        (None, "no capacity figure"),
    ]
    for colour, text in entries:
        drawing.add(
            rl.Rect(
                x,
                y,
                10,
                7,
                fillColor=rl.colors.HexColor(PALE[colour]),
                strokeColor=rl.colors.HexColor(STRONG[colour]),
                strokeWidth=0.6,
            )
        )
        drawing.add(rl.String(x + 13, y + 1, text, fontName=FONT, fontSize=7))
        x += 20 + rl.stringWidth(text, FONT, 7)
    for dash, text in ((None, "cable"), ([2, 1.5], "LUN owner"), ([0.6, 1.4], "PV of a volume group")):
        drawing.add(
            rl.Line(
                x,
                y + 3.5,
                x + 16,
                y + 3.5,
                strokeColor=rl.colors.HexColor("#555555"),
                strokeWidth=0.8,
                strokeDashArray=dash,
            )
        )
        drawing.add(rl.String(x + 19, y + 1, text, fontName=FONT, fontSize=7))
        x += 26 + rl.stringWidth(text, FONT, 7)
    drawing.add(
        rl.String(
            x + 6,
            y + 1,
            "utilization of each part, read, data from disk",
            fontName=FONT,
            fontSize=7,
            fillColor=rl.colors.HexColor("#555555"),
        )
    )
