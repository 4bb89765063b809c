"""What the canvas tools ask the scene: the box or port under the mouse, the HBA in a slot row,
the port a cable drawn from a box attaches to, the bounds of some components' boxes.

A mixin of :class:`widgets.canvas.scene.DiagramScene`, which provides ``diagram``, ``doc``,
``items_by_id``, ``links``, ``_ports`` (box id -> its ports, made on demand) and the
``QGraphicsScene`` methods."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from PySide6.QtCore import QPointF, QRectF

from planner.schema import KINDS, PORT_KINDS
from widgets.canvas.items import BoxItem


class ToolLookups:
    """Lookups for the tools (see the module docstring)."""

    diagram: Any
    doc: Any
    items_by_id: dict[str, BoxItem]
    links: list
    _ports: dict[str, list[str]] | None
    finish_morph: Any  # (see widgets.canvas.morph.Morphing)

    def top_selected(self) -> list[BoxItem]:
        return [i for i in self.selectedItems() if isinstance(i, BoxItem) and i.parentItem() is None]

    def refresh_links(self, items: list[BoxItem]) -> None:
        self.finish_morph()
        moved = set(items)
        for li in self.links:
            if li.a.topLevelItem() in moved or li.b.topLevelItem() in moved:
                li.update_path()

    def port_of(self, box_id: str) -> str | None:
        """The port a cable drawn from this box attaches to: the box's own port, or the first port
        it shows (an HBA shows its ports, and its slot row stands for them); None for a
        collapsed group or a box without one."""
        if self._ports is None:
            self._ports = {}
            d, topo = self.diagram, self.doc.topology
            for kind in PORT_KINDS:
                for port in topo.of_kind(kind) if d is not None else ():
                    box = d.boxes.get(d.visible(port.id) or "")
                    if box is None or box.collapsed:
                        continue
                    self._ports.setdefault(box.id, []).append(port.id)
                    if box.container is not None and KINDS[box.kind].part_kind:  # a slot row: its HBA's port
                        self._ports.setdefault(box.container, []).append(port.id)
        ports = self._ports.get(box_id)
        return ports[0] if ports else None

    def hba_item(self, item: BoxItem) -> BoxItem | None:
        """The HBA an item shows: the HBA box itself, or the one in a slot row."""
        if item.kind == "hba":
            return item
        if item.kind == "slot":
            return next((c for c in item.childItems() if isinstance(c, BoxItem) and c.kind == "hba"), None)
        return None

    def slot_item(self, item: BoxItem) -> BoxItem | None:
        """The slot row an item is, or lies in (an HBA box)."""
        while item is not None and item.kind != "slot":
            parent = item.parentItem()
            item = parent if isinstance(parent, BoxItem) else None
        return item

    def is_free_slot(self, item: BoxItem) -> bool:
        return item.kind == "slot" and self.hba_item(item) is None

    def select_only(self, item: BoxItem) -> None:
        """Select just ``item`` (a click)."""
        self.clearSelection()
        item.setSelected(True)

    def port_at(self, pos: QPointF) -> BoxItem | None:
        """The box under ``pos`` that a cable can start or end at."""
        for it in self.items(pos):
            if self._shown_box(it) and self.port_of(it.cid) is not None:
                return it
        return None

    def box_at(self, pos: QPointF) -> BoxItem | None:
        for it in self.items(pos):
            if self._shown_box(it):
                return it
        return None

    def _shown_box(self, it: Any) -> bool:
        """Whether ``it`` is a box of the diagram shown (not one of before, not yet deleted)."""
        return isinstance(it, BoxItem) and self.items_by_id.get(it.cid) is it

    def focus_items(self, ids: Iterable[str]) -> QRectF:
        rect = QRectF()
        d = self.diagram
        for cid in ids:
            v = d.visible(cid) if d else None
            item = self.items_by_id.get(v or "")
            if item is not None:
                rect = rect.united(item.sceneBoundingRect())
        return rect
