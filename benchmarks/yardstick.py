"""The machine's speed on the day, printed by ``bench_gui.py`` before and after its run (the
machine is shared: the same code measured 2-2.5x slower on one day than on another, so compare
the yardsticks of two runs before their milliseconds). Needs a QApplication."""

from __future__ import annotations

import statistics
import time

from PySide6.QtCore import QPointF, QRectF
from PySide6.QtGui import QColor, QImage, QPainter, QPainterPath, QPen

from catalogs.catalog import builtin_parts
from planner.analysis import analyze
from planner.examples import build_example
from planner.rules import check


def yardstick(repeat: int = 5) -> dict:
    """The machine's speed on the day, for comparing runs of different days (the machine is
    shared, and the same code measured 2-2.5x slower on one day than on another): the medians
    (wall ms) of ``repeat`` runs of a fixed Python workload (the p690 benchmark analysed and
    checked, as ``bench_analysis.py`` times it) and of a fixed Qt paint (2,000 antialiased
    curves, 4,000 rectangles and 2,000 texts on a 1600 x 1000 image)."""
    topo = build_example("p690-benchmark", builtin_parts())
    image = QImage(1600, 1000, QImage.Format.Format_ARGB32_Premultiplied)

    def python_work() -> None:
        check(topo, "planning", "read", analysis=analyze(topo, "planning", "read"))

    def paint_work() -> None:
        image.fill(QColor("white"))
        p = QPainter(image)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        p.setPen(QPen(QColor(200, 120, 0), 1.5))
        for i in range(2000):
            path = QPainterPath(QPointF(i % 1600, (i * 7) % 1000))
            path.cubicTo(QPointF(800, i % 1000), QPointF(400, (i * 3) % 1000), QPointF((i * 5) % 1600, 500))
            p.drawPath(path)
        for i in range(4000):
            p.drawRect(QRectF((i * 13) % 1560, (i * 17) % 980, 40, 20))
        for i in range(2000):
            p.drawText(QPointF((i * 29) % 1500, (i * 31) % 990 + 10), f"s{i}_p690 fcs{i % 8}")
        p.end()

    out = {}
    for name, work in (("python_ms", python_work), ("paint_ms", paint_work)):
        work()  # (warm)
        times = []
        for _ in range(repeat):
            t0 = time.perf_counter()
            work()
            times.append((time.perf_counter() - t0) * 1000)
        out[name] = round(statistics.median(times), 1)
    return out
