"""Long exports: the PDF build sheet runs in a worker with a progress bar and Cancel in the editor,
and ``sanplan export`` prints its progress on stderr (a terminal, or ``--progress``)."""

from __future__ import annotations

import io

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QProgressDialog, QPushButton

from app.cli import main
from app.cli_progress import TerminalProgress, terminal_progress
from app.dialogs import Cancelled, run_with_progress


def test_cli_progress_only_when_asked_or_on_a_terminal(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("SANPLAN_HOME", str(tmp_path / "home"))
    path = tmp_path / "one.sanplan"
    assert main(["example", "p690-one-drawer", str(path)]) == 0
    capsys.readouterr()
    assert main(["export", str(path), "--pdf", str(tmp_path / "a.pdf")]) == 0
    out, err = capsys.readouterr()
    assert out.startswith("wrote ") and err == ""  # not a terminal: the output as it always was
    assert main(["export", str(path), "--pdf", str(tmp_path / "b.pdf"), "--progress"]) == 0
    out2, err = capsys.readouterr()
    assert out2 == out.replace("a.pdf", "b.pdf")
    lines = err.splitlines()
    assert lines[0].startswith("  0 %  analysing the design") and lines[-1].startswith("100 %  written")
    assert any("laid out" in line for line in lines) and len(lines) > 5


class _Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_terminal_progress_rewrites_one_line_on_a_terminal():
    assert terminal_progress(False, io.StringIO()) is None
    tty = _Tty()
    shown = terminal_progress(False, tty)
    assert isinstance(shown, TerminalProgress)
    shown(0.1, "assembling a long section name")
    shown(0.5, "short")
    shown(0.5, "short")  # the same again: nothing written
    shown.close()
    text = tty.getvalue()
    assert text.count("\r") == 2 and text.endswith("\n") and text.count("\n") == 1
    last = text.split("\r")[-1]
    assert last.startswith(" 50 %  short") and len(last.rstrip("\n")) >= len(" 10 %  assembling a long section name")


def _cancel_when_shown(qtbot, parent) -> QTimer:
    """Press Cancel on the progress dialog as soon as it exists."""
    timer = QTimer(parent)
    timer.setInterval(5)

    def poke() -> None:
        for dlg in parent.findChildren(QProgressDialog):
            if not dlg.wasCanceled():
                dlg.findChild(QPushButton).click()  # the dialog's Cancel button
                timer.stop()

    timer.timeout.connect(poke)
    timer.start()
    return timer


def test_run_with_progress_runs_in_a_worker_and_cancels(qtbot):
    import threading

    from PySide6.QtWidgets import QWidget

    parent = QWidget()
    qtbot.addWidget(parent)
    threads = []
    assert run_with_progress(parent, "Working...", lambda p: threads.append(threading.current_thread()) or 42) == 42
    assert threads[0] is not threading.main_thread()
    steps = []

    def endless(progress):
        while True:
            progress(0.5, "still working")
            steps.append(1)
            threading.Event().wait(0.002)

    _cancel_when_shown(qtbot, parent)
    try:
        run_with_progress(parent, "Working...", endless)
    except Cancelled as err:
        assert "cancelled" in str(err)
    else:
        raise AssertionError("Cancel did not stop the job")
    assert steps  # it ran, and stopped at the next progress call after Cancel


def test_build_sheet_export_can_be_cancelled(window, home, qtbot):
    w = window
    pdf = home / "sheet.pdf"
    w.answers["export"] = str(pdf)
    timer = _cancel_when_shown(qtbot, w)
    w.export_pdf()
    timer.stop()
    assert not pdf.exists() and not list(home.glob(".sheet.pdf*"))  # nothing written, no temporary left
    assert "cancelled" in w.message_label.text()
    assert not any(what == "error" for what, *_ in w.asked)
    w.export_pdf()  # and again, not cancelled: written
    assert pdf.read_bytes().startswith(b"%PDF")
