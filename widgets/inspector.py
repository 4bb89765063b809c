"""Property inspector: the selected components' name and attributes, as the schema says.

The form is built from :data:`planner.schema.KINDS` with one field per attribute
(:mod:`widgets.inspector_fields`; reference candidates from :mod:`widgets.candidates`). The panel
never changes the design: an edit goes out as intent, ``attributeEdited(ids, key, value)``, and
the controller (``app.controller.Controller``) validates it and runs the command (several
components of one kind: one undo step). A refused value comes back through :meth:`show_refusal`
and is shown in red under its field; the typed text stays, so nothing is lost. Read-only rows
show the kind, id, part, parent and, from the latest analysis, load, capacity, utilization and
the source of the capacity figure.
"""

from __future__ import annotations

import html
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QEvent, QObject, Qt, QTimer, Signal
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import QFormLayout, QGroupBox, QLabel, QScrollArea, QVBoxLayout, QWidget

from planner import placement
from planner.bands import percent_html
from planner.model import Component, Event
from planner.naming import label, label_list
from planner.schema import KINDS, MAX_NAME, Attr, attr_label, count_label, kind_name, on_path_kinds
from widgets.candidates import WIDE_REFS, candidate_label, reference_candidates, slot_candidates, slot_label
from widgets.deferred import SelectionFollower
from widgets.inspector_fields import (
    MIXED,
    BoolField,
    ChoiceField,
    Field,
    ListField,
    TextField,
    error_label,
    field_tip,
    option_text,
)
from widgets.workloads import inspector_rows

if TYPE_CHECKING:
    from app.document import AnalysisBundle, Document

__all__ = ["SLOT", "InspectorPanel", "error_label"]

_APPLY_HINT = "Enter or leaving the field applies; Esc reverts"
SLOT = "slot"  # the field of an HBA that moves it to another PCI slot (its parent, not an attribute)


def location_text(topo: Any, cid: str) -> str:
    """Where a component is: its AIX location code and, for a rackable unit, its rack position."""
    code = placement.location_code(topo, cid)
    if cid not in topo or topo[cid].kind not in placement.placeable_kinds():
        return code
    pos = placement.position(topo, cid)
    if pos is None:
        return f"{code} (not in a rack)" if code else "not in a rack (Racks panel: drag it into a rack)"
    site = topo.get(pos.site)
    where = f"{topo[pos.rack].label()} U{pos.u}-U{pos.top}, {pos.face}" + (f", {site.label()}" if site else "")
    return f"{code}: {where}" if code else where


#: the forms of this many shapes shown before are kept to be shown again (another kind
#: selected: a new form took 7-8 ms to make and 10-20 more of Qt laying it out and styling it,
#: blocks of 17-30 ms on the 16x site; kept, 2-5 ms)
FORMS_KEPT = 8


@dataclass
class _Form:
    """A form taken out of the panel, kept for its shape: its widget and its parts (fields,
    info labels, analysis box and rows)."""

    body: QWidget
    parts: tuple


class InspectorPanel(QWidget):
    """Shows and edits the document's selection. ``doc`` is an ``app.document.Document``
    (duck-typed; read only).

    Signal: ``attributeEdited(ids, key, value)``: the user set ``key`` ("name" or an attribute)
    of the components ``ids`` to ``value`` (as typed or chosen; the controller validates it);
    ``slotChosen(hba, slot)``: the user chose another slot for an HBA (field ``SLOT``).
    Public: :meth:`show_refusal` (the controller's answer to a refused edit), :meth:`field` (the
    editor widget of an attribute), :meth:`error_text` (the reason shown under a field),
    :meth:`shown_ids`, :meth:`info_text`.
    """

    attributeEdited = Signal(object, str, object)  # list[str] (see Document.modelEvents)
    slotChosen = Signal(str, str)  # hba id, slot id: move the HBA (the "Slot" field of an HBA)

    def __init__(self, doc: Document, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("InspectorPanel")
        self.doc = doc
        self._ids: list[str] = []
        self._kind: str | None = None
        self._fields: dict[str, Field] = {}
        self._refused: str | None = None  # the reason of a refusal while an edit is emitted
        self._info: dict[str, QLabel] = {}
        self._analysis_rows: QFormLayout | None = None
        self._analysis_box: QGroupBox | None = None
        self._shaped: tuple | None = None  # the shape of the form shown (see _shape)
        self._forms: dict[tuple, _Form] = {}  # forms of other shapes shown before, oldest first

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

        self._selection = SelectionFollower(self, doc, self._on_selection)  # (a large one: next turn)
        doc.modelEvents.connect(self._on_events)
        doc.analysisReady.connect(self._on_analysis)
        doc.projectReplaced.connect(self._rebuild_afresh)
        self.rebuild()

    # -- public ---------------------------------------------------------------------------
    def shown_ids(self) -> list[str]:
        return list(self._ids)

    def field(self, key: str) -> QWidget | None:
        """The editor of ``key`` ("name" or an attribute): QLineEdit, QComboBox, QCheckBox or QListWidget."""
        f = self._fields.get(key)
        if f is None:
            return None
        return f.list if isinstance(f, ListField) else f.editor

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
                if isinstance(f, TextField) and f.line is watched:
                    f.revert()
                    return True
        return super().eventFilter(watched, event)

    # -- building -------------------------------------------------------------------------
    def rebuild(self) -> None:
        """Build the form for the current selection; one component of the kind and rows the
        form shows already only refreshes it (the next cable: a new form took 10-20 ms of
        Qt laying out, styling and shaping its texts on the 16x site, in the turn after the
        selection), and one of a shape shown before gets that form back (see FORMS_KEPT)."""
        topo = self.doc.topology
        comps = [topo[i] for i in self.doc.selection if i in topo]
        shape = self._shape(comps)
        if shape is not None and shape == self._shaped:
            self._show_again(comps[0])
            return
        kept = self._forms.pop(shape, None) if shape is not None else None
        self._keep_shown()
        self._shaped = shape
        if kept is not None:  # a form of this shape shown before: shown again
            self.scroll.setWidget(kept.body)
            self._fields, self._info, self._analysis_box, self._analysis_rows = kept.parts
            self._kind = comps[0].kind
            self._show_again(comps[0])
            return
        self._fields = {}
        self._info = {}
        self._analysis_rows = None
        self._analysis_box = None
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
                ", ".join(count_label(n, k) for k, n in sorted(counts.items()))
                + ".<br>Select components of one kind to edit their common attributes."
            )
            note.setWordWrap(True)
            lay.addWidget(note)
        else:
            self._build_form(lay, comps)
        lay.addStretch(1)
        self.scroll.setWidget(body)
        self.refresh()

    def _show_again(self, comp: Component) -> None:
        """Show ``comp`` in the form shown (of its shape), nothing left of the one before."""
        self._ids = [comp.id]
        for f in self._fields.values():
            f.alive = True
            f.reset()
        self.refresh()

    def _keep_shown(self) -> None:
        """Take the form shown out of the panel: kept for its shape (the last FORMS_KEPT shapes),
        or deleted (a form of several components, or none)."""
        for f in self._fields.values():
            f.alive = False
        body = self.scroll.takeWidget()
        if body is None:
            return
        if self._shaped is None:
            body.deleteLater()
            return
        self._forms[self._shaped] = _Form(body, (self._fields, self._info, self._analysis_box, self._analysis_rows))
        while len(self._forms) > FORMS_KEPT:
            self._forms.pop(next(iter(self._forms))).body.deleteLater()

    def _shape(self, comps: list[Component]) -> tuple | None:
        """What the form of one component is made of (its kind, whether it has a location
        row): the form of another with the same shape is the same (its fields read the
        component shown when they show values); None for several or none."""
        if len(comps) != 1:
            return None
        return (comps[0].kind, self._located(comps[0]))

    def _located(self, comp: Component) -> bool:
        """Whether ``comp``'s form has a Location row (rack position and AIX location code)."""
        return comp.kind in placement.placeable_kinds() or bool(placement.location_code(self.doc.topology, comp.id))

    def _rebuild_afresh(self) -> None:
        """A design replaced: every form built anew."""
        self._keep_shown()
        for form in self._forms.values():
            form.body.deleteLater()
        self._forms, self._shaped = {}, None
        self.rebuild()

    def _build_form(self, lay: QVBoxLayout, comps: list[Component]) -> None:
        kind = comps[0].kind
        single = len(comps) == 1
        schema = KINDS[kind].attrs

        about = QGroupBox("Component" if single else f"{count_label(len(comps), kind)}")
        form = _form(about)
        rows = ("Kind", "Id", "Part", "Parent") if single else ("Kind", "Components")
        if single and self._located(comps[0]):
            rows += ("Location",)  # rack position and AIX location code (planner.placement)
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
            f = TextField(self, "name", None)
            about = f"shown on the canvas, in findings and build sheets (at most {MAX_NAME} characters)"
            f.line.setToolTip(f"{field_tip('name', None, about)}\n{_APPLY_HINT}")
            self._add_field(form, "Name", f)
            if kind == "hba":
                slot = ChoiceField(self, SLOT, None, self._slot_options)
                slot.combo.setToolTip(
                    field_tip(
                        SLOT, None, "the PCI slot the HBA is in; choose a free slot to move it there (cables go along)"
                    )
                )
                self._add_field(form, "Slot", slot)
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

    def _add_field(self, form: QFormLayout, label: str, f: Field) -> None:
        lab = QLabel(f"{label}:")
        lab.setBuddy(f.editor)
        form.addRow(lab, f.box)
        self._fields[f.key] = f

    def _make_field(self, key: str, attr: Attr, comps: list[Component]) -> Field | None:
        options = getattr(attr.check, "options", None)
        if options is not None:

            def choices(
                _comps: list[Component], opts: tuple[Any, ...] = tuple(options), k: str = key
            ) -> list[tuple[str, Any, str]]:
                return [(option_text(k, o), o, "") for o in opts]

            return ChoiceField(self, key, attr, choices)
        if attr.ref and attr.many:
            return ListField(self, key, attr) if len(comps) == 1 else None
        if attr.ref:
            wide = key in WIDE_REFS.get(comps[0].kind, ())
            if len(comps) > 1 and (wide or not self._same_candidates(comps, key)):
                return None  # (several cables never share an end)
            shown = (lambda cs, k=key: self._reference_options(cs, k, wide=False)) if wide else None
            return ChoiceField(self, key, attr, lambda cs, k=key: self._reference_options(cs, k), shown)
        if isinstance(attr.default, bool):
            return BoolField(self, key, attr)
        return TextField(self, key, attr)

    def _same_candidates(self, comps: list[Component], key: str) -> bool:
        """Whether the components may name the same components in ``key`` (besides their own
        values): one field can then edit them all. (Not asked of one component: a cable's
        candidates are every free port of the design, 4-5 ms on the 16x site.)"""
        topo = self.doc.topology
        first = [c.id for c in reference_candidates(topo, comps[0], key)[0] if c.id != comps[0].get(key)]
        return all(
            [c.id for c in reference_candidates(topo, other, key)[0] if c.id != other.get(key)] == first
            for other in comps[1:]
        )

    def _slot_options(self, comps: list[Component]) -> list[tuple[str, Any, str]]:
        topo = self.doc.topology
        return [(text := slot_label(topo, s), s.id, f"{text} ({s.id})") for s in slot_candidates(topo, comps[0])]

    def _reference_options(self, comps: list[Component], key: str, wide: bool = True) -> list[tuple[str, Any, str]]:
        """The choices of reference ``key`` (only "(none)" and the value itself unless ``wide``)."""
        topo = self.doc.topology
        if wide:
            found, left_out = reference_candidates(topo, comps[0], key)
        else:
            found, left_out = [topo[v] for v in (comps[0].get(key),) if v and v in topo], 0
        out: list[tuple[str, Any, str]] = [("(none)", "", "no reference")]
        out += [(candidate_label(topo, c), c.id, f"{c.id} ({kind_name(c.kind)})") for c in found]
        if left_out:
            out.append((f"... {left_out} more not listed", MIXED, "select the component on the canvas instead"))
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
            title = label(topo, first)
            self.title.setText(f"<b>{html.escape(title)}</b> ({html.escape(kind_name(first.kind))})")
        else:
            self.title.setText(f"<b>{html.escape(count_label(len(comps), first.kind))} selected</b>")
        self._info["Kind"].setText(html.escape(kind_name(first.kind)))
        if "Id" in self._info:
            self._info["Id"].setText(html.escape(first.id))
            self._info["Part"].setText(self._part_text(first))
            parent = topo.get(first.parent)
            self._info["Parent"].setText(
                f'<a href="{html.escape(parent.id)}">{html.escape(label(topo, parent))}</a>'
                f" ({html.escape(kind_name(parent.kind))})"
                if parent
                else "(top level)"
            )
        if "Location" in self._info:
            self._info["Location"].setText(html.escape(location_text(topo, first.id)))
        if "Components" in self._info:
            names = label_list(topo, [c.id for c in comps], limit=8)
            self._info["Components"].setText(html.escape(names))
        for key, f in self._fields.items():
            values = [c.name if key == "name" else c.parent if key == SLOT else c.get(key) for c in comps]
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
        for key in ("Load", "Capacity", "Utilization", "Figure source", "Paths", "Workload"):
            self._info.pop(key, None)
        bundle: AnalysisBundle | None = self.doc.analysis
        topo = self.doc.topology
        if bundle is None or not self.doc.is_current(bundle):
            form.addRow(QLabel("Analysing..."))
            return
        result = bundle.result
        box.setTitle(f"Analysis ({bundle.direction}, {bundle.figures} figures)")
        targets = inspector_rows(topo, result, self._ids)  # workloads with a target: met or unmet
        for name, text in targets:
            self._row(form, name, text)
        loads = [result.components[i] for i in self._ids if i in result.components]
        if not loads and targets:
            return
        if not loads:
            on_path = self._kind in on_path_kinds()
            note = QLabel("Not on any analysed path." if on_path else "No load figures for this kind.")
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
                self._row(form, "Utilization", percent_html(ld.utilization), rich=True)
                src = html.escape(ld.source or "no source")
                if ld.estimate:
                    src += " <i>(estimate)</i>"
                self._row(form, "Figure source", src, rich=True)
            n = binds.get(ld.id, 0)
            self._row(form, "Paths", f"{ld.paths} through it" + (f", binds {n}" if n else ""))
            return
        busiest = max(loads, key=lambda x: (x.utilization or 0.0, x.load))
        self._row(form, "Load", f"{sum(x.load for x in loads):.0f} MB/s in total")
        name = html.escape(label(topo, busiest.id))
        self._row(form, "Utilization", f"busiest {name}: {percent_html(busiest.utilization)}", rich=True)
        self._row(form, "Paths", f"{sum(binds.get(x.id, 0) for x in loads)} bound by these")

    def _row(self, form: QFormLayout, name: str, text: str, rich: bool = False) -> None:
        row = QLabel(text)
        row.setWordWrap(True)
        row.setTextFormat(Qt.TextFormat.RichText if rich else Qt.TextFormat.PlainText)
        row.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        form.addRow(f"{name}:", row)
        self._info[name] = row

    # -- editing: intent out, refusals back ------------------------------------------------
    def commit(self, f: Field, raw: Any) -> None:
        """A field's new value: emit it as intent; show the refusal if the controller refuses."""
        topo = self.doc.topology
        ids = [i for i in self._ids if i in topo]
        if self._kind is None or not ids:
            return
        self._refused = None
        if f.key == SLOT:
            self.slotChosen.emit(ids[0], raw)
        else:
            self.attributeEdited.emit(ids, f.key, raw)
        if self._refused is not None:
            f.set_error(self._refused)
            return
        f.clear_error()
        self.refresh()

    def show_refusal(self, key: str, reason: str) -> None:
        """Show why the value of ``key`` was refused, under its field (the typed text stays)."""
        self._refused = reason
        f = self._fields.get(key)
        if f is not None:
            f.set_error(reason)

    # -- document signals -----------------------------------------------------------------
    def _on_selection(self, _ids: list[str]) -> None:
        self.rebuild()

    def _on_events(self, events: list[Event]) -> None:
        if not self._ids:
            return
        mine = [e.id and e.id in self._ids and e.type == "changed" for e in events]
        if any(mine):
            self.refresh()  # at once: the user sees their own edit (and undo) immediately
        if not all(mine):
            self._deferred.start()  # candidates may change; coalesce bursts (a macro's events)

    def _on_analysis(self, _bundle: object) -> None:
        self._show_analysis()

    def _select_link(self, cid: str) -> None:
        self.doc.select([cid])


def _form(box: QGroupBox) -> QFormLayout:
    form = QFormLayout(box)
    form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
    form.setRowWrapPolicy(QFormLayout.RowWrapPolicy.WrapLongRows)
    form.setLabelAlignment(Qt.AlignmentFlag.AlignLeft)
    return form
