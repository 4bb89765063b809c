"""A site laid out band by band, each band kept from one layout to the next until an edit
touches it (no Qt).

:func:`planner.layout.layout` lays each band of a site (:mod:`planner.layout_bands`) out on
its own, as if it were the first (its top at :data:`TOP`), into a :class:`BandLaid`; then
:func:`place` puts the bands where they stand: the columns closed up over the whole diagram
(empty columns gone, grids of folded boxes widened), each band moved down below the ones before
it and, in the editor, into its column of bands, and the boxes the user moved put at their
places. A :class:`planner.layout_orders.LayoutMemo` keeps the bands of the last layout: a band
whose key (its servers, switches, subsystems and partitions in order, the groups folded in it)
is that of a kept band no edit touched since is not laid out again, and when it also stands
where it stood, the diagram takes its very boxes. On the 16x site expanded (44,864 boxes in
16 bands) a server deleted lays out one band of 2,800 boxes again instead of the whole site,
and what the canvas compares (:mod:`planner.diagram_order`) skips the bands it shares with the
diagram it shows.

Boxes a diagram holds are never changed afterwards (a band placed elsewhere is a band of new
boxes), so two diagrams may share them and a band's boxes found in both are the same.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from planner.layout_bands import BAND_GAP, band_columns
from planner.model import Topology

if TYPE_CHECKING:
    from planner.layout import Box, Diagram
    from planner.layout_orders import LayoutMemo

TOP = 20.0  # a band's top as it is laid out (that of the first band)
_MOVES_WITH = {"hba": "slot"}  # the boxes of a column outside the diagram's columns -> the column they move with


@dataclass(eq=False)
class BandLaid:
    """One band as laid out: its boxes (in the order laid out), each one's place before
    :func:`place` moved it (``raw``), the alias entries it made and the groups it folded."""

    key: tuple | None  # what it was laid out from (see band_key); None: not kept
    boxes: dict[str, Box]
    raw: list[tuple[float, float]]
    right: dict[str, float]  # each column it has boxes in -> its right edge before placing
    height: float
    direct: dict[str, str]  # alias entries made while laying it out
    folded: dict[str, dict[str, str]]  # group -> its members (the memo's own dicts)
    bays: tuple = ()  # (the parts read, their drive bays) of its expanded subsystems' enclosures
    links: list = field(default_factory=list, repr=False)  # planner.layout.Link between its boxes
    placed: tuple | None = None  # where its boxes stand (see place): None, where laid out
    extent: tuple[float, float] = (0.0, 0.0)  # right and bottom of its boxes as placed
    #: its box ids by depth (containers first) and its containers' title rows; worked out
    #: once (planner.diagram_order), the first kept while the band is
    levels: list[list[str]] | None = field(default=None, repr=False)
    heads: dict[str, float] | None = field(default=None, repr=False)
    #: what each cable or disk drawn as one of its links joins (see :func:`forget`), worked out
    #: when first asked (not copied by ``replace``: a band placed anew has links of its own)
    ends: dict[str, tuple[str, str]] | None = field(default=None, init=False, repr=False, compare=False)


def band_key(
    topo: Topology, tops: dict[str, int] | None, collapsed: set[str], lists: list[tuple[list, ...]], editor: bool
) -> list[tuple]:
    """Each band's key: what laying it out reads besides its components' own contents (which
    an edit of them makes the memo forget, :func:`forget`): its servers, switches, subsystems
    and partitions in their order, the groups folded in it, the editor or the build sheet, and
    whether the design has several partitions (a volume group's label names its own then)."""
    folded: list[list[str]] = [[] for _ in lists]
    comps = topo._components  # read only
    for cid in collapsed:
        c = comps.get(cid)
        while c is not None and c.parent is not None:
            c = comps.get(c.parent)
        if c is not None:
            folded[tops.get(c.id, len(lists) - 1) if tops is not None else 0].append(cid)
    many = topo.count_of("lpar") > 1
    return [
        (editor, many, *(tuple(c.id for c in part) for part in parts), frozenset(f)) for parts, f in zip(lists, folded)
    ]


def new_band(key: tuple | None, boxes: dict[str, Box], direct: dict, folded: dict, bottom: float) -> BandLaid:
    """A band just laid out (its top at :data:`TOP`, ``bottom`` the lowest box's bottom)."""
    raw = [(b.x, b.y) for b in boxes.values()]
    right: dict[str, float] = {}
    for b in boxes.values():
        r, got = b.x + b.w, right.get(b.column)
        if got is None or r > got:
            right[b.column] = r
    return BandLaid(key, boxes, raw, right, bottom - TOP, direct, folded)


def kept_band(memo: LayoutMemo, key: tuple, bays) -> BandLaid | None:
    """The band the memo keeps for ``key``, if what it was laid out from is unchanged: the
    groups it folded still have the members it took (the memo's own dicts) and each expanded
    enclosure's part the drive bays it read (``bays``: a part's bays now, by the parts read)."""
    got = memo.bands.get(key)
    if got is None:
        return None
    members = memo.members
    for g, m in got.folded.items():
        kept = members.get(g)
        if kept is None or kept[0] is not m:
            return None
    if any(bays(*read) != n for read, n in got.bays):
        return None
    return got


def place(
    bands: list[BandLaid],
    x_of: dict[str, float],
    columns: Iterable[str],
    positions: dict[str, tuple[float, float]],
    editor: bool,
    gap: float,
) -> list[BandLaid]:
    """Put the bands where they stand (see the module docstring); the bands as placed, a new
    :class:`BandLaid` for each kept band that stands elsewhere now (``columns``: the diagram's
    columns left to right; ``gap``: between two columns)."""
    shift = _shifts(bands, x_of, columns, gap)
    tops, t = [], TOP
    for band in bands:
        tops.append(t)
        t = t + band.height + BAND_GAP
    across = band_columns(len(bands)) if editor else 1
    down = -(-len(bands) // across)
    step = max((r + shift[c] for band in bands for c, r in band.right.items()), default=0.0) + BAND_GAP * 3
    out = []
    for i, band in enumerate(bands):
        col = i // down if across > 1 else 0
        dy = tops[i] - TOP
        if col:
            dy += TOP - tops[col * down]
        pinned = tuple((cid, at) for cid, at in positions.items() if cid in band.boxes) if positions else ()
        where = (tuple(shift[c] for c in band.right), col * step, dy, pinned)
        if band.placed == where:
            out.append(band)  # (a kept band where it stood: its very boxes)
            continue
        out.append(_placed(band, shift, where, dict(pinned)))
    return out


def _shifts(bands: list[BandLaid], x_of: dict[str, float], columns: Iterable[str], gap: float) -> dict[str, float]:
    """How far each column moves left: the columns without a box close up, and a column
    wider than its place (a grid of folded subsystems) pushes the next ones right."""
    right: dict[str, float] = {}
    for band in bands:
        for c, r in band.right.items():
            if r > right.get(c, -1e300):
                right[c] = r
    shift: dict[str, float] = {}
    cursor = TOP
    for col in columns:
        if col in right:
            shift[col] = s = cursor - x_of[col]
            cursor = max(0.0, right[col] + s) + gap
    for col in right.keys() - shift.keys():  # (an HBA's box, in its slot's row, moves with the slots)
        shift[col] = shift.get(_MOVES_WITH.get(col, ""), 0.0)
    return shift


def _placed(band: BandLaid, shift: dict[str, float], where: tuple, pinned: dict) -> BandLaid:
    """``band``'s boxes at ``where`` (see :func:`place`): moved where they are not in a
    diagram yet (a band just laid out), else copies."""
    _, dx, dy, _ = where
    fresh = band.placed is None
    boxes = band.boxes if fresh else {}
    for b, (x, y) in zip(band.boxes.values(), band.raw):
        if not fresh:
            b = boxes[b.id] = _copy(b)
        b.x = x + shift[b.column] + dx
        b.y = y + dy
    if pinned:
        _pin(boxes, pinned)
    right = max((b.x + b.w for b in boxes.values()), default=0.0)
    bottom = max((b.y + b.h for b in boxes.values()), default=0.0)
    if fresh:
        band.placed, band.extent = where, (right, bottom)
        return band
    return replace(band, boxes=boxes, placed=where, extent=(right, bottom), heads=None)


def _pin(boxes: dict[str, Box], positions: dict[str, tuple[float, float]]) -> None:
    """Top-level boxes the user moved keep their place (none left of or above the diagram's
    origin: the canvas and the build sheet begin there; a file may hold such a place); their
    inner boxes move along."""
    inner: dict[str, list[Box]] = {}
    for b in boxes.values():
        root = b
        while root.container is not None and root.container in boxes:
            root = boxes[root.container]
        if root is not b and root.id in positions:
            inner.setdefault(root.id, []).append(b)
    for cid, (px, py) in positions.items():
        box = boxes[cid]
        if box.container is not None:
            continue
        px, py = max(px, 0.0), max(py, 0.0)
        dx, dy = px - box.x, py - box.y
        box.x, box.y = px, py
        for b in inner.get(cid, ()):
            b.x += dx
            b.y += dy


def _copy(b: Box) -> Box:
    """A copy of ``b`` made by its constructor (see planner.layout._copy_box)."""
    return type(b)(
        b.id, b.kind, b.label, b.x, b.y, b.w, b.h, b.column, b.container, b.collapsed, b.hidden_count, b.tip, b.state,
        b.cells,
    )  # fmt: skip


def remember(memo: LayoutMemo, bands: list[BandLaid], new: list[BandLaid]) -> None:
    """Keep the bands of the layout just made for the next, and which band each box and alias
    entry of those laid out anew (``new``) is in (for :func:`forget`)."""
    memo.bands = {b.key: b for b in bands if b.key is not None}
    of = memo.band_of
    for b in new:
        if b.key is not None:
            of.update(dict.fromkeys(b.boxes, b.key))
            of.update(dict.fromkeys(b.direct, b.key))


def forget(memo: LayoutMemo, topo: Topology, ids: Iterable[str], shown: Diagram | None) -> None:
    """Drop the kept bands an edit of ``ids`` may change: the band of each one's top-level
    component now, and the one ``shown`` (the diagram before the edit) drew it in; for a cable
    and a disk, those of what it joins now and joined before (a switch port's label names what
    is cabled to it). A component found in no band is in none kept: one that draws nothing (a
    fabric, a zone, a rack; a cable by its ends) or one under a server, switch or subsystem new
    since the last layout (a server restored: whatever band it joins is joined through a cable
    or disk of the same edit, or gets a key no band had). Only a component removed with no
    diagram shown to find it in drops them all."""
    if not memo.bands:
        return
    comps, of, bands = topo._components, memo.band_of, memo.bands
    ends: dict[str, tuple[str, str]] | None = None
    seen: dict[str, bool] = {}  # an id walked up from -> whether a band held it or a parent
    for cid in ids:
        c = comps.get(cid)
        hit = [cid]
        if c is not None and c.kind in ("cable", "hdisk"):
            hit += [v for v in (c.attrs.get("a"), c.attrs.get("b"), c.attrs.get("logical_drive")) if v]
        if shown is not None:
            if (v := shown.visible(cid)) is not None:
                hit.append(v)
            if c is None or c.kind in ("cable", "hdisk"):
                if ends is None:
                    ends = _via_ends(shown)
                hit += ends.get(cid, ())
        if not _drop(comps, of, bands, hit, seen) and c is None and shown is None:
            bands.clear()
            return


def _via_ends(d: Diagram) -> dict[str, tuple[str, str]]:
    """What each cable or disk drawn as a link of ``d`` joins, gathered band by band (each kept
    band keeps its own: the 16x site's 10,864 links were listed again after every edit)."""
    if not d.bands:
        return {link.via: (link.a, link.b) for link in d.links if link.via}
    out: dict[str, tuple[str, str]] = {}
    for band in d.bands:
        if band.ends is None:
            band.ends = {link.via: (link.a, link.b) for link in band.links if link.via}
        out.update(band.ends)
    return out


def _drop(
    comps: dict[str, Any], of: dict[str, tuple], bands: dict[tuple, BandLaid], hit: list[str], seen: dict[str, bool]
) -> bool:
    """Drop the bands holding the ids ``hit`` or one of their parents; whether one was found.
    A walk up stops at an id walked from before (``seen``: whether a band held it or one of
    its parents; a server deleted on the 16x site names 3,400 components, most of them seven
    levels down). (Not at the first id a band holds: an adapter moved to another server is
    held by its old band, its new parents by another.)"""
    found = False
    for h in hit:
        c: str | None = h
        path: list[tuple[str, bool]] = []
        got = False
        while c is not None:
            if (was := seen.get(c)) is not None:
                got = was
                break
            key = of.get(c)
            if key is not None:
                bands.pop(key, None)
            path.append((c, key is not None))
            comp = comps.get(c)
            c = comp.parent if comp is not None else None
        for p, held in reversed(path):
            got = got or held
            seen[p] = got
        found = found or got
    return found
