"""Orders of a laid-out diagram that drawing it needs, worked out once per diagram.

The canvas makes a box's item inside its container's item, so it makes them containers first
(:func:`containers_first`), and sizes a container's title row by the room above its first
inner box (:func:`heads`). On the 16x site expanded (44,864 boxes) the two took 60 ms; the
analysis lane works them out with the layout, and the canvas finds them kept on the diagram.
"""

from __future__ import annotations

import weakref

from planner.layout import Box, Diagram
from planner.layout_keep import BandLaid


def containers_first(d: Diagram) -> list[str]:
    """The ids of ``d``'s boxes, each container before the boxes inside it (by depth)."""
    kept = d.orders.get("containers_first") if d.orders is not None else None
    if kept is not None:
        return kept
    if d.bands:  # (a box's container is in its band: each band's depths worked out once, kept with it)
        levels = [_levels(band) for band in d.bands]
        order = [cid for n in range(max(map(len, levels), default=0)) for lv in levels if n < len(lv) for cid in lv[n]]
    else:
        order = [cid for level in _by_depth(d.boxes) for cid in level]
    _keep(d, "containers_first", order)
    return order


def _levels(band: BandLaid) -> list[list[str]]:
    if band.levels is None:
        band.levels = _by_depth(band.boxes)
    return band.levels


def _by_depth(boxes: dict[str, Box]) -> list[list[str]]:
    """The ids of ``boxes`` by their depth in containers (in the boxes' order within a depth,
    as a stable sort by depth: 44,864 sorted took 8 ms)."""
    depth: dict[str, int] = {}
    for cid, box in boxes.items():  # (most are top-level: depth 0 without a walk)
        if cid in depth:
            continue
        if box.container is None or box.container not in boxes:
            depth[cid] = 0
            continue
        chain = []
        at: str | None = cid
        while at is not None and at not in depth:
            chain.append(at)
            box = boxes.get(at)
            at = box.container if box is not None and box.container in boxes else None
        n = depth[at] if at is not None else -1
        for c in reversed(chain):
            n += 1
            depth[c] = n
    by_depth: list[list[str]] = [[] for _ in range(max(depth.values(), default=-1) + 1)]
    for cid in boxes:
        by_depth[depth[cid]].append(cid)
    return by_depth


def heads(d: Diagram) -> dict[str, float]:
    """Container id -> the room above its first inner box (a box's title row)."""
    kept = d.orders.get("heads") if d.orders is not None else None
    if kept is not None:
        return kept
    if d.bands:
        head: dict[str, float] = {}
        for band in d.bands:
            if band.heads is None:
                band.heads = _heads(band.boxes)
            head.update(band.heads)
    else:
        head = _heads(d.boxes)
    _keep(d, "heads", head)
    return head


def _heads(boxes: dict[str, Box]) -> dict[str, float]:
    head: dict[str, float] = {}
    for box in boxes.values():
        up = boxes.get(box.container) if box.container is not None else None
        if up is not None:
            top = box.y - up.y
            head[box.container] = min(head.get(box.container, top), top)  # type: ignore[index]
    return head


def kept_frames(old: Diagram, new: Diagram) -> set[str]:
    """The boxes of ``new`` whose canvas items made for ``old`` can show them once moved and
    relabelled (the same kind, size, container, fold, state, cells and title row: the room
    above its first inner box, :func:`heads`), each inside a container kept too: what a canvas showing ``old`` keeps
    when it turns to ``new`` (:func:`widgets.canvas.morph.morph`). The analysis lane works it
    out with the layout: on the 16x site expanded, 44,864 boxes compared on the GUI thread
    blocked it 50-65 ms after every edit that moved boxes."""
    return kept_and_changed(old, new)[0]


def kept_and_changed(old: Diagram, new: Diagram) -> tuple[set[str], list[str]]:
    """:func:`kept_frames`, and the boxes of ``new`` a canvas showing ``old`` has to touch,
    containers first: those not kept and those kept elsewhere or with another text (label or
    tip). The rest are where they were, as they were: a morph only hands them their new boxes
    (a server of the 16x site expanded deleted: 112 of the 44,503 boxes left changed, where a
    morph placed every box again). A band of ``new`` laid out for ``old`` too (the same
    :class:`planner.layout_keep.BandLaid`: the very boxes) is kept whole, unchanged; the
    others' boxes come containers first band by band."""
    old_boxes, new_boxes, old_heads, new_heads = old.boxes, new.boxes, heads(old), heads(new)
    order, kept = _to_compare(old, new)
    changed: list[str] = []
    for cid in order:  # (the frame compared inline: 44,864 boxes a site expanded)
        box, was = new_boxes[cid], old_boxes.get(cid)
        up = box.container
        if was is None or (up is not None and up not in kept):
            changed.append(cid)
        elif (
            was.w == box.w
            and was.h == box.h
            and was.kind == box.kind
            and was.container == up
            and was.collapsed == box.collapsed
            and was.state == box.state
            and was.cells == box.cells
            and old_heads.get(cid, was.h) == new_heads.get(cid, box.h)
        ):
            kept.add(cid)
            if was.x != box.x or was.y != box.y or was.label != box.label or was.tip != box.tip:
                changed.append(cid)
        else:
            changed.append(cid)
    return kept, changed


def shared_bands(old: Diagram, new: Diagram) -> list[BandLaid]:
    """The bands ``new`` shares with ``old`` (each box the same in both)."""
    if not old.bands or not new.bands:
        return []
    was = set(map(id, old.bands))
    return [band for band in new.bands if id(band) in was]


def _to_compare(old: Diagram, new: Diagram) -> tuple[list[str], set[str]]:
    """The boxes of ``new`` :func:`kept_and_changed` compares, containers first, and those of
    the bands shared with ``old`` (kept)."""
    shared = shared_bands(old, new)
    if not shared:
        return containers_first(new), set()
    same = set(map(id, shared))
    order = [cid for band in new.bands if id(band) not in same for level in _levels(band) for cid in level]  # type: ignore[union-attr]
    return order, set(_boxes_of(shared))


#: the box ids of the bands shared last time (weak references to the bands, their ids): the
#: next edit in the same band shares the same others (a set copied whole, 0.7 ms, where
#: gathering the 16x site's 42,000 took 1.7 ms each edit)
_SHARED_LAST: list[tuple[tuple[weakref.ref, ...], frozenset[str]]] = []


def _boxes_of(bands: list[BandLaid]) -> frozenset[str]:
    """The ids of the boxes of ``bands``."""
    last = _SHARED_LAST[-1] if _SHARED_LAST else None
    if last is not None and len(last[0]) == len(bands) and all(r() is b for r, b in zip(last[0], bands)):
        return last[1]
    got = frozenset().union(*(band.boxes for band in bands))
    _SHARED_LAST[:] = [(tuple(map(weakref.ref, bands)), got)]  # (not holding a design closed since)
    return got


def _keep(d: Diagram, name: str, value: object) -> None:
    if d.orders is None:
        d.orders = {}
    d.orders[name] = value
