"""The zoning editor: ticks are zones, names and WWPNs edited in place, WWPNs pasted with a
preview; every change one undo step. Also the zone partners marked when a port is selected."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMenu

from app.actions.san import ZoneHighlighter, ZoningLink
from widgets.zoning import ZoningDialog

FAB = "fab.FAB_D1"
FCS0, FCS1, FCS2 = "hba.d1s1.0", "hba.d1s2.0", "hba.d1s3.0"

LSCFG = """\
  fcs0             U1.9-P1-I1/Q1  FC Adapter

        Part Number.................00P4494
        Network Address.............10000000C9AABB01
        Device Specific.(Z8)........20000000C9AABB01
  fcs1             U1.9-P1-I2/Q1  FC Adapter
        Network Address.............10000000C9AABB02
        Device Specific.(Z8)........20000000C9AABB02
  fcs2             U1.9-P1-I3/Q1  FC Adapter
        Network Address.............10000000C9AABB03
        Device Specific.(Z8)........20000000C9AABB03
"""


@pytest.fixture
def zoning(qtbot, doc):
    dlg = ZoningDialog(doc, FAB)
    dlg.link = ZoningLink(doc, dlg)
    qtbot.addWidget(dlg)
    dlg.show()
    return dlg


def _settle(dlg):
    dlg.refresh()  # what the event loop does right after an edit


def test_the_grid_shows_the_fabric(zoning, doc):
    assert len(zoning.initiators) == 16 and len(zoning.targets) == 16
    assert zoning.cell(FCS0, "fastt1.A1").checkState() == Qt.CheckState.Checked
    assert zoning.cell(FCS0, "fastt2.A1").checkState() == Qt.CheckState.Unchecked
    assert zoning.table.verticalHeaderItem(4).text() == "LPAR1_FCS0"
    assert zoning.table.horizontalHeaderItem(2).text() == "FASTT1_A1"
    assert zoning.wwpn_cell(FCS0).text() == doc.topology[FCS0]["wwpn"]


def test_tick_a_zone_then_undo(zoning, doc):
    zones = doc.topology.children(FAB, "zone")
    zoning.cell(FCS0, "fastt2.A1").setCheckState(Qt.CheckState.Checked)
    _settle(zoning)
    made = doc.topology.get("z.Z_LPAR1_FCS0_FASTT2_A1")
    assert made is not None and made["members"] == (FCS0, "fastt2.A1")
    assert zoning.cell(FCS0, "fastt2.A1").checkState() == Qt.CheckState.Checked
    doc.undo_stack.undo()
    _settle(zoning)
    assert doc.topology.get("z.Z_LPAR1_FCS0_FASTT2_A1") is None
    assert zoning.cell(FCS0, "fastt2.A1").checkState() == Qt.CheckState.Unchecked
    # unticking removes the example's zone; undo brings it back
    zoning.cell(FCS0, "fastt1.A1").setCheckState(Qt.CheckState.Unchecked)
    assert doc.topology.get("z.Z_D1_FCS0_FASTT1_A") is None
    doc.undo_stack.undo()
    assert [z.id for z in doc.topology.children(FAB, "zone")] == [z.id for z in zones]


def test_edit_a_wwpn_in_place(zoning, doc):
    topo = doc.topology
    steps = doc.undo_stack.count()
    zoning.wwpn_cell(FCS0).setText("10000000C9AABB01")
    _settle(zoning)
    assert topo[FCS0]["wwpn"] == "10:00:00:00:c9:aa:bb:01"
    assert zoning.wwpn_cell(FCS0).text() == "10:00:00:00:c9:aa:bb:01"
    assert doc.undo_stack.count() == steps + 1
    assert topo[FCS0]["wwpn_placeholder"] is False and topo[FCS1]["wwpn_placeholder"] is True
    zoning.wwpn_cell("fastt1.A1").setText("not a wwpn")
    _settle(zoning)
    assert "not 8 bytes of hex" in zoning.status.text() and "A1" in zoning.status.text()
    assert zoning.wwpn_cell("fastt1.A1").text() == topo["fastt1.A1"]["wwpn"] != "not a wwpn"
    assert doc.undo_stack.count() == steps + 1
    zoning.wwpn_cell(FCS1).setText("10:00:00:00:c9:aa:bb:01")  # accepted, but named as a duplicate
    assert "WWPN_DUPLICATE" in zoning.status.text()


def test_rename_an_hba_and_its_alias_follows(zoning, doc):
    zoning.name_cell(FCS0).setText("fcs40")
    _settle(zoning)
    assert doc.topology["hba.d1s1"].name == "fcs40"
    assert zoning.table.verticalHeaderItem(4).text() == "LPAR1_FCS40"
    zoning.name_cell(FCS0).setText("bad\tname")
    _settle(zoning)
    assert "control characters" in zoning.status.text()
    assert doc.topology["hba.d1s1"].name == "fcs40"


def test_paste_three_lscfg_blocks(zoning, doc, qtbot):
    topo = doc.topology
    old = topo[FCS0]["wwpn"]
    steps = doc.undo_stack.count()
    paste = zoning.open_paste()
    paste.set_text(LSCFG)
    assert [(e.label, e.wwpn) for e in paste.entries] == [
        ("fcs0", "10:00:00:00:c9:aa:bb:01"),
        ("fcs1", "10:00:00:00:c9:aa:bb:02"),
        ("fcs2", "10:00:00:00:c9:aa:bb:03"),
    ]
    assert [paste.port_box(r).currentData() for r in range(3)] == [FCS0, FCS1, FCS2]
    assert paste.preview.item(0, 3).text().startswith("replaces")
    assert paste.apply_button.isEnabled()
    paste.apply_button.click()
    _settle(zoning)
    assert [topo[p]["wwpn"] for p in (FCS0, FCS1, FCS2)] == [
        "10:00:00:00:c9:aa:bb:01",
        "10:00:00:00:c9:aa:bb:02",
        "10:00:00:00:c9:aa:bb:03",
    ]
    assert doc.undo_stack.count() == steps + 1
    assert [topo[p]["wwpn_placeholder"] for p in (FCS0, FCS1, FCS2)] == [False, False, False]
    doc.undo_stack.undo()
    assert topo[FCS0]["wwpn"] == old
    assert [topo[p]["wwpn_placeholder"] for p in (FCS0, FCS1, FCS2)] == [True, True, True]


def test_a_paste_can_be_redirected_in_the_preview(zoning, doc):
    paste = zoning.open_paste()
    paste.set_text("10:00:00:00:c9:aa:bb:07\n0000000000000000\n")
    assert "all zeros" in paste.preview.item(1, 3).text() and not paste.port_box(1).isEnabled()
    box = paste.port_box(0)
    box.setCurrentIndex(box.findData("fastt4.B1"))
    assert paste.values() == {"fastt4.B1": "10:00:00:00:c9:aa:bb:07"}


def test_selecting_a_port_marks_its_zone_partners(doc):
    shown = []
    doc.pathHighlighted.connect(shown.append)
    ZoneHighlighter(doc)
    doc.select([FCS0])
    assert shown[-1].hops == ("fastt1.A1",)
    doc.select(["d1.s1"])  # the slot stands for its HBA
    assert shown[-1].hops == ("fastt1.A1",) and len(shown) == 1
    doc.select(["fastt1.B1"])
    assert shown[-1].hops == (FCS1,)
    doc.select(["sw1"])
    assert shown[-1] is None
    doc.highlight_path("a path")  # a path chosen in the paths table is left alone
    doc.select(["fastt1"])
    assert shown[-1] == "a path"


def test_zoning_from_the_design_menu_and_a_context_menu(qtbot, tmp_path, monkeypatch):
    from app.mainwindow import MainWindow
    from catalogs.catalog import Catalog

    monkeypatch.setenv("SANPLAN_HOME", str(tmp_path))
    w = MainWindow(Catalog(":memory:"))
    qtbot.addWidget(w)
    w.doc.synchronous = True
    w.open_example("p690-one-drawer")
    act = next(a for a in w.design_menu.actions() if a.objectName() == "action-zoning")
    act.trigger()
    assert w.last_dialog.fabric() == FAB and w.last_dialog.isVisible()
    menu = QMenu()
    w.fill_component_menu(menu, ["fastt2.B1"])
    next(a for a in menu.actions() if a.objectName() == "action-zoning-of").trigger()
    assert w.last_dialog is w.zoning_dialog
    w.zoning_dialog.close()


def test_a_hidden_dialog_catches_up_when_shown(zoning, doc):
    from planner import zoning_edit as ze

    zoning.hide()
    doc.run(ze.set_zoned, FAB, FCS2, "fastt4.B1")
    zoning.show()
    assert zoning.cell(FCS2, "fastt4.B1").checkState() == Qt.CheckState.Checked
