"""File > Design properties: the design's name, customer and author, and the document status the
build sheet shows (draft, for review, approved)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from PySide6.QtWidgets import QComboBox, QDialog, QDialogButtonBox, QFormLayout, QLineEdit, QWidget

from planner.commands import DESIGN_STATUSES

TEXT_FIELDS = ("name", "customer", "author")


class PropertiesDialog(QDialog):
    """The design's properties as a form; :meth:`values` gives what the user set."""

    def __init__(self, meta: Mapping[str, Any], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Design properties")
        form = QFormLayout(self)
        self.fields: dict[str, QLineEdit] = {}
        for key in TEXT_FIELDS:
            le = QLineEdit(str(meta.get(key, "")))
            le.setMaxLength(200)
            self.fields[key] = le
            form.addRow(key.capitalize(), le)
        self.status = QComboBox()
        for s in DESIGN_STATUSES:
            self.status.addItem(s.capitalize(), s)
        self._had_status = bool(meta.get("status"))
        current = meta.get("status") or DESIGN_STATUSES[0]
        self.status.setCurrentIndex(max(self.status.findData(current), 0))
        self.status.setToolTip("The document status the build sheet shows on its cover and in its document block")
        form.addRow("Status", self.status)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        form.addRow(buttons)

    def values(self) -> dict[str, str]:
        """Field -> value, the status as stored ("for review")."""
        out = {k: le.text() for k, le in self.fields.items()}
        status = self.status.currentData()
        if status != DESIGN_STATUSES[0] or self._had_status:  # an untouched "draft" is no change
            out["status"] = status
        return out
