"""The main window as a user drives it: files, undo, properties, findings, crash recovery."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

from PySide6.QtCore import QPointF, Qt

from app.mainwindow import MainWindow, pending_recovery
from catalogs.catalog import Catalog
from planner import edit
from planner.io import open_project

ROOT = Path(__file__).resolve().parents[2]


def test_title_shows_unsaved_changes_and_undo_redo(window):
    w = window
    assert not w.isWindowModified()
    w.doc.run(edit.set_attr, "fastt1.arr1", "segment_kb", 256)
    assert w.isWindowModified()
    w.act_undo.trigger()
    assert w.doc.topology["fastt1.arr1"]["segment_kb"] == 128 and not w.isWindowModified()
    w.act_redo.trigger()
    assert w.doc.topology["fastt1.arr1"]["segment_kb"] == 256


def test_an_edit_leaves_the_toolbars_undo_buttons_as_they_were(window, qtbot):
    """The Edit menu's Undo and Redo name the edit; the toolbar's buttons trigger them and are
    enabled with them, but are not bound to them: a button bound to an action changed was
    resized, and the whole window was laid out again at each edit."""
    from PySide6.QtCore import QEvent, QObject
    from PySide6.QtWidgets import QToolBar, QToolButton

    w = window
    bar = w.findChild(QToolBar, "MainToolbar")
    buttons = [bar.findChild(QToolButton, name) for name in ("UndoButton", "RedoButton")]
    assert [b.isEnabled() for b in buttons] == [False, False] and "Ctrl+Z" in buttons[0].toolTip()
    asked: list[str] = []

    class Spy(QObject):
        def eventFilter(self, obj, event):
            if event.type() == QEvent.Type.LayoutRequest:
                asked.append(type(obj).__name__)
            return False

    w.doc.run(edit.set_attr, "fastt1.arr1", "segment_kb", 256)
    w.doc.run(edit.set_attr, "fastt1.arr2", "segment_kb", 256)
    assert [b.isEnabled() for b in buttons] == [True, False]
    qtbot.wait(50)  # (the window laid out after the edits' analyses)
    spy = Spy()
    for obj in (bar, w):
        obj.installEventFilter(spy)
    names = []
    for button in (buttons[0], buttons[1], buttons[0]):  # (both stay enabled)
        button.click()
        names.append(w.act_undo.text())
        qtbot.wait(20)
    assert [b.isEnabled() for b in buttons] == [True, True] and len(set(names)) == 2  # the menu names the edit
    assert w.doc.topology["fastt1.arr1"]["segment_kb"] == 256 and w.doc.topology["fastt1.arr2"]["segment_kb"] == 128
    assert not asked, asked
    buttons[0].click()
    assert [b.isEnabled() for b in buttons] == [False, True]  # the first edit undone too


def _type_into(w, qtbot, cid: str, key: str, text: str):
    """Select ``cid``, replace the text of its inspector field ``key`` with ``text`` by typing,
    press Enter; the field."""
    w.doc.select([cid])
    field = w.inspector.field(key)
    field.setFocus()
    field.selectAll()
    qtbot.keyClicks(field, text)
    qtbot.keyClick(field, Qt.Key.Key_Return)
    return field


def test_set_a_property_in_the_inspector(window, qtbot):
    w = window
    field = _type_into(w, qtbot, "hba.d1s1.0", "wwpn", "10:00:00:00:c9:12:34:56")
    assert w.doc.topology["hba.d1s1.0"]["wwpn"] == "10:00:00:00:c9:12:34:56"
    field.selectAll()
    qtbot.keyClicks(field, "not a wwpn")
    qtbot.keyClick(field, Qt.Key.Key_Return)
    assert "WWPN" in w.inspector.error_text("wwpn")
    assert w.doc.topology["hba.d1s1.0"]["wwpn"] == "10:00:00:00:c9:12:34:56"


def test_drop_from_palette_adds_a_subsystem(window):
    w = window
    t = w.doc.topology
    before = len(t.of_kind("subsystem"))
    w.drop_part("FAStT600-Turbo", "", QPointF(10, 10))  # the drive-count question cancelled: nothing added
    assert w.asked[-1][0] == "drives" and len(t.of_kind("subsystem")) == before
    w.answers["drives"] = 5
    w.drop_part("FAStT600-Turbo", "", QPointF(10, 10))
    assert len(t.of_kind("subsystem")) == before + 1
    assert w.doc.undo_stack.undoText().startswith("Add subsystem")
    new = t.of_kind("subsystem")[-1]
    assert sum(len(t.children(e.id, "drive")) for e in t.children(new.id, "enclosure")) == 5


def test_impossible_edit_is_refused_with_reason(window):
    w = window
    w.drop_part("FC6239", "d1.s1", QPointF())  # slot 1 holds fcs0
    assert "taken" in w.message_label.text()
    assert w.doc.topology.children("d1.s1", "hba")[0].id == "hba.d1s1"


def test_structural_parts_are_not_deleted_alone(window):
    w = window
    w.delete_ids(["sw1.asic0"])
    assert "sw1.asic0" in w.doc.topology and "delete the whole switch" in w.message_label.text()


def test_save_and_reopen(window, home):
    w = window
    path = home / "design.sanplan"
    w.doc.run(edit.set_attr, "cab1", "label", "RACK1-A")
    w.answers["save"] = str(path)
    assert w.file_save()
    assert not w.isWindowModified() and w.doc.path == path
    assert open_project(path).topology["cab1"]["label"] == "RACK1-A"
    w.doc.run(edit.set_attr, "cab1", "label", "CHANGED")
    w.answers["revert"] = "yes"
    w.file_revert()
    assert w.doc.topology["cab1"]["label"] == "RACK1-A"
    w.file_new()
    assert len(w.doc.topology) == 0
    assert w.file_open(str(path))
    assert w.doc.topology["cab1"]["label"] == "RACK1-A"


def test_unsaved_changes_are_not_lost_on_open(window, home):
    w = window
    w.doc.run(edit.set_attr, "cab1", "label", "MINE")
    w.answers["unsaved"] = "cancel"
    assert not w.file_open(str(home / "other.sanplan"))
    assert w.doc.topology["cab1"]["label"] == "MINE"


def test_opening_a_bad_file_names_it_and_keeps_the_design(window, home):
    w = window
    bad = home / "broken.sanplan"
    bad.write_bytes(b"SQLite format 3\x00" + b"\x13" * 500)
    before = len(w.doc.topology)
    assert not w.open_path(bad)
    what, text, detail = w.asked[-1]
    assert what == "error" and "broken.sanplan" in text and "broken.sanplan" in detail
    assert len(w.doc.topology) == before


def test_click_a_finding_selects_its_components(qtbot, home):
    w = MainWindow(Catalog(":memory:"))
    w.doc.synchronous = True
    qtbot.addWidget(w)
    w.open_example("p690-worst-cabling")
    w.show()
    item = w.findings.item_for("ASIC_CROSSING")
    tree = w.findings.tree
    rect = tree.visualItemRect(item)
    qtbot.mouseClick(tree.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert "sw1.bp" in w.doc.selection or "sw1" in w.doc.selection
    assert w.scene.items_by_id["sw1"].isSelected()


def test_scenarios_duplicate_and_switch(window, monkeypatch):
    """Design > Scenarios > Duplicate current: the copy is made by a worker (a site's took 240 ms
    on the GUI thread), the new scenario current and apart from the first; undo drops it. The
    worker lays the copy out too, and a large scenario switched to is laid out by a worker
    before it is shown (the canvas laid the 16x site out on the GUI thread: a 54-93 ms block)."""
    import threading

    import widgets.canvas.scene as scene_module
    from app import opening
    from planner.model import Topology

    w = window
    copied: list[str] = []
    clone = Topology.clone
    monkeypatch.setattr(Topology, "clone", lambda t: copied.append(threading.current_thread().name) or clone(t))
    laid_here: list[int] = []
    lay_out = scene_module.layout
    monkeypatch.setattr(scene_module, "layout", lambda *a, **k: laid_here.append(1) or lay_out(*a, **k))
    monkeypatch.setattr(opening, "PREPARE_AT", 0)  # (the one-drawer design is small)
    base = len(w.doc.topology)
    w.answers["text"] = "Two fabrics"
    w.scenario_menu.aboutToShow.emit()  # (Design > Scenarios opened: its entries made)
    next(a for a in w.scenario_menu.actions() if a.text() == "&Duplicate current...").trigger()
    assert copied == ["copy"] and w.doc.project.current == "Two fabrics" and len(w.doc.topology) == base
    assert not laid_here and w.scene.diagram.boxes  # shown as the worker laid it out
    w.doc.run(edit.delete, ["fastt8"])
    laid_here.clear()
    w.switch_scenario("Base")
    assert "fastt8" in w.doc.topology and "fastt8" in w.scene.items_by_id and not laid_here
    w.switch_scenario("Two fabrics")
    assert "fastt8" not in w.doc.topology and "fastt8" not in w.scene.items_by_id and not laid_here
    w.doc.undo_stack.undo()  # the switch
    w.doc.undo_stack.undo()  # the switch back
    w.doc.undo_stack.undo()  # the delete
    w.doc.undo_stack.undo()  # the scenario added
    assert list(w.doc.project.scenarios) == ["Base"] and len(w.doc.topology) == base


def test_autosave_and_recovery_after_a_crash(qtbot, home):
    """A separate SANplan process edits, autosaves and is killed; the next start offers the work."""
    script = textwrap.dedent(
        """
        import os, signal
        os.environ["QT_QPA_PLATFORM"] = "offscreen"
        from PySide6.QtWidgets import QApplication
        app = QApplication([])
        from app.mainwindow import MainWindow
        from catalogs.catalog import Catalog
        from planner import edit
        w = MainWindow(Catalog(":memory:"))
        w.open_example("p690-one-drawer")
        w.doc.run(edit.set_attr, "cab1", "label", "BEFORE-THE-CRASH")
        assert w.autosave(wait=True) is not None
        os.kill(os.getpid(), signal.SIGKILL)
        """
    )
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.run([sys.executable, "-c", script], env=env, cwd=ROOT, timeout=120)
    assert proc.returncode == -9
    assert pending_recovery()
    w = MainWindow(Catalog(":memory:"))
    qtbot.addWidget(w)
    w.ask = lambda what, text, detail="": "yes" if what == "recover" else None
    assert w.offer_recovery()
    assert w.doc.topology["cab1"]["label"] == "BEFORE-THE-CRASH"
    assert w.isWindowModified()  # recovered work is unsaved until the user saves it
    assert not pending_recovery()


def test_benchmark_window_renders_to_png(qtbot, home, tmp_path):
    w = MainWindow(Catalog(":memory:"))
    qtbot.addWidget(w)
    w.resize(1600, 1000)
    w.open_example("p690-benchmark")
    w.show()
    bundle = w.doc.wait_for_analysis(20000)
    assert bundle is not None and round(bundle.read_mbps) == 16800
    assert "16,800" in w.totals_label.text()
    out = tmp_path / "window.png"  # README screenshots: docs/make_screenshots.py
    assert w.grab().save(str(out)) and out.stat().st_size > 50_000


def test_exports_from_the_file_menu(window, home):
    w = window
    pdf = home / "sheet.pdf"
    w.answers["export"] = str(pdf)
    w.export_pdf()
    assert pdf.read_bytes().startswith(b"%PDF") and pdf.stat().st_size > 10_000
    zones = home / "zones.txt"
    w.answers["export"] = str(zones)
    w.export_zoning("brocade")
    text = zones.read_text()
    assert 'zonecreate "Z_LPAR1_FCS0_FASTT1_A1"' in text and "cfgenable" in text
    w.answers["text"] = "20"
    cisco = home / "cisco.txt"
    w.answers["export"] = str(cisco)
    w.export_zoning("cisco")
    assert "vsan 20" in cisco.read_text()
    netbox = home / "cables.csv"
    w.answers["export"] = str(netbox)
    w.export_cabling("netbox")
    head = netbox.read_text().splitlines()[0]
    assert head.startswith("side_a_device,side_a_type,side_a_name")
    assert len(netbox.read_text().splitlines()) == 1 + len(w.doc.topology.of_kind("cable"))


def test_export_to_a_folder_is_refused_with_a_reason(window, home):
    w = window
    w.answers["export"] = str(home)
    w.export_cabling("csv")
    what, text, detail = w.asked[-1]
    assert what == "error" and "folder" in detail


def test_build_sheet_paper_and_labels_settings(window, home):
    w = window
    w.settings.setValue("paper", "letter")
    w.settings.setValue("cable_labels", "true")
    pdf = home / "letter.pdf"
    w.answers["export"] = str(pdf)
    w.export_pdf()
    data = pdf.read_bytes()
    assert b"/MediaBox [ 0 0 612 792 ]" in data or b"/MediaBox [0 0 612 792]" in data


def test_revision_history_compare_and_restore(window, home, qtbot):
    from app.dialogs import RevisionsDialog, compare_summary

    w = window
    path = home / "revs.sanplan"
    w.answers["save"] = str(path)
    assert w.file_save()
    w.doc.run(edit.delete, ["fastt8"])
    assert w.file_save()
    dlg = RevisionsDialog(path, w.doc.project, w)
    qtbot.addWidget(dlg)
    assert dlg.table.rowCount() == 2
    dlg.table.selectRow(1)  # the oldest revision (newest first)
    assert "subsystem: 1 removed" in dlg.summary.toPlainText()  # the open design lost fastt8
    dlg.restore_button.click()
    assert dlg.restored is not None and "fastt8" in dlg.restored.topology
    assert "subsystem: 1 added" in compare_summary(w.doc.project, dlg.restored)


def test_save_over_a_file_saved_elsewhere_asks_before_overwriting(window, tmp_path):
    from planner import edit
    from planner.io import open_project, save_project

    path = tmp_path / "shared.sanplan"
    window.doc.save(path)
    theirs = open_project(path)
    edit.set_attr(theirs.topology, "d1", "name", "theirs")
    save_project(theirs, path, message="theirs")
    window.controller.edit_attribute(["d1"], "name", "mine")
    window.answers["overwrite"] = False
    assert not window.file_save()
    assert window.asked[-1][0] == "overwrite" and "saved by someone else" in window.asked[-1][1]
    assert open_project(path).topology["d1"].name == "theirs"  # nothing lost
    window.answers["overwrite"] = True
    assert window.file_save()
    assert open_project(path).topology["d1"].name == "mine"


def test_the_findings_tab_is_the_one_shown_at_start(window):
    """Of the tabbed bottom panels, Findings is raised at start (not the last one attached)."""
    window.show()
    bottom = [d for d in window.docks.values() if window.tabifiedDockWidgets(d)]
    assert window.docks["findings"] in bottom
    shown = [d for d in bottom if not d.visibleRegion().isEmpty()]
    assert window.docks["findings"] in shown and window.docks["racks"] not in shown


def test_autosave_writes_in_a_worker_and_leaves_the_design_alone(window, qtbot, home, monkeypatch):
    """The autosave copies the design a piece per turn of the event loop as JSON text (starting
    again if an edit comes meanwhile, so the file never mixes two states) and writes it in a
    worker; the open design keeps its own file."""
    import threading

    from PySide6.QtWidgets import QApplication

    import app.autosave as autosave_module
    from planner import edit
    from planner.io import open_project

    w = window
    before = w.doc.project.path
    monkeypatch.setattr(autosave_module, "PER_STEP", 50)  # many pieces
    monkeypatch.setattr(autosave_module, "STEP_S", 0.0)  # one piece per turn
    writers = []
    real = threading.Thread.start

    def spy(self):
        writers.append((self.name, threading.current_thread() is threading.main_thread()))
        return real(self)

    monkeypatch.setattr(threading.Thread, "start", spy)
    handed = []
    real_save = autosave_module.save_designs
    monkeypatch.setattr(
        autosave_module, "save_designs", lambda d, *a: handed.extend(type(x) for _, x in d) or real_save(d, *a)
    )
    w.doc.run(edit.set_attr, "cab1", "label", "FIRST")
    path = w.autosave()
    assert path is not None and w.autosaver.busy() and writers == []  # the copy is under way
    assert w.autosave() is None  # one at a time
    QApplication.processEvents()
    w.doc.run(edit.set_attr, "cab1", "label", "SECOND")  # an edit during the copy: it starts again
    qtbot.waitUntil(lambda: not w.autosaver.busy(), timeout=10_000)
    assert writers == [("autosave", True)] and handed == [str]  # text, not documents, held meanwhile
    saved = open_project(path)
    assert saved.topology["cab1"]["label"] == "SECOND"
    assert path.with_suffix(".json").exists()
    assert w.doc.project.path == before  # the design's own file is still the one it saves to
    w.discard_autosave()
    assert not path.exists() and not path.with_suffix(".json").exists()


def test_an_autosave_step_waits_for_a_turn_with_time_left(window, qtbot, home, monkeypatch):
    """A piece of the copy runs in what the canvas's and the panels' slices left of a turn of the
    event loop (widgets.slice_budget; a scenario of the 16x site shown, a step beside them made
    a turn of 20-23 ms): none while they have spent it."""
    import app.autosave as autosave_module
    from planner import edit
    from planner.io import open_project

    w, spent, asked = window, [True], []
    real = autosave_module.slice_budget.until

    def until(own_s, first=False, whole=False, **more):
        if first or more:  # (the canvas's slices always run; those that give way are the canvas's)
            return real(own_s, first=first, whole=whole, **more)
        asked.append(own_s)
        return None if spent[0] else real(own_s, first=first, whole=whole)

    monkeypatch.setattr(autosave_module.slice_budget, "until", until)
    monkeypatch.setattr(autosave_module, "PER_STEP", 50)
    w.doc.run(edit.set_attr, "cab1", "label", "WAITED")
    path = w.autosave()
    qtbot.wait(100)
    copy = w.autosaver._copy[0]
    assert w.autosaver.busy() and asked and not getattr(copy, "designs", [])  # nothing copied yet
    spent[0] = False
    qtbot.waitUntil(lambda: not w.autosaver.busy(), timeout=10_000)
    assert open_project(path).topology["cab1"]["label"] == "WAITED"
    w.discard_autosave()


def test_autosave_under_continuous_edits_copies_at_once_in_the_end(window, qtbot, home, monkeypatch):
    from PySide6.QtWidgets import QApplication

    import app.autosave as autosave_module
    from planner import edit
    from planner.io import open_project

    w = window
    monkeypatch.setattr(autosave_module, "PER_STEP", 50)
    monkeypatch.setattr(autosave_module, "STEP_S", 0.0)
    w.doc.run(edit.set_attr, "cab1", "label", "E0")
    path = w.autosave()
    labels = []
    for i in range(1, 40):  # an edit at every turn of the event loop: the copy starts again
        QApplication.processEvents()
        if not w.autosaver.busy():
            break
        labels.append(f"E{i}")
        w.doc.run(edit.set_attr, "cab1", "label", labels[-1])
    assert not w.autosaver.busy() and 1 <= len(labels) < 39
    saved = open_project(path).topology["cab1"]["label"]  # one state, copied at once after the restarts
    assert saved in labels[: autosave_module.MAX_RESTARTS + 2]


def test_a_failed_autosave_says_so(window, qtbot, home):
    from planner import edit

    w = window
    w.doc.run(edit.set_attr, "cab1", "label", "X")
    shown = []
    w.autosaver.failed.connect(shown.append)
    w.autosave_path().mkdir(parents=True)  # a folder where the file should go
    assert w.autosave() is not None
    qtbot.waitUntil(lambda: bool(shown), timeout=10_000)
    assert "autosave failed" in shown[0] and "folder" in shown[0]


def test_an_autosave_of_a_value_no_file_stores_says_so(window, qtbot, home):
    """A value JSON cannot store (NaN, only a damaged state could hold one) stops the copy on
    the GUI thread with the message a save gives, never a traceback; once corrected it saves."""
    from planner.fixtures import set_raw

    w = window
    set_raw(w.doc.topology, "sw1", "domain_id", float("nan"))
    w.doc.run(edit.set_attr, "cab1", "label", "X")
    shown = []
    w.autosaver.failed.connect(shown.append)
    assert w.autosave() is not None
    qtbot.waitUntil(lambda: bool(shown), timeout=10_000)
    assert "autosave failed" in shown[0] and "cannot store" in shown[0] and not w.autosaver.busy()
    set_raw(w.doc.topology, "sw1", "domain_id", 1)
    path = w.autosave()
    qtbot.waitUntil(lambda: not w.autosaver.busy(), timeout=10_000)
    assert path.exists() and len(shown) == 1
    w.discard_autosave()


def test_a_name_given_twice_in_the_inspector_shows_in_the_findings(window, qtbot):
    """NAME_DUPLICATE reaches the user: rename a subsystem to another's name (ignoring case) in
    the inspector, the findings list it with both; undo and it is gone; redo, and its Fix button
    gives the second a name of its own."""
    w = window
    assert w.findings.item_for("NAME_DUPLICATE") is None
    _type_into(w, qtbot, "fastt2", "name", "FASTT1")
    assert w.doc.topology["fastt2"].name == "FASTT1"
    qtbot.waitUntil(lambda: w.findings.item_for("NAME_DUPLICATE", ["fastt1", "fastt2"]) is not None, timeout=5000)
    w.act_undo.trigger()
    qtbot.waitUntil(lambda: w.findings.item_for("NAME_DUPLICATE") is None, timeout=5000)
    w.act_redo.trigger()  # named twice again: the finding's Fix button renames the second
    qtbot.waitUntil(lambda: w.findings.item_for("NAME_DUPLICATE") is not None, timeout=5000)
    panel = w.findings
    assert panel.select_finding("NAME_DUPLICATE")
    assert panel.fix_button.isVisible() and "is now FASTT1 (2)" in panel.fix_preview.text()
    qtbot.mouseClick(panel.fix_button, Qt.MouseButton.LeftButton)
    assert w.doc.topology["fastt2"].name == "FASTT1 (2)" and w.doc.topology["fastt1"].name == "fastt1"
    qtbot.waitUntil(lambda: w.findings.item_for("NAME_DUPLICATE") is None, timeout=5000)


def test_select_all_is_one_selection(window):
    """Edit > Select All selects every top-level box as one selection of the document (a box at
    a time made every panel read the growing selection: minutes on a site)."""
    w = window
    sent = []
    w.doc.selectionChanged.connect(sent.append)
    w.act_select_all.trigger()
    top = {cid for cid, item in w.scene.items_by_id.items() if item.parentItem() is None}
    assert len(sent) == 1 and set(sent[0]) == top and len(top) > 10
    assert {i.cid for i in w.scene.selectedItems()} == top
    w.doc.selectionChanged.disconnect(sent.append)


def test_a_large_designs_outline_search_ends_in_the_window(window, qtbot, monkeypatch):
    """In the window (whose event loop the slice budget follows: a turn is a pass), a large
    design's search runs to its end: Qt's filtering, a slice longer than a turn's budget, gets a
    pass of its own (the search once waited for a turn with more room than the budget has,
    forever), and shows what a search at once shows."""
    from widgets import model_tree_search as search

    monkeypatch.setattr(search, "SEARCH_AT_ONCE", 10)  # (the benchmark counts as large)
    tree = window.model_tree
    window.docks["tree"].show()
    window.docks["tree"].raise_()
    tree.search.setText("fcs1 fastt")
    tree._search_now()
    qtbot.waitUntil(lambda: tree._searching is None, timeout=5000)
    sliced = tree.visible_ids()
    tree.set_filter("")
    tree.set_filter("fcs1 fastt")
    assert sliced == tree.visible_ids() and 0 < len(sliced) < len(tree.items)
