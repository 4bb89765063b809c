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
from planner.naming import label, short_label
from planner.schema import KINDS, collapsible_kinds, count_label

HEADING_H = 30.0  # room a diagram page's title takes
LEGEND_H = 16.0
NOTE_H = 11.0  # a drawer page's line under the legend saying what it leaves out
PDF_COLUMN = 120.0  # width on paper of a column whose kind gives none (schema KindSpec.pdf_width)
PDF_GAP = 22.0
READABLE_SX = 0.75  # columns narrower than this cut most 7 pt labels: take more pages instead
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
    foot: float = LEGEND_H  # room under the drawing: the legend, and the note if any

    def x(self, box: Box) -> tuple[float, float]:
        ox, ow = self.old[box.column]
        nx, nw = self.new[box.column]
        return nx + (box.x - ox) / ow * nw, box.w / ow * nw


def _pdf_width(column: str, wide: float | None = None) -> float:
    """Width on paper (points before scaling) of the diagram column headed by ``column``, whose
    layout is ``wide``: a column laid out as a grid several boxes wide (a site's subsystems) gets
    as many times its kind's width on paper (squeezed into one, its labels were cut to "s1...")."""
    spec = KINDS.get(column)
    width = spec.pdf_width if spec is not None and spec.pdf_width is not None else PDF_COLUMN
    if wide is not None and spec is not None and spec.column_width:
        width *= max(1.0, round(wide / spec.column_width, 2))
    return width


def _geometry(sheet: Sheet, d: Diagram, note: str = "") -> _Geometry:
    """Columns packed side by side on paper, the page orientation with the fewest pages, and the
    horizontal bands the diagram is split into so labels stay at least MIN_FONT high (with room
    under each for the legend and ``note``)."""
    boxes = list(d.boxes.values())
    old: dict[str, tuple[float, float]] = {}
    for b in boxes:
        x0, w0 = old.get(b.column, (b.x, b.w))
        lo, hi = min(x0, b.x), max(x0 + w0, b.x + b.w)
        old[b.column] = (lo, max(hi - lo, 1.0))
    columns = sorted(old, key=lambda c: old[c][0])
    total = sum(_pdf_width(c, old[c][1]) for c in columns) + PDF_GAP * max(len(columns) - 1, 0)
    top = min((b.y for b in boxes), default=0.0) - 4
    bottom = max((b.y + b.h for b in boxes), default=0.0) + 4
    best = None
    for page in (sheet.portrait, sheet.landscape):
        sx = min(1.25, page.width / total)
        foot = LEGEND_H + NOTE_H * (bool(note) + (_legend_width() > page.width))  # (its last words: a line below)
        room = page.height - HEADING_H - foot - 2
        sy = max(min(1.0, room / (bottom - top)), MIN_SY)
        pages = math.ceil((bottom - top) * sy / room - 1e-9)
        score = (sx < READABLE_SX, pages, -min(sx, 1.0))  # readable labels first, then fewest pages
        if best is None or score < best[0]:
            best = (score, page, sx, sy, room, foot)
    _, page, sx, sy, room, foot = best
    new, x = {}, 0.0
    for c in columns:
        w = _pdf_width(c, old[c][1]) * sx
        new[c] = (x, w)
        x += w + PDF_GAP * sx
    return _Geometry(page, sx, sy, old, new, _bands(boxes, top, bottom, room / sy), foot)


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


def _box_utilization(sheet: Sheet, view: Topology, d: Diagram) -> dict[str, float]:
    """Box id -> utilization: the box's own part when it has a capacity, else the busiest part it
    shows. Read for the components of ``view`` (a drawer's page shows a few hundred of the
    design's: walking all of a data centre's analysis for each of its 384 drawers took 5 s)."""
    own: dict[str, float] = {}
    inner: dict[str, float] = {}
    loads = sheet.read.components
    for comp in view.components():
        cid, ld = comp.id, loads.get(comp.id)
        if ld is None:
            continue
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


@dataclass
class View:
    """One diagram of the sheet: its title, the design drawn, its layout, and a line saying what
    a drawer's page leaves out ("" when it shows everything it reaches)."""

    title: str
    topo: Topology
    diagram: Diagram
    note: str = ""


def views(sheet: Sheet) -> list[View]:
    """The diagrams of the sheet, in order. The overview collapses drawers, switches and
    subsystems; then one view per drawer."""
    topo = sheet.topo
    overview = topo.clone()
    overview.positions = {}  # the paper layout packs columns itself
    groups = {c.id for kind in collapsible_kinds() for c in overview.of_kind(kind)}
    out = [View("Overview: drawers, switches and subsystems collapsed", overview, layout(overview, groups))]
    for drawer in topo.of_kind("drawer"):
        view, n_subs, note = _drawer_view(sheet, drawer)
        where = f" ({one_line(drawer['location'])})" if drawer["location"] else ""
        title = (
            f"{label(topo, drawer)}{where}: its slots, switches and the {count_label(n_subs, 'subsystem')} it reaches"
        )
        out.append(View(title, view, layout(view, set()), note))
    return out


def diagrams(sheet: Sheet) -> list[Any]:
    pages: list[Any] = []
    for i, v in enumerate(views(sheet)):
        pages += _diagram_pages(sheet, v, first=i == 0)
    return pages + [rl_api().NextPageTemplate("portrait")]


@dataclass
class _Reach:
    """What one drawer uses: the switches and subsystems it reaches, and within them the switch
    ports and logical drives its cables, paths, zones and host mappings use."""

    ports: set[str]  # the drawer's HBA ports
    switches: dict[str, None]
    subsystems: dict[str, None]
    zones: list[Component]
    switch_ports: set[str]
    drives: set[str]


def _reach(sheet: Sheet, drawer: Component) -> _Reach:
    topo = sheet.topo
    ports = {c.id for c in topo.descendants(drawer.id) if c.kind == "hba_port"}
    r = _Reach(ports, {}, {}, [], set(), set())
    for pid in ports:
        peer = topo.peer_port(pid)
        sw = topo.ancestor(peer, "switch") if peer else None
        sub = topo.ancestor(peer, "subsystem") if peer else None  # direct attach
        if sw is not None:
            r.switches[sw.id] = None
            r.switch_ports.add(peer)
        if sub is not None:
            r.subsystems[sub.id] = None
    for p in sheet.read.paths:
        if p.hba_port in ports:
            for hop in p.hops:
                if topo[hop].kind == "switch_port":
                    r.switches[topo.ancestor(hop, "switch").id] = None
                    r.switch_ports.add(hop)
            sub = topo.ancestor(p.host_port, "subsystem")
            if sub is not None:
                r.subsystems[sub.id] = None
            r.drives.add(p.logical_drive)
    r.zones = [z for z in topo.of_kind("zone") if ports.intersection(z["members"])]
    for z in r.zones:
        for m in z["members"]:
            comp = topo.get(m)
            sub = topo.ancestor(m, "subsystem") if comp is not None else None
            if sub is not None:
                r.subsystems[sub.id] = None
            if comp is not None and comp.kind == "switch_port":  # a port zone
                r.switch_ports.add(m)
    for hm in topo.of_kind("host_mapping"):
        if ports.intersection(hm["hba_ports"]):
            r.drives.update(hm["logical_drives"])
    return r


def _drawer_view(sheet: Sheet, drawer: Component) -> tuple[Topology, int, str]:
    """A design of one drawer with the switches its HBAs are cabled or routed to and the
    subsystems they reach (zones and paths), for that drawer's diagram page. Of those switches
    only the ports the drawer uses are drawn, and of those subsystems only the logical drives its
    paths and host mappings reach: a data centre's switches and subsystems serve hundreds of hosts,
    and drawn whole they took 5 to 13 pages a drawer. The note says what was left out."""
    topo = sheet.topo
    r = _reach(sheet, drawer)
    view = Topology(topo.meta.get("name", ""))
    view.parts = topo.parts
    server = topo.ancestor(drawer.id, "server")
    if server is not None:
        view._add_silent(server.copy())  # without its other drawers and partitions
    _copy_tree(topo, view, drawer)
    ports = [c.id for sid in r.switches for c in topo.descendants(sid) if c.kind == "switch_port"]
    used = r.switch_ports.intersection(ports)
    for sid in r.switches:
        _copy_tree(topo, view, topo[sid], lambda c: _holds(topo, c, "switch_port", used))
    drives = shown = 0
    for sid in r.subsystems:
        mine = {c.id for c in topo.descendants(sid) if c.kind == "logical_drive"}
        drives += len(mine)
        mine = mine & r.drives or mine  # nothing of it reached: all of it
        shown += len(mine)
        _copy_tree(topo, view, topo[sid], lambda c, mine=mine: _holds(topo, c, "logical_drive", mine))
    for fab in dict.fromkeys(z.parent for z in r.zones):
        view._add_silent(topo[fab].copy())
    for z in r.zones:
        view._add_silent(z.copy())
    for cab in topo.of_kind("cable"):
        if cab["a"] in view and cab["b"] in view:
            view._add_silent(cab.copy())
    return view, len(r.subsystems), _left_out(len(used), len(ports), shown, drives)


def _holds(topo: Topology, comp: Component, kind: str, kept: set[str]) -> bool:
    """Whether a drawer's view draws ``comp``: a ``kind`` leaf when kept, a group of them (an
    ASIC, an array) when it holds one kept, anything else always."""
    if comp.kind == kind:
        return comp.id in kept
    kids = topo.children(comp.id, kind)
    return not kids or any(k.id in kept for k in kids)


def _left_out(ports: int, all_ports: int, drives: int, all_drives: int) -> str:
    """The note of a drawer's page when it leaves ports or logical drives out ("" if none)."""
    parts = []
    if ports < all_ports:
        parts.append(f"{ports} of its switches' {all_ports} ports (all of them: Switch port maps)")
    if drives < all_drives:
        parts.append(f"{drives} of its subsystems' {all_drives} logical drives (all of them: Storage layout)")
    return f"Only what this drawer uses is drawn: {' and '.join(parts)}." if parts else ""


def _copy_tree(
    topo: Topology, view: Topology, comp: Component, keep: Callable[[Component], bool] | None = None
) -> None:
    """Copy a component and everything below it that ``keep`` keeps, in sibling order."""
    view._add_silent(comp.copy())  # a view for drawing, not an edit: no events, no undo
    for child in topo.children(comp.id):
        if keep is None or keep(child):
            _copy_tree(topo, view, child, keep)


def _diagram_pages(sheet: Sheet, v: View, first: bool = False) -> list[Any]:
    rl = rl_api()
    view, d, title = v.topo, v.diagram, v.title
    if not d.boxes:
        return (
            [*new_section(sheet, "Topology diagram"), sheet.p("The design has nothing to draw yet.")] if first else []
        )
    geo = _geometry(sheet, d, v.note)
    utils = _box_utilization(sheet, view, d)
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
        short = f"{title.split(':')[0]}{part}"  # the contents and bookmarks: the drawer and the part
        out.append(
            sheet.heading(title + part, 0 if first and i == 0 else 1, "Topology diagram" if first and i == 0 else short)
        )
        out.append(_drawing(d, geo, b, utils, links, v.note))
    return out


def _drawing(
    d: Diagram, geo: _Geometry, b: _Band, utils: dict[str, float], links: dict[frozenset, float], note: str = ""
) -> Any:
    rl = rl_api()
    sy = geo.sy
    height = (b.y1 - b.y0) * sy + geo.foot + 2
    drawing = rl.Drawing(geo.page.width, height)

    def y_of(y: float) -> float:
        return geo.foot + 2 + (b.y1 - y) * sy

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
    _legend(drawing, geo.foot - LEGEND_H, geo.page.width)
    if note:
        text, size = fit_text(note, geo.page.width, 7, FONT, rl.stringWidth)
        drawing.add(rl.String(0, 3, text, fontName=FONT, fontSize=size, fillColor=rl.colors.HexColor("#555555")))
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
    if not container:  # a container says its percentage in its title; hatching it would hide its contents
        _hatch(drawing, x, y_of(bottom), w, (bottom - top) * geo.sy, colour)
    lines = [one_line(box.label)] if container else [ln for ln in box.label.split("\n") if ln.strip()]
    if box.y < b.y0 and container:
        lines = [f"{lines[0]} (continued)"] if lines else []
    tag = pct(util) if util is not None and "%" not in box.label else ""  # the band as text, for greyscale
    font_name = BOLD if container else FONT
    height = (bottom - top) * geo.sy
    inline = not tag or container or height < (len(lines) + 1) * font * 1.2 + 2
    if tag and not inline and lines and rl.stringWidth(lines[0], font_name, font) + _tag_width(tag) <= w - 4:
        inline = True  # the label and the percentage fit on one line
    if not inline:
        lines = [*lines, tag]
    if container or (box.collapsed and len(lines) == 1):
        lines = lines[:1] if container else lines
        first = y_of(top) - font * 1.15
    else:
        mid = (y_of(top) + y_of(bottom)) / 2
        first = mid + (len(lines) - 1) * font * 0.6 - font * 0.35
    ink = rl.colors.HexColor("#1a1a1a")
    for i, text in enumerate(lines):
        y = first - i * font * 1.2
        if y < y_of(bottom) + 0.5:
            break
        with_tag = inline and tag and i == 0
        bold = container or (not inline and i == len(lines) - 1)
        shown, size = fit_text(
            text, w - 4 - (_tag_width(tag) if with_tag else 0), font, BOLD if bold else FONT, rl.stringWidth
        )
        drawing.add(rl.String(x + 2, y, shown, fontName=BOLD if bold else FONT, fontSize=size, fillColor=ink))
        if with_tag:
            drawing.add(rl.String(x + w - 2, y, tag, fontName=BOLD, fontSize=MIN_FONT, fillColor=ink, textAnchor="end"))


def _tag_width(tag: str) -> float:
    return rl_api().stringWidth(tag, BOLD, MIN_FONT) + 3


HATCH = {"busy": (8.0, False), "over": (6.0, True)}  # band -> (spacing in points, cross-hatched)


def _hatch(drawing: Any, x: float, y: float, w: float, h: float, colour: str | None) -> None:
    """Diagonal lines over a busy box, crossed lines over an overloaded one: the band reads in
    greyscale too (the legend shows the same patterns)."""
    spacing, cross = HATCH.get(colour or "", (0.0, False))
    if not spacing or w <= 0 or h <= 0:
        return
    rl = rl_api()
    strong = rl.colors.HexColor(STRONG[colour])
    ink = rl.colors.linearlyInterpolatedColor(rl.colors.white, strong, 0, 1, 0.6)  # lighter than the frame
    path = rl.Path(strokeColor=ink, strokeWidth=0.35, fillColor=None)  # one shape per box: cheap to draw
    for sign in (1, -1) if cross else (1,):
        k = spacing / 2
        while k < w + h:
            seg = _diagonal(w, h, k, sign)
            if seg is not None:
                path.moveTo(x + seg[0], y + seg[1])
                path.lineTo(x + seg[2], y + seg[3])
            k += spacing
    drawing.add(path)


def _diagonal(w: float, h: float, k: float, sign: int) -> tuple[float, float, float, float] | None:
    """The part inside the box [0, w] x [0, h] of the 45 degree line u + v = k (sign 1, rising to
    the left) or (w - u) + v = k (sign -1)."""
    u0, v0 = max(0.0, k - h), min(h, k)  # from the left or bottom edge
    u1, v1 = min(w, k), max(0.0, k - w)
    if u0 > u1:
        return None
    if sign == 1:
        return u0, v0, u1, v1
    return w - u0, v0, w - u1, v1


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
    points = link_points(d, link, geo)
    if points is None:
        return
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


def _top(d: Diagram, box: Box) -> Box:
    """The outermost box that ``box`` is drawn inside (itself when it is in none)."""
    n = 0
    while box.container and box.container in d.boxes and n < 16:
        box, n = d.boxes[box.container], n + 1
    return box


def link_points(d: Diagram, link: Any, geo: _Geometry) -> list[tuple[float, float]] | None:
    """The line of a link: x on paper, y in the layout. A cable leaves its port sideways inside the
    boxes that hold the port, crosses the gap between the two columns and enters the other port the
    same way, so it never runs through a box other than those around its two ports. Where a
    column holds several boxes side by side (collapsed subsystems in rows), the cable runs along
    the gap above the row to the box's top edge. An ISL (two ports of one column) loops out into
    the gap to the right of the column."""
    a, c = d.boxes.get(link.a), d.boxes.get(link.b)
    if a is None or c is None:
        return None
    (xa, wa), (xc, wc) = geo.x(a), geo.x(c)
    if xa > xc:
        a, c, (xa, wa), (xc, wc) = c, a, (xc, wc), (xa, wa)
    ya, yc = a.y + a.h / 2, c.y + c.h / 2
    if a.column == c.column:
        right = max(sum(geo.x(_top(d, a))), sum(geo.x(_top(d, c))))
        xr = right + PDF_GAP * geo.sx / 2
        return [(xa + wa, ya), (xr, ya), (xr, yc), (xc + wc, yc)]
    if link.kind != "cable":
        return [(xa + wa, ya), (xc, yc)]
    ta, tc = _top(d, a), _top(d, c)
    x0, x1 = sum(geo.new[ta.column]), geo.new[tc.column][0]
    if x1 <= x0:
        return [(xa + wa, ya), (xc, yc)]
    if a is ta and _in_row(d, a, right=True):  # boxes to its right: leave through the gap above
        gy = a.y - _gap_above(d, a) / 2
        head = [(xa + wa / 2, a.y), (xa + wa / 2, gy), (x0, gy)]
    else:
        head = [(xa + wa, ya), (x0, ya)]
    if c is tc and _in_row(d, c, right=False):
        gy = c.y - _gap_above(d, c) / 2
        tail = [(x1, gy), (xc + wc / 2, gy), (xc + wc / 2, c.y)]
    else:
        tail = [(x1, yc), (xc, yc)]
    return head + tail


def _rows(d: Diagram) -> dict[str, list[Box]]:
    """Column -> its outermost boxes (cached on the diagram: the layout does not change)."""
    cached = getattr(d, "_sheet_rows", None)
    if cached is None:
        cached = {}
        for box in d.boxes.values():
            if not box.container:
                cached.setdefault(box.column, []).append(box)
        d._sheet_rows = cached  # type: ignore[attr-defined]
    return cached


def _in_row(d: Diagram, box: Box, right: bool) -> bool:
    """Another outermost box of the column beside ``box`` (to its right, or its left) on its row.
    Worked out once per box and side (each cable asked again: a walk of a data centre's column of
    384 hosts for each of its cables, 33 million steps in its build sheet)."""
    memo = _row_memo(d)
    key = (box.id, right)
    if key not in memo:
        mid = box.y + box.h / 2
        memo[key] = any(
            o is not box and o.y < mid < o.y + o.h and (o.x > box.x if right else o.x < box.x)
            for o in _rows(d)[box.column]
        )
    return memo[key]


def _gap_above(d: Diagram, box: Box) -> float:
    """The free height above ``box`` up to the box above it in its column (4 when none is)."""
    memo = _row_memo(d)
    if box.id not in memo:
        above = [o.y + o.h for o in _rows(d)[box.column] if o.y + o.h <= box.y]
        memo[box.id] = box.y - max(above) if above else 4.0
    return memo[box.id]


def _row_memo(d: Diagram) -> dict[Any, Any]:
    """The answers of :func:`_in_row` and :func:`_gap_above` (cached on the diagram, as its rows)."""
    memo = getattr(d, "_sheet_row_memo", None)
    if memo is None:
        memo = d._sheet_row_memo = {}  # type: ignore[attr-defined]
    return memo


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


def _legend_entries() -> list[tuple[str | None, str]]:
    return [
        ("ok", f"below {threshold(OK_BELOW)}"),
        ("busy", f"{threshold(OK_BELOW).removesuffix(' %')} to {threshold(OVER_FROM)}"),
        ("over", f"{threshold(OVER_FROM)} or more (binds)"),
        (None, "no capacity figure"),
    ]


_LINES = ((None, "cable"), ([2, 1.5], "LUN owner"), ([0.6, 1.4], "PV of a volume group"))
_READS = "utilization of each part, read, data from disk"


def _legend_width() -> float:
    """Width of the legend on one line, its last words included (wider than a portrait page)."""
    rl = rl_api()
    boxes = sum(24 + rl.stringWidth(text, FONT, 7) for _, text in _legend_entries())
    lines = sum(26 + rl.stringWidth(text, FONT, 7) for _, text in _LINES)
    return boxes + lines + 6 + rl.stringWidth(_READS, FONT, 7)


def _legend(drawing: Any, above: float = 0.0, width: float = math.inf) -> None:
    """The legend, ``above`` the bottom of the drawing; its last words on a line of their own
    below it when the line would be wider than ``width`` (the room for it is in ``above``)."""
    rl = rl_api()
    x, y = 0.0, 3.0 + above
    for colour, text in _legend_entries():
        drawing.add(
            rl.Rect(
                x,
                y - 1,
                14,
                9,
                fillColor=rl.colors.HexColor(PALE[colour]),
                strokeColor=rl.colors.HexColor(STRONG[colour]),
                strokeWidth=0.6,
            )
        )
        _hatch(drawing, x, y - 1, 14, 9, colour)
        drawing.add(rl.String(x + 17, y + 1, text, fontName=FONT, fontSize=7))
        x += 24 + rl.stringWidth(text, FONT, 7)
    for dash, text in _LINES:
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
    if x + 6 + rl.stringWidth(_READS, FONT, 7) > width:
        x, y = -6.0, y - NOTE_H
    drawing.add(rl.String(x + 6, y + 1, _READS, fontName=FONT, fontSize=7, fillColor=rl.colors.HexColor("#555555")))
