"""Catalog browser: every part with every figure and its source; the user's own parts edited here.

Built-in parts are read-only (their figures are the papers'); "Duplicate as user part" copies one
under a new id to change it. The part editor checks a part with
:func:`catalogs.catalog.validate_part` and saves it with ``add_user_part`` / ``update_user_part``;
a refused part shows the reason in red and keeps everything typed.
"""

from __future__ import annotations

import copy
import html
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QFont, QKeySequence
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QMessageBox,
    QPushButton,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QTextBrowser,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from catalogs.catalog import Catalog, CatalogError, validate_part
from planner.analysis import FIGURES_READ
from planner.figures import FIGURE_SETS
from planner.schema import kind_name, part_kinds
from widgets.inspector import error_label

PART_ID_ROLE = Qt.ItemDataRole.UserRole
ENTRY_ROLE = Qt.ItemDataRole.UserRole + 1

#: display labels of part properties (per property, not per kind)
PROPERTY_LABELS = {
    "cache_mb": "Cache (MB)",
    "raid_levels": "RAID levels",
    "segment_kb": "Segment sizes (KB)",
    "drive_bays": "Drive bays",
    "max_drives_per_array": "Max drives per array",
    "speed_gbps": "Speed (Gbps)",
    "capacity_gb": "Capacity (GB)",
    "eia": "Height (EIA units)",
    "asics": "ASIC port groups",
    "host_ports_per_controller": "Host ports per controller",
    "multipath": "Multipath drivers",
}
KIND_ORDER = part_kinds()  # planner.schema: the kinds a catalog part attaches to
_BASE_KEYS = ("id", "kind", "name", "vendor", "feature_code")
_TABLE_KEYS = ("figures", "layouts", "slot_map")


def part_html(part: dict[str, Any], user: bool) -> str:
    """A part as escaped HTML: properties, every figure in every set with source and notes,
    the layout table and slot map when present."""
    out = [f"<h3>{html.escape(str(part.get('name') or part.get('id')))}</h3>"]
    out += _properties_html(part, user)
    out += _figures_html(part.get("figures") or {})
    out += _layouts_html(part.get("layouts") or [])
    out += _slot_map_html(part.get("slot_map") or [])
    return "".join(out)


def _properties_html(part: dict[str, Any], user: bool) -> list[str]:
    """The table of a part's base keys, origin and other properties (empty values left out)."""
    esc = html.escape
    origin = "your part (editable)" if user else "built-in (read-only; duplicate it to change figures)"
    rows = [
        ("Id", part.get("id")),
        ("Kind", part.get("kind")),
        ("Vendor", part.get("vendor")),
        ("Feature code", part.get("feature_code")),
        ("Origin", origin),
    ]
    rows += [
        (PROPERTY_LABELS.get(k, k.replace("_", " ").capitalize()), v)
        for k, v in part.items()
        if k not in _BASE_KEYS and k not in _TABLE_KEYS
    ]
    out = ["<table cellspacing='0' cellpadding='2'>"]
    for k, v in rows:
        if v in (None, ""):
            continue
        out.append(f"<tr><td><b>{esc(k)}</b></td><td>{esc(_property_text(v))}</td></tr>")
    out.append("</table>")
    return out


def _figures_html(figures: dict[str, Any]) -> list[str]:
    """The figures table (known sets first, in FIGURE_SETS order), or a note that there are none."""
    if not figures:
        return ["<p><i>No figures: the analysis does not limit bandwidth at this part.</i></p>"]
    out = [
        "<h4>Figures (MB/s)</h4><table border='1' cellspacing='0' cellpadding='3'>"
        "<tr><th>Figure</th><th>Set</th><th>Read</th><th>Write</th><th>Source</th><th>Notes</th></tr>"
    ]
    for fname, sets in figures.items():
        for set_name in [s for s in FIGURE_SETS if s in sets] + [s for s in sets if s not in FIGURE_SETS]:
            out.append(_figure_row_html(fname, set_name, sets[set_name]))
    out.append("</table>")
    return out


def _figure_row_html(fname: str, set_name: str, entry: dict[str, Any]) -> str:
    """One figure-set row: read, write, source and notes (estimate, reuse, note, same both ways)."""
    esc = html.escape
    read = entry.get("read", entry.get("value", ""))
    write = entry.get("write", entry.get("value", ""))
    notes = []
    if entry.get("estimate"):
        notes.append("<b>estimate</b>")
    if entry.get("reuses"):
        notes.append(f"reuses the {esc(str(entry['reuses']))} figure")
    if entry.get("note"):
        notes.append(esc(str(entry["note"])))
    if "value" in entry:
        notes.append("same both ways")
    return (
        f"<tr><td>{esc(str(fname))}</td><td>{esc(str(set_name))}</td>"
        f"<td align='right'>{esc(str(read))}</td><td align='right'>{esc(str(write))}</td>"
        f"<td>{esc(str(entry.get('source', '')))}</td><td>{'; '.join(notes)}</td></tr>"
    )


def _layouts_html(layouts: list[dict[str, Any]]) -> list[str]:
    """The throughput-by-array-layout table, or nothing when the part has no layouts."""
    if not layouts:
        return []
    out = [
        "<h4>Throughput by array layout (whole subsystem)</h4><table border='1' cellspacing='0' cellpadding='3'>"
        "<tr><th>RAID</th><th>Data drives</th><th>Segment KB</th><th>Read</th><th>Write</th><th>Source</th></tr>"
    ]
    for r in layouts:
        out.append(
            "<tr>"
            + "".join(
                f"<td>{html.escape(str(r.get(k, '')))}</td>"
                for k in ("raid_level", "data_drives", "segment_kb", "read", "write", "source")
            )
            + "</tr>"
        )
    out.append("</table>")
    return out


def _slot_map_html(slot_map: list[dict[str, Any]]) -> list[str]:
    """The slot map table (planar, link, PHB, drawer PHB, slots), or nothing when there is none."""
    if not slot_map:
        return []
    esc = html.escape
    out = [
        "<h4>Slot map</h4><table border='1' cellspacing='0' cellpadding='3'>"
        "<tr><th>Planar</th><th>Link</th><th>PHB</th><th>Drawer PHB</th><th>Slots</th></tr>"
    ]
    for r in slot_map:
        out.append(
            f"<tr><td>{esc(str(r.get('planar')))}</td><td>link{esc(str(r.get('link')))}</td>"
            f"<td>PHB{esc(str(r.get('phb')))}</td><td>PHB{esc(str(r.get('drawer_phb')))}</td>"
            f"<td>{esc(', '.join(str(s) for s in r.get('slots', [])))}</td></tr>"
        )
    out.append("</table>")
    return out


def _property_text(value: Any) -> str:
    """A part property as text; lists of port numbers become ranges ("0-7; 8-15")."""
    if isinstance(value, list) and value and all(isinstance(v, list) for v in value):
        return "; ".join(_property_text(v) for v in value)
    if isinstance(value, list):
        if len(value) > 2 and all(isinstance(v, int) for v in value) and value == list(range(value[0], value[-1] + 1)):
            return f"{value[0]}-{value[-1]}"
        return ", ".join(str(v) for v in value)
    return str(value)


def _number_or_text(text: str) -> Any:
    """A typed figure: a number when it reads as one, else the text (validate_part names it)."""
    try:
        value = float(text)
    except ValueError:
        return text
    return int(value) if value.is_integer() else value


class PartEditorDialog(QDialog):
    """Add or edit one user part: id, kind, name, vendor, feature code and the figures.

    ``save(part)`` stores the part and raises CatalogError to refuse it; the dialog then shows
    the reason in red and stays open with everything typed. Keys the form does not show (slot
    map, layouts, ports...) are kept from ``part``.
    """

    COLUMNS = ("Figure", "Set", "Read MB/s", "Write MB/s", "Source")

    def __init__(
        self,
        part: dict[str, Any] | None,
        save: Callable[[dict[str, Any]], None],
        editing: bool = False,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("PartEditorDialog")
        self.setWindowTitle("Edit user part" if editing else "Add user part")
        self._save = save
        self.original = copy.deepcopy(part or {})
        self.saved: dict[str, Any] | None = None

        lay = QVBoxLayout(self)
        lay.addLayout(self._build_form(editing))
        self._build_figure_table(lay)
        lay.addLayout(self._build_figure_buttons())
        self._build_notes(lay)
        self._build_footer(lay)
        self.resize(760, 480)

    def _build_form(self, editing: bool) -> QFormLayout:
        """The id, kind, name, vendor and feature code fields, filled from the original part."""
        form = QFormLayout()
        self.id_edit = QLineEdit(str(self.original.get("id", "")))
        self.id_edit.setToolTip(
            "A short unique id; designs name the part by it"
            + (" (cannot change; duplicate instead)" if editing else "")
        )
        self.id_edit.setReadOnly(editing)
        self.kind_combo = QComboBox()
        for k in KIND_ORDER:
            self.kind_combo.addItem(kind_name(k), k)
        self.kind_combo.setToolTip("What kind of component the part is")
        kind = self.original.get("kind", "hba")
        self.kind_combo.setCurrentIndex(max(self.kind_combo.findData(kind), 0))
        self.name_edit = QLineEdit(str(self.original.get("name", "")))
        self.name_edit.setToolTip("The name shown in the palette and build sheets")
        self.vendor_edit = QLineEdit(str(self.original.get("vendor", "")))
        self.vendor_edit.setToolTip("Manufacturer")
        self.fc_edit = QLineEdit(str(self.original.get("feature_code", "")))
        self.fc_edit.setToolTip("Feature code or machine type, as on the order")
        form.addRow("&Id:", self.id_edit)
        form.addRow("&Kind:", self.kind_combo)
        form.addRow("&Name:", self.name_edit)
        form.addRow("&Vendor:", self.vendor_edit)
        form.addRow("&Feature code:", self.fc_edit)
        return form

    def _build_figure_table(self, lay: QVBoxLayout) -> None:
        """The figures table with its column tips, one row per figure and set of the original."""
        lay.addWidget(QLabel("Figures (MB/s): one row per figure and set; every figure needs a source."))
        self.table = QTableWidget(0, len(self.COLUMNS))
        self.table.setHorizontalHeaderLabels(list(self.COLUMNS))
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        self.table.horizontalHeader().setStretchLastSection(True)
        self.table.verticalHeader().hide()
        tips = (
            "The figure's name, e.g. hba, phb, backplane",
            "rated (vendor), measured (a test), planning (rule of thumb)",
            "MB/s read (or both ways when Write is empty)",
            "MB/s write; empty: same as Read",
            "Where the figure comes from (paper and section, test, or 'estimate')",
        )
        for col, tip in enumerate(tips):
            self.table.horizontalHeaderItem(col).setToolTip(tip)
        lay.addWidget(self.table, 1)
        for fname, sets in (self.original.get("figures") or {}).items():
            for set_name in sorted(sets, key=lambda n: FIGURE_SETS.index(n) if n in FIGURE_SETS else 9):
                self.add_figure_row(fname, set_name, sets[set_name])
        if self.table.rowCount() == 0:
            self.add_figure_row(self._first_figure_name(), "planning", {})

    def _build_figure_buttons(self) -> QHBoxLayout:
        """The "Add figure" and "Remove figure" buttons."""
        row = QHBoxLayout()
        add = QPushButton("Add figure")
        add.setToolTip("Add a row for another figure or figure set")
        add.clicked.connect(lambda: self.add_figure_row(self._first_figure_name(), "planning", {}))
        remove = QPushButton("Remove figure")
        remove.setToolTip("Remove the selected figure rows")
        remove.clicked.connect(self._remove_rows)
        row.addWidget(add)
        row.addWidget(remove)
        row.addStretch(1)
        return row

    def _build_notes(self, lay: QVBoxLayout) -> None:
        """The hint naming the figures the analysis reads, and the note on keys kept unchanged."""
        self.hint = QLabel()
        self.hint.setWordWrap(True)
        self.hint.setEnabled(False)
        lay.addWidget(self.hint)
        self.kind_combo.currentIndexChanged.connect(self._update_hint)
        self._update_hint()
        kept = [k for k in self.original if k not in _BASE_KEYS and k != "figures"]
        if kept:
            note = QLabel("Kept unchanged from the original: " + ", ".join(k.replace("_", " ") for k in kept) + ".")
            note.setWordWrap(True)
            note.setEnabled(False)
            note.setToolTip("These properties are not edited here; they are saved with the part as they are")
            lay.addWidget(note)

    def _build_footer(self, lay: QVBoxLayout) -> None:
        """The error label (hidden until a refusal) and the Save / Cancel buttons."""
        self.error = error_label()
        lay.addWidget(self.error)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel)
        self.buttons.accepted.connect(self.try_save)
        self.buttons.rejected.connect(self.reject)
        lay.addWidget(self.buttons)

    @property
    def save_button(self) -> QPushButton:
        return self.buttons.button(QDialogButtonBox.StandardButton.Save)

    def _first_figure_name(self) -> str:
        names = FIGURES_READ.get(self.kind_combo.currentData(), ())
        return names[0] if names else ""

    def _update_hint(self) -> None:
        kind = self.kind_combo.currentData()
        names = FIGURES_READ.get(kind, ())
        self.hint.setText(
            f"The analysis reads these figures of a {kind}: {', '.join(names)}."
            if names
            else f"The analysis reads no figures of a {kind}."
        )

    def add_figure_row(self, fname: str, set_name: str, entry: dict[str, Any]) -> int:
        r = self.table.rowCount()
        self.table.insertRow(r)
        name_item = QTableWidgetItem(str(fname))
        name_item.setData(ENTRY_ROLE, copy.deepcopy(entry))
        self.table.setItem(r, 0, name_item)
        combo = QComboBox()
        combo.addItems(list(FIGURE_SETS))
        combo.setCurrentIndex(max(combo.findText(set_name), 0))
        combo.setToolTip("rated, measured or planning")
        self.table.setCellWidget(r, 1, combo)
        read = entry.get("read", entry.get("value", ""))
        write = entry.get("write", "")
        self.table.setItem(r, 2, QTableWidgetItem(str(read)))
        self.table.setItem(r, 3, QTableWidgetItem(str(write)))
        self.table.setItem(r, 4, QTableWidgetItem(str(entry.get("source", ""))))
        return r

    def set_cell(self, row: int, column: int, text: str) -> None:
        """Type into a cell (Set: choose the set)."""
        if column == 1:
            combo: QComboBox = self.table.cellWidget(row, 1)  # type: ignore[assignment]
            combo.setCurrentIndex(combo.findText(text))
        else:
            self.table.item(row, column).setText(text)

    def _remove_rows(self) -> None:
        for r in sorted({i.row() for i in self.table.selectedIndexes()}, reverse=True):
            self.table.removeRow(r)

    def _text(self, r: int, c: int) -> str:
        item = self.table.item(r, c)
        return item.text().strip() if item is not None else ""

    def build_part(self) -> dict[str, Any]:
        """The part as the form says; raises CatalogError for a problem the form itself sees."""
        part = {k: v for k, v in self.original.items() if k not in _BASE_KEYS and k != "figures"}
        part.update(
            id=self.id_edit.text().strip(),
            kind=self.kind_combo.currentData(),
            name=self.name_edit.text().strip(),
            vendor=self.vendor_edit.text().strip(),
            feature_code=self.fc_edit.text().strip(),
        )
        figures: dict[str, dict[str, Any]] = {}
        for r in range(self.table.rowCount()):
            fname, read, write, source = self._text(r, 0), self._text(r, 2), self._text(r, 3), self._text(r, 4)
            set_name = self.table.cellWidget(r, 1).currentText()
            if not (read or write or source):
                continue  # an empty row
            if not fname:
                raise CatalogError(f"figure row {r + 1} has no figure name")
            if set_name in figures.get(fname, {}):
                raise CatalogError(f"figure {fname}.{set_name} appears twice; keep one row")
            entry = {
                k: v
                for k, v in (self.table.item(r, 0).data(ENTRY_ROLE) or {}).items()
                if k not in ("value", "read", "write", "source")
            }
            if read and (not write or write == read):
                entry["value"] = _number_or_text(read)
            else:
                if read:
                    entry["read"] = _number_or_text(read)
                if write:
                    entry["write"] = _number_or_text(write)
            entry["source"] = source
            figures.setdefault(fname, {})[set_name] = entry
        part["figures"] = figures
        return part

    def try_save(self) -> bool:
        """Check and store the part; on a refusal show the reason and keep the dialog open."""
        try:
            part = self.build_part()
            validate_part(part)
            self._save(part)
        except CatalogError as err:
            self.error.setText(str(err))
            self.error.show()
            return False
        self.saved = part
        self.error.hide()
        self.accept()
        return True


class CatalogDialog(QDialog):
    """All catalog parts with their figures; add, edit, duplicate and delete user parts.

    Signals: ``catalogChanged()`` after a user part was added, changed or deleted. Public:
    :meth:`reload`, :meth:`select_part`, :meth:`add_part`, :meth:`edit_selected`,
    :meth:`duplicate_selected`, :meth:`delete_selected`; ``editor`` is the open part editor.
    """

    catalogChanged = Signal()

    def __init__(self, catalog: Catalog, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("CatalogDialog")
        self.setWindowTitle("Parts catalog")
        self.catalog = catalog
        self.editor: PartEditorDialog | None = None

        lay = QVBoxLayout(self)
        lay.addLayout(self._build_filters())
        lay.addWidget(self._build_split(), 1)
        lay.addLayout(self._build_buttons())
        self._connect_signals()
        self.resize(1000, 600)
        self.reload()

    def _build_filters(self) -> QHBoxLayout:
        """The search field and the kind filter."""
        top = QHBoxLayout()
        self.search = QLineEdit()
        self.search.setPlaceholderText("Search: name, id, vendor, feature code")
        self.search.setClearButtonEnabled(True)
        self.search.setToolTip("Show only parts containing this text")
        self.kind_filter = QComboBox()
        self.kind_filter.addItem("All kinds", "")
        for k in KIND_ORDER:
            self.kind_filter.addItem(kind_name(k), k)
        self.kind_filter.setToolTip("Show only parts of this kind")
        top.addWidget(self.search, 1)
        top.addWidget(self.kind_filter)
        return top

    def _build_split(self) -> QSplitter:
        """The sortable part list beside the detail view of the selected part."""
        split = QSplitter(Qt.Orientation.Horizontal)
        self.list = QTreeWidget()
        self.list.setColumnCount(4)
        self.list.setHeaderLabels(["Name", "Kind", "Feature code", "Origin"])
        self.list.setRootIsDecorated(False)
        self.list.setUniformRowHeights(True)
        self.list.setAlternatingRowColors(True)
        self.list.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.list.setSortingEnabled(True)
        self.list.sortByColumn(1, Qt.SortOrder.AscendingOrder)
        header = self.list.header()
        header.setStretchLastSection(False)
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        for col in (1, 2, 3):
            header.setSectionResizeMode(col, QHeaderView.ResizeMode.ResizeToContents)
        split.addWidget(self.list)
        self.detail = QTextBrowser()
        self.detail.setToolTip("Every figure of the part with its source")
        split.addWidget(self.detail)
        split.setStretchFactor(0, 1)
        split.setStretchFactor(1, 1)
        split.setSizes([520, 580])  # part names are long ("IBM TotalStorage FAStT600 Turbo")
        return split

    def _build_buttons(self) -> QHBoxLayout:
        """Add, Edit, Duplicate and Delete, then Close at the right."""
        buttons = QHBoxLayout()
        self.add_button = QPushButton("Add user part...")
        self.add_button.setToolTip("Define a part of your own with its figures and their sources")
        self.add_button.setShortcut(QKeySequence(QKeySequence.StandardKey.New))
        self.edit_button = QPushButton("Edit...")
        self.edit_button.setToolTip("Edit the selected user part (built-in parts are read-only)")
        self.duplicate_button = QPushButton("Duplicate as user part...")
        self.duplicate_button.setToolTip("Copy the selected part under a new id to change its figures")
        self.delete_button = QPushButton("Delete")
        self.delete_button.setToolTip("Delete the selected user part (designs keep the figures they use)")
        self.delete_button.setShortcut(QKeySequence(QKeySequence.StandardKey.Delete))
        for b in (self.add_button, self.edit_button, self.duplicate_button, self.delete_button):
            buttons.addWidget(b)
        buttons.addStretch(1)
        close = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        close.rejected.connect(self.reject)
        buttons.addWidget(close)
        return buttons

    def _connect_signals(self) -> None:
        """Buttons, list selection and double click, search and kind filter."""
        self.add_button.clicked.connect(self.add_part)
        self.edit_button.clicked.connect(self.edit_selected)
        self.duplicate_button.clicked.connect(self.duplicate_selected)
        self.delete_button.clicked.connect(self.delete_selected)
        self.list.itemSelectionChanged.connect(self._on_selected)
        self.list.itemDoubleClicked.connect(lambda *_: self.edit_selected() if self._selected()[1] else None)
        self.search.textChanged.connect(lambda _t: self.reload())
        self.kind_filter.currentIndexChanged.connect(lambda _i: self.reload())

    # -- listing --------------------------------------------------------------------------
    def reload(self, select: str | None = None) -> None:
        """Read the catalog again (keeps the selection, or selects ``select``)."""
        keep = select or self._selected()[0].get("id")
        self.list.setSortingEnabled(False)
        self.list.clear()
        kind = self.kind_filter.currentData() or None
        for part, user in self.catalog.parts(kind, self.search.text().strip()):
            item = QTreeWidgetItem(
                [
                    str(part.get("name") or part["id"]),
                    part["kind"],
                    str(part.get("feature_code", "")),
                    "user" if user else "built-in",
                ]
            )
            item.setData(0, PART_ID_ROLE, (part, user))
            item.setToolTip(0, f"{part.get('name') or part['id']}\nid {part['id']}")
            if user:
                font = QFont(item.font(0))
                font.setItalic(True)
                item.setFont(0, font)
            self.list.addTopLevelItem(item)
        self.list.setSortingEnabled(True)
        if keep is None or not self.select_part(keep):
            self._on_selected()

    def select_part(self, pid: str) -> bool:
        for i in range(self.list.topLevelItemCount()):
            item = self.list.topLevelItem(i)
            if item.data(0, PART_ID_ROLE)[0]["id"] == pid:
                self.list.setCurrentItem(item)
                return True
        return False

    def part_ids(self) -> list[str]:
        return [self.list.topLevelItem(i).data(0, PART_ID_ROLE)[0]["id"] for i in range(self.list.topLevelItemCount())]

    def _selected(self) -> tuple[dict[str, Any], bool]:
        items = self.list.selectedItems()
        if not items:
            return {}, False
        part, user = items[0].data(0, PART_ID_ROLE)
        return part, user

    def _on_selected(self) -> None:
        part, user = self._selected()
        self.edit_button.setEnabled(bool(part) and user)
        self.delete_button.setEnabled(bool(part) and user)
        self.duplicate_button.setEnabled(bool(part))
        if not part:
            self.detail.setHtml("<p style='color:gray'>Choose a part to see its figures and their sources.</p>")
        else:
            self.detail.setHtml(part_html(part, user))

    # -- changing -------------------------------------------------------------------------
    def add_part(self) -> PartEditorDialog:
        """Open the editor for a new user part (of the kind filtered on, or an HBA)."""
        template = {"kind": self.kind_filter.currentData() or "hba"}
        return self._open_editor(template, self.catalog.add_user_part, editing=False)

    def edit_selected(self) -> PartEditorDialog | None:
        part, user = self._selected()
        if not part or not user:
            return None  # built-in parts are read-only
        return self._open_editor(part, self.catalog.update_user_part, editing=True)

    def duplicate_selected(self) -> PartEditorDialog | None:
        part, _user = self._selected()
        if not part:
            return None
        dup = copy.deepcopy(part)
        dup["id"] = self._free_id(f"{part['id']}-copy")
        dup["name"] = f"{part.get('name') or part['id']} (copy)"
        return self._open_editor(dup, self.catalog.add_user_part, editing=False)

    def delete_selected(self, confirm: bool = True) -> bool:
        part, user = self._selected()
        if not part or not user:
            return False
        if confirm:
            answer = QMessageBox.question(
                self,
                "Delete part",
                f"Delete your part {part['id']}? Designs that use it keep its figures.",
                QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
                QMessageBox.StandardButton.No,
            )
            if answer != QMessageBox.StandardButton.Yes:
                return False
        try:
            self.catalog.delete_user_part(part["id"])
        except CatalogError as err:
            QMessageBox.warning(self, "Delete part", str(err))
            return False
        self.reload()
        self.catalogChanged.emit()
        return True

    def _free_id(self, base: str) -> str:
        pid, n = base, 2
        while self.catalog.get(pid) is not None:
            pid = f"{base}-{n}"
            n += 1
        return pid

    def _open_editor(
        self, part: dict[str, Any], save: Callable[[dict[str, Any]], None], editing: bool
    ) -> PartEditorDialog:
        if self.editor is not None:
            self.editor.close()
        self.editor = PartEditorDialog(part, save, editing, self)
        self.editor.accepted.connect(self._on_saved)
        self.editor.open()  # window-modal, does not block: the event loop keeps running
        return self.editor

    def _on_saved(self) -> None:
        editor = self.editor
        if editor is None or editor.saved is None:
            return
        self.reload(select=editor.saved["id"])
        self.catalogChanged.emit()
