"""The headline bar above the canvas: the numbers to show a customer.

Aggregate read and write MB/s (large), the hops that bind the paths (by kind: "HBAs (112
paths)"), the error and warning counts and the figure set. It follows ``doc.analysisReady``
(the :class:`app.document.AnalysisBundle`) and shows "analysing..." while a new design is read.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtGui import QFont, QPainter
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QSizePolicy, QVBoxLayout, QWidget

from planner.analysis import binding_kinds
from planner.bands import SEVERITY_COLOURS, STRONG
from planner.schema import KINDS, kind_name
from widgets.style import set_style_sheet

if TYPE_CHECKING:
    from app.document import AnalysisBundle, Document

#: how large the numbers are, relative to the application font
NUMBER_SCALE = 2.0


def mbps_text(mbps: float | None) -> str:
    """A total as the bar shows it; '…' while its direction is still being analysed."""
    return "…" if mbps is None else f"{mbps:,.0f} MB/s"


def binding_text(kinds: list[tuple[str, int]]) -> str:
    """'HBAs (112 paths), PHBs (4 paths)'; 'no paths yet' when nothing binds."""
    if not kinds:
        return "no paths yet"
    parts = []
    for kind, n in kinds:
        name = KINDS[kind].plural if kind in KINDS else kind_name(kind)
        parts.append(f"{name} ({n} path{'' if n == 1 else 's'})")
    return ", ".join(parts)


class ElidedLabel(QLabel):
    """A one-line label that ends in "..." when it is too narrow; the full text is its tooltip."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)

    def setText(self, text: str) -> None:  # noqa: N802 (Qt's name)
        super().setText(text)
        self.setToolTip(text)
        # room for the whole text when the window has it; elided only when it is narrow
        self.setMinimumWidth(min(self.fontMetrics().horizontalAdvance(text) + 4, 280))

    def paintEvent(self, _event) -> None:  # noqa: N802
        painter = QPainter(self)
        try:
            painter.setFont(self.font())
            painter.setPen(self.palette().color(self.foregroundRole()))
            text = self.fontMetrics().elidedText(self.text(), Qt.TextElideMode.ElideRight, self.width())
            painter.drawText(self.rect(), int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter), text)
        finally:  # (ended here, not when the wrapper is freed: a frame kept alive, by a traceback or
            painter.end()  # a sampling profiler, kept the label's painter open past its paint)


class HeadlineBar(QFrame):
    """The analysis in one line, large. ``doc`` is an ``app.document.Document``.

    Public labels (tests read them): ``read_value``, ``write_value``, ``bound_value``,
    ``errors_value``, ``warnings_value``, ``figures_value``; :meth:`text` is all of it as one line.
    """

    def __init__(self, doc: Document, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("HeadlineBar")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.doc = doc
        lay = QHBoxLayout(self)
        lay.setContentsMargins(12, 4, 12, 4)
        lay.setSpacing(28)
        self.read_value = self._block(lay, "Read", "Aggregate read MB/s: every path of the design reading at once")
        self.write_value = self._block(lay, "Write", "Aggregate write MB/s: every path of the design writing at once")
        self.bound_value = self._block(
            lay, "Bound by", "The kind of hop that limits the paths, and how many paths each binds", elided=True
        )
        self.errors_value = self._block(lay, "Errors", "Findings of severity error (see the Findings panel)")
        self.warnings_value = self._block(lay, "Warnings", "Findings of severity warning (see the Findings panel)")
        self.figures_value = self._block(
            lay, "Figures", "The figure set the analysis uses (Figures box in the toolbar)", scale=1.2
        )
        doc.analysisReady.connect(self.show_bundle)
        if hasattr(doc, "totalsReady"):
            doc.totalsReady.connect(self.show_totals)
        doc.projectReplaced.connect(self.clear)
        if doc.analysis is not None:
            self.show_bundle(doc.analysis)
        else:
            self.clear()

    def _block(
        self, lay: QHBoxLayout, caption: str, tip: str, scale: float = NUMBER_SCALE, elided: bool = False
    ) -> QLabel:
        """A caption over a large value; an ``elided`` block takes the room left over."""
        box = QVBoxLayout()
        box.setSpacing(0)
        head = QLabel(caption)
        head.setEnabled(False)  # the caption is quieter than the number
        value = ElidedLabel() if elided else QLabel("")
        font = QFont(value.font())
        font.setPointSizeF(font.pointSizeF() * (scale if not elided else 1.4))
        font.setBold(True)
        value.setFont(font)
        for label in (head, value):
            label.setToolTip(tip)
        box.addWidget(head)
        box.addWidget(value)
        lay.addLayout(box, 1 if elided else 0)
        return value

    def clear(self) -> None:
        for label in (self.read_value, self.write_value, self.errors_value, self.warnings_value):
            label.setText("\u2026")
            set_style_sheet(label, "")
        self.bound_value.setText("analysing...")
        self.figures_value.setText(self.doc.figures)

    def show_bundle(self, bundle: AnalysisBundle) -> None:
        """Show one analysis (the document sends only current ones)."""
        self.show_totals(bundle)
        kinds = bundle.binding if bundle.binding is not None else binding_kinds(self.doc.topology, bundle.result)
        self.bound_value.setText(binding_text(kinds))
        self.figures_value.setText(f"{bundle.figures}, {bundle.direction}")
        if not bundle.checked:
            return  # the rules are still running: the counts follow
        errors = sum(1 for f in bundle.findings if f.severity == "error")
        warnings = sum(1 for f in bundle.findings if f.severity == "warning")
        self._count(self.errors_value, errors, SEVERITY_COLOURS["error"])
        self._count(self.warnings_value, warnings, SEVERITY_COLOURS["warning"])

    def show_totals(self, bundle: AnalysisBundle) -> None:
        """The read and write totals ('…' for a direction still being analysed)."""
        self.read_value.setText(mbps_text(bundle.read_mbps))
        self.write_value.setText(mbps_text(bundle.write_mbps))

    @staticmethod
    def _count(label: QLabel, n: int, colour: str) -> None:
        label.setText(str(n))
        set_style_sheet(label, f"color: {colour if n else STRONG['ok']}")

    def text(self) -> str:
        """Everything the bar shows, as one line (tests, the status bar tooltip)."""
        return (
            f"Read {self.read_value.text()}  Write {self.write_value.text()}  Bound by {self.bound_value.text()}  "
            f"Errors {self.errors_value.text()}  Warnings {self.warnings_value.text()}  "
            f"Figures {self.figures_value.text()}"
        )
