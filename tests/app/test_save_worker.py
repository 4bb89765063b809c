"""File > Save writes the design in a worker: the window keeps painting, its input held by a
progress dialog without Cancel (a save runs to its end), and the file holds the design."""

from __future__ import annotations

import threading
import time

from planner.io import open_project


def test_save_runs_in_a_worker_while_the_window_keeps_turning(window, qtbot, tmp_path, monkeypatch):
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QProgressDialog, QPushButton

    from app import document

    threads, buttons, ticks = [], [], []
    real = document.save_project

    def slow(project, path, **options):
        threads.append((threading.current_thread().name, options.get("stepwise")))
        time.sleep(0.15)  # (lets go of the interpreter: the GUI thread turns meanwhile)
        return real(project, path, **options)

    monkeypatch.setattr(document, "save_project", slow)

    def look() -> None:
        ticks.append(1)
        for dlg in window.findChildren(QProgressDialog):
            buttons.append(len(dlg.findChildren(QPushButton)))

    timer = QTimer(window)
    timer.timeout.connect(look)
    timer.start(5)
    path = tmp_path / "mine.sanplan"
    window.answers["save"] = str(path)
    assert window.file_save_as()  # File > Save As, the name chosen in the dialog
    timer.stop()
    assert threads == [("save", True)]  # in the worker, encoded in steps
    assert len(ticks) > 10 and buttons and not any(buttons)  # the loop turned; no Cancel
    assert window.doc.path == path and window.doc.is_clean()
    assert len(open_project(path).topology) == len(window.doc.topology)
    assert not [a for a in window.asked if a[0] == "error"]
