"""Layered diagram layout of a design, left to right along the data path (no Qt).

Columns: server and partitions -> drawers -> planars -> RIO2 links -> PHBs -> slots and HBAs ->
switches (ports grouped by ASIC) -> subsystems (controllers and host ports) -> arrays and
logical drives -> volume groups and logical volumes. The editor's canvas and the PDF build
sheet both draw from :func:`layout`; positions are in points (1/72 in), y grows downwards.

Groups collapse: a collapsed drawer, switch or subsystem is one box and everything inside it is
hidden; links to hidden components end at the visible box (:meth:`Diagram.visible`). Top-level
boxes the user moved keep their position (``topo.positions``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from planner import naming
from planner.model import Component, Topology
from planner.schema import KINDS, collapsible_kinds, diagram_columns

ROW = 18.0  # height of one leaf row
GAP = 8.0  # vertical gap between top-level groups
COLUMNS = diagram_columns()  # left to right (planner.schema)
COLUMN_WIDTH = {k: KINDS[k].column_width for k in COLUMNS}
COLUMN_GAP = 46.0
COLLAPSIBLE = collapsible_kinds()


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

    def visible(self, cid: str) -> str | None:
        """The box that shows ``cid``: its own, or that of the collapsed group hiding it."""
        if cid in self.boxes:
            return cid
        return self.alias.get(cid)


def default_collapsed(topo: Topology) -> set[str]:
    """Collapse groups when a design is large (more than two drawers): readable at a glance."""
    if len(topo.of_kind("drawer")) <= 2:
        return set()
    return {c.id for kind in COLLAPSIBLE for c in topo.of_kind(kind)}


def layout(topo: Topology, collapsed: set[str] | None = None) -> Diagram:
    """Lay the design out; ``collapsed`` holds ids of drawers, switches, subsystems and VGs
    shown as one box (default: :func:`default_collapsed`). Cost O(n) in components."""
    if collapsed is None:
        collapsed = default_collapsed(topo)
    x_of: dict[str, float] = {}
    x = 20.0
    for col in COLUMNS:
        x_of[col] = x
        x += COLUMN_WIDTH[col] + COLUMN_GAP
    d = Diagram()
    d.width = x
    _host_side(topo, d, x_of, collapsed)
    order = _storage_order(topo, d)
    _switches(topo, d, x_of, collapsed)
    _subsystems(topo, d, x_of, collapsed, order)
    _lvm(topo, d, x_of, collapsed)
    _links(topo, d)
    _compact_columns(d, x_of)
    _apply_positions(topo, d)
    d.height = max((b.y + b.h for b in d.boxes.values()), default=0.0) + 20
    d.width = max((b.x + b.w for b in d.boxes.values()), default=0.0) + 20
    return d


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
    inside = topo.descendants(group.id)
    for c in inside:
        d.alias[c.id] = group.id
    return len(inside)


def _host_side(topo: Topology, d: Diagram, x_of: dict[str, float], collapsed: set[str]) -> None:
    y = 20.0
    for server in topo.of_kind("server"):
        top = y
        for lpar in topo.children(server.id, "lpar"):
            d.alias[lpar.id] = server.id
        for drawer in topo.children(server.id, "drawer"):
            dy = y
            if drawer.id in collapsed:
                box = _add(d, drawer, "drawer", x_of["drawer"], y, COLUMN_WIDTH["drawer"], 3 * ROW)
                box.collapsed = True
                box.hidden_count = _hide(topo, d, drawer)
                hbas = [c for c in topo.descendants(drawer.id) if c.kind == "hba"]
                box.label = f"{drawer.label()}\n{len(hbas)} HBAs"
                y += 3 * ROW + GAP
                continue
            for planar in topo.children(drawer.id, "planar"):
                py = y
                for link in topo.children(planar.id, "rio_link"):
                    ly = y
                    for phb in topo.children(link.id, "phb"):
                        hy = y
                        for slot in topo.children(phb.id, "slot"):
                            hba = topo.children(slot.id, "hba")
                            label = f"{slot.label()}: {hba[0].label()}" if hba else f"{slot.label()} (empty)"
                            _add(d, slot, "slot", x_of["slot"], y, COLUMN_WIDTH["slot"], ROW - 2, label)
                            for h in hba:
                                d.alias[h.id] = slot.id
                                for port in topo.children(h.id, "hba_port"):
                                    d.alias[port.id] = slot.id
                            y += ROW
                        _add(d, phb, "phb", x_of["phb"], hy, COLUMN_WIDTH["phb"], max(y - hy - 2, ROW - 2))
                    _add(d, link, "rio_link", x_of["rio_link"], ly, COLUMN_WIDTH["rio_link"], max(y - ly - 2, ROW - 2))
                _add(d, planar, "planar", x_of["planar"], py, COLUMN_WIDTH["planar"], max(y - py - 2, ROW - 2))
                y += GAP / 2
            _add(d, drawer, "drawer", x_of["drawer"], dy, COLUMN_WIDTH["drawer"], max(y - dy - GAP / 2 - 2, ROW))
            y += GAP
        # HBAs in no drawer (a draft) are aliased to the server
        _add(d, server, "server", x_of["server"], top, COLUMN_WIDTH["server"], max(y - top - GAP, 3 * ROW))
        y = max(y, top + 3 * ROW + GAP) + GAP


def _storage_order(topo: Topology, d: Diagram) -> dict[str, float]:
    """Order subsystems by the mean height of the HBAs cabled or zoned to them (fewer crossings)."""
    pos: dict[str, list[float]] = {}
    for z in topo.of_kind("zone"):
        hb = [m for m in z["members"] if topo.get(m) is not None and topo[m].kind == "hba_port"]
        st = [m for m in z["members"] if topo.get(m) is not None and topo[m].kind == "host_port"]
        for h in hb:
            box = d.boxes.get(d.visible(h) or "")
            if box is None:
                continue
            for s in st:
                sub = topo.ancestor(s, "subsystem")
                pos.setdefault(sub.id, []).append(box.y)
    return {k: sum(v) / len(v) for k, v in pos.items()}


def _switches(topo: Topology, d: Diagram, x_of: dict[str, float], collapsed: set[str]) -> None:
    y = 20.0
    x, w = x_of["switch"], COLUMN_WIDTH["switch"]
    for sw in _by_peer_height(topo, d, topo.of_kind("switch")):
        if sw.id in collapsed:
            box = _add(d, sw, "switch", x, y, w, 3 * ROW)
            box.collapsed, box.hidden_count = True, _hide(topo, d, sw)
            y += 3 * ROW + GAP
            continue
        top = y
        y += ROW  # title row
        for asic in topo.children(sw.id, "asic"):
            ay = y
            y += ROW - 4
            for port in topo.children(asic.id, "switch_port"):
                peer = topo.peer_port(port.id)
                peer_c = topo.get(peer) if peer else None
                what = ""
                if peer_c is not None:
                    owner = topo.get(peer_c.parent)
                    what = f" - {naming.qualified_name(topo, owner) if owner else peer}"
                _add(d, port, "switch", x + 16, y, w - 20, ROW - 3, f"{port['index']}{what}", container=asic.id)
                y += ROW - 2
            _add(d, asic, "switch", x + 8, ay, w - 12, y - ay + 2, asic.label(), container=sw.id)
            y += 4
        for bp in topo.children(sw.id, "backplane"):
            d.alias[bp.id] = sw.id
        _add(d, sw, "switch", x, top, w, y - top + 4)
        y += GAP + 4


def _by_peer_height(topo: Topology, d: Diagram, switches: list[Component]) -> list[Component]:
    def key(sw: Component) -> float:
        ys = []
        for c in topo.descendants(sw.id):
            if c.kind == "switch_port":
                peer = topo.peer_port(c.id)
                box = d.boxes.get(d.visible(peer) or "") if peer else None
                if box is not None:
                    ys.append(box.y)
        return sum(ys) / len(ys) if ys else 1e12

    return sorted(switches, key=key)


def _subsystems(
    topo: Topology, d: Diagram, x_of: dict[str, float], collapsed: set[str], order: dict[str, float]
) -> None:
    subs = sorted(topo.of_kind("subsystem"), key=lambda s: order.get(s.id, 1e12))
    y = _folded_subsystems(topo, d, x_of, [s for s in subs if s.id in collapsed], 20.0)
    ya = y
    for sub in subs:
        if sub.id in collapsed:
            continue
        top = y
        y = _subsystem_box(topo, d, sub, x_of["subsystem"], y)
        # arrays and logical drives in the next column, level with their subsystem
        ya = _arrays(topo, d, sub, x_of["array"], max(ya, top))
        y = max(y, ya) + GAP
        ya = y


def _folded_subsystems(topo: Topology, d: Diagram, x_of: dict[str, float], folded: list[Component], y: float) -> float:
    """Collapsed subsystems in a grid, a few per row, so 56 of them stay readable; returns the
    y below the grid."""
    if not folded:
        return y
    per_row = max(1, round((len(folded) / 4) ** 0.5)) if len(folded) > 8 else 1
    width = COLUMN_WIDTH["subsystem"]
    grid_w = max((width - 10 * (per_row - 1)) / per_row if per_row > 1 else width, 70.0)
    for i, sub in enumerate(folded):
        r, c = divmod(i, per_row)
        box = _add(
            d, sub, "subsystem", x_of["subsystem"] + c * (grid_w + 10), y + r * (1.6 * ROW + GAP / 2), grid_w, 1.6 * ROW
        )
        box.collapsed, box.hidden_count = True, _hide(topo, d, sub)
    return y + ((len(folded) + per_row - 1) // per_row) * (1.6 * ROW + GAP / 2) + GAP


def _subsystem_box(topo: Topology, d: Diagram, sub: Component, x: float, y: float) -> float:
    """An expanded subsystem: its controllers with their host ports; returns the y below it."""
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
    for enc in topo.children(sub.id, "enclosure"):
        d.alias[enc.id] = sub.id
        for drv in topo.children(enc.id, "drive"):
            d.alias[drv.id] = sub.id
    for m in topo.children(sub.id, "host_mapping"):
        d.alias[m.id] = sub.id
    _add(d, sub, "subsystem", x, top, w, y - top + 4)
    return y


def _arrays(topo: Topology, d: Diagram, sub: Component, xa: float, ya: float) -> float:
    """The subsystem's arrays with their logical drives; returns the y below them."""
    wa = COLUMN_WIDTH["array"]
    for arr in topo.children(sub.id, "array"):
        at = ya
        ya += ROW
        for ld in topo.children(arr.id, "logical_drive"):
            label = f"{ld.label()} ({ld['size_gb']:.0f} GB)"
            _add(d, ld, "array", xa + 8, ya, wa - 12, ROW - 3, label, container=arr.id)
            ya += ROW - 2
        nd = len(arr["drives"])
        shape = {5: f"{nd - 1}+P", 3: f"{nd - 1}+P", 1: f"{nd // 2}+{nd // 2}", 10: f"{nd // 2}+{nd // 2}"}.get(
            arr["raid_level"], f"{nd} drives"
        )
        label = f"RAID {arr['raid_level']} {shape}, {arr['segment_kb']} KB segment"
        _add(d, arr, "array", xa, at, wa, ya - at + 4, label)
        ya += 6
    return ya


def _lvm(topo: Topology, d: Diagram, x_of: dict[str, float], collapsed: set[str]) -> None:
    y = 20.0
    x, w = x_of["volume_group"], COLUMN_WIDTH["volume_group"]
    for lpar in topo.of_kind("lpar"):
        for h in topo.children(lpar.id, "hdisk"):
            d.alias[h.id] = h["logical_drive"] if h["logical_drive"] in d.boxes else lpar.parent or ""
        for vg in topo.children(lpar.id, "volume_group"):
            top = y
            label = (
                f"{vg.label()}: {vg['vg_type']} VG, {len(vg['pvs'])} PVs, LTG {vg['ltg_kb']} KB, PP {vg['pp_mb']} MB"
            )
            if vg.id in collapsed:
                box = _add(d, vg, "volume_group", x, y, w, 3 * ROW, label)
                box.collapsed, box.hidden_count = True, _hide(topo, d, vg)
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
            y += GAP


def _links(topo: Topology, d: Diagram) -> None:
    seen: set[tuple[str, str, str]] = set()

    def link(a: str | None, b: str | None, kind: str, via: str = "") -> None:
        va, vb = (d.visible(a) if a else None), (d.visible(b) if b else None)
        if not va or not vb or va == vb:
            return
        key = (va, vb, kind)
        if key in seen:
            return
        seen.add(key)
        d.links.append(Link(va, vb, kind, via))

    for kind in COLUMNS[1 : COLUMNS.index("slot") + 1]:  # the server's I/O tree: drawer .. slot
        for c in topo.of_kind(kind):
            if c.parent and c.id in d.boxes and c.parent in d.boxes and d.boxes[c.id].container is None:
                link(c.parent, c.id, "tree")
    for cab in topo.of_kind("cable"):
        link(cab["a"], cab["b"], "cable", cab.id)
    for ld in topo.of_kind("logical_drive"):
        link(ld["owner"], ld.id, "owner", ld.id)
    for vg in topo.of_kind("volume_group"):
        for pv in vg["pvs"]:
            h = topo.get(pv)
            if h is not None and h["logical_drive"]:
                link(h["logical_drive"], vg.id, "pv", pv)


def _compact_columns(d: Diagram, x_of: dict[str, float]) -> None:
    """Close the gaps left by empty columns (collapsed drawers hide four) and widen the
    columns that hold grids of collapsed boxes."""
    by_col: dict[str, list[Box]] = {}
    for b in d.boxes.values():
        by_col.setdefault(b.column, []).append(b)
    cursor = 20.0
    for col in COLUMNS:
        boxes = by_col.get(col)
        if not boxes:
            continue
        shift = cursor - x_of[col]
        for b in boxes:
            b.x += shift
        cursor = max(b.x + b.w for b in boxes) + COLUMN_GAP


def _apply_positions(topo: Topology, d: Diagram) -> None:
    """Top-level boxes the user moved keep their place; their inner boxes move along."""
    positions = getattr(topo, "positions", None) or {}
    if not positions:
        return
    inner: dict[str, list[Box]] = {}
    for b in d.boxes.values():
        root = b
        while root.container is not None and root.container in d.boxes:
            root = d.boxes[root.container]
        if root is not b:
            inner.setdefault(root.id, []).append(b)
    for cid, (px, py) in positions.items():
        box = d.boxes.get(cid)
        if box is None or box.container is not None:
            continue
        dx, dy = px - box.x, py - box.y
        box.x, box.y = px, py
        for b in inner.get(cid, ()):
            b.x += dx
            b.y += dy
