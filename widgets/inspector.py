"""Property inspector: edit the selected components' name and attributes, as the schema says.

The form is built from :data:`planner.model.KINDS`: a choice becomes a combo box, a number or
text a line edit (checked with :func:`~planner.model.check_attr` when the user presses Enter or
leaves the field), a yes/no a check box, a reference a combo of the components it may name, and
a list of references a checkable list of sensible candidates (zone members: the HBA and storage
ports cabled into the zone's fabric; an array's drives: the free drives of its subsystem).

A refused value is shown in red under its field and the typed text stays, so nothing is lost.
Edits go through ``doc.run(edit.set_attr, ...)``; with several components of one kind selected a
common attribute is set on all of them as one :class:`~planner.commands.Macro` (one undo step).
Read-only rows show the kind, id, part, parent and, from the latest analysis, load, capacity,
utilization and the source of the capacity figure.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QEvent, QObject, Qt, QTimer
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFormLayout,
    QGroupBox,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from planner import edit
from planner.commands import Macro, SetAttr
from planner.model import KINDS, PORT_KINDS, Attr, Component, Event, ModelError, Topology, check_attr

if TYPE_CHECKING:
    from app.document import AnalysisBundle, Document

#: at most this many candidates in a reference combo or list (the current value is always kept)
MAX_CANDIDATES = 300
#: longest component name SetAttr accepts (planner.commands.SetAttr)
MAX_NAME = 64

ERROR_STYLE = "color: #c62828;"  # readable red on light and dark palettes


def error_label() -> QLabel:
    """A hidden red label for the reason a value was refused (shown next to the field)."""
    label = QLabel()
    label.setStyleSheet(ERROR_STYLE)
    label.setWordWrap(True)
    label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    label.hide()
    return label
_MIXED = object()  # marks "the selected components differ" in a combo

ATTR_LABELS = {
    "raid_level": "RAID level",
    "segment_kb": "Segment size (KB)",
    "wwpn": "WWPN",
    "speed_gbps": "Speed (Gbps)",
    "size_gb": "Size (GB)",
    "lun": "LUN",
    "owner": "Owner (preferred controller)",
    "lpar": "LPAR",
    "multipath": "Multipath driver",
    "aix_level": "AIX level",
    "cpus": "CPUs",
    "memory_gb": "Memory (GB)",
    "drawer_phb": "Drawer-wide PHB",
    "domain_id": "Domain ID",
    "cache_mb": "Cache (MB)",
    "slot_name": "Controller slot",
    "hba_ports": "HBA ports",
    "logical_drives": "Logical drives",
    "max_transfer_kb": "max_transfer (KB)",
    "vg_type": "VG type",
    "ltg_kb": "LTG (KB)",
    "pp_mb": "PP size (MB)",
    "pvs": "Physical volumes",
    "stripe_kb": "Stripe size (KB)",
    "request_kb": "Request size (KB)",
    "read_pct": "Reads (%)",
    "direct_io": "Direct I/O",
    "bufsize_kb": "SAS BUFSIZE (KB)",
    "bufno": "SAS BUFNO",
    "length_m": "Length (m)",
    "a": "End A",
    "b": "End B",
}

KIND_NAMES = {
    "rio_link": "RIO2 link",
    "phb": "PHB",
    "hba": "HBA",
    "hba_port": "HBA port",
    "asic": "ASIC",
    "lpar": "LPAR",
    "hdisk": "hdisk",
}


def attr_label(key: str) -> str:
    return ATTR_LABELS.get(key, key.replace("_", " ").capitalize())


def kind_name(kind: str) -> str:
    return KIND_NAMES.get(kind, kind.replace("_", " "))


def plural(n: int, kind: str) -> str:
    word = kind_name(kind)
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def format_value(value: Any) -> str:
    """A value as the user reads and types it (floats without binary noise)."""
    if value is None:
        return ""
    if isinstance(value, float):
        return f"{value:.10g}"
    return str(value)


def context_label(topo: Topology, comp: Component) -> str:
    """A component's label with the device it sits in when the label alone is ambiguous
    ("LUN 0" becomes "fastt1 LUN 0", a drive "fastt1 controller drawer, bay 3")."""
    label = comp.label()
    if comp.kind == "drive":
        enc = topo.get(comp.parent)
        sub = topo.ancestor(comp.id, "subsystem")
        where = enc.label() if enc else ""
        if sub is not None and where.startswith(sub.label()):
            where = where[len(sub.label()) :].strip()
        return f"bay {comp.get('bay')} - {where}" if where else label
    owner_kind = {
        "logical_drive": "subsystem",
        "array": "subsystem",
        "controller": "subsystem",
        "host_port": "subsystem",
        "switch_port": "switch",
        "asic": "switch",
        "hdisk": "lpar",
        "slot": "drawer",
        "phb": "drawer",
    }.get(comp.kind)
    if owner_kind:
        owner = topo.ancestor(comp.id, owner_kind)
        if owner is not None and owner.label() not in label:
            return f"{owner.label()} {label}"
    return label


# -- candidates for references -----------------------------------------------------------------


def _capped(found: list[Component], current: Sequence[str], topo: Topology) -> tuple[list[Component], int]:
    """Cap a candidate list at MAX_CANDIDATES, always keeping the current values; (list, left out)."""
    seen = {c.id for c in found}
    extra = [topo[c] for c in current if c and c not in seen and c in topo]
    shown = found[:MAX_CANDIDATES]
    shown_ids = {c.id for c in shown}
    keep = [topo[c] for c in current if c in seen and c not in shown_ids]
    return shown + keep + extra, max(len(found) - MAX_CANDIDATES - len(keep), 0)


def reference_candidates(topo: Topology, comp: Component, key: str) -> tuple[list[Component], int]:
    """Components ``comp.key`` may sensibly name, and how many more were left out.

    The choice follows what is valid in the domain: a logical drive's owner is a controller of
    its own subsystem, an HBA's LPAR one of its server's partitions, a zone's members the ports
    cabled into its fabric, an array's drives the free drives of its subsystem.
    """
    spec = KINDS[comp.kind].attrs[key]
    value = comp.get(key)
    current: Sequence[str] = tuple(value or ()) if spec.many else ((value,) if value else ())
    found: list[Component]
    pair = (comp.kind, key)
    if pair == ("logical_drive", "owner"):
        sub = topo.ancestor(comp.id, "subsystem")
        found = topo.children(sub.id, "controller") if sub else []
    elif pair == ("hba", "lpar"):
        server = topo.ancestor(comp.id, "server")
        found = topo.children(server.id, "lpar") if server else topo.of_kind("lpar")
    elif pair == ("zone", "members"):
        found = _fabric_end_ports(topo, comp.parent)
    elif pair == ("host_mapping", "hba_ports"):
        found = _zoned_hba_ports(topo, comp.parent) or topo.of_kind("hba_port")
    elif pair == ("host_mapping", "logical_drives"):
        found = [c for c in topo.descendants(comp.parent) if c.kind == "logical_drive"]
    elif pair == ("volume_group", "pvs"):
        taken = {pv for vg in topo.children(comp.parent, "volume_group") if vg.id != comp.id for pv in vg["pvs"]}
        found = [h for h in topo.children(comp.parent, "hdisk") if h.id not in taken]
    elif pair == ("array", "drives"):
        taken = {d for a in topo.children(comp.parent, "array") if a.id != comp.id for d in a["drives"]}
        found = [c for c in topo.descendants(comp.parent) if c.kind == "drive" and c.id not in taken]
    elif comp.kind == "cable" and key in ("a", "b"):
        found = _free_ports_for(topo, comp, "b" if key == "a" else "a")
    else:
        found = [c for k in spec.ref for c in topo.of_kind(k)]
    return _capped(found, current, topo)


def _fabric_end_ports(topo: Topology, fabric: str | None) -> list[Component]:
    out: list[Component] = []
    for sw in topo.of_kind("switch"):
        if sw.get("fabric") != fabric:
            continue
        for sp in topo.descendants(sw.id):
            if sp.kind != "switch_port":
                continue
            peer = topo.get(topo.peer_port(sp.id))
            if peer is not None and peer.kind in ("hba_port", "host_port"):
                out.append(peer)
    return out


def _zoned_hba_ports(topo: Topology, subsystem: str | None) -> list[Component]:
    host_ports = {c.id for c in topo.descendants(subsystem) if c.kind == "host_port"} if subsystem else set()
    found: dict[str, Component] = {}
    for zone in topo.of_kind("zone"):
        members = zone["members"]
        if host_ports.intersection(members):
            for m in members:
                c = topo.get(m)
                if c is not None and c.kind == "hba_port":
                    found[c.id] = c
    return list(found.values())


def _free_ports_for(topo: Topology, cable: Component, other_end: str) -> list[Component]:
    other = topo.get(cable.get(other_end))
    if other is None:
        kinds: tuple[str, ...] = PORT_KINDS
    elif other.kind == "switch_port":
        kinds = PORT_KINDS
    else:
        kinds = ("switch_port",)
    other_switch = topo.ancestor(other.id, "switch") if other is not None and other.kind == "switch_port" else None
    out = []
    for kind in kinds:
        for port in topo.of_kind(kind):
            if port is other or topo.cable_at(port.id) is not None:
                continue
            if other_switch is not None and kind == "switch_port" and topo.ancestor(port.id, "switch") is other_switch:
                continue
            out.append(port)
    return out


def candidate_label(topo: Topology, comp: Component) -> str:
    """How a candidate reads in a reference list: its label plus where it is plugged in."""
    label = context_label(topo, comp)
    if comp.kind in ("hba_port", "host_port"):
        peer = topo.get(topo.peer_port(comp.id))
        if peer is not None:
            return f"{label} - {peer.label()}"
    if comp.kind == "hdisk":
        ld = topo.get(comp.get("logical_drive"))
        if ld is not None:
            return f"{label} - {context_label(topo, ld)}"
    return label


# -- the editable rows -------------------------------------------------------------------------


class _Field:
    """One editable row: the editor, the red reason under it, and how to show values."""

    def __init__(self, panel: InspectorPanel, key: str, attr: Attr | None, editor: QWidget) -> None:
        self.panel, self.key, self.attr, self.editor = panel, key, attr, editor
        self.box = QWidget()
        lay = QVBoxLayout(self.box)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.setSpacing(2)
        lay.addWidget(editor)
        self.error = error_label()
        lay.addWidget(self.error)
        self.alive = True
        tip = attr.doc if attr is not None and attr.doc else ""
        editor.setToolTip(tip or f"{attr_label(key)}")

    @property
    def has_error(self) -> bool:
        return not self.error.isHidden()

    def set_error(self, text: str) -> None:
        self.error.setText(text)
        self.error.show()

    def clear_error(self) -> None:
        self.error.clear()
        self.error.hide()

    def show_values(self, values: list[Any], comps: list[Component]) -> None:
        raise NotImplementedError

    def commit(self, value: Any) -> None:
        if self.alive:
            self.panel._apply(self, value)


class _TextField(_Field):
    """Text or a number in a line edit; committed on Enter or when the field loses focus."""

    def __init__(self, panel: InspectorPanel, key: str, attr: Attr | None) -> None:
        super().__init__(panel, key, attr, QLineEdit())
        self.line: QLineEdit = self.editor  # type: ignore[assignment]
        self.shown = ""
        self.line.editingFinished.connect(self._finished)
        self.line.installEventFilter(panel)  # Esc (QKeySequence.Cancel) reverts, see InspectorPanel.eventFilter
        hint = "Enter or leaving the field applies; Esc reverts"
        self.line.setToolTip(f"{self.line.toolTip()}\n{hint}".strip())

    def show_values(self, values: list[Any], comps: list[Component]) -> None:
        if self.has_error:
            return  # keep what the user typed next to its reason
        if self.line.hasFocus() and self.line.isModified() and self.line.text() != self.shown:
            return  # the user is typing here; do not overwrite it (Enter or leaving commits)
        same = all(v == values[0] for v in values)
        self.shown = format_value(values[0]) if same else ""
        self.line.setText(self.shown)
        self.line.setPlaceholderText("" if same else "(different values)")
        self.line.setCursorPosition(0)

    def revert(self) -> None:
        self.clear_error()
        self.line.setText(self.shown)

    def _finished(self) -> None:
        text = self.line.text()
        self.line.setModified(False)
        if text == self.shown:
            self.clear_error()
            return
        self.commit(text)


class _ChoiceField(_Field):
    """A value from the schema's options, or a single reference (with "(none)")."""

    def __init__(
        self,
        panel: InspectorPanel,
        key: str,
        attr: Attr | None,
        options: Callable[[list[Component]], list[tuple[str, Any, str]]],
    ) -> None:
        super().__init__(panel, key, attr, QComboBox())
        self.combo: QComboBox = self.editor  # type: ignore[assignment]
        self.combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.combo.setMinimumContentsLength(12)
        self.options = options
        self.combo.currentIndexChanged.connect(self._changed)

    def show_values(self, values: list[Any], comps: list[Component]) -> None:
        self.combo.blockSignals(True)
        try:
            self.combo.clear()
            same = all(v == values[0] for v in values)
            if not same:
                self.combo.addItem("(different values)", _MIXED)
            for text, data, tip in self.options(comps):
                self.combo.addItem(text, data)
                if tip:
                    self.combo.setItemData(self.combo.count() - 1, tip, Qt.ItemDataRole.ToolTipRole)
            if same:
                index = self._find(values[0])
                if index < 0:  # a draft value the options do not hold: show it as it is
                    self.combo.insertItem(0, f"{format_value(values[0])} (not valid here)", values[0])
                    index = 0
                self.combo.setCurrentIndex(index)
            else:
                self.combo.setCurrentIndex(0)
        finally:
            self.combo.blockSignals(False)

    def _find(self, value: Any) -> int:
        for i in range(self.combo.count()):
            data = self.combo.itemData(i)
            if data is not _MIXED and data == value and type(data) is type(value):
                return i
        return -1

    def _changed(self, index: int) -> None:
        data = self.combo.itemData(index)
        if index < 0 or data is _MIXED or data is None:
            return
        self.commit(data)


class _BoolField(_Field):
    def __init__(self, panel: InspectorPanel, key: str, attr: Attr | None) -> None:
        super().__init__(panel, key, attr, QCheckBox("yes"))
        self.check: QCheckBox = self.editor  # type: ignore[assignment]
        self.check.checkStateChanged.connect(self._changed)

    def show_values(self, values: list[Any], comps: list[Component]) -> None:
        self.check.blockSignals(True)
        same = all(v == values[0] for v in values)
        self.check.setTristate(not same)
        self.check.setCheckState(
            Qt.CheckState.PartiallyChecked
            if not same
            else Qt.CheckState.Checked
            if values[0]
            else Qt.CheckState.Unchecked
        )
        self.check.blockSignals(False)

    def _changed(self, state: Qt.CheckState) -> None:
        if state == Qt.CheckState.PartiallyChecked:
            return
        self.check.setTristate(False)
        self.commit(state == Qt.CheckState.Checked)


class _ListField(_Field):
    """A list of references: a checkable list of candidates (with a filter when it is long)."""

    def __init__(self, panel: InspectorPanel, key: str, attr: Attr) -> None:
        holder = QWidget()
        super().__init__(panel, key, attr, holder)
        lay = QVBoxLayout(holder)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.setSpacing(2)
        self.filter = QLineEdit()
        self.filter.setPlaceholderText("Filter candidates")
        self.filter.setClearButtonEnabled(True)
        self.filter.setToolTip("Show only candidates whose label or id contains this text")
        self.filter.textChanged.connect(self._apply_filter)
        self.list = QListWidget()
        self.list.setToolTip(f"Tick the components {attr_label(key).lower()} should name")
        self.list.setMinimumHeight(90)
        self.list.setMaximumHeight(190)
        self.list.setUniformItemSizes(True)
        self.count = QLabel()
        self.count.setEnabled(False)
        lay.addWidget(self.filter)
        lay.addWidget(self.list)
        lay.addWidget(self.count)
        self.current: tuple[str, ...] = ()
        self.list.itemChanged.connect(self._changed)

    def show_values(self, values: list[Any], comps: list[Component]) -> None:
        topo = self.panel.doc.topology
        comp = comps[0]
        self.current = tuple(values[0] or ())
        candidates, left_out = reference_candidates(topo, comp, self.key)
        scroll = self.list.verticalScrollBar().value()
        self.list.blockSignals(True)
        try:
            self.list.clear()
            for c in candidates:
                item = QListWidgetItem(candidate_label(topo, c))
                item.setData(Qt.ItemDataRole.UserRole, c.id)
                item.setToolTip(f"{c.id} ({kind_name(c.kind)})")
                item.setFlags(
                    Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsUserCheckable | Qt.ItemFlag.ItemIsSelectable
                )
                item.setCheckState(Qt.CheckState.Checked if c.id in self.current else Qt.CheckState.Unchecked)
                self.list.addItem(item)
        finally:
            self.list.blockSignals(False)
        self.filter.setVisible(len(candidates) > 10)
        text = f"{len(self.current)} of {len(candidates)} ticked"
        if left_out:
            text += f"; {left_out} more candidates not listed"
        if not candidates:
            text = "no candidates: cable or create them first"
        self.count.setText(text)
        self._apply_filter(self.filter.text())
        self.list.verticalScrollBar().setValue(scroll)

    def _apply_filter(self, text: str) -> None:
        needle = text.strip().lower()
        for i in range(self.list.count()):
            item = self.list.item(i)
            hay = f"{item.text()} {item.data(Qt.ItemDataRole.UserRole)}".lower()
            item.setHidden(bool(needle) and needle not in hay)

    def ticked(self) -> tuple[str, ...]:
        """The ticked ids, keeping the order of the current list and appending new ones."""
        checked = [
            self.list.item(i).data(Qt.ItemDataRole.UserRole)
            for i in range(self.list.count())
            if self.list.item(i).checkState() == Qt.CheckState.Checked
        ]
        kept = [c for c in self.current if c in checked]
        return tuple(kept + [c for c in checked if c not in kept])

    def _changed(self, _item: QListWidgetItem) -> None:
        self.commit(self.ticked())


# -- the panel ---------------------------------------------------------------------------------


class InspectorPanel(QWidget):
    """Edits the document's selection. ``doc`` is an ``app.document.Document`` (duck-typed).

    Public: :meth:`field` (the editor widget of an attribute, for wiring and tests),
    :meth:`error_text` (the reason shown under a field), :meth:`shown_ids`.
    """

    def __init__(self, doc: Document, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("InspectorPanel")
        self.doc = doc
        self._ids: list[str] = []
        self._kind: str | None = None
        self._fields: dict[str, _Field] = {}
        self._last_message: str | None = None
        self._info: dict[str, QLabel] = {}
        self._analysis_rows: QFormLayout | None = None
        self._analysis_box: QGroupBox | None = None

        outer = QVBoxLayout(self)
        outer.setContentsMargins(4, 4, 4, 4)
        self.title = QLabel()
        self.title.setWordWrap(True)
        self.title.setTextFormat(Qt.TextFormat.RichText)
        outer.addWidget(self.title)
        self.scroll = QScrollArea()
        self.scroll.setWidgetResizable(True)
        self.scroll.setFrameShape(QScrollArea.Shape.NoFrame)
        outer.addWidget(self.scroll, 1)

        self._deferred = QTimer(self)
        self._deferred.setSingleShot(True)
        self._deferred.setInterval(0)
        self._deferred.timeout.connect(self.refresh)

        doc.selectionChanged.connect(self._on_selection)
        doc.modelEvent.connect(self._on_event)
        doc.analysisReady.connect(self._on_analysis)
        doc.message.connect(self._on_message)
        doc.projectReplaced.connect(self.rebuild)
        self.rebuild()

    # -- public ---------------------------------------------------------------------------
    def shown_ids(self) -> list[str]:
        return list(self._ids)

    def field(self, key: str) -> QWidget | None:
        """The editor of ``key`` ("name" or an attribute): QLineEdit, QComboBox, QCheckBox or QListWidget."""
        f = self._fields.get(key)
        if f is None:
            return None
        return f.list if isinstance(f, _ListField) else f.editor

    def error_text(self, key: str) -> str:
        f = self._fields.get(key)
        return f.error.text() if f is not None and f.has_error else ""

    def info_text(self, row: str) -> str:
        """The text of a read-only row ('Kind', 'Id', 'Part', 'Parent', 'Load', 'Utilization'...)."""
        label = self._info.get(row)
        return label.text() if label is not None else ""

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """Esc in a text field reverts it to the design's value and clears its error."""
        if event.type() == QEvent.Type.KeyPress and event.matches(QKeySequence.StandardKey.Cancel):  # type: ignore[attr-defined]
            for f in self._fields.values():
                if isinstance(f, _TextField) and f.line is watched:
                    f.revert()
                    return True
        return super().eventFilter(watched, event)

    # -- building -------------------------------------------------------------------------
    def rebuild(self) -> None:
        """Build the form for the current selection."""
        for f in self._fields.values():
            f.alive = False
        self._fields = {}
        self._info = {}
        self._analysis_rows = None
        self._analysis_box = None
        topo = self.doc.topology
        comps = [topo[i] for i in self.doc.selection if i in topo]
        self._ids = [c.id for c in comps]
        kinds = {c.kind for c in comps}
        self._kind = next(iter(kinds)) if len(kinds) == 1 else None

        body = QWidget()
        lay = QVBoxLayout(body)
        lay.setContentsMargins(0, 0, 0, 0)
        if not comps:
            self.title.setText("<b>Nothing selected</b>")
            note = QLabel("Select a component on the canvas, or a finding or path, to see and edit its properties.")
            note.setWordWrap(True)
            note.setEnabled(False)
            lay.addWidget(note)
        elif self._kind is None:
            counts: dict[str, int] = {}
            for c in comps:
                counts[c.kind] = counts.get(c.kind, 0) + 1
            self.title.setText(f"<b>{len(comps)} components of different kinds</b>")
            note = QLabel(
                ", ".join(plural(n, k) for k, n in sorted(counts.items()))
                + ".<br>Select components of one kind to edit their common attributes."
            )
            note.setWordWrap(True)
            lay.addWidget(note)
        else:
            self._build_form(lay, comps)
        lay.addStretch(1)
        old = self.scroll.takeWidget()
        if old is not None:
            old.deleteLater()
        self.scroll.setWidget(body)
        self.refresh()

    def _build_form(self, lay: QVBoxLayout, comps: list[Component]) -> None:
        kind = comps[0].kind
        single = len(comps) == 1
        schema = KINDS[kind].attrs

        about = QGroupBox("Component" if single else f"{plural(len(comps), kind)}")
        form = _form(about)
        rows = ("Kind", "Id", "Part", "Parent") if single else ("Kind", "Components")
        for row in rows:
            label = QLabel()
            label.setWordWrap(True)
            label.setTextInteractionFlags(Qt.TextInteractionFlag.TextBrowserInteraction)
            label.linkActivated.connect(self._select_link)
            form.addRow(f"{row}:", label)
            self._info[row] = label
        lay.addWidget(about)

        attrs = QGroupBox("Attributes")
        form = _form(attrs)
        if single:
            f = _TextField(self, "name", None)
            f.line.setToolTip(f"Name shown on the canvas, in findings and build sheets (at most {MAX_NAME} characters)")
            self._add_field(form, "Name", f)
        for key, attr in schema.items():
            f = self._make_field(key, attr, comps)
            if f is None:
                note = QLabel("differs per component; select one to edit")
                note.setEnabled(False)
                note.setWordWrap(True)
                form.addRow(f"{attr_label(key)}:", note)
                continue
            self._add_field(form, attr_label(key), f)
        if form.rowCount() == 0:
            form.addRow(QLabel("This kind has no attributes."))
        lay.addWidget(attrs)

        self._analysis_box = QGroupBox("Analysis")
        self._analysis_rows = _form(self._analysis_box)
        lay.addWidget(self._analysis_box)

    def _add_field(self, form: QFormLayout, label: str, f: _Field) -> None:
        lab = QLabel(f"{label}:")
        lab.setBuddy(f.editor)
        form.addRow(lab, f.box)
        self._fields[f.key] = f

    def _make_field(self, key: str, attr: Attr, comps: list[Component]) -> _Field | None:
        options = getattr(attr.check, "options", None)
        if options is not None:

            def choices(
                _comps: list[Component], opts: tuple[Any, ...] = tuple(options), k: str = key
            ) -> list[tuple[str, Any, str]]:
                return [(_option_text(k, o), o, "") for o in opts]

            return _ChoiceField(self, key, attr, choices)
        if attr.ref and attr.many:
            return _ListField(self, key, attr) if len(comps) == 1 else None
        if attr.ref:
            topo = self.doc.topology
            first = [c.id for c in reference_candidates(topo, comps[0], key)[0] if c.id != comps[0].get(key)]
            if len(comps) > 1 and any(
                [c.id for c in reference_candidates(topo, other, key)[0] if c.id != other.get(key)] != first
                for other in comps[1:]
            ):
                return None
            return _ChoiceField(self, key, attr, lambda cs, k=key: self._reference_options(cs, k))
        if isinstance(attr.default, bool):
            return _BoolField(self, key, attr)
        return _TextField(self, key, attr)

    def _reference_options(self, comps: list[Component], key: str) -> list[tuple[str, Any, str]]:
        topo = self.doc.topology
        found, left_out = reference_candidates(topo, comps[0], key)
        out: list[tuple[str, Any, str]] = [("(none)", "", "no reference")]
        out += [(candidate_label(topo, c), c.id, f"{c.id} ({kind_name(c.kind)})") for c in found]
        if left_out:
            out.append((f"... {left_out} more not listed", _MIXED, "select the component on the canvas instead"))
        return out

    # -- showing values -------------------------------------------------------------------
    def refresh(self) -> None:
        """Show the current values of the shown components (keeps fields with a pending error)."""
        topo = self.doc.topology
        comps = [topo[i] for i in self._ids if i in topo]
        if not comps or self._kind is None:
            self._show_analysis()
            return
        if len(comps) != len(self._ids):
            self.rebuild()
            return
        first = comps[0]
        if len(comps) == 1:
            title = first.label() if first.kind == "drive" else context_label(topo, first)
            self.title.setText(f"<b>{html.escape(title)}</b> ({html.escape(kind_name(first.kind))})")
        else:
            self.title.setText(f"<b>{html.escape(plural(len(comps), first.kind))} selected</b>")
        self._info["Kind"].setText(html.escape(kind_name(first.kind)))
        if "Id" in self._info:
            self._info["Id"].setText(html.escape(first.id))
            self._info["Part"].setText(self._part_text(first))
            parent = topo.get(first.parent)
            self._info["Parent"].setText(
                f'<a href="{html.escape(parent.id)}">{html.escape(parent.label())}</a> ({html.escape(kind_name(parent.kind))})'
                if parent
                else "(top level)"
            )
        if "Components" in self._info:
            names = ", ".join(c.label() for c in comps[:8]) + (f" and {len(comps) - 8} more" if len(comps) > 8 else "")
            self._info["Components"].setText(html.escape(names))
        for key, f in self._fields.items():
            values = [c.name if key == "name" else c.get(key) for c in comps]
            f.show_values(values, comps)
        self._show_analysis()

    def _part_text(self, comp: Component) -> str:
        if not comp.part:
            return "(none)"
        part = self.doc.topology.parts.get(comp.part) or self.doc.parts.get(comp.part) or {}
        name = part.get("name", "")
        fc = part.get("feature_code", "")
        extra = " - ".join(x for x in (name, f"FC {fc}" if fc and fc not in name else "") if x)
        return html.escape(f"{comp.part}: {extra}" if extra else comp.part)

    def _show_analysis(self) -> None:
        box, form = self._analysis_box, self._analysis_rows
        if box is None or form is None:
            return
        while form.rowCount():
            form.removeRow(0)
        for key in ("Load", "Capacity", "Utilization", "Figure source", "Paths"):
            self._info.pop(key, None)
        bundle: AnalysisBundle | None = self.doc.analysis
        topo = self.doc.topology
        if bundle is None:
            form.addRow(QLabel("Analysing..."))
            return
        result = bundle.result
        box.setTitle(f"Analysis ({bundle.direction}, {bundle.figures} figures)")
        loads = [result.components[i] for i in self._ids if i in result.components]
        if not loads:
            note = QLabel("Not on any analysed path." if self._kind in _ON_PATH else "No load figures for this kind.")
            note.setEnabled(False)
            form.addRow(note)
            return
        binds = result.binding_hops()
        if len(loads) == 1:
            ld = loads[0]
            self._row(form, "Load", f"{ld.load:.0f} MB/s")
            self._row(
                form, "Capacity", f"{ld.capacity:.0f} MB/s" if ld.capacity else "no figure: this hop does not limit"
            )
            if ld.capacity:
                self._row(form, "Utilization", _util_html(ld.utilization), rich=True)
                src = html.escape(ld.source or "no source")
                if ld.estimate:
                    src += " <i>(estimate)</i>"
                self._row(form, "Figure source", src, rich=True)
            n = binds.get(ld.id, 0)
            self._row(form, "Paths", f"{ld.paths} through it" + (f", binds {n}" if n else ""))
            return
        busiest = max(loads, key=lambda x: (x.utilization or 0.0, x.load))
        self._row(form, "Load", f"{sum(x.load for x in loads):.0f} MB/s in total")
        label = topo[busiest.id].label() if busiest.id in topo else busiest.id
        self._row(form, "Utilization", f"busiest {html.escape(label)}: {_util_html(busiest.utilization)}", rich=True)
        self._row(form, "Paths", f"{sum(binds.get(x.id, 0) for x in loads)} bound by these")

    def _row(self, form: QFormLayout, name: str, text: str, rich: bool = False) -> None:
        label = QLabel(text)
        label.setWordWrap(True)
        label.setTextFormat(Qt.TextFormat.RichText if rich else Qt.TextFormat.PlainText)
        label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        form.addRow(f"{name}:", label)
        self._info[name] = label

    # -- applying -------------------------------------------------------------------------
    def _apply(self, f: _Field, raw: Any) -> None:
        topo = self.doc.topology
        kind = self._kind
        ids = [i for i in self._ids if i in topo]
        if kind is None or not ids:
            return
        try:
            value = _check_name(raw) if f.key == "name" else check_attr(kind, f.key, raw)
            if f.attr is not None and f.attr.ref:
                for target in value if f.attr.many else (value,):
                    if target and (target not in topo or topo[target].kind not in f.attr.ref):
                        raise ModelError(f"{target} is not a {' or '.join(f.attr.ref)} in this design")
        except ModelError as err:
            f.set_error(str(err))
            return
        self._last_message = None
        if len(ids) == 1:
            ok = self.doc.run(edit.set_attr, ids[0], f.key, value) is not None
        else:
            todo = [SetAttr(i, f.key, value) for i in ids if topo[i].get(f.key) != value]
            ok = True
            if todo:
                ok = self.doc.push(Macro(f"Set {attr_label(f.key)} of {plural(len(todo), kind)}", todo))
        if not ok:
            f.set_error(self._last_message or "the design refused this value")
            return
        f.clear_error()
        self.refresh()

    # -- document signals -----------------------------------------------------------------
    def _on_selection(self, _ids: list[str]) -> None:
        self.rebuild()

    def _on_event(self, event: Event) -> None:
        if event.id and event.id in self._ids and event.type == "changed":
            self.refresh()  # at once: the user sees their own edit (and undo) immediately
        elif self._ids:
            self._deferred.start()  # candidates may change; coalesce bursts (a macro's events)

    def _on_analysis(self, _bundle: object) -> None:
        self._show_analysis()

    def _on_message(self, text: str) -> None:
        self._last_message = text

    def _select_link(self, cid: str) -> None:
        self.doc.select([cid])


_ON_PATH = {
    "server",
    "drawer",
    "planar",
    "rio_link",
    "phb",
    "slot",
    "hba",
    "hba_port",
    "cable",
    "switch_port",
    "asic",
    "backplane",
    "host_port",
    "controller",
    "subsystem",
    "array",
    "logical_drive",
}


def _form(box: QGroupBox) -> QFormLayout:
    form = QFormLayout(box)
    form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
    form.setRowWrapPolicy(QFormLayout.RowWrapPolicy.WrapLongRows)
    form.setLabelAlignment(Qt.AlignmentFlag.AlignLeft)
    return form


def _check_name(value: Any) -> str:
    if not isinstance(value, str):
        raise ModelError("a name must be text")
    if len(value) > MAX_NAME:
        raise ModelError(f"a name may have at most {MAX_NAME} characters, this one has {len(value)}")
    if any(ord(c) < 32 for c in value):
        raise ModelError("a name cannot contain control characters (tabs, new lines)")
    return value


def _option_text(key: str, option: Any) -> str:
    if key == "raid_level":
        return f"RAID {option}"
    if key == "stripe_kb" and option == 0:
        return "0 (not striped)"
    return format_value(option)


def _util_html(util: float | None) -> str:
    if util is None:
        return "no capacity figure"
    pct = util * 100
    colour = "#2e7d32" if pct < 70 else "#ef6c00" if pct < 95 else "#c62828"
    return f'<span style="color:{colour}; font-weight:bold">{pct:.0f} %</span>'
