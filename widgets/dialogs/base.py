"""The form dialog every create dialog is built on."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)


class FormDialog(QDialog):
    """Typed fields in a form, a live summary (``describe``) of what OK will make, and OK
    disabled with the reason shown while ``problem()`` returns one.

    Subclasses add fields with the ``add_*`` helpers (each change refreshes the dialog) and
    implement :meth:`values`, :meth:`problem` and :meth:`describe`. ``on_ok(values)`` (set by
    the action) applies the edit and returns None, or a refusal reason that keeps the dialog
    open with the reason shown.
    """

    def __init__(self, title: str, topo: Any, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(title)
        self.topo = topo
        self.on_ok: Callable[[dict[str, Any]], str | None] | None = None
        self.form = QFormLayout()
        self.summary = QLabel()
        self.summary.setObjectName("summary")
        self.summary.setWordWrap(True)
        self.summary.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.reason = QLabel()
        self.reason.setObjectName("reason")
        self.reason.setWordWrap(True)
        self.reason.setStyleSheet("color: #c62828")
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        box = QVBoxLayout(self)
        box.addLayout(self.form)
        box.addWidget(self.summary)
        box.addWidget(self.reason)
        box.addWidget(self.buttons)
        self.setMinimumWidth(460)

    # -- for subclasses -----------------------------------------------------------------------
    def values(self) -> dict[str, Any]:
        raise NotImplementedError

    def problem(self) -> str | None:
        return None

    def describe(self) -> str:
        return ""

    # -- fields ---------------------------------------------------------------------------------
    def add_line(self, label: str, text: str = "", tip: str = "") -> QLineEdit:
        w = QLineEdit(text)
        w.textChanged.connect(self.refresh)
        return self._row(label, w, tip)

    def add_int(self, label: str, lo: int, hi: int, value: int, suffix: str = "", tip: str = "") -> QSpinBox:
        w = QSpinBox()
        w.setRange(lo, hi)
        w.setValue(value)
        if suffix:
            w.setSuffix(suffix)
        w.valueChanged.connect(self.refresh)
        return self._row(label, w, tip)

    def add_float(
        self, label: str, lo: float, hi: float, value: float, suffix: str = "", tip: str = ""
    ) -> QDoubleSpinBox:
        w = QDoubleSpinBox()
        w.setDecimals(1)
        w.setRange(lo, hi)
        w.setValue(value)
        if suffix:
            w.setSuffix(suffix)
        w.valueChanged.connect(self.refresh)
        return self._row(label, w, tip)

    def add_combo(
        self, label: str, options: Sequence[tuple[str, Any]], current: Any = None, tip: str = ""
    ) -> QComboBox:
        """A choice of (text, value) pairs; ``current`` is the value chosen first."""
        w = QComboBox()
        for text, value in options:
            w.addItem(text, value)
        i = w.findData(current) if current is not None else -1
        if i >= 0:
            w.setCurrentIndex(i)
        w.currentIndexChanged.connect(self.refresh)
        return self._row(label, w, tip)

    def add_check(self, label: str, checked: bool = False, tip: str = "") -> QCheckBox:
        w = QCheckBox()
        w.setChecked(checked)
        w.toggled.connect(self.refresh)
        return self._row(label, w, tip)

    def add_check_list(self, label: str, items: Iterable[tuple[str, str, bool]], tip: str = "") -> QListWidget:
        """A list of (id, text, checked) with a check box each; :func:`checked_ids` reads it."""
        w = QListWidget()
        for cid, text, on in items:
            it = QListWidgetItem(text)
            it.setData(Qt.ItemDataRole.UserRole, cid)
            it.setFlags(it.flags() | Qt.ItemFlag.ItemIsUserCheckable)
            it.setCheckState(Qt.CheckState.Checked if on else Qt.CheckState.Unchecked)
            w.addItem(it)
        w.itemChanged.connect(self.refresh)
        w.setMinimumHeight(min(60 + 18 * w.count(), 240))
        return self._row(label, w, tip)

    def add_button(self, text: str, slot: Callable[[], Any], tip: str = "") -> QPushButton:
        w = QPushButton(text)
        w.clicked.connect(slot)
        return self._row("", w, tip)

    def _row(self, label: str, w: QWidget, tip: str) -> Any:
        if tip:
            w.setToolTip(tip)
        self.form.addRow(label, w)
        return w

    # -- state ----------------------------------------------------------------------------------
    def ok_button(self) -> QPushButton:
        return self.buttons.button(QDialogButtonBox.StandardButton.Ok)

    def refresh(self, *_args: Any) -> None:
        """Re-check the input: the summary, the reason and whether OK is enabled."""
        problem = self.problem()
        self.reason.setText(problem or "")
        self.reason.setVisible(bool(problem))
        self.ok_button().setEnabled(not problem)
        self.ok_button().setToolTip(problem or "")
        self.summary.setText(self.describe())

    def accept(self) -> None:
        problem = self.problem()
        if problem is None and self.on_ok is not None:
            problem = self.on_ok(self.values())
        if problem:
            self.reason.setText(problem)
            self.reason.setVisible(True)
            return
        super().accept()


def checked_ids(w: QListWidget) -> list[str]:
    """The ids of the checked rows of a list made by :meth:`FormDialog.add_check_list`."""
    out = []
    for i in range(w.count()):
        it = w.item(i)
        if it.checkState() == Qt.CheckState.Checked:
            out.append(it.data(Qt.ItemDataRole.UserRole))
    return out


def set_checked(w: QListWidget, ids: Iterable[str]) -> None:
    """Check exactly the rows of ``ids`` (the caller refreshes the dialog)."""
    want = set(ids)
    w.blockSignals(True)
    for i in range(w.count()):
        it = w.item(i)
        on = it.data(Qt.ItemDataRole.UserRole) in want
        it.setCheckState(Qt.CheckState.Checked if on else Qt.CheckState.Unchecked)
    w.blockSignals(False)


def choice_options(values: Iterable[Any], fmt: str = "{}") -> list[tuple[str, Any]]:
    return [(fmt.format(v), v) for v in values]
