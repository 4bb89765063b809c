"""Design > Assistants and the findings panel's Fix button, as a user drives them."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QMenu

from planner.io import Project
from tests.planner.assist.conftest import build_partial, snapshot


def _assistants_menu(w) -> QMenu:
    design = next(a.menu() for a in w.menuBar().actions() if a.menu() and "Design" in a.text())
    return next(a.menu() for a in design.actions() if a.menu() and a.text() == "Assistants")


def _trigger(w, title: str) -> None:
    menu = _assistants_menu(w)
    act = next(a for a in menu.actions() if a.text().replace("&", "") == title)
    act.trigger()


def test_menu_lists_the_assistants(window):
    titles = [a.text().replace("&", "") for a in _assistants_menu(window).actions() if not a.isSeparator()]
    assert titles == [
        "Place HBAs...",
        "Cable ASIC-local",
        "Zone for the multipath driver",
        "Map logical drives",
        "Lay out arrays",
        "Build LVM",
        "Complete the design",
    ]


def test_complete_the_design_reaches_paths(window, parts):
    w = window
    w.doc.replace_project(Project.single(build_partial(parts)), None)
    before = snapshot(w.doc.topology)
    assert w.doc.wait_for_analysis() is not None and not w.doc.analysis.result.paths
    _trigger(w, "Complete the design")
    bundle = w.doc.wait_for_analysis()
    assert len(bundle.result.paths) == 4 and all(p.mbps > 0 for p in bundle.result.paths)
    assert not [f for f in bundle.findings if f.severity == "error"]
    assert "Complete the design" in w.message_label.text() and len(w.last_assist_lines) > 10
    assert w.doc.undo_stack.count() == 1  # one undo step
    w.doc.undo_stack.undo()
    assert snapshot(w.doc.topology) == before


def test_place_hbas_asks_how_many(window, parts):
    w = window
    t = build_partial(parts, slots=(), lpar=True)
    w.doc.replace_project(Project.single(t), None)
    w.answers["text"] = "2"
    _trigger(w, "Place HBAs...")
    assert len(w.doc.topology.of_kind("hba")) == 2
    w.answers["text"] = "40"
    _trigger(w, "Place HBAs...")
    assert "free slot" in w.doc.last_refusal and len(w.doc.topology.of_kind("hba")) == 2


def test_each_assistant_step_by_step(window, parts):
    w = window
    w.doc.replace_project(Project.single(build_partial(parts, lpar=True)), None)
    for title in (
        "Lay out arrays",
        "Cable ASIC-local",
        "Zone for the multipath driver",
        "Map logical drives",
        "Build LVM",
    ):
        _trigger(w, title)
        assert w.message_label.text().startswith(title), w.message_label.text()
    assert w.doc.undo_stack.count() == 5
    assert len(w.doc.wait_for_analysis().result.paths) == 4


def test_fix_button_applies_and_undo_restores(window, qtbot):
    w = window
    w.open_example("p690-worst-cabling")
    panel = w.findings
    bundle = w.doc.wait_for_analysis()
    assert bundle.result.aggregate == 1600
    before = snapshot(w.doc.topology)
    assert panel.select_finding("ASIC_CROSSING")
    assert panel.fix_button.isVisible() and panel.fix_preview.text().startswith("Fix: unplugged 32 cables")
    qtbot.mouseClick(panel.fix_button, Qt.MouseButton.LeftButton)
    bundle = w.doc.wait_for_analysis()
    assert bundle.result.aggregate == 2400
    assert not [f for f in bundle.findings if f.rule == "ASIC_CROSSING"]
    w.doc.undo_stack.undo()
    assert snapshot(w.doc.topology) == before
    assert w.doc.wait_for_analysis().result.aggregate == 1600


def test_no_fix_button_for_a_judgement_call(window):
    w = window
    w.doc.wait_for_analysis()
    assert w.findings.select_finding("SINGLE_POINT_OF_FAILURE")
    assert not w.findings.fix_button.isVisible() and w.findings.current_fix() is None


def test_actions_have_ids(window):
    ids = {a.objectName() for a in window.findChildren(QAction)}
    assert {"action-assist-complete", "action-assist-place-hbas"} <= ids


def test_the_fix_is_worked_out_off_the_gui_thread(window, qtbot, monkeypatch):
    """Trying a fix copies the design and checks it twice (0.8 s on the 16x site): choosing a
    finding only asks for it, the background's copy works it out, and the Fix button appears
    when it comes; a finding chosen meanwhile never gets another finding's fix."""
    import threading

    import app.actions.assist as assist_actions
    from planner import edit

    w = window
    doc, panel = w.doc, w.findings
    doc.synchronous = False
    threads = []
    real = assist_actions.fix_for

    def spy(design, finding, before=None):
        threads.append((threading.current_thread() is threading.main_thread(), design is doc.topology))
        return real(design, finding, before)

    monkeypatch.setattr(assist_actions, "fix_for", spy)
    doc.run(edit.set_attr, "fastt2", "name", "FASTT1")
    qtbot.waitUntil(lambda: panel.item_for("NAME_DUPLICATE") is not None, timeout=10_000)
    assert panel.select_finding("NAME_DUPLICATE")
    assert not panel.fix_button.isVisible() and panel.fix_preview.text() == "Looking for a mechanical fix..."
    qtbot.waitUntil(lambda: panel.fix_button.isVisible(), timeout=10_000)
    assert "is now FASTT1 (2)" in panel.fix_preview.text()
    assert threads and all(not main and not live for main, live in threads)  # a worker, on its copy
    assert panel.select_finding("WWPN_PLACEHOLDER")  # no fixer: nothing asked, nothing shown
    assert not panel.fix_button.isVisible() and panel.fix_preview.text() == ""
    qtbot.mouseClick(panel.fix_button, Qt.MouseButton.LeftButton)  # hidden: does nothing
    assert doc.topology["fastt2"].name == "FASTT1"
