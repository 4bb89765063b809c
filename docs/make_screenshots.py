"""Regenerate the README screenshots from the real app (offscreen).

QT_QPA_PLATFORM=offscreen .venv/bin/python docs/make_screenshots.py
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ["SANPLAN_HOME"] = tempfile.mkdtemp()
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
OUT = ROOT / "docs" / "screenshots"


def main() -> None:
    from PySide6.QtWidgets import QApplication

    app = QApplication.instance() or QApplication([])
    from app.mainwindow import MainWindow
    from catalogs.catalog import Catalog

    OUT.mkdir(parents=True, exist_ok=True)
    w = MainWindow(Catalog(":memory:"))
    w.resize(1600, 1000)
    w.show()

    def settle() -> None:
        """The analysis done and painted, and a zoom settled (links drawn smooth again)."""
        import time

        w.doc.wait_for_analysis(30000)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and (
            w.view.summary.rough or w.scene._job is not None or w.scene.painted_revision != w.doc.topology.revision
        ):
            app.processEvents()
            time.sleep(0.01)
        for _ in range(5):
            app.processEvents()

    w.open_example("p690-benchmark")
    settle()
    w.view.zoom_to_fit()
    settle()
    w.grab().save(str(OUT / "editor-benchmark.png"))

    w.open_example("p690-worst-cabling")
    settle()
    w.findings.select_finding("ASIC_CROSSING")
    settle()
    w.view.zoom_to_fit()
    settle()
    w.grab().save(str(OUT / "editor-worst-cabling.png"))

    w.open_example("p690-one-drawer")
    w.figures_box.setCurrentText("measured")
    settle()
    w.docks["paths"].raise_()
    w.paths.select_path(next(p.id for p in w.doc.analysis.result.paths if p.hba_port == "hba.d1s5.0"))
    w.doc.select(["d1.p0.link1"])
    settle()
    w.view.resetTransform()
    w.view.zoom(0.95)
    w.view.centerOn(560, 260)
    settle()
    w.grab().save(str(OUT / "editor-one-drawer-measured.png"))
    w.doc.undo_stack.setClean()

    from PySide6.QtCore import Qt

    w.open_example("p690-benchmark")
    w.figures_box.setCurrentText("measured")
    settle()
    w.docks["scaling"].raise_()
    w.scaling.source.setCurrentIndex(w.scaling.source.findData("cache"))
    w.resizeDocks([w.docks["scaling"]], [430], Qt.Orientation.Vertical)
    settle()
    w.scaling.refresh()
    settle()
    w.grab().save(str(OUT / "editor-scaling.png"))

    w.figures_box.setCurrentText("planning")
    w.docks["racks"].raise_()
    settle()
    w.grab().save(str(OUT / "editor-racks.png"))
    w.doc.undo_stack.setClean()

    from catalogs.catalog import builtin_parts
    from planner.examples import build_site
    from planner.io import Project, save_project

    site = Path(tempfile.mkdtemp()) / "two servers.sanplan"
    save_project(Project(build_site(builtin_parts(), 2)), site)
    w.open_path(site)
    settle()
    w.docks["findings"].raise_()
    w.view.zoom_to_fit()
    w.doc.select(["s2.d1"])
    settle()
    w.grab().save(str(OUT / "editor-site.png"))
    w.doc.undo_stack.setClean()

    site16 = Path(tempfile.mkdtemp()) / "site 16x.sanplan"
    save_project(Project(build_site(builtin_parts(), 16)), site16)
    w.open_path(site16)
    settle()
    w.view.zoom_to_fit()
    settle()
    w.grab().save(str(OUT / "editor-site-16x.png"))
    w.close()
    print("wrote", ", ".join(p.name for p in sorted(OUT.glob("*.png"))))


if __name__ == "__main__":
    main()
