"""The editable rows of the inspector: one field per attribute, chosen by the attribute's schema.

A choice becomes a combo box, a number or text a line edit (committed on Enter or when the field
loses focus, Esc reverts), a yes/no a check box, a single reference a combo of candidates, a list
of references a checkable, filterable list. A field commits the value to its panel
(``panel.commit(field, value)``), which emits the edit as intent; a refused value is shown in red
under the field and the typed text stays.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QVBoxLayout,
    QWidget,
)

from planner.model import Component
from planner.schema import Attr, attr_label, kind_name
from widgets.candidates import candidate_label, reference_candidates

if TYPE_CHECKING:
    from widgets.inspector import InspectorPanel

ERROR_STYLE = "color: #c62828;"  # readable red on light and dark palettes
MIXED = object()  # marks "the selected components differ" in a combo


def error_label() -> QLabel:
    """A hidden red label for the reason a value was refused (shown next to the field)."""
    label = QLabel()
    label.setStyleSheet(ERROR_STYLE)
    label.setWordWrap(True)
    label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    label.hide()
    return label


def format_value(value: Any) -> str:
    """A value as the user reads and types it (floats without binary noise)."""
    if value is None:
        return ""
    if isinstance(value, float):
        return f"{value:.10g}"
    return str(value)


def option_text(key: str, option: Any) -> str:
    """How a schema option reads in a combo ('RAID 5', '0 (not striped)')."""
    if key == "raid_level":
        return f"RAID {option}"
    if key == "stripe_kb" and option == 0:
        return "0 (not striped)"
    return format_value(option)


def allowed_text(key: str, attr: Attr) -> str:
    """What the attribute accepts, as its validator knows it: 'one of 8, 16, 32',
    'a whole number from 1 to 4096', 'a reference to a Logical drive'; '' when nothing is known."""
    check = attr.check
    options = getattr(check, "options", None)
    if options is not None:
        return "one of " + ", ".join(option_text(key, o) for o in options)
    if attr.ref:
        kinds = " or ".join(kind_name(k) for k in attr.ref)
        return f"any number of: {kinds}" if attr.many else f"one {kinds}, or none"
    if isinstance(attr.default, bool):
        return "yes or no"
    parts = [getattr(check, "hint", "")]
    lo, hi, integer = getattr(check, "bounds", (None, None, False))
    what = "a whole number" if integer else "a number"
    if lo is not None and hi is not None:
        parts.append(f"{what} from {format_value(lo)} to {format_value(hi)}")
    elif lo is not None or hi is not None:
        parts.append(
            f"{what} {'at least' if lo is not None else 'at most'} {format_value(lo if lo is not None else hi)}"
        )
    if getattr(check, "max_len", None):
        parts.append(f"text of at most {check.max_len} characters")  # type: ignore[attr-defined]
    return ", ".join(p for p in parts if p)


def field_tip(key: str, attr: Attr | None, about: str = "") -> str:
    """The tooltip of an inspector field: its label and what it is (the schema's doc, or
    ``about``), then the values it accepts."""
    label = "Name" if key == "name" and attr is None else attr_label(key)
    doc = (attr.doc if attr is not None else "") or about
    first = f"{label}: {doc}" if doc else label
    allowed = allowed_text(key, attr) if attr is not None else ""
    return f"{first}\nAllowed: {allowed}" if allowed else first


class Field:
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
        editor.setToolTip(field_tip(key, attr))

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

    def reset(self) -> None:
        """Forget what was shown for the component before (the form shows another now)."""
        self.clear_error()

    def commit(self, value: Any) -> None:
        if self.alive:
            self.panel.commit(self, value)


class TextField(Field):
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

    def reset(self) -> None:
        super().reset()
        self.line.setModified(False)  # (text typed for the component before is not kept)

    def _finished(self) -> None:
        text = self.line.text()
        self.line.setModified(False)
        if text == self.shown:
            self.clear_error()
            return
        self.commit(text)


class _FillingCombo(QComboBox):
    """A combo box that asks for its full list of options before the user first uses it
    (opens it, focuses it, scrolls or types on it)."""

    def __init__(self, fill: Callable[[], None]) -> None:
        super().__init__()
        self._fill = fill

    def showPopup(self) -> None:
        self._fill()
        super().showPopup()

    def focusInEvent(self, event: Any) -> None:
        self._fill()
        super().focusInEvent(event)

    def wheelEvent(self, event: Any) -> None:
        self._fill()
        super().wheelEvent(event)

    def keyPressEvent(self, event: Any) -> None:
        self._fill()
        super().keyPressEvent(event)


class ChoiceField(Field):
    """A value from the schema's options, or a single reference (with "(none)").

    With ``shown`` (the options naming only the values shown: cheap) the full ``options`` are
    listed only once the user first uses the combo (a cable's ends may name every free port of
    the design: listing them took 5-6 ms of selecting a cable on the 16x site)."""

    def __init__(
        self,
        panel: InspectorPanel,
        key: str,
        attr: Attr | None,
        options: Callable[[list[Component]], list[tuple[str, Any, str]]],
        shown: Callable[[list[Component]], list[tuple[str, Any, str]]] | None = None,
    ) -> None:
        super().__init__(panel, key, attr, _FillingCombo(self.fill) if shown is not None else QComboBox())
        self.combo: QComboBox = self.editor  # type: ignore[assignment]
        self.combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.combo.setMinimumContentsLength(12)
        self.options = options
        self.shown = shown
        self.pending: tuple[list[Any], list[Component]] | None = None  # values shown, not all listed
        self.combo.currentIndexChanged.connect(self._changed)

    def show_values(self, values: list[Any], comps: list[Component]) -> None:
        self.pending = (values, comps) if self.shown is not None else None
        self._list(values, comps, self.shown or self.options)

    def fill(self) -> None:
        """List every option (the user is about to choose), keeping the values shown."""
        if self.pending is not None:
            values, comps = self.pending
            self.pending = None
            self._list(values, comps, self.options)

    def _list(
        self,
        values: list[Any],
        comps: list[Component],
        options: Callable[[list[Component]], list[tuple[str, Any, str]]],
    ) -> None:
        self.combo.blockSignals(True)
        try:
            self.combo.clear()
            same = all(v == values[0] for v in values)
            if not same:
                self.combo.addItem("(different values)", MIXED)
            for text, data, tip in options(comps):
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
            if data is not MIXED and data == value and type(data) is type(value):
                return i
        return -1

    def _changed(self, index: int) -> None:
        data = self.combo.itemData(index)
        if index < 0 or data is MIXED or data is None:
            return
        self.commit(data)


class BoolField(Field):
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


class ListField(Field):
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
        self.list.setToolTip(f"{field_tip(key, attr)}\nTick the components {attr_label(key).lower()} should name")
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

    def reset(self) -> None:
        super().reset()
        self.filter.clear()
        self.list.verticalScrollBar().setValue(0)

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
