"""The Resilience panel: Run, the sorted table, a row selects the failed component."""

from __future__ import annotations

from PySide6.QtCore import Qt

from planner import edit
from widgets.resilience import ID_ROLE, ResiliencePanel


def _rows(panel):
    return [panel.table.item(r, 0).data(ID_ROLE) for r in range(panel.table.rowCount())]


def test_run_fills_the_table_worst_first(qtbot, doc):
    panel = ResiliencePanel(doc)
    qtbot.addWidget(panel)
    assert panel.table.rowCount() == 0
    qtbot.mouseClick(panel.run_button, Qt.MouseButton.LeftButton)
    assert panel.result is not None and panel.table.rowCount() == len(panel.result.failures)
    first = panel.result.failures[0]
    assert _rows(panel)[0] == first.component and first.aggregate_mbps == 0  # the drawer or the switch
    assert "2,400 MB/s" in panel.status.text() and "lose data access" in panel.status.text()


def test_choosing_a_row_selects_the_component(qtbot, doc):
    panel = ResiliencePanel(doc)
    qtbot.addWidget(panel)
    panel.run()
    with qtbot.waitSignal(panel.focusRequested) as got:
        assert panel.select_component("hba.d1s1")
    assert got.args == [["hba.d1s1"]] and doc.selection == ["hba.d1s1"]
    row = panel.table.currentRow()
    assert panel.table.item(row, 2).text() == "2,250.0"  # one HBA failed: 2,400 - 150


def test_sorting_by_mbps_left_is_numeric(qtbot, doc):
    panel = ResiliencePanel(doc)
    qtbot.addWidget(panel)
    panel.run()
    panel.table.sortItems(2, Qt.SortOrder.DescendingOrder)
    left = [float(panel.table.item(r, 2).text().replace(",", "")) for r in range(panel.table.rowCount())]
    assert left == sorted(left, reverse=True) and left[-1] == 0


def test_out_of_date_after_a_change_and_automatic_reruns(qtbot, doc):
    panel = ResiliencePanel(doc)
    qtbot.addWidget(panel)
    panel.run()
    doc.run(edit.delete, ["z.Z_D1_FCS1_FASTT1_B"])
    assert "Out of date" in panel.status.text()
    panel.auto.setChecked(True)
    doc.undo_stack.undo()
    assert "Out of date" not in panel.status.text()
    assert panel.result.baseline_mbps == 2400


def test_background_run(qtbot, doc):
    doc.synchronous = False
    panel = ResiliencePanel(doc)
    qtbot.addWidget(panel)
    panel.run()
    qtbot.waitUntil(lambda: panel.result is not None, timeout=10000)
    assert panel.table.rowCount() == len(panel.result.failures)


def test_an_edit_stops_a_background_run(qtbot, doc, monkeypatch):
    """The run goes on the background's copy of the design; an edit made meanwhile stops it (its
    progress call raises) and the panel says so; nothing stale is shown."""
    import threading

    import planner.resilience as res

    doc.synchronous = False
    started, release = threading.Event(), threading.Event()
    real = res.resilience

    def slow(*args, progress=None, **kwargs):
        started.set()
        release.wait(10)
        progress(0.0)  # the edit is queued by now: this raises
        return real(*args, progress=progress, **kwargs)

    monkeypatch.setattr("widgets.resilience.resilience", slow)
    panel = ResiliencePanel(doc)
    qtbot.addWidget(panel)
    panel.run()
    qtbot.waitUntil(started.is_set, timeout=10000)
    doc.run(edit.delete, ["z.Z_D1_FCS1_FASTT1_B"])
    qtbot.waitUntil(lambda: doc._background._check_lane.queued(), timeout=10000)
    release.set()
    qtbot.waitUntil(lambda: "changed during the run" in panel.status.text(), timeout=10000)
    assert panel.result is None and panel.table.rowCount() == 0
    monkeypatch.setattr("widgets.resilience.resilience", real)
    panel.run()
    assert panel.wait() and panel.result is not None
    assert panel.table.rowCount() == len(panel.result.failures)
