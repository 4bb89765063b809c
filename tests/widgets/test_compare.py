"""The Compare scenarios dialog and its Design-menu action."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QMenu, QWidget

from app.actions.compare import compare_scenarios, default_pair
from planner import edit
from planner.io import Project
from widgets.compare import CompareDialog


@pytest.fixture
def scenarios(one_drawer):
    less = one_drawer.clone()
    edit.delete(less, ["hba.d1s1"])
    return {"Base": one_drawer, "less": less}


def cells(table, col):
    return [table.item(r, col).text() for r in range(table.rowCount())]


def test_side_by_side_numbers(qtbot, scenarios):
    """Planning figures: read 2400 -> 2250 (one FC 6239 at 150 MB/s fewer), write 2280 -> 2137.5
    (one RAID 5 array at 142.5 MB/s no longer reached); one FC6239 fewer in the parts."""
    dlg = CompareDialog(scenarios, "Base", "less")
    qtbot.addWidget(dlg)
    assert cells(dlg.aggregate, 0) == ["Read", "Write"]
    assert cells(dlg.aggregate, 1) == ["2,400.0", "2,280.0"]
    assert cells(dlg.aggregate, 2) == ["2,250.0", "2,137.5"]
    assert cells(dlg.aggregate, 3) == ["-150.0", "-142.5"]
    assert dlg.aggregate.horizontalHeaderItem(1).text() == "Base"
    assert dlg.binding.rowCount() == 0
    assert ("-1", "FC6239") in zip(cells(dlg.parts, 0), cells(dlg.parts, 1))
    assert "UNREACHABLE" in cells(dlg.findings, 2) and set(cells(dlg.findings, 0)) == {"added"}
    assert "1 path removed" in dlg.note.text()


def test_swap_and_choose_recompute(qtbot, scenarios):
    dlg = CompareDialog(scenarios, "Base", "less")
    qtbot.addWidget(dlg)
    dlg.swap()
    assert (dlg.old, dlg.new) == ("less", "Base")
    assert cells(dlg.aggregate, 3) == ["+150.0", "+142.5"]
    assert set(cells(dlg.findings, 0)) == {"removed"} and dlg.diff.parts_delta == {"FC6239": 1}
    dlg.new_box.setCurrentText("less")  # the same on both sides
    assert dlg.diff.unchanged and "choose two different" in dlg.note.text()
    assert not dlg.sheet_button.isEnabled()


def test_worst_cabling_shows_the_changed_binding_hops(qtbot, one_drawer, worst_cabling):
    """16 paths per direction move to the backplane (1600 MB/s / 16 = 100 MB/s each)."""
    dlg = CompareDialog({"asic-local": one_drawer, "worst": worst_cabling}, "asic-local", "worst")
    qtbot.addWidget(dlg)
    assert dlg.binding.rowCount() == 32
    assert all("backplane" in t and "100.0" in t for t in cells(dlg.binding, 3))
    assert cells(dlg.aggregate, 3) == ["-800.0", "-680.0"]
    assert dlg.tabs.tabText(0) == "Binding hops (32)"


def test_default_pair():
    a = Project.from_scenarios({"Base": None, "b": None, "c": None}, "c")
    assert default_pair(a) == ("Base", "c")
    a.current = "Base"
    assert default_pair(a) == ("Base", "b")


def test_action_opens_the_dialog_from_the_design_menu(qtbot, make_doc, scenarios):
    from app.actions import design_actions
    from app.actions.menus import fill_design_menu

    class Window(QWidget):  # what the action uses of the main window: doc, last_dialog, a parent
        last_dialog = None

    window = Window()
    qtbot.addWidget(window)
    window.doc = make_doc("p690-one-drawer")
    messages = []
    window.doc.message.connect(messages.append)
    assert compare_scenarios(window) is None and "one scenario" in messages[-1]

    window.doc.replace_project(Project.from_scenarios(scenarios, "less"), None)
    assert any(a.id == "compare-scenarios" for a in design_actions())
    menu = QMenu()
    fill_design_menu(window, menu)
    act = next(a for a in menu.actions() if a.objectName() == "action-compare-scenarios")
    act.trigger()
    dlg = window.last_dialog
    assert isinstance(dlg, CompareDialog) and dlg.isVisible()
    assert (dlg.old, dlg.new) == ("Base", "less") and dlg.diff.parts_delta == {"FC6239": -1}
    dlg.reject()


def test_build_sheet_button_writes_the_changes_section(qtbot, make_doc, scenarios, tmp_path):

    from app.actions.compare import compare_scenarios

    class Window(QWidget):
        last_dialog = None
        settings = type("S", (), {"value": staticmethod(lambda key, default=None: default)})()

        def ask(self, what, text, detail=""):
            self.asked = (what, text)
            return str(tmp_path / "sheet")

        def show_message(self, text, error=True):
            self.shown = text

    window = Window()
    qtbot.addWidget(window)
    window.doc = make_doc("p690-one-drawer")
    window.doc.replace_project(Project.from_scenarios(scenarios, "Base"), None)
    dlg = compare_scenarios(window)
    assert (dlg.old, dlg.new) == ("Base", "less")
    dlg.sheet_button.click()
    pdf = tmp_path / "sheet.pdf"
    assert window.asked[0] == "export" and "changes from Base" in window.asked[1]
    assert pdf.exists() and "sheet.pdf" in window.shown
    assert b"/Title (Changes from scenario Base)" in pdf.read_bytes()  # the section's bookmark
    dlg.reject()
