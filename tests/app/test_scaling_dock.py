"""The scaling curve in the editor: Design > Analysis > Scaling curve shows the dock (also in the
View menu), the curve follows the figure set, the source and edits, and names the knees."""

from __future__ import annotations

from PySide6.QtGui import QAction
from PySide6.QtWidgets import QApplication

from planner.analysis import analyze


def _action(window, action_id):
    acts = [a for a in window.findChildren(QAction) if a.objectName() == f"action-{action_id}"]
    assert acts
    return acts[0]


def test_scaling_curve_through_the_menu(window, tmp_path):
    doc = window.doc
    window.docks["scaling"].hide()
    assert any(a.text() == "Scaling" for a in window.menuBar().actions()[2].menu().actions())  # View
    _action(window, "scaling-curve").trigger()
    QApplication.processEvents()
    panel = window.scaling
    assert window.docks["scaling"].isVisible() and panel.isVisible()
    r = panel.result
    assert len(r.points) == 16 and r.points[-1].mbps == analyze(doc.topology, "planning").aggregate
    assert r.knees == [] and "2,400 MB/s with all 16 HBAs" in panel.plot.plotItem.titleLabel.text

    doc.set_figures("measured")  # follows the figure set (synchronous analysis in tests)
    panel.source.setCurrentIndex(panel.source.findData("cache"))
    r = panel.result
    assert r.figures == "measured" and r.source == "cache"
    assert [round(p.mbps) for p in r.points][:3] == [195, 390, 585] and round(r.points[-1].mbps) == 2650
    assert panel.knee_labels and panel.knee_labels[0].textItem.toPlainText() == "planar binds"
    assert "knee: 195 -> 162 MB/s per HBA; planar binds" in panel.hover_text(6)

    panel.by.setCurrentIndex(panel.by.findData("drawer"))
    assert len(panel.result.points) == 1 and panel.result.unit == "drawer"
    panel.by.setCurrentIndex(panel.by.findData("hba"))

    window.delete_ids(["hba.d1s19"])  # an edit: the curve follows
    QApplication.processEvents()
    assert len(panel.result.points) == 15
    doc.undo_stack.undo()
    QApplication.processEvents()
    assert len(panel.result.points) == 16
    window.docks["scaling"].resize(900, 420)
    QApplication.processEvents()
    assert panel.grab().save(str(tmp_path / "scaling.png"))


def test_hidden_tabs_do_no_work_until_raised(window, qtbot):
    """The Scaling, Paths and Racks tabs behind Findings stay stale through an edit (the curve
    costs one fill per HBA) and fill when their tab is raised."""
    from planner import edit
    from widgets.deferred import covered

    window.show()
    window.docks["findings"].raise_()
    qtbot.wait(50)
    panel = window.scaling
    assert covered(panel) and covered(window.paths)
    before = panel.result
    array = window.doc.topology.of_kind("array")[0].id
    window.doc.run(edit.set_attr, array, "segment_kb", 64)
    qtbot.wait(50)
    assert panel._stale and panel.result is before  # not recomputed behind the Findings tab
    assert window.paths.follow.pending is not None
    window.docks["scaling"].raise_()
    qtbot.waitUntil(lambda: not panel._stale, timeout=5000)
    assert (
        panel.result is not before
        and panel.result.points[-1].mbps == analyze(window.doc.topology, "planning").aggregate
    )
    window.docks["paths"].raise_()
    qtbot.waitUntil(lambda: window.paths.follow.pending is None, timeout=5000)


def test_the_curve_is_computed_off_the_gui_thread_and_follows_edits(window, qtbot):
    """With the background analysis (as in use), the curve is computed in the check lane on its
    copy of the design; an edit gives the curve of the new revision, never a stale one."""
    import threading

    import widgets.scaling as scaling_panel

    doc = window.doc
    doc.synchronous = False
    threads = []
    real = scaling_panel.scaling

    def spy(*args, **kwargs):
        threads.append(threading.current_thread())
        return real(*args, **kwargs)

    scaling_panel.scaling = spy
    try:
        _action(window, "scaling-curve").trigger()
        window.delete_ids(["hba.d1s19"])
        panel = window.scaling
        qtbot.waitUntil(lambda: panel.result is not None and len(panel.result.points) == 15, timeout=10000)
        assert threads and all(t is not threading.main_thread() for t in threads)
        assert panel.result.points[-1].mbps == analyze(doc.topology, "planning").aggregate
        doc.undo_stack.undo()
        qtbot.waitUntil(lambda: len(panel.result.points) == 16 and panel._asked is None, timeout=10000)
        assert "knee" in panel.note.text()
    finally:
        scaling_panel.scaling = real
