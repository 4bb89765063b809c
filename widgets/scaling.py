"""Scaling panel: aggregate MB/s as the design's HBAs (or drawers) are added in placement order,
like the P690 Redpaper's Figure 4 profile, with the binding hop named at each knee (pyqtgraph).

The curve comes from :func:`planner.scaling.scaling` with the document's figure set and direction
(from disk or from controller cache, chosen here). It follows ``doc.analysisReady``: after every
edit, figure set or direction change the curve is recomputed (when the panel is visible; a hidden
panel catches up when shown). The computation (one fill per HBA: seconds on a site of thousands
of HBAs) runs off the GUI thread (``Document.compute_later``); meanwhile the last curve stays,
marked as being updated, and an edit made meanwhile restarts it. Hovering a point shows its
numbers.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pyqtgraph as pg
from PySide6.QtCore import QEvent, QPointF, QTimer
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QComboBox, QHBoxLayout, QLabel, QVBoxLayout, QWidget

from planner.analysis import AnalysisError
from planner.naming import counted
from planner.scaling import Scaling, ScalingError, scaling
from planner.schema import kind_name
from widgets.deferred import covered

if TYPE_CHECKING:
    from app.document import Document

CURVE = "#1e88e5"
KNEE_FALL = "#c62828"  # a hop saturates: the slope falls
KNEE_RISE = "#2e7d32"  # a new planar or drawer starts: the slope rises
MAX_LABELS = 8  # knee labels drawn, one per cause (every knee is marked and in the hover text)


class ScalingPanel(QWidget):
    """The scaling curve of ``doc``'s design. Public: ``plot`` (pg.PlotWidget), ``result``
    (:class:`planner.scaling.Scaling` or None), ``knee_labels`` (pg.TextItem), ``by`` and
    ``source`` (QComboBox), :meth:`refresh`, :meth:`hover_text`."""

    def __init__(self, doc: Document, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("ScalingPanel")
        self.doc = doc
        self.result: Scaling | None = None
        self.knee_labels: list[pg.TextItem] = []
        self._stale = True
        self._fg = "#000000"

        lay = QVBoxLayout(self)
        lay.setContentsMargins(4, 4, 4, 4)
        row = QHBoxLayout()
        self.by = QComboBox()
        self.by.addItem("per HBA", "hba")
        self.by.addItem("per drawer", "drawer")
        self.by.setToolTip("one point per HBA, or per drawer, added in placement order")
        self.source = QComboBox()
        self.source.addItem("from disk", "disk")
        self.source.addItem("from controller cache (the paper's profiling)", "cache")
        self.source.setToolTip("disk: arrays limit; cache: controller-cache hits, as in the paper's Figure 4")
        self.note = QLabel()
        row.addWidget(QLabel("Add"))
        row.addWidget(self.by)
        row.addWidget(self.source)
        row.addWidget(self.note, 1)
        lay.addLayout(row)
        self.plot = pg.PlotWidget()
        self.plot.setMenuEnabled(False)
        self.plot.hideButtons()
        self.plot.setToolTip("Aggregate MB/s as HBAs are added in placement order; hover a point for details")
        lay.addWidget(self.plot, 1)
        self.hover = pg.TextItem(anchor=(0, 1))
        self.hover.setZValue(100)
        self.plot.scene().sigMouseMoved.connect(self._on_mouse)
        self.by.currentIndexChanged.connect(self.refresh)
        self.source.currentIndexChanged.connect(self.refresh)
        self._apply_palette()
        doc.analysisReady.connect(self._on_analysis)
        doc.projectReplaced.connect(self._on_analysis)
        doc.computed.connect(self._on_computed)
        self._asked: tuple | None = None  # what the curve being computed is for

    # -- following the document ------------------------------------------------------------
    def _on_analysis(self, *_args: object) -> None:
        self._stale = True
        if not covered(self):  # a hidden tab recomputes when it is raised (one curve costs a fill per HBA)
            self.refresh()

    def showEvent(self, event: Any) -> None:
        super().showEvent(event)
        if self._stale:
            QTimer.singleShot(0, self._refresh_if_stale)

    def paintEvent(self, event: Any) -> None:
        super().paintEvent(event)
        if self._stale:  # a raised tab paints without a show event
            QTimer.singleShot(0, self._refresh_if_stale)

    def _refresh_if_stale(self) -> None:
        if self._stale and not covered(self):
            self.refresh()

    def refresh(self, *_args: object) -> None:
        """Recompute the curve with the document's figure set and direction (off the GUI
        thread), then draw it."""
        self._stale = False
        doc = self.doc
        figures, direction, source, by = doc.figures, doc.direction, self.source.currentData(), self.by.currentData()
        asked = (id(doc.topology), doc.topology.revision, figures, direction, source, by)
        if asked == self._asked:
            return  # already on its way (the analysis comes twice per revision)
        self._asked = asked
        if self.result is not None:
            self.note.setText("updating the curve...")
        doc.compute_later(
            "scaling", lambda topo, progress: scaling(topo, figures, direction, source, by, progress=progress)
        )

    def _on_computed(self, done: Any) -> None:
        doc = self.doc
        if done.key != "scaling" or self._asked is None:
            return
        if done.origin is not doc.topology or (id(done.origin), done.revision) != self._asked[:2]:
            return  # stale: the curve of the newest revision is on its way
        self._asked = None
        if isinstance(done.result, (ScalingError, AnalysisError)):
            self.result = None
            self.note.setText(str(done.result))
        elif isinstance(done.result, Exception):
            self.result = None
            self.note.setText(f"the scaling curve failed: {done.result}")
        else:
            self.result = done.result
        self._draw()

    # -- drawing ------------------------------------------------------------------------------
    def _draw(self) -> None:
        plot, r = self.plot, self.result
        plot.clear()
        self.knee_labels = []
        if r is None or not r.points:
            plot.setTitle("No HBA yet: the curve starts with the first adapter", color=self._fg)
            return
        xs = [0] + [p.count for p in r.points]
        ys = [0.0] + [p.mbps for p in r.points]
        plot.plot(xs, ys, pen=pg.mkPen(CURVE, width=2), symbol="o", symbolSize=4, symbolBrush=CURVE, symbolPen=None)
        shown: set[str] = set()
        last: dict[bool, tuple[float, int]] = {}  # side -> (x of its last label, its stagger)
        span = max(p.count for p in r.points)
        for k in r.knees:
            colour = KNEE_FALL if k.falls else KNEE_RISE
            plot.plot([k.count], [k.mbps], pen=None, symbol="d", symbolSize=9, symbolBrush=colour, symbolPen=None)
            if k.text in shown or len(self.knee_labels) >= MAX_LABELS:
                continue  # each cause is named once; every knee is marked and in the hover text
            x0, j0 = last.get(k.falls, (-span, -1))
            near = k.count - x0 < 0.2 * span
            if near and not k.falls:
                continue  # rises are named below the curve, where there is room for one at a time
            shown.add(k.text)
            j = (j0 + 1) % 4 if near else 0  # stagger the labels of nearby falls upwards
            last[k.falls] = (k.count, j)
            # a fall: above (left of it, or right near the left edge); a rise: below right
            left = k.falls and k.count > 0.3 * span
            anchor = (1.0 if left else 0.0, 1.1 + 1.1 * j) if k.falls else (0.0, -0.1)
            text = pg.TextItem(k.text, color=colour, anchor=anchor)
            text.setPos(k.count, k.mbps)
            plot.addItem(text)
            self.knee_labels.append(text)
        unit = r.unit
        plot.setLabel("bottom", f"{unit}s added in placement order", color=self._fg)
        plot.setLabel("left", "aggregate MB/s", color=self._fg)
        plot.setTitle(
            f"Scaling: {r.points[-1].mbps:,.0f} MB/s with all {len(r.points)} {unit}s "
            f"({r.direction}, {r.figures} figures, from {r.source}); {counted(len(r.knees), 'knee')}",
            color=self._fg,
        )
        plot.setXRange(0, xs[-1] * 1.02 + 0.5, padding=0)
        plot.setYRange(0, max(ys) * 1.15 + 1, padding=0)
        plot.addItem(self.hover, ignoreBounds=True)
        self.hover.hide()
        self.note.setText(f"{counted(len(r.knees), 'knee')}: where the slope changes, the hop that binds is named")

    def hover_text(self, x: float) -> str:
        """The text for the point nearest data x ('' when there is none)."""
        r = self.result
        if r is None or not r.points:
            return ""
        i = min(range(len(r.points)), key=lambda j: abs(r.points[j].count - x))
        p = r.points[i]
        if abs(p.count - x) > 0.5:
            return ""
        top = kind_name(p.top) if p.top else "nothing"
        text = f"{counted(p.count, r.unit)}: {p.mbps:,.0f} MB/s\nadded {p.added}; bound by {top}"
        knee = next((k for k in r.knees if k.count == p.count), None)
        if knee is not None:
            text += f"\nknee: {knee.slope_before:,.0f} -> {knee.slope_after:,.0f} MB/s per {r.unit}; {knee.text}"
        return text

    def _on_mouse(self, pos: QPointF) -> None:
        vb = self.plot.getPlotItem().vb
        if not vb.sceneBoundingRect().contains(pos):
            self.hover.hide()
            return
        pt = vb.mapSceneToView(pos)
        text = self.hover_text(pt.x())
        if not text:
            self.hover.hide()
            return
        self.hover.setText(text, color=self._fg)
        (x0, x1), (y0, y1) = vb.viewRange()
        self.hover.setAnchor((1.0 if pt.x() > (x0 + x1) / 2 else 0.0, 0.0 if pt.y() > (y0 + y1) / 2 else 1.0))
        self.hover.setPos(pt.x(), pt.y())
        self.hover.fill = pg.mkBrush(self._hover_fill)
        self.hover.show()

    # -- palette ------------------------------------------------------------------------------
    def changeEvent(self, event: QEvent) -> None:
        super().changeEvent(event)
        if event.type() == QEvent.Type.PaletteChange:
            self._apply_palette()
            self._draw()

    def _apply_palette(self) -> None:
        window = self.palette().color(QPalette.ColorRole.Window)
        dark = window.lightness() < 128
        self._fg = "#e0e0e0" if dark else "#000000"
        self._hover_fill = QColor(40, 40, 40, 230) if dark else QColor(255, 255, 240, 235)
        self.plot.setBackground(window if dark else QColor("white"))
        for name in ("left", "bottom"):
            axis = self.plot.getAxis(name)
            axis.setPen(pg.mkPen(self._fg))
            axis.setTextPen(pg.mkPen(self._fg))
        self.plot.showGrid(x=True, y=True, alpha=0.25)
