"""The topology canvas: a layered diagram of the design, coloured by utilization.

- :mod:`~widgets.canvas.items`: the graphics items (component boxes, links, the cable being drawn);
- :mod:`~widgets.canvas.scene`: :class:`DiagramScene`, the layout drawn as items, refreshed per
  model event (relabel or relayout) and painted with the current analysis;
- :mod:`~widgets.canvas.view`: :class:`DiagramView`, zoom, legend, context menu, event dispatch;
- :mod:`~widgets.canvas.tools`: one class per gesture (pan, cable, move, rubber band, collapse, drop).

The canvas emits intent; :class:`app.controller.Controller` turns it into commands.
"""

from widgets.canvas.items import BoxItem, LinkItem, util_color
from widgets.canvas.scene import DiagramScene
from widgets.canvas.tools import GRID
from widgets.canvas.view import DiagramView
from widgets.palette import PART_MIME

__all__ = [
    "GRID",
    "PART_MIME",
    "BoxItem",
    "DiagramScene",
    "DiagramView",
    "LinkItem",
    "util_color",
]
