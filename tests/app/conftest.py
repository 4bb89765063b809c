"""Fixtures of the main-window tests: a window on the one-drawer example whose questions are
answered from a dict (``window.answers``) and recorded (``window.asked``)."""

from __future__ import annotations

import pytest

from app.mainwindow import MainWindow
from catalogs.catalog import Catalog


@pytest.fixture
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("SANPLAN_HOME", str(tmp_path / "home"))
    return tmp_path


@pytest.fixture
def window(qtbot, home):
    w = MainWindow(Catalog(":memory:"))
    w.doc.synchronous = True
    answers: dict[str, object] = {}
    asked: list[tuple] = []

    def ask(what, text, detail=""):
        asked.append((what, text, detail))
        return answers.get(what)

    w.ask = ask
    w.answers, w.asked = answers, asked
    qtbot.addWidget(w)
    w.resize(1400, 900)
    w.open_example("p690-one-drawer")
    w.show()
    qtbot.waitExposed(w)
    return w
