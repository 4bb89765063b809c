"""Turn the canvas's items into those of a new layout, keeping the items that did not change.

After an edit that moves boxes (a subsystem deleted, a cable added, a group expanded) the scene
used to clear itself and make every item again: on the 16x site 1,151 boxes and 2,014 links,
0.2-0.3 s on the GUI thread, then every box repainted and the zoomed-out overview gathered from
nothing. :func:`morph` compares the layout shown with the new one instead: a box of the same
size, kind and container keeps its item (moved where the new layout puts it, relabelled if its
text changed), a link between two kept items keeps its item (its path redrawn if an end moved);
only the other boxes and links are made again, and only they and the boxes whose components
changed are repainted with the next analysis. The result is the scene a full rebuild would
make (``tests/widgets/test_canvas_morph.py`` compares the two after edits of every kind).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import shiboken6
from PySide6.QtCore import QRectF

from planner.layout import Box, Diagram
from widgets.canvas.items import BoxItem, LinkItem

if TYPE_CHECKING:
    from widgets.canvas.scene import DiagramScene

#: below this share of the new diagram's boxes kept, a rebuild is as quick (expand all)
KEEP_SHARE = 0.5


def heads(d: Diagram) -> dict[str, float]:
    """Container id -> the room above its first inner box (a box's title row)."""
    head: dict[str, float] = {}
    for box in d.boxes.values():
        if box.container is not None and box.container in d.boxes:
            top = box.y - d.boxes[box.container].y
            head[box.container] = min(head.get(box.container, top), top)
    return head


def depth_order(d: Diagram) -> list[Box]:
    """The boxes of ``d``, each container before the boxes inside it."""
    depth: dict[str, int] = {}

    def of(box: Box) -> int:
        n = depth.get(box.id)
        if n is None:
            up = d.boxes.get(box.container) if box.container else None
            n = depth[box.id] = 0 if up is None else of(up) + 1
        return n

    return sorted(d.boxes.values(), key=of)


def make_item(scene: DiagramScene, d: Diagram, box: Box, head: float | None) -> BoxItem:
    """A new item for ``box`` of ``d`` in ``scene``, inside its container's item (made before
    it), where the diagram places it."""
    up = d.boxes.get(box.container) if box.container else None
    parent = scene.items_by_id.get(up.id) if up is not None else None
    item = BoxItem(box, parent, head)
    if parent is None or up is None:
        item.setPos(box.x, box.y)
        scene.addItem(item)
    else:
        item.setPos(box.x - up.x, box.y - up.y)
    scene.items_by_id[box.id] = item
    return item


def _same_frame(old: Box, new: Box, old_head: float, new_head: float) -> bool:
    """Whether an item made for ``old`` draws ``new`` once moved and relabelled."""
    return (old.kind, old.w, old.h, old.container, old.collapsed, old.state, old.cells, old_head) == (
        new.kind,
        new.w,
        new.h,
        new.container,
        new.collapsed,
        new.state,
        new.cells,
        new_head,
    )


def _link_key(link: Any) -> tuple[str, str, str, str]:
    return (link.a, link.b, link.kind, link.via)


class Morph:
    """What :func:`morph` did: the boxes made or changed (to repaint), the links made again."""

    def __init__(self) -> None:
        self.made: list[str] = []  # boxes with a new item
        self.changed: list[str] = []  # kept items with another text
        self.moved: list[str] = []  # kept items now elsewhere (and the boxes inside them)
        self.removed: list[str] = []  # boxes no longer shown (or shown by a new item)
        self.made_links: list[LinkItem] = []
        self.stale_links: list[int] = []  # indices whose link is another item or was redrawn


def morph(scene: DiagramScene, d: Diagram) -> Morph | None:
    """Make ``scene``'s items those of ``d`` (see the module docstring); None, having changed
    nothing, when too few items would be kept to be worth it (the caller rebuilds)."""
    old = scene.diagram
    if old is None:
        return None
    if sum(cid in old.boxes for cid in d.boxes) < KEEP_SHARE * len(d.boxes):
        return None  # (at most those could be kept: no need to look closer)
    items, new_heads, old_heads = scene.items_by_id, heads(d), heads(old)
    order = depth_order(d)
    keep: dict[str, BoxItem] = {}
    for box in order:
        item, was = items.get(box.id), old.boxes.get(box.id)
        if item is None or was is None or (box.container is not None and box.container not in keep):
            continue
        if _same_frame(was, box, old_heads.get(box.id, was.h), new_heads.get(box.id, box.h)):
            keep[box.id] = item
    if len(keep) < KEEP_SHARE * len(d.boxes):
        return None
    done = Morph()
    _drop_boxes(scene, keep, done)
    shifted = _place_boxes(scene, d, order, keep, new_heads, done)
    old_links, scene.links = scene.links, _relink(scene, d, shifted, done)
    new = scene.links
    done.stale_links += [i for i, li in enumerate(new) if i >= len(old_links) or old_links[i] is not li]
    done.stale_links += range(len(new), len(old_links))
    scene.diagram = d
    scene.setSceneRect(QRectF(0, 0, d.width + 200, d.height + 200))
    return done


def _drop_boxes(scene: DiagramScene, keep: dict[str, BoxItem], done: Morph) -> None:
    """Take the items not kept out of the scene (an item's inner items go with it)."""
    for cid, item in list(scene.items_by_id.items()):
        if keep.get(cid) is item:
            continue
        done.removed.append(cid)
        del scene.items_by_id[cid]
        up = item.box.container
        if up is None or up in keep:  # not inside a box that goes too (which takes it along)
            shiboken6.delete(item)  # out of the scene with the items inside it, as clear() does


def _place_boxes(scene: DiagramScene, d: Diagram, order: list[Box], keep, new_heads, done: Morph) -> set[str]:
    """Move and relabel the kept items, make the others; returns the boxes whose place in the
    scene changed (moved, or inside a box that moved)."""
    shifted: set[str] = set()
    for box in order:
        up = d.boxes.get(box.container) if box.container else None
        item = keep.get(box.id)
        if item is None:
            make_item(scene, d, box, new_heads.get(box.id))
            done.made.append(box.id)
            continue
        x, y = (box.x, box.y) if up is None else (box.x - up.x, box.y - up.y)
        if (item.x(), item.y()) != (x, y):
            item.setPos(x, y)
            shifted.add(box.id)
        elif up is not None and up.id in shifted:
            shifted.add(box.id)
        if box.id in shifted:
            item.update()  # its device-cached picture was made at another fraction of a pixel
        if box.id in shifted or (item.box.x, item.box.y) != (box.x, box.y):
            done.moved.append(box.id)
        if (item.box.label, item.box.tip) != (box.label, box.tip):
            item.set_label(box)
            done.changed.append(box.id)
        item.box = box
    return shifted


def _relink(scene: DiagramScene, d: Diagram, shifted: set[str], done: Morph) -> list[LinkItem]:
    """The links of ``d``: the old item of a link between two kept items (its path redrawn if
    an end moved), a new item for the others."""
    spare: dict[tuple, list[LinkItem]] = {}
    for li in scene.links:
        li.layer = None  # the view's summary layer is cut again (see SummaryLayer.current)
        spare.setdefault(_link_key(li.link), []).append(li)
    items, links = scene.items_by_id, []
    for link in d.links:
        a, b = items.get(link.a), items.get(link.b)
        if a is None or b is None:
            continue
        same = spare.get(_link_key(link))
        li = same.pop() if same else None
        if li is not None and li.a is a and li.b is b:
            li.link = link
            if link.a in shifted or link.b in shifted:
                li.update_path(d.boxes[link.a], d.boxes[link.b])  # each item stands at its box now
                done.stale_links.append(len(links))
        else:
            li = LinkItem(link, a, b)  # (links are not in the scene: see LinkItem)
            done.made_links.append(li)
        links.append(li)
    return links
