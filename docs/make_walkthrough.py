"""Screenshots of "your first design" for the README, taken from the real editor while it builds the
minimal design through its own actions (the same steps as tests/app/test_first_design.py).

Run under a real X server to see the real window, e.g. Debian's xvfb:
    xvfb-run -s "-screen 0 1600x1000x24" .venv/bin/python docs/make_walkthrough.py
(with QT_QPA_PLATFORM=offscreen it works too.)
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

os.environ["SANPLAN_HOME"] = tempfile.mkdtemp()
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
OUT = ROOT / "docs" / "screenshots"


def main() -> None:
    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest
    from PySide6.QtWidgets import QApplication

    app = QApplication.instance() or QApplication([])
    from app.mainwindow import MainWindow
    from catalogs.catalog import Catalog
    from tests.app.test_first_design import build_first_design

    w = MainWindow(Catalog(":memory:"))
    w.doc.synchronous = True
    w.ask = lambda what, text, detail="": 14 if what == "drives" else None
    w.resize(1600, 1000)
    w.show()
    QTest.qWaitForWindowExposed(w)

    def shot(name: str) -> None:
        import time

        while w.view.summary.rough:  # a zoom settles: the links are drawn smooth again
            app.processEvents()
            time.sleep(0.01)
        for _ in range(5):
            app.processEvents()
        target = w.zoning_dialog if name.endswith("zoning") else w
        target.grab().save(str(OUT / f"first-design-{name}.png"))

    build_first_design(w, lambda button: QTest.mouseClick(button, Qt.MouseButton.LeftButton), shot)
    print("wrote", ", ".join(sorted(p.name for p in OUT.glob("first-design-*.png"))))


if __name__ == "__main__":
    main()
