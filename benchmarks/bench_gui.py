"""Speed benchmark for the editor (issue #3). Not a test: run it and read the medians.

    QT_QPA_PLATFORM=offscreen python benchmarks/bench_gui.py [--repeat N]

Measures on the 7-drawer p690 benchmark:
- open: open the .sanplan file, lay it out, draw it and finish the first analysis (target 2 s);
- re-analysis after an edit until the canvas and panels show the new result (target 100 ms),
  and the longest the event loop was blocked meanwhile (a responsive window stays well under 50 ms);
- pan and zoom with everything expanded: frames per second of full repaints (target 60).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from PySide6.QtCore import QCoreApplication, QElapsedTimer, QTimer  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

from catalogs.catalog import Catalog, builtin_parts  # noqa: E402
from planner.examples import build_example  # noqa: E402
from planner.io import Project, save_project  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    app = QApplication.instance() or QApplication([])
    os.environ["SANPLAN_HOME"] = tempfile.mkdtemp()
    from app.mainwindow import MainWindow

    path = Path(tempfile.mkdtemp()) / "bench.sanplan"
    save_project(Project(build_example("p690-benchmark", builtin_parts())), path)

    opens = []
    for _ in range(args.repeat):
        w = MainWindow(Catalog(":memory:"))
        w.resize(1600, 1000)
        w.show()
        app.processEvents()
        t0 = time.perf_counter()
        w.open_path(path)
        w.doc.wait_for_analysis(30000)
        w.repaint()
        app.processEvents()
        opens.append(time.perf_counter() - t0)
        w.doc.undo_stack.setClean()
        w.close()
    print(f"open + show the 7-drawer benchmark: median {statistics.median(opens) * 1000:.0f} ms (target 2000 ms)")

    w = MainWindow(Catalog(":memory:"))
    w.resize(1600, 1000)
    w.show()
    w.open_path(path)
    w.doc.wait_for_analysis(30000)
    from planner import edit

    gaps: list[float] = []
    tick = QElapsedTimer()
    timer = QTimer()
    timer.setInterval(2)

    def on_tick() -> None:
        gaps.append(tick.restart())

    timer.timeout.connect(on_tick)
    latencies, blocked, ticks = [], [], []
    for i in range(args.repeat * 2):
        got: list[float] = []
        w.doc.analysisReady.connect(lambda _b, got=got: got.append(time.perf_counter()))
        gaps.clear()
        tick.start()
        timer.start()
        t0 = time.perf_counter()
        w.doc.run(edit.set_attr, "fastt1.arr1", "segment_kb", 256 if i % 2 == 0 else 128)
        while not got and time.perf_counter() - t0 < 10:
            QCoreApplication.processEvents()
        timer.stop()
        latencies.append(got[0] - t0)
        blocked.append(max(gaps, default=(time.perf_counter() - t0) * 1000))
        ticks.append(len(gaps))
        w.doc.analysisReady.disconnect()
        app.processEvents()
    print(
        f"re-analysis after an edit: median {statistics.median(latencies) * 1000:.0f} ms (target 100 ms); "
        f"longest event-loop block meanwhile: median {statistics.median(blocked):.0f} ms over {statistics.median(ticks):.0f} timer ticks"
    )

    w.scene.set_all_collapsed(False)
    w.view.zoom_to_fit()
    app.processEvents()
    items = len(w.scene.items())
    frames = 120
    vp = w.view.viewport()
    hbar, vbar = w.view.horizontalScrollBar(), w.view.verticalScrollBar()
    w.view.zoom(3.0)
    t0 = time.perf_counter()
    for i in range(frames):
        if i % 3 == 0:
            w.view.zoom(1.02 if (i // 30) % 2 == 0 else 0.98)
        hbar.setValue(hbar.minimum() + (i * 37) % max(1, hbar.maximum() - hbar.minimum()))
        vbar.setValue(vbar.minimum() + (i * 53) % max(1, vbar.maximum() - vbar.minimum()))
        vp.repaint()
    fps = frames / (time.perf_counter() - t0)
    w.view.zoom_to_fit()
    t0 = time.perf_counter()
    for _ in range(20):
        vp.repaint()
    fps_all = 20 / (time.perf_counter() - t0)
    print(
        f"pan and zoom, everything expanded ({items:,} items): {fps:.0f} frames/s at working zoom, "
        f"{fps_all:.0f} frames/s with the whole design in view (target 60)"
    )
    w.doc.undo_stack.setClean()
    w.close()


if __name__ == "__main__":
    main()
