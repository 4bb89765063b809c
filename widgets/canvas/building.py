"""The canvas's items made from nothing, a slice at a time.

A design opened, the theme changed or every group expanded at once makes every item again: on
the 16x site expanded, 44,864 boxes (2.8 s). :class:`ItemBuild` makes them in order (each
container before the boxes inside it), as many as fit in a slice; the scene
(:meth:`widgets.canvas.scene.DiagramScene._build_slice`) runs one slice per turn of the event
loop with its views held still, so the editor keeps answering, and shows the progress. The
links are made with the last slice; the analysis is painted once every item is there.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import TYPE_CHECKING

from planner.diagram_order import containers_first, heads
from planner.layout import Diagram
from widgets.canvas.items import LinkItem
from widgets.canvas.morph import CLOCK_EVERY, index_rect, make_item

if TYPE_CHECKING:
    from widgets.canvas.scene import DiagramScene


#: how many boxes are made between two looks at the clock (a box with its texts takes up to
#: 0.3 ms: 32 of them overshot a slice by 10 ms)
BOXES_EVERY = 4


class ItemBuild:
    """The items of diagram ``d`` being made in ``scene`` (see the module docstring)."""

    def __init__(self, scene: DiagramScene, d: Diagram) -> None:
        self.scene, self.d = scene, d
        self.ids = containers_first(d)
        self.head = heads(d)  # container -> room above its first inner box
        self.made = 0  # boxes made so far (ids[:made])
        self.linked = 0  # links of ``d`` looked at so far
        self.preparing: Iterator[None] | None = None  # what the views need (see DiagramScene)
        self.ready = False  # all made and prepared: the views are let paint on the next turn
        self.sized = False  # the scene's rectangle is the diagram's (see step)

    @property
    def total(self) -> int:
        return len(self.ids)

    def step(self, until: float | None) -> bool:
        """Make boxes, then links, until the clock passes ``until`` (None: all of them). True
        when every item is made."""
        scene, d, ids = self.scene, self.d, self.ids
        if not self.sized:
            self.sized = True
            index_rect(scene, d, build=True)
            if until is not None:  # (a slice of its own: Qt's tree of the scene made again for
                return False  # the new rectangle and depth, 2-6 ms on the 16x site)
        low, scale = scene.low_detail  # zoomed out: each box in summary mode as it is made
        while self.made < len(ids):
            box = d.boxes[ids[self.made]]  # as it is now (relabelled since the build began)
            self.made += 1
            item = make_item(scene, d, box, self.head.get(box.id))
            if low:
                item.set_low_detail(True, scale)
            if until is not None and self.made % BOXES_EVERY == 0 and time.perf_counter() >= until:
                return False
        items, links, boxes = scene.items_by_id, d.links, d.boxes
        while self.linked < len(links):  # (the 16x site expanded has 11,000: 140 ms)
            link = links[self.linked]
            self.linked += 1
            a, b = items.get(link.a), items.get(link.b)
            if a is not None and b is not None:  # (not in the scene: see LinkItem; made where their boxes are)
                scene.links.append(LinkItem(link, a, b, (boxes[link.a], boxes[link.b])))
            if until is not None and self.linked % CLOCK_EVERY == 0 and time.perf_counter() >= until:
                return False
        return True
