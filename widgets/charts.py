"""Charts panel: how busy each hop level is, and what each path gets (pyqtgraph).

(a) The utilization of the busiest component of each hop level (HBA, PHB, RIO2 link, planar,
drawer, server, switch port, ASIC, backplane, host port, subsystem, array: planner.schema's chart
order), coloured by the bands of :mod:`planner.bands`, with a 100 % line. (b) MB/s per path, fastest first, or a
histogram when there are more than :data:`HISTOGRAM_ABOVE` paths. Hovering shows the numbers.
Both follow ``doc.analysisReady``; the background follows the application palette.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QEvent, QPointF, Qt
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QSplitter, QVBoxLayout, QWidget

from planner import bands
from planner.naming import label
from planner.schema import chart_kinds, kind_name
from widgets.deferred import WhenShown

if TYPE_CHECKING:
    from app.document import AnalysisBundle, Document
    from planner.analysis import Analysis

#: hop levels as charted (planner.schema's chart order, from the adapter outwards): kind -> axis
#: name (two words on two lines)
LEVELS: tuple[tuple[str, str], ...] = tuple((k, kind_name(k).replace(" ", "\n")) for k in chart_kinds())
HISTOGRAM_ABOVE = 200
PATH_COLOUR = "#1e88e5"

#: the least room between two labelled ticks of a value axis, in text heights
TICK_ROOM = 1.6

_configured = False


def tick_step(span: float, pixels: float, min_px: float, integer: bool = False) -> float:
    """The smallest step of 1, 2, 2.5 or 5 x 10^k that puts labelled ticks ``min_px`` apart on an
    axis of ``pixels`` showing ``span`` data units (at least 1 for a count axis)."""
    if span <= 0 or pixels <= 0:
        return 1.0
    raw = span * min_px / pixels
    unit = 10 ** math.floor(math.log10(raw))
    step = next(m * unit for m in (1, 2, 2.5, 5, 10) if m * unit >= raw * (1 - 1e-9))
    if integer:
        step = max(1.0, float(math.ceil(step)))
    return step


def value_ticks(top: float, step: float) -> list[tuple[float, str]]:
    """Labelled ticks 0, step, 2 step ... up to ``top``."""
    n = int(math.floor(top / step + 1e-9))
    return [(i * step, f"{i * step:,.10g}") for i in range(n + 1)]


def utilization_colour(pct: float) -> str:
    """Bar colour for a utilization in percent (the bands of :mod:`planner.bands`)."""
    return bands.colour(pct / 100)


@dataclass
class LevelStat:
    """The busiest component of one hop level."""

    kind: str
    name: str
    utilization: float  # fraction of capacity, of the busiest component
    load: float
    capacity: float
    busiest: str  # component id
    components: int  # components of this level with a capacity
    saturated: int  # of them in the "over" band


def level_stats(result: Analysis) -> list[LevelStat]:
    """Per hop level present in the analysis (components with a capacity), its busiest component.
    (The loads sorted by level in one pass: a pass per level over the 16x site's 32,000 loads
    took 10-20 ms of the panel's first showing.)"""
    by_kind: dict[str, list] = {kind: [] for kind, _ in LEVELS}
    for ld in result.components.values():
        if ld.capacity and ld.kind in by_kind:
            by_kind[ld.kind].append(ld)
    out = []
    for kind, name in LEVELS:
        loads = by_kind[kind]
        if not loads:
            continue
        top = max(loads, key=lambda ld: (ld.load / ld.capacity, ld.load))
        saturated = sum(1 for ld in loads if bands.band(ld.load / ld.capacity) == "over")
        out.append(
            LevelStat(kind, name, top.load / top.capacity, top.load, top.capacity, top.id, len(loads), saturated)
        )
    return out


class ChartsPanel(QWidget):
    """Utilization per hop level and MB/s per path. ``doc`` is an ``app.document.Document``.

    Public: ``util_plot``, ``path_plot`` (pg.PlotWidget), ``level_bars``, ``path_bars``
    (pg.BarGraphItem or None), ``stats`` (list of :class:`LevelStat`), :meth:`hover_level`,
    :meth:`hover_path` (the hover text at a data x position).
    """

    def __init__(self, doc: Document, parent: QWidget | None = None) -> None:
        global _configured
        if not _configured:
            pg.setConfigOptions(antialias=True)
            _configured = True
        super().__init__(parent)
        self.setObjectName("ChartsPanel")
        self.doc = doc
        self.stats: list[LevelStat] = []
        self.path_values: list[tuple[str, float, str]] = []  # (path id, MB/s, binding hop id), fastest first
        self.histogram: tuple[np.ndarray, np.ndarray] | None = None
        self.level_bars: pg.BarGraphItem | None = None
        self.path_bars: pg.BarGraphItem | None = None
        self.level_labels: list[tuple[pg.TextItem, float]] = []  # (value label, bar height %)
        self._fg = "#000000"

        lay = QVBoxLayout(self)
        lay.setContentsMargins(4, 4, 4, 4)
        split = QSplitter(Qt.Orientation.Vertical)
        self.util_plot = pg.PlotWidget()
        self.util_plot.setMenuEnabled(False)
        self.util_plot.setMouseEnabled(x=False, y=False)
        self.util_plot.hideButtons()
        # two-line level names ("switch / port"): give the axis room for them up front
        self.util_plot.getAxis("bottom").setHeight(2 * self.fontMetrics().height() + 12)
        self.util_plot.setToolTip("Utilization of the busiest component of each hop level; hover a bar for details")
        self.path_plot = pg.PlotWidget()
        self.path_plot.setMenuEnabled(False)
        self.path_plot.setMouseEnabled(x=False, y=False)
        self.path_plot.hideButtons()
        self.path_plot.setToolTip("What each path gets when all run at once; hover a bar for details")
        split.addWidget(self.util_plot)
        split.addWidget(self.path_plot)
        lay.addWidget(split)

        self.util_hover = pg.TextItem(anchor=(0, 1))
        self.path_hover = pg.TextItem(anchor=(0, 1))
        for item in (self.util_hover, self.path_hover):
            item.setZValue(100)  # above the bars and their value labels
        self.util_plot.scene().sigMouseMoved.connect(self._on_util_mouse)
        self.path_plot.scene().sigMouseMoved.connect(self._on_path_mouse)
        for plot in (self.util_plot, self.path_plot):
            plot.getPlotItem().vb.sigResized.connect(self._fit)

        self._apply_palette()
        self.follow = WhenShown(self, self._on_analysis, doc)  # only while on screen
        doc.analysisReady.connect(self.follow.take)
        doc.projectReplaced.connect(self._clear)
        if doc.analysis is not None:
            self._on_analysis(doc.analysis)
        else:
            self._clear()

    # -- hover texts (the mouse handlers and tests use them) ---------------------------------
    def hover_level(self, x: float) -> str:
        """The hover text for the utilization bar at data x, or '' when none is there."""
        i = int(round(x))
        if abs(x - i) > 0.45 or not 0 <= i < len(self.stats):
            return ""
        s = self.stats[i]
        topo = self.doc.topology
        busiest = label(topo, s.busiest)
        name = s.name.replace("\n", " ")
        text = (
            f"{name}: max {s.utilization * 100:.0f} %\n{s.load:.0f} of {s.capacity:.0f} MB/s\n"
            f"busiest: {busiest} (of {s.components})"
        )
        if s.saturated:
            text += f"\n{s.saturated} at {bands.OVER_FROM * 100:.0f} % or more"
        return text

    def hover_path(self, x: float) -> str:
        """The hover text for the path bar (or histogram bin) at data x, or ''."""
        if self.histogram is not None:
            counts, edges = self.histogram
            i = int(np.searchsorted(edges, x, side="right")) - 1
            if not 0 <= i < len(counts):
                return ""
            return f"{int(counts[i])} paths at {edges[i]:.0f}-{edges[i + 1]:.0f} MB/s"
        i = int(round(x))
        if abs(x - i) > 0.45 or not 0 <= i < len(self.path_values):
            return ""
        pid, mbps, hop = self.path_values[i]  # (the hop named when shown: 1,792 labels took 15-30 ms)
        return f"{pid}\n{mbps:.1f} MB/s" + (f", bound by {label(self.doc.topology, hop)}" if hop else "")

    # -- drawing --------------------------------------------------------------------------
    def _clear(self) -> None:
        self.follow.forget()
        self.stats, self.path_values, self.histogram = [], [], None
        self.level_bars = self.path_bars = None
        self.level_labels = []
        for plot in (self.util_plot, self.path_plot):
            plot.clear()
        self._titles(None)

    def _on_analysis(self, bundle: AnalysisBundle) -> None:
        self._draw_levels(bundle)
        self._draw_paths(bundle)
        self._titles(bundle)
        self._fit()

    def _draw_levels(self, bundle: AnalysisBundle) -> None:
        plot = self.util_plot
        plot.clear()
        self.stats = level_stats(bundle.result)
        n = len(self.stats)
        heights = [s.utilization * 100 for s in self.stats]
        if n:
            self.level_bars = pg.BarGraphItem(
                x=np.arange(n),
                height=heights,
                width=0.7,
                brushes=[pg.mkBrush(utilization_colour(h)) for h in heights],
                pens=[pg.mkPen(None)] * n,
            )
            plot.addItem(self.level_bars)
            self.level_labels = []
            for i, h in enumerate(heights):
                label = pg.TextItem(f"{h:.0f}", color=self._fg, anchor=(0.5, 1))
                label.setPos(i, h)
                plot.addItem(label)
                self.level_labels.append((label, h))
        else:
            self.level_bars = None
            self.level_labels = []
        line = pg.InfiniteLine(
            pos=100,
            angle=0,
            movable=False,
            pen=pg.mkPen(bands.STRONG["over"], width=1, style=Qt.PenStyle.DashLine),
        )  # no text on the line: it would collide with the value labels of saturated bars
        plot.addItem(line)
        plot.getAxis("bottom").setTicks([[(i, s.name) for i, s in enumerate(self.stats)]])
        plot.setXRange(-0.6, max(n, 1) - 0.4, padding=0)
        plot.setYRange(0, max(110.0, max(heights, default=0) + 10), padding=0)
        plot.addItem(self.util_hover, ignoreBounds=True)
        self.util_hover.hide()

    def _draw_paths(self, bundle: AnalysisBundle) -> None:
        plot = self.path_plot
        plot.clear()
        rated = [p for p in bundle.result.paths if p.mbps is not None]
        rated.sort(key=lambda p: (-p.mbps, p.id))
        self.path_values = [(p.id, float(p.mbps), p.bottleneck or "") for p in rated]
        values = np.array([v for _, v, _ in self.path_values], dtype=float)
        bottom = plot.getAxis("bottom")
        if len(values) > HISTOGRAM_ABOVE:
            bins = min(40, max(10, int(np.sqrt(len(values)))))
            lo, hi = float(values.min()), float(values.max())
            if hi - lo < 1e-9:
                lo, hi = lo - 0.5, hi + 0.5
            counts, edges = np.histogram(values, bins=bins, range=(lo, hi))
            self.histogram = (counts, edges)
            self.path_bars = pg.BarGraphItem(
                x0=edges[:-1],
                width=np.diff(edges),
                height=counts,
                brush=pg.mkBrush(PATH_COLOUR),
                pen=pg.mkPen(self._fg, width=0.5),
            )
            plot.addItem(self.path_bars)
            bottom.setTicks(None)
            plot.setLabel("bottom", "MB/s per path; bar height: number of paths", color=self._fg)
            plot.setXRange(lo, hi, padding=0.02)
            plot.setYRange(0, max(float(counts.max()), 1) * 1.1, padding=0)
        else:
            self.histogram = None
            n = len(values)
            if n:
                self.path_bars = pg.BarGraphItem(
                    x=np.arange(n), height=values, width=0.8, brush=pg.mkBrush(PATH_COLOUR), pen=pg.mkPen(None)
                )
                plot.addItem(self.path_bars)
            else:
                self.path_bars = None
            step = max(1, int(np.ceil(n / 12))) if n else 1
            bottom.setTicks([[(i, str(i + 1)) for i in range(0, n, step)]])
            plot.setLabel("bottom", "paths, fastest first", color=self._fg)
            plot.setXRange(-0.6, max(n, 1) - 0.4, padding=0)
            plot.setYRange(0, max(float(values.max()) if n else 0.0, 1.0) * 1.12, padding=0)
        plot.addItem(self.path_hover, ignoreBounds=True)
        self.path_hover.hide()

    def _titles(self, bundle: AnalysisBundle | None) -> None:
        # the units are in the titles: an axis label taller than a short plot would be cut off
        fg = self._fg
        if bundle is None:
            self.util_plot.setTitle("% utilization of the busiest component per hop level (analysing...)", color=fg)
            self.path_plot.setTitle("MB/s per path (analysing...)", color=fg)
            return
        how = f"{bundle.direction}, {bundle.figures} figures"
        self.util_plot.setTitle(f"% utilization of the busiest component per hop level ({how})", color=fg)
        rated = len(self.path_values)
        if not bundle.result.paths:
            self.path_plot.setTitle("No paths yet: cable, zone, map and own a logical drive", color=fg)
        else:
            self.path_plot.setTitle(
                f"MB/s per path: {rated} paths, aggregate {bundle.result.aggregate:.0f} MB/s", color=fg
            )

    # -- fitting the labels to the plot's size -------------------------------------------
    def _fit(self, *_args: object) -> None:
        """Value-axis ticks far enough apart for their text, and each bar's value label inside
        the top of its bar when it fits there, else just above it (never cut off at the top)."""
        text_px = self.fontMetrics().height()
        for plot, integer in ((self.util_plot, False), (self.path_plot, self.histogram is not None)):
            vb = plot.getPlotItem().vb
            (_, _), (y0, y1) = vb.viewRange()
            pixels = vb.height()
            step = tick_step(y1 - y0, pixels, TICK_ROOM * text_px, integer)
            axis = plot.getAxis("left")
            ticks = value_ticks(y1, step)
            axis.setTicks([ticks, []])
            widest = max((self.fontMetrics().horizontalAdvance(t) for _, t in ticks), default=0)
            axis.setWidth(widest + 12)  # the labels of these ticks, not of pyqtgraph's own
        vb = self.util_plot.getPlotItem().vb
        (_, _), (y0, y1) = vb.viewRange()
        per_px = (y1 - y0) / vb.height() if vb.height() > 0 else 0.0
        for item, h in self.level_labels:
            inside = per_px > 0 and h / per_px >= text_px + 4
            item.setAnchor((0.5, 0.0) if inside else (0.5, 1.0))
            item.setColor(pg.mkColor("#ffffff") if inside else pg.mkColor(self._fg))
            item.setPos(item.pos().x(), h)

    def label_inside(self, index: int) -> bool:
        """Whether the value label of level bar ``index`` sits inside its bar (tests)."""
        return tuple(self.level_labels[index][0].anchor) == (0.5, 0.0)

    # -- hover ----------------------------------------------------------------------------
    def _on_util_mouse(self, pos: QPointF) -> None:
        self._hover(self.util_plot, self.util_hover, pos, self.hover_level)

    def _on_path_mouse(self, pos: QPointF) -> None:
        self._hover(self.path_plot, self.path_hover, pos, self.hover_path)

    def _hover(self, plot: pg.PlotWidget, item: pg.TextItem, pos: QPointF, text_at: Any) -> None:
        vb = plot.getPlotItem().vb
        if not vb.sceneBoundingRect().contains(pos):
            item.hide()
            return
        pt = vb.mapSceneToView(pos)
        text = text_at(pt.x())
        if not text:
            item.hide()
            return
        item.setText(text, color=self._fg)
        (x0, x1), (y0, y1) = vb.viewRange()
        # keep the text inside the plot: flip to the left / below near the right or top edge
        ax = 1.0 if pt.x() > (x0 + x1) / 2 else 0.0
        ay = 0.0 if pt.y() > (y0 + y1) / 2 else 1.0
        item.setAnchor((ax, ay))
        item.setPos(pt.x(), pt.y())
        item.fill = pg.mkBrush(self._hover_fill)
        item.show()

    # -- palette --------------------------------------------------------------------------
    def changeEvent(self, event: QEvent) -> None:
        super().changeEvent(event)
        if event.type() == QEvent.Type.PaletteChange:
            self._apply_palette()
            if self.doc.analysis is not None:
                self._on_analysis(self.doc.analysis)

    def _apply_palette(self) -> None:
        window = self.palette().color(QPalette.ColorRole.Window)
        dark = window.lightness() < 128
        bg = window if dark else QColor("white")
        self._fg = "#e0e0e0" if dark else "#000000"
        self._hover_fill = QColor(40, 40, 40, 230) if dark else QColor(255, 255, 240, 235)
        for plot in (self.util_plot, self.path_plot):
            plot.setBackground(bg)
            for name in ("left", "bottom"):
                axis = plot.getAxis(name)
                axis.setPen(pg.mkPen(self._fg))
                axis.setTextPen(pg.mkPen(self._fg))
            plot.showGrid(x=False, y=True, alpha=0.25)
