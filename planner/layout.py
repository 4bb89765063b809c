"""Layered diagram layout of a design, left to right along the data path (no Qt).

Columns: server and partitions -> drawers -> planars -> RIO2 links -> PHBs -> slots and HBAs ->
switches (ports grouped by ASIC) -> subsystems (controllers and host ports) -> arrays and
logical drives -> volume groups and logical volumes. The editor's canvas and the PDF build
sheet both draw from :func:`layout`; positions are in points (1/72 in), y grows downwards.

Groups collapse: a collapsed drawer, switch or subsystem is one box and everything inside it is
hidden; links to hidden components end at the visible box (:meth:`Diagram.visible`). Top-level
boxes the user moved keep their position (``topo.positions``).

Expanding or collapsing one group moves only what must make room for it: the boxes below it in
its column, and the columns to its right as a whole. The order of switches and subsystems comes
from the HBAs cabled or zoned to them in design order (never from where a box happens to be), and
subsystems stay in their grid cell whether folded or not.

A site of several servers not joined by cables is laid out in bands (:mod:`planner.layout_bands`):
each server with its switches and subsystems is laid out as above, on its own, then placed
(:mod:`planner.layout_keep`), its columns starting level with its band's top; in the editor the
bands stand in columns (``layout_bands.band_columns``), in the build sheet one under the other.
A memo keeps each band until an edit touches it (one band of a site laid out again per edit).

``editor=True`` adds what the editor's canvas shows and the build sheet does not: each HBA as its
own box in its slot row, and the enclosures of an expanded subsystem with one small cell per
drive bay (``Box.state``: "free" or "array:<n>"; bays without a drive in ``Box.cells``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from planner import naming
from planner.layout_bands import site_bands, split
from planner.layout_keep import TOP, BandLaid, band_key, kept_band, new_band, place, remember
from planner.layout_orders import LayoutMemo, by_peer_rank, host_ranks, ids_of, storage_order
from planner.model import Component, Topology
from planner.schema import KINDS, collapsible_kinds, diagram_columns

ROW = 18.0  # height of one leaf row
GAP = 8.0  # vertical gap between top-level groups
COLUMNS = diagram_columns()  # left to right (planner.schema)
COLUMN_WIDTH = {k: KINDS[k].column_width for k in COLUMNS}
COLUMN_GAP = 46.0
COLLAPSIBLE = collapsible_kinds()
SLOT_LABEL_W = 80.0  # the slot's own part of its row, left of the HBA box (a click there selects the slot)
BAYS_PER_ROW = 14  # drive bays drawn side by side in an enclosure (an EXP700 holds 14)


@dataclass
class Box:
    id: str
    kind: str
    label: str
    x: float
    y: float
    w: float
    h: float
    column: str
    container: str | None = None  # the box this one is drawn inside
    collapsed: bool = False
    hidden_count: int = 0  # components folded into a collapsed box
    tip: str = ""  # more context for a tooltip (a slot's PHB and RIO2 link, a drive's array)
    state: str = ""  # a drive bay: "free" or "array:<n>" (n: the array's place in its subsystem)
    cells: tuple[tuple[float, float, float, float], ...] = ()  # an enclosure's empty bays (x, y, w, h)

    @property
    def center(self) -> tuple[float, float]:
        return (self.x + self.w / 2, self.y + self.h / 2)


@dataclass
class Link:
    a: str  # box ids (visible boxes)
    b: str
    kind: str  # tree | cable | owner | pv
    via: str = ""  # the component the link stands for (a cable id, a logical drive id...)


@dataclass
class Diagram:
    boxes: dict[str, Box] = field(default_factory=dict)
    links: list[Link] = field(default_factory=list)
    width: float = 0.0
    height: float = 0.0
    alias: dict[str, str] = field(default_factory=dict)  # hidden component -> visible box
    #: how :func:`layout` made ``alias``: each collapsed group's members (group id -> {member:
    #: group id}, shared with a :class:`LayoutMemo` and the diagrams laid out with it) and the
    #: other entries; None when unknown (a diagram put together by hand)
    folded: dict[str, dict[str, str]] | None = field(default=None, repr=False, compare=False)
    direct: dict[str, str] | None = field(default=None, repr=False, compare=False)
    memo: LayoutMemo | None = field(default=None, repr=False, compare=False)  # while laid out
    orders: dict[str, object] | None = field(default=None, repr=False, compare=False)  # diagram_order
    keep_cells: bool = field(default=False, repr=False, compare=False)  # while laid out with a memo
    bands: list[BandLaid] | None = field(default=None, repr=False, compare=False)  # as laid out (layout_keep)
    #: each box hiding components -> the ids it shows (widgets.canvas.figures.members_by_box)
    by_box: dict[str, list[str]] | None = field(default=None, repr=False, compare=False)

    def visible(self, cid: str) -> str | None:
        """The box that shows ``cid``: its own, or that of the collapsed group hiding it."""
        if cid in self.boxes:
            return cid
        return self.alias.get(cid)


def alias_changes(old: Diagram, new: Diagram) -> list[str]:
    """Components shown by another box in ``new`` than in ``old``: hidden in another group,
    hidden now or no longer hidden (added and removed components included). Two diagrams laid
    out with one :class:`LayoutMemo` share the members of the groups no edit touched: only the
    other groups and the entries outside any group are compared."""
    oa, na = old.alias, new.alias
    if old.folded is None or new.folded is None or old.direct is None or new.direct is None:
        if oa == na:
            return []
        moved = [c for c, v in na.items() if oa.get(c) != v]
        return moved + [c for c in oa.keys() - na.keys()]
    cands: list[str] = [*new.direct, *old.direct]
    for of, nf in ((old.folded, new.folded), (new.folded, old.folded)):
        for g, members in of.items():
            if nf.get(g) is not members:
                cands += members
    return [c for c in dict.fromkeys(cands) if oa.get(c) != na.get(c)]


def same_geometry(old: Diagram, new: Diagram) -> bool:
    """Whether ``new`` has the boxes and links of ``old``, each where it was (texts aside): the
    canvas then keeps its items and relabels them."""
    if old.boxes.keys() != new.boxes.keys() or len(old.links) != len(new.links):
        return False
    ob = old.boxes
    for cid, b in new.boxes.items():
        o = ob[cid]
        if (o.x, o.y, o.w, o.h, o.container, o.collapsed, o.state, o.cells) != (
            b.x,
            b.y,
            b.w,
            b.h,
            b.container,
            b.collapsed,
            b.state,
            b.cells,
        ):
            return False
    return all((a.a, a.b, a.kind, a.via) == (b.a, b.b, b.kind, b.via) for a, b in zip(old.links, new.links))


def changed_boxes(old: Diagram, new: Diagram) -> list[str]:
    """The boxes of ``new`` that differ from (or are not in) ``old``."""
    ob = old.boxes
    return [cid for cid, b in new.boxes.items() if ob.get(cid) != b]


def default_collapsed(topo: Topology) -> set[str]:
    """Collapse groups when a design is large (more than two drawers): readable at a glance."""
    if len(topo.of_kind("drawer")) <= 2:
        return set()
    return {c.id for kind in COLLAPSIBLE for c in topo.of_kind(kind)}


def layout(
    topo: Topology, collapsed: set[str] | None = None, editor: bool = False, memo: LayoutMemo | None = None
) -> Diagram:
    """Lay the design out; ``collapsed`` holds ids of drawers, switches, subsystems and VGs
    shown as one box (default: :func:`default_collapsed`); ``editor`` adds HBA boxes and drive
    bays (see the module docstring); ``memo``: the members of the collapsed groups from the
    layouts before (see :class:`LayoutMemo`). Cost O(n) in components."""
    if collapsed is None:
        collapsed = default_collapsed(topo)
    x_of: dict[str, float] = {}
    x = 20.0
    for col in COLUMNS:
        x_of[col] = x
        x += COLUMN_WIDTH[col] + COLUMN_GAP
    d = Diagram(folded={})
    d.memo = memo if memo is not None else LayoutMemo()
    d.keep_cells = memo is not None  # (a memo made here dies with the call)
    ranks = host_ranks(topo, d.memo)
    order = storage_order(topo, ranks, d.memo)
    cable_tops: dict[str, str] = {}
    bands = site_bands(topo, cable_tops, *((d.memo.tops, d.memo.pairs) if memo is not None else ()))
    servers = split(bands, topo.of_kind("server"))
    switches = split(bands, by_peer_rank(topo, ranks, topo.of_kind("switch"), d.memo))
    subs = split(bands, sorted(topo.of_kind("subsystem"), key=lambda s: order.get(s.id, 1e12)))
    lpars = split(bands, topo.of_kind("lpar"), key=lambda lp: lp.parent)
    lists = list(zip(servers, switches, subs, lpars))
    keys = band_key(topo, bands, collapsed, lists, editor) if memo is not None else [None] * len(lists)
    laid, new, cables = [], [], None
    for i, (key, parts) in enumerate(zip(keys, lists)):  # (one band, the whole design, unless a site needs more)
        band = kept_band(memo, key, lambda e, s: _bays(topo, e, s)) if memo is not None else None
        if band is None:
            band = _lay_band(topo, d, x_of, collapsed, parts, editor, key)
            cables = cables or _cables_by_band(topo, bands, cable_tops, len(lists))
            band.links = _band_links(topo, band, parts[2], parts[3], cables[i])
            new.append(band)
        laid.append(band)
    d.bands = place(laid, x_of, COLUMNS, getattr(topo, "positions", None) or {}, editor, COLUMN_GAP)
    for band in d.bands:
        d.boxes.update(band.boxes)
        d.alias.update(band.direct)
        d.folded.update(band.folded)
        d.links += band.links
    if memo is not None:
        remember(memo, d.bands, new)
    merged = d.memo.merged(d.folded)
    d.memo.keep(d.folded)
    d.memo, d.direct, d.keep_cells = None, d.alias, False
    d.alias = dict(merged) if memo is not None else merged  # a memo keeps its own
    d.alias.update(d.direct)
    d.width = max((b.extent[0] for b in d.bands), default=0.0) + 20
    d.height = max((b.extent[1] for b in d.bands), default=0.0) + 20
    return d


def _lay_band(
    topo: Topology, d: Diagram, x_of: dict[str, float], collapsed: set[str], parts: tuple, editor: bool, key
) -> BandLaid:
    """One band (its servers, switches, subsystems and partitions) laid out with its top at
    ``layout_keep.TOP``, apart from the others (see :mod:`planner.layout_keep`)."""
    outer = d.boxes, d.alias, d.folded
    d.boxes, d.alias, d.folded = {}, {}, {}
    servers, switches, subs, lpars = parts
    try:
        bottom = max(
            _host_side(topo, d, x_of, collapsed, servers, TOP, editor),
            _switches(topo, d, x_of, collapsed, switches, TOP),
            _subsystems(topo, d, x_of, collapsed, subs, TOP, editor),
            _lvm(topo, d, x_of, collapsed, lpars, TOP),
        )
        band = new_band(key, d.boxes, d.alias, d.folded, bottom)  # type: ignore[arg-type]
    finally:
        d.boxes, d.alias, d.folded = outer
    if d.keep_cells:  # (the drive bays its expanded subsystems' cells read)
        cells = d.memo.cells  # type: ignore[union-attr]
        reads = (r for s in subs if s.id not in collapsed and (c := cells.get(s.id)) for r in c[3])
        band.bays = tuple(dict.fromkeys(reads))  # (once each: the 16x site's kept bands read 13,500, 50 distinct)
    return band


def _add(
    d: Diagram,
    c: Component,
    col: str,
    x: float,
    y: float,
    w: float,
    h: float,
    label: str | None = None,
    container: str | None = None,
) -> Box:
    box = Box(c.id, c.kind, label if label is not None else c.label(), x, y, w, h, col, container)
    d.boxes[c.id] = box
    return box


def _hide(topo: Topology, d: Diagram, group: Component) -> int:
    """Fold everything below ``group`` into it (``d.folded``); how many components that hides.
    A site hides tens of thousands, so this reads only the children lists, a level at a time,
    and takes the members from the memo when no edit touched the group since."""
    gid = group.id
    memo = d.memo
    assert memo is not None and d.folded is not None  # set by layout()
    got = memo.members.get(gid)
    if got is None:
        below = topo._children  # read only
        hidden: dict[str, str] = {}
        level = below.get(gid, ())
        while level:
            hidden.update(dict.fromkeys(level, gid))
            nxt: list[str] = []
            for cid in level:
                kids = below.get(cid)
                if kids:
                    nxt += kids
            level = nxt
        hbas = ids_of(topo, "hba")
        got = memo.members[gid] = (hidden, sum(1 for c in hidden if c in hbas) if group.kind == "drawer" else 0)
    d.folded[gid] = got[0]
    return len(got[0])


def _hidden_hbas(d: Diagram, drawer: str) -> int:
    """The HBAs folded into a collapsed drawer (after :func:`_hide`)."""
    assert d.memo is not None
    return d.memo.members[drawer][1]


def _below(topo: Topology, cid: str) -> list[str]:
    """The ids below ``cid`` in the order of ``topo.descendants`` (parents before children),
    without fetching a component."""
    below = topo._children  # read only
    out: list[str] = []
    stack = list(reversed(below.get(cid, ())))
    while stack:
        c = stack.pop()
        out.append(c)
        kids = below.get(c)
        if kids:
            stack += reversed(kids)
    return out


def _host_side(
    topo: Topology, d: Diagram, x_of: dict[str, float], collapsed: set[str], servers: list, y: float, editor: bool
) -> float:
    """The servers from ``y`` down; returns the lowest box's bottom (``y`` if none)."""
    bottom = y
    for server in servers:
        top = y
        for lpar in topo.children(server.id, "lpar"):
            d.alias[lpar.id] = server.id
        for drawer in topo.children(server.id, "drawer"):
            if drawer.id in collapsed:
                box = _add(d, drawer, "drawer", x_of["drawer"], y, COLUMN_WIDTH["drawer"], 3 * ROW)
                box.collapsed = True
                box.hidden_count = _hide(topo, d, drawer)
                box.label = f"{drawer.label()}\n{_hidden_hbas(d, drawer.id)} HBAs"
                y += 3 * ROW + GAP
                continue
            y = _drawer(topo, d, drawer, x_of, y, editor) + GAP
        # HBAs in no drawer (a draft) are aliased to the server
        box = _add(d, server, "server", x_of["server"], top, COLUMN_WIDTH["server"], max(y - top - GAP, 3 * ROW))
        bottom = box.y + box.h
        y = max(y, top + 3 * ROW + GAP) + GAP
    return bottom


def _drawer(topo: Topology, d: Diagram, drawer: Component, x_of: dict[str, float], y: float, editor: bool) -> float:
    """An expanded drawer: planars, RIO2 links, PHBs and slot rows; returns the y below it."""
    dy = y
    for planar in topo.children(drawer.id, "planar"):
        py = y
        for link in topo.children(planar.id, "rio_link"):
            ly = y
            for phb in topo.children(link.id, "phb"):
                hy = y
                for slot in topo.children(phb.id, "slot"):
                    _slot_row(topo, d, slot, x_of["slot"], y, editor, f"{phb.label()} on {link.label()}")
                    y += ROW
                _add(d, phb, "phb", x_of["phb"], hy, COLUMN_WIDTH["phb"], max(y - hy - 2, ROW - 2))
            _add(d, link, "rio_link", x_of["rio_link"], ly, COLUMN_WIDTH["rio_link"], max(y - ly - 2, ROW - 2))
        _add(d, planar, "planar", x_of["planar"], py, COLUMN_WIDTH["planar"], max(y - py - 2, ROW - 2))
        y += GAP / 2
    _add(d, drawer, "drawer", x_of["drawer"], dy, COLUMN_WIDTH["drawer"], max(y - dy - GAP / 2 - 2, ROW))
    return y


def _slot_row(topo: Topology, d: Diagram, slot: Component, x: float, y: float, editor: bool, where: str) -> None:
    """One slot row. In the editor the HBA is its own box inside the row (selectable, draggable
    to another slot); otherwise the row reads 'Slot 3: fcs2'."""
    hba = topo.children(slot.id, "hba")
    w = COLUMN_WIDTH["slot"]
    if not editor:
        label = f"{slot.label()}: {hba[0].label()}" if hba else f"{slot.label()} (empty)"
        _add(d, slot, "slot", x, y, w, ROW - 2, label)
        for h in hba:
            d.alias[h.id] = slot.id
            for port in topo.children(h.id, "hba_port"):
                d.alias[port.id] = slot.id
        return
    box = _add(d, slot, "slot", x, y, w, ROW - 2, slot.label() if hba else f"{slot.label()} (empty)")
    box.tip = f"{slot.label()}: {where}"
    for h in hba:
        hb = _add(d, h, "hba", x + SLOT_LABEL_W, y + 1, w - SLOT_LABEL_W - 2, ROW - 4, h.label(), container=slot.id)
        hb.tip = f"in {slot.label()}: {where}"
        for port in topo.children(h.id, "hba_port"):
            d.alias[port.id] = h.id


def _switches(
    topo: Topology, d: Diagram, x_of: dict[str, float], collapsed: set[str], switches: list, y: float
) -> float:
    """The switches from ``y`` down; returns the lowest box's bottom (``y`` if none)."""
    x, w = x_of["switch"], COLUMN_WIDTH["switch"]
    bottom = y
    for sw in switches:
        if sw.id in collapsed:
            box = _add(d, sw, "switch", x, y, w, 3 * ROW)
            box.collapsed, box.hidden_count = True, _hide(topo, d, sw)
            bottom = y + 3 * ROW
            y += 3 * ROW + GAP
            continue
        top = y
        y += ROW  # title row
        for asic in topo.children(sw.id, "asic"):
            ay = y
            y += ROW - 4
            for port in topo.children(asic.id, "switch_port"):
                _add(d, port, "switch", x + 16, y, w - 20, ROW - 3, _switch_port_label(topo, port), container=asic.id)
                y += ROW - 2
            _add(d, asic, "switch", x + 8, ay, w - 12, y - ay + 2, asic.label(), container=sw.id)
            y += 4
        for bp in topo.children(sw.id, "backplane"):
            d.alias[bp.id] = sw.id
        _add(d, sw, "switch", x, top, w, y - top + 4)
        bottom = y + 4
        y += GAP + 4
    return bottom


def _switch_port_label(topo: Topology, port: Component) -> str:
    """'3 - p690.fcs0': the port's index and what is cabled to it."""
    peer = topo.peer_port(port.id)
    peer_c = topo.get(peer) if peer else None
    what = ""
    if peer_c is not None:
        owner = topo.get(peer_c.parent)
        what = f" - {naming.qualified_name(topo, owner) if owner else peer}"
    return f"{port['index']}{what}"


def _subsystems(
    topo: Topology,
    d: Diagram,
    x_of: dict[str, float],
    collapsed: set[str],
    subs: list,
    y: float,
    editor: bool = False,
) -> float:
    """Subsystems in a grid from ``y`` down (one per row up to 8; a few per row beyond, so 56
    stay readable); returns the lowest box's bottom (``y`` if none). A subsystem keeps its
    cell folded or not: an expanded one widens its grid column and heightens its row (with its
    arrays beside it), so the others keep their order."""
    if not subs:
        return y
    per_row = max(1, round((len(subs) / 4) ** 0.5)) if len(subs) > 8 else 1
    width = COLUMN_WIDTH["subsystem"]
    folded_w = max((width - 10 * (per_row - 1)) / per_row if per_row > 1 else width, 70.0)
    cells: list[tuple[list[Box], float, float, bool]] = []
    for sub in subs:
        if sub.id in collapsed:
            box = _add(d, sub, "subsystem", 0.0, 0.0, folded_w, 1.6 * ROW)
            box.collapsed, box.hidden_count = True, _hide(topo, d, sub)
            cells.append(([box], box.w, box.h, True))
            continue
        boxes, cw, ch = _subsystem_cell(topo, d, sub, editor)
        if per_row > 1:
            for b in boxes:
                b.column = "subsystem"  # arrays travel with their subsystem's grid cell
        cells.append((boxes, cw, ch, False))
    return _place_grid(cells, per_row, x_of["subsystem"], y)


def _subsystem_cell(topo: Topology, d: Diagram, sub: Component, editor: bool) -> tuple[list[Box], float, float]:
    """An expanded subsystem's boxes laid out at (0, 0), added to ``d``, and the width and
    height they take: new boxes copied from
    those the memo keeps for it when no edit touched it since (the 16x site expanded: its 896
    subsystems' 43,000 boxes took 110-190 of the 200 ms a layout took, and a server deleted
    touches none of them), else laid out apart, then added (listing the new boxes of ``d``
    was O(boxes) each: 0.17 s expanded)."""
    memo = d.memo
    assert memo is not None  # set by layout()
    kept = memo.cells.get(sub.id) if d.keep_cells else None
    if kept is not None and kept[0] == editor and all(_bays(topo, *read) == bays for read, bays in kept[3]):
        copies = [_copy_box(b) for b in kept[1]]
        d.boxes.update((c.id, c) for c in copies)
        d.alias.update(kept[2])
        return copies, kept[4], kept[5]
    outer, outer_alias, d.boxes, d.alias = d.boxes, d.alias, {}, {}
    try:
        _subsystem_box(topo, d, sub, 0.0, 0.0, editor)
        _arrays(topo, d, sub, COLUMN_WIDTH["subsystem"] + COLUMN_GAP, 0.0, 2 * ROW - 6 if editor else ROW)
    finally:
        outer.update(d.boxes)
        outer_alias.update(d.alias)
        d.boxes, cell, d.alias, aliases = outer, d.boxes, outer_alias, d.alias
    boxes = list(cell.values())
    cw, ch = max(b.x + b.w for b in boxes), max(b.y + b.h for b in boxes)
    if d.keep_cells:
        parts = tuple(  # (each distinct read once: a subsystem's enclosures are mostly of one part)
            dict.fromkeys(
                ((e.part or "", sub.part or ""), _bays(topo, e.part, sub.part))
                for e in topo.children(sub.id, "enclosure")
            )
        )
        memo.cells[sub.id] = (editor, [_copy_box(b) for b in boxes], aliases, parts, cw, ch)
        reads = memo.cell_reads
        reads[sub.id] = sub.id
        for c in topo.descendants(sub.id):
            reads[c.id] = sub.id
    return boxes, cw, ch


def _copy_box(b: Box) -> Box:
    """A copy of ``b`` (made by its constructor: an instance whose dict was filled otherwise
    reads its attributes a third slower, and the canvas's comparisons read 44,864 of them)."""
    return Box(
        b.id,
        b.kind,
        b.label,
        b.x,
        b.y,
        b.w,
        b.h,
        b.column,
        b.container,
        b.collapsed,
        b.hidden_count,
        b.tip,
        b.state,
        b.cells,
    )


def _bay_part(topo: Topology, enclosure_part: str | None, subsystem_part: str | None) -> dict:
    """The part an enclosure's drive bays are read from: its own, else its subsystem's."""
    return topo.parts.get(enclosure_part or "") or topo.parts.get(subsystem_part or "") or {}


def _bays(topo: Topology, enclosure_part: str | None, subsystem_part: str | None) -> object:
    return _bay_part(topo, enclosure_part, subsystem_part).get("drive_bays")


def _place_grid(cells: list[tuple[list[Box], float, float, bool]], per_row: int, x0: float, y0: float) -> float:
    """Move each cell's boxes (laid out at 0, 0) to its grid place: columns as wide as their
    widest cell, rows as high as their highest; returns the last row's bottom."""
    col_w = [0.0] * per_row
    for i, (_, w, _, _) in enumerate(cells):
        col_w[i % per_row] = max(col_w[i % per_row], w)
    col_x = [x0]
    for c in range(1, per_row):
        col_x.append(col_x[-1] + col_w[c - 1] + 10)
    y = y0
    for r in range(0, len(cells), per_row):
        row = cells[r : r + per_row]
        for c, (boxes, _, _, _) in enumerate(row):
            for b in boxes:
                b.x += col_x[c]
                b.y += y
        gap = GAP / 2 if all(folded for *_, folded in row) else GAP
        bottom = y + max(h for _, _, h, _ in row)
        y = bottom + gap
    return bottom


def _subsystem_box(topo: Topology, d: Diagram, sub: Component, x: float, y: float, editor: bool = False) -> float:
    """An expanded subsystem: its controllers with their host ports (and in the editor its
    enclosures with their drive bays); returns the y below it."""
    w = COLUMN_WIDTH["subsystem"]
    top = y
    y += ROW
    for ctl in topo.children(sub.id, "controller"):
        cy = y
        y += ROW - 4
        for hp in topo.children(ctl.id, "host_port"):
            label = hp.label().replace(sub.label() + " ", "")
            _add(d, hp, "subsystem", x + 16, y, w - 20, ROW - 3, label, container=ctl.id)
            y += ROW - 2
        _add(d, ctl, "subsystem", x + 8, cy, w - 12, y - cy + 2, f"Controller {ctl['slot_name']}", container=sub.id)
        y += 4
    arrays = topo.children(sub.id, "array")
    in_array = {drv: i for i, a in enumerate(arrays) for drv in a["drives"]}
    in_tips = [f"in {naming.short_label(a)}" for a in arrays] if editor else []
    for enc in topo.children(sub.id, "enclosure"):
        if editor:
            y = _enclosure(topo, d, sub, enc, x + 8, y, w - 12, in_array, in_tips) + 4
            continue
        d.alias[enc.id] = sub.id
        for drv in topo.children(enc.id, "drive"):
            d.alias[drv.id] = sub.id
    for m in topo.children(sub.id, "host_mapping"):
        d.alias[m.id] = sub.id
    _add(d, sub, "subsystem", x, top, w, y - top + 4)
    return y


def _enclosure(
    topo: Topology,
    d: Diagram,
    sub: Component,
    enc: Component,
    x: float,
    y: float,
    w: float,
    in_array: dict[str, int],
    in_tips: list[str],
) -> float:
    """An enclosure with one cell per drive bay (a drive box, or an empty bay); returns the y
    below. ``in_array``: drive id -> its array's place in the subsystem; ``in_tips``: by that
    place, the tip of a drive in it."""
    drives = topo.children(enc.id, "drive")
    part = _bay_part(topo, enc.part, sub.part)
    bays = max([int(part.get("drive_bays") or 0), len(drives)] + [int(v["bay"]) for v in drives])
    per_row = max(1, min(bays, BAYS_PER_ROW))
    cell = min((w - 8) / per_row, ROW - 6)
    top = y
    y += ROW - 4  # title
    by_bay = {int(v["bay"]): v for v in drives}
    empty = []
    for bay in range(1, bays + 1):
        r, c = divmod(bay - 1, per_row)
        cx, cy = x + 4 + c * cell, y + r * cell
        drv = by_bay.get(bay)
        if drv is None:
            empty.append((cx, cy, cell - 1, cell - 1))
            continue
        arr = in_array.get(drv.id)
        box = _add(d, drv, "subsystem", cx, cy, cell - 1, cell - 1, "", container=enc.id)
        box.state = "free" if arr is None else f"array:{arr}"
        box.label = drv.label()
        box.tip = "free (in no array)" if arr is None else in_tips[arr]
    rows = (bays + per_row - 1) // per_row
    y += rows * cell + 3
    used = sum(1 for v in drives if v.id in in_array)
    box = _add(d, enc, "subsystem", x, top, w, y - top, enc.label(), container=sub.id)
    box.cells = tuple(empty)
    box.tip = (
        f"{bays} bays: {used} drives in arrays, {len(drives) - used} free drives, {bays - len(drives)} empty bays.\n"
        "Cells: filled = in an array (two shades tell neighbouring arrays apart), white = free drive, "
        "dotted = empty bay. (Designs have no hot-spare drives yet.)"
    )
    return y


def _arrays(topo: Topology, d: Diagram, sub: Component, xa: float, ya: float, head: float = ROW) -> float:
    """The subsystem's arrays with their logical drives (``head``: room for the array's title);
    returns the y below them."""
    wa = COLUMN_WIDTH["array"]
    for arr in topo.children(sub.id, "array"):
        at = ya
        ya += head
        for ld in topo.children(arr.id, "logical_drive"):
            label = f"{ld.label()} ({ld['size_gb']:.0f} GB)"
            _add(d, ld, "array", xa + 8, ya, wa - 12, ROW - 3, label, container=arr.id)
            ya += ROW - 2
        label, tip = _array_text(arr)
        box = _add(d, arr, "array", xa, at, wa, ya - at + 4, label)
        box.tip = tip
        ya += 6
    return ya


def _array_text(arr: Component) -> tuple[str, str]:
    """An array box's label and tip."""
    name = naming.short_label(arr)
    shape = f"RAID{arr['raid_level']} {naming.array_shape(arr['raid_level'], len(arr['drives']))}"
    label = (
        f"{name}, {arr['segment_kb']} KB segment"
        if shape in name
        else f"{name}: {shape}, {arr['segment_kb']} KB segment"
    )
    return label, f"{len(arr['drives'])} drives, RAID {arr['raid_level']}, {arr['segment_kb']} KB segment"


def _vg_label(topo: Topology, vg: Component) -> str:
    """'datavg: big VG, 112 PVs, ...'; with its LPAR (and server) when the design has several
    LPARs, as each may have a 'datavg': 'datavg on lpar2: ...'."""
    name = naming.label(topo, vg) if topo.count_of("lpar") > 1 else vg.label()
    return f"{name}: {vg['vg_type']} VG, {len(vg['pvs'])} PVs, LTG {vg['ltg_kb']} KB, PP {vg['pp_mb']} MB"


def _lvm(topo: Topology, d: Diagram, x_of: dict[str, float], collapsed: set[str], lpars: list, y: float) -> float:
    """The partitions' volume groups from ``y`` down; returns the lowest box's bottom (``y``
    if none)."""
    x, w = x_of["volume_group"], COLUMN_WIDTH["volume_group"]
    bottom = y
    for lpar in lpars:
        for h in topo.children(lpar.id, "hdisk"):
            d.alias[h.id] = h["logical_drive"] if h["logical_drive"] in d.boxes else lpar.parent or ""
        for vg in topo.children(lpar.id, "volume_group"):
            top = y
            label = _vg_label(topo, vg)
            if vg.id in collapsed:
                box = _add(d, vg, "volume_group", x, y, w, 3 * ROW, label)
                box.collapsed, box.hidden_count = True, _hide(topo, d, vg)
                bottom = y + 3 * ROW
                y += 3 * ROW + GAP
                continue
            y += 2 * ROW
            for lv in topo.children(vg.id, "logical_volume"):
                stripe = f"{lv['stripe_kb']} KB x {lv['width']}" if lv["stripe_kb"] else "not striped"
                _add(d, lv, "volume_group", x + 8, y, w - 12, ROW - 3, f"{lv.label()}: {stripe}", container=vg.id)
                for wl in topo.children(lv.id, "workload"):
                    d.alias[wl.id] = lv.id
                y += ROW - 2
            _add(d, vg, "volume_group", x, top, w, y - top + 4, label)
            bottom = y + 4
            y += GAP
    return bottom


_TREE = frozenset(COLUMNS[1 : COLUMNS.index("slot") + 1])  # the server's I/O tree: drawer .. slot


def _band_links(topo: Topology, band: BandLaid, subs: list, lpars: list, cables: list[str]) -> list[Link]:
    """The links between a band's visible boxes, each (ends, kind) once: the server's I/O
    tree, the ``cables`` (those of the band, in design order), each logical drive to its owning
    controller, each VG's PVs (the candidates checked inline: 5-8 % quicker than a call each,
    over the 16x site's 7,000). What a link joins is in one band (the bands are made so)."""
    seen: set[tuple[str, str, str]] = set()
    boxes, links = band.boxes, []
    alias: dict[str, str] = {}
    for members in band.folded.values():
        alias.update(members)
    alias.update(band.direct)
    shown = alias.get

    def add(va: str, vb: str, kind: str, via: str) -> None:
        key = (va, vb, kind)
        if key not in seen:
            seen.add(key)
            links.append(Link(va, vb, kind, via))

    comps = topo._components
    for cid, box in boxes.items():
        if box.kind in _TREE and box.container is None:
            parent = comps[cid].parent
            if parent and parent in boxes and parent != cid:
                add(parent, cid, "tree", "")
    for cab in cables:
        attrs = comps[cab].attrs
        a, b = attrs.get("a"), attrs.get("b")
        if a and b:
            va = a if a in boxes else shown(a)
            vb = b if b in boxes else shown(b)
            if va and vb and va != vb:
                add(va, vb, "cable", cab)
    for ld in (ld for sub in subs for arr in topo.children(sub.id, "array") for ld in topo.children(arr.id)):
        owner, cid = ld.attrs.get("owner"), ld.id
        if owner and ld.kind == "logical_drive":
            va = owner if owner in boxes else shown(owner)
            vb = cid if cid in boxes else shown(cid)
            if va and vb and va != vb:
                add(va, vb, "owner", cid)
    for vg in (vg for lpar in lpars for vg in topo.children(lpar.id, "volume_group")):
        vb = vg.id if vg.id in boxes else shown(vg.id)
        for pv in vg.attrs.get("pvs") or ():
            h = comps.get(pv)
            if h is not None and (ld := h.attrs.get("logical_drive")):
                va = ld if ld in boxes else shown(ld)
                if va and vb and va != vb:
                    add(va, vb, "pv", pv)
    return links


def _cables_by_band(topo: Topology, bands: dict[str, int] | None, tops: dict[str, str], n: int) -> list[list[str]]:
    """The cables of each of ``n`` bands in design order (``tops``: each cable -> the top-level
    component at its first end, see ``site_bands``)."""
    out: list[list[str]] = [[] for _ in range(n)]
    for cid in ids_of(topo, "cable"):
        top = tops.get(cid)
        if top is not None:
            out[bands.get(top, n - 1) if bands is not None else 0].append(cid)
    return out


# -- relabelling without a layout -----------------------------------------------------------------


def box_text(topo: Topology, d: Diagram, cid: str) -> tuple[str, str]:
    """The label and tip the editor's layout (``layout(..., editor=True)``) gives the box of
    ``cid`` in ``d``, computed for that box alone: what an edit that moves nothing (an attribute
    other than a reference, a part or a drive's bay) needs to refresh, without laying the whole
    design out again. ``d`` must hold a box for ``cid``; its geometry and state are kept."""
    box, c = d.boxes[cid], topo[cid]
    kind, label, tip = c.kind, c.label(), box.tip
    if kind == "drawer" and box.collapsed:
        hbas = ids_of(topo, "hba")
        label = f"{c.label()}\n{sum(1 for x in _below(topo, cid) if x in hbas)} HBAs"
    elif kind in ("slot", "hba"):
        slot = c if kind == "slot" else topo[c.parent]
        phb = topo[slot.parent]
        where = f"{phb.label()} on {topo[phb.parent].label()}"
        if kind == "slot":
            label = slot.label() if topo.children(cid, "hba") else f"{slot.label()} (empty)"
            tip = f"{slot.label()}: {where}"
        else:
            tip = f"in {slot.label()}: {where}"
    elif kind == "host_port":
        label = c.label().replace(topo[topo[c.parent].parent].label() + " ", "")
    elif kind == "controller":
        label = f"Controller {c['slot_name']}"
    elif kind == "switch_port":
        label = _switch_port_label(topo, c)
    elif kind == "drive":
        arrays = topo.children(topo[c.parent].parent, "array")
        n = int(box.state.split(":")[1]) if box.state.startswith("array:") else -1
        tip = f"in {naming.short_label(arrays[n])}" if 0 <= n < len(arrays) else "free (in no array)"
    elif kind == "logical_drive":
        label = f"{c.label()} ({c['size_gb']:.0f} GB)"
    elif kind == "array":
        label, tip = _array_text(c)
    elif kind == "volume_group":
        label = _vg_label(topo, c)
    elif kind == "logical_volume":
        stripe = f"{c['stripe_kb']} KB x {c['width']}" if c["stripe_kb"] else "not striped"
        label = f"{c.label()}: {stripe}"
    return label, tip
