"""Parts palette: the catalog's parts grouped by kind, searchable, dragged onto the canvas.

A drag carries the part id as ``application/x-sanplan-part`` (UTF-8); the canvas decides where
the part goes. Double-click (or Enter) emits :attr:`PalettePanel.partActivated` so the main
window can add the part at a default place.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from PySide6.QtCore import QMimeData, Qt, Signal
from PySide6.QtGui import QFont
from PySide6.QtWidgets import QAbstractItemView, QLabel, QLineEdit, QTreeWidget, QTreeWidgetItem, QVBoxLayout, QWidget

from planner.schema import KINDS, kind_name, part_kinds

PART_MIME = "application/x-sanplan-part"

#: palette groups: the kinds a catalog part attaches to (planner.schema's order) and their headings
GROUPS: tuple[tuple[str, str], ...] = tuple(
    (k, KINDS[k].plural[:1].upper() + KINDS[k].plural[1:]) for k in part_kinds()
)

PART_ID_ROLE = Qt.ItemDataRole.UserRole
GROUP_KIND_ROLE = Qt.ItemDataRole.UserRole + 1

PartsProvider = Callable[[], Sequence[tuple[dict[str, Any], bool]]]


def part_mime_data(part_id: str) -> QMimeData:
    """The drag payload for one part: its id as UTF-8 under :data:`PART_MIME`."""
    mime = QMimeData()
    mime.setData(PART_MIME, part_id.encode("utf-8"))
    mime.setText(part_id)  # dropping into a text field gives the id
    return mime


def part_id_from_mime(mime: QMimeData) -> str | None:
    """The part id a drop carries, or None (for the canvas' drop handler)."""
    if not mime.hasFormat(PART_MIME):
        return None
    return bytes(mime.data(PART_MIME).data()).decode("utf-8") or None


def part_matches(part: dict[str, Any], text: str) -> bool:
    """True when ``text`` (case-insensitive) occurs in the part's id, name, vendor, feature code or kind."""
    needle = text.strip().lower()
    if not needle:
        return True
    hay = " ".join(str(part.get(k, "")) for k in ("id", "name", "vendor", "feature_code", "kind")).lower()
    return needle in hay


class PartTreeView(QTreeWidget):
    """The parts tree; part rows drag their id (group rows do not drag)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setColumnCount(2)
        self.setHeaderLabels(["Part", "Feature code"])
        self.setDragEnabled(True)
        self.setDragDropMode(QAbstractItemView.DragDropMode.DragOnly)
        self.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.setUniformRowHeights(True)
        self.setAlternatingRowColors(True)
        self.header().setStretchLastSection(False)
        self.header().setSectionResizeMode(0, self.header().ResizeMode.Stretch)
        self.header().setSectionResizeMode(1, self.header().ResizeMode.ResizeToContents)

    def mimeTypes(self) -> list[str]:
        return [PART_MIME, "text/plain"]

    def mimeData(self, items: Sequence[QTreeWidgetItem]) -> QMimeData | None:
        for item in items:
            pid = item.data(0, PART_ID_ROLE)
            if pid:
                return part_mime_data(pid)
        return None

    def supportedDropActions(self) -> Qt.DropAction:
        return Qt.DropAction.CopyAction


class PalettePanel(QWidget):
    """Catalog parts to drag onto the canvas.

    ``parts_provider()`` returns ``[(part dict, is_user)]`` (e.g. ``lambda: list(catalog.parts())``);
    call :meth:`refresh` after the catalog changes. Signals: ``partActivated(str part_id)``.
    """

    partActivated = Signal(str)

    def __init__(self, parts_provider: PartsProvider, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("PalettePanel")
        self._provider = parts_provider
        self._parts: list[tuple[dict[str, Any], bool]] = []

        lay = QVBoxLayout(self)
        lay.setContentsMargins(4, 4, 4, 4)
        self.search = QLineEdit()
        self.search.setPlaceholderText("Search parts: name, feature code, vendor")
        self.search.setClearButtonEnabled(True)
        self.search.setToolTip("Show only parts whose name, id, vendor or feature code contains this text")
        self.search.textChanged.connect(self._fill)
        lay.addWidget(self.search)
        self.tree = PartTreeView()
        self.tree.setToolTip("Drag a part onto the canvas, or double-click it to add it")
        self.tree.itemActivated.connect(self._activated)
        lay.addWidget(self.tree, 1)
        self.empty = QLabel()
        self.empty.setWordWrap(True)
        self.empty.setEnabled(False)
        self.empty.hide()
        lay.addWidget(self.empty)
        self.refresh()

    # -- public ---------------------------------------------------------------------------
    def refresh(self) -> None:
        """Read the parts again (after the catalog changed); keeps the search text."""
        self._parts = list(self._provider())
        self._fill()

    def set_filter(self, text: str) -> None:
        self.search.setText(text)

    def visible_part_ids(self) -> list[str]:
        """Ids of the parts shown, in tree order."""
        out = []
        for g in range(self.tree.topLevelItemCount()):
            group = self.tree.topLevelItem(g)
            if group.isHidden():
                continue
            out += [group.child(i).data(0, PART_ID_ROLE) for i in range(group.childCount())]
        return out

    def item_for(self, part_id: str) -> QTreeWidgetItem | None:
        for g in range(self.tree.topLevelItemCount()):
            group = self.tree.topLevelItem(g)
            for i in range(group.childCount()):
                if group.child(i).data(0, PART_ID_ROLE) == part_id:
                    return group.child(i)
        return None

    # -- internals ------------------------------------------------------------------------
    def _fill(self, *_args: object) -> None:
        text = self.search.text()
        current = self.tree.currentItem()
        keep = current.data(0, PART_ID_ROLE) if current is not None else None
        collapsed = {
            self.tree.topLevelItem(i).data(0, GROUP_KIND_ROLE)
            for i in range(self.tree.topLevelItemCount())
            if not self.tree.topLevelItem(i).isExpanded()
        }
        self.tree.clear()
        known = {kind for kind, _ in GROUPS}
        other = sorted({str(p.get("kind", "")) for p, _ in self._parts} - known)
        groups = list(GROUPS) + [(k, kind_name(k).capitalize()) for k in other]
        shown = 0
        for kind, title in groups:
            members = sorted(
                ((p, user) for p, user in self._parts if p.get("kind") == kind and part_matches(p, text)),
                key=lambda pu: (pu[1], str(pu[0].get("name", pu[0].get("id", ""))).lower()),
            )
            if not members:
                continue
            group = QTreeWidgetItem([f"{title} ({len(members)})", ""])
            group.setData(0, GROUP_KIND_ROLE, kind)
            group.setFlags(Qt.ItemFlag.ItemIsEnabled)
            font = QFont(group.font(0))
            font.setBold(True)
            group.setFont(0, font)
            for col in (0, 1):
                group.setToolTip(col, group_tooltip(kind, title))
            self.tree.addTopLevelItem(group)
            for part, user in members:
                item = QTreeWidgetItem([str(part.get("name") or part["id"]), str(part.get("feature_code", ""))])
                item.setData(0, PART_ID_ROLE, part["id"])
                item.setFlags(Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable | Qt.ItemFlag.ItemIsDragEnabled)
                item.setToolTip(0, _tooltip(part, user))
                item.setToolTip(1, _tooltip(part, user))
                if user:
                    f = QFont(item.font(0))
                    f.setItalic(True)
                    item.setFont(0, f)
                group.addChild(item)
                shown += 1
                if part["id"] == keep:
                    self.tree.setCurrentItem(item)
            group.setExpanded(kind not in collapsed or bool(text))
        self.empty.setVisible(shown == 0)
        if shown == 0:
            self.empty.setText(f"No part matches \u201c{text}\u201d." if text else "The catalog has no parts.")

    def _activated(self, item: QTreeWidgetItem, _column: int) -> None:
        pid = item.data(0, PART_ID_ROLE)
        if pid:
            self.partActivated.emit(pid)


def group_tooltip(kind: str, title: str) -> str:
    """What a group of the palette holds and where its parts go ('drop onto a slot')."""
    spec = KINDS.get(kind)
    parents = [p for p in (spec.parents if spec else ()) if p]
    where = (
        "drop one onto an empty part of the canvas"
        if spec is None or spec.root
        else f"drop one onto a {' or '.join(kind_name(p) for p in parents)}"
    )
    return f"{title}: {where}, or double-click it; hover a part for its id and feature code"


def _tooltip(part: dict[str, Any], user: bool) -> str:
    lines = [str(part.get("name") or part["id"]), f"id {part['id']}"]
    if part.get("vendor"):
        lines.append(f"vendor {part['vendor']}")
    if part.get("feature_code"):
        lines.append(f"feature code {part['feature_code']}")
    lines.append("your part" if user else "built-in part")
    lines.append("Drag onto the canvas, or double-click to add.")
    return "\n".join(lines)
