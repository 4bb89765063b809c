"""The items a morph dropped, kept for the next morph (:class:`Spare`).

A server deleted on the 16x site expanded drops its 361 items; its undo made them again (4.7 ms
of the undo's morph), and the delete's morph deleted them (1.4 ms). The items dropped stay
whole (each inner item inside its container's, out of the scene) until the next morph ends:
a box it shows again exactly as the dropped item shows it takes that item back, with the items
inside it; what it does not take back is freed in the canvas's idle slices (the grave).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from planner.layout import Box
    from widgets.canvas.items import BoxItem, LinkItem

#: a morph that drops more items than this frees them (a fold of thousands of boxes: keeping
#: them would hold their memory for a morph that rarely shows them again)
SPARE_AT_MOST = 5_000


class Spare:
    """``items``: the items a morph dropped by box id (those taken out of the scene, the
    ``roots``, and the items inside them, still inside them)."""

    def __init__(self, items: dict[str, BoxItem], roots: list[BoxItem]) -> None:
        self.items = items
        self.roots = roots
        self.dropped = dict(items)  # (each item's container's item, in Python: no Qt call a box)
        self.alone = {id(r) for r in roots}  # those out of the scene, inside no item dropped
        #: the link items the morph dropped at the items it dropped, by what they join (see keep_links)
        self.links: dict[tuple, list[LinkItem]] = {}

    def take(self, scene: Any, box: Box, up: Box | None, head: float | None) -> BoxItem | None:
        """The dropped item of ``box`` (inside the box ``up``, whose item the scene has), back
        in the scene when a new one would be made the same: the same box and room for its
        inner boxes, inside the item of ``up`` (an inner item comes back inside its container
        taken back), neither selected nor lit nor marking a port, its detail that of the scene
        (or far out: set on the way back). None otherwise."""
        old = self.items.pop(box.id, None)
        if old is None:
            return None
        parent = scene.items_by_id.get(up.id) if up is not None else None
        alone = id(old) in self.alone
        same = (
            old.box == box
            and old.head == (box.h if head is None else head)
            and (alone or (parent is not None and self.dropped.get(old.box.container) is parent))
            and not old.highlighted
            and not old.port_state
            and old.bind_shown
            and (scene.far or (old.low == scene.low_detail[0] and not old.asleep))
            and not old.isSelected()
        )
        if not same:
            if old.scene() is not None:  # (inside an item taken back: out with it, freed at the end)
                scene.removeItem(old)
                self.roots.append(old)
            return None
        if alone:  # (its container stayed, or it has none)
            if parent is None:
                old.setPos(box.x, box.y)
                scene.addItem(old)  # (with the items inside it)
            else:
                old.at = (box.x - up.x, box.y - up.y)  # type: ignore[union-attr]
                old.setParentItem(parent)
                old.setPos(*old.at)
        scene.items_by_id[box.id] = old
        if old.asleep:  # (its texts made when idle, as a new one's: see Morphing.wake_later)
            scene.wake_later(old)
        return old

    def keep_links(self, gone: list[LinkItem], key: Callable[[Any], tuple]) -> None:
        """Keep the link items of ``gone`` (those the morph dropped) at an item it dropped, by
        ``key`` of their links (a server undone made its 700 again: 1.4 ms)."""
        dropped = self.dropped
        for li in gone:
            if not li.highlighted and (dropped.get(li.a.cid) is li.a or dropped.get(li.b.cid) is li.b):
                self.links.setdefault(key(li.link), []).append(li)

    def take_link(self, key: tuple, a: BoxItem, b: BoxItem) -> LinkItem | None:
        """A link item kept for a link of ``key`` between the items ``a`` and ``b``, or None."""
        kept = self.links.get(key)
        if kept:
            for i, li in enumerate(kept):
                if li.a is a and li.b is b:
                    return kept.pop(i)
        return None

    def free_rest(self, scene: Any) -> None:
        """The items not taken back go to the scene's grave: those inside an item taken back
        (out of the scene first) and the dropped ones not taken back."""
        for old in self.items.values():
            if old.scene() is not None:
                scene.removeItem(old)
                self.roots.append(old)
        self.items = {}
        scene._grave.bury_items([r for r in self.roots if r.scene() is None])
        self.roots = []
