"""A whole design built the way a new user builds it: from File > New, with only the editor's own
actions, dialogs and canvas gestures, to two analysed paths, a PDF, and undo back to empty.

The minimal design of the issue: one p690, one drawer, two HBAs on different PHBs, one 2109-F32,
one FAStT600 Turbo with one RAID 5 array and two logical drives, cables, zones, a partition, an
LPAR, hdisks and a VG. A second test builds a partial design and lets the assistants finish it.
"""

from __future__ import annotations

import pytest
from PySide6.QtCore import QMimeData, QPointF, Qt
from PySide6.QtGui import QDropEvent
from PySide6.QtWidgets import QMenu

from app.mainwindow import MainWindow
from catalogs.catalog import Catalog
from tests.widgets.test_canvas import drag, view_point
from widgets.canvas import PART_MIME
from widgets.dialogs.base import set_checked


@pytest.fixture
def blank(qtbot, home, tmp_path):
    w = MainWindow(Catalog(":memory:"))
    w.doc.synchronous = True
    answers: dict[str, object] = {"drives": 14}
    asked: list[tuple] = []

    def ask(what, text, detail=""):
        asked.append((what, text, detail))
        return answers.get(what)

    w.ask, w.answers, w.asked = ask, answers, asked
    qtbot.addWidget(w)
    w.resize(1500, 950)
    w.show()
    qtbot.waitExposed(w)
    return w


def drop(w, part_id: str, onto: str | None = None) -> None:
    """Drag a part from Parts and drop it on the canvas (onto a box, or on empty canvas)."""
    mime = QMimeData()
    mime.setData(PART_MIME, part_id.encode())
    pos = view_point(w.view, onto) if onto else w.view.viewport().rect().center()
    event = QDropEvent(
        QPointF(pos), Qt.DropAction.CopyAction, mime, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier
    )
    w.view.dropEvent(event)


def cable(w, a: str, b: str) -> None:
    """Drag from one port's box to another's."""
    start = view_point(w.view, a)
    end = w.view.mapFromScene(w.scene.items_by_id[b].sceneBoundingRect().center())
    drag(w.view, start, end)


def context_action(w, ids: list[str], action_id: str):
    """Right-click ``ids`` and choose the action; returns the dialog it opened, if any."""
    menu = QMenu()
    w.fill_component_menu(menu, ids)
    act = next(a for a in menu.actions() if a.objectName() == f"action-{action_id}")
    w.last_dialog = None
    act.trigger()
    return w.last_dialog


def design_action(w, action_id: str):
    def actions(menu):
        for a in menu.actions():
            if a.menu():
                yield from actions(a.menu())
            else:
                yield a

    act = next(a for a in actions(w.design_menu) if a.objectName() == f"action-{action_id}")
    w.last_dialog = None
    act.trigger()
    return w.last_dialog


def ok(click, dlg) -> None:
    dlg.refresh()
    assert dlg.ok_button().isEnabled(), dlg.reason.text()
    click(dlg.ok_button())


def build_first_design(w, click, shot=lambda name: None) -> dict[str, str]:
    """The minimal design, step by step through the GUI; ``click(button)`` presses a button,
    ``shot(name)`` is called after each step (the walk-through screenshots). Returns the ids made."""
    w.act_new.trigger()  # File > New
    t = w.doc.topology
    assert len(t) == 0
    shot("1-new")

    # hardware from the Parts palette, dropped on the canvas
    drop(w, "7040-681")
    drop(w, "7040-61D", "p690")
    drop(w, "FC6239", "d1.s1")  # PHB1
    drop(w, "FC6239", "d1.s5")  # PHB2
    drop(w, "2109-F32")
    drop(w, "FAStT600-Turbo")  # asks how many drives: 14
    assert [c.kind for c in t.of_kind("hba")] == ["hba", "hba"]
    h1, h2 = (t.children(h.id, "hba_port")[0].id for h in t.of_kind("hba"))
    assert t.ancestor(h1, "phb") is not t.ancestor(h2, "phb")
    sub = t.of_kind("subsystem")[0].id
    assert len(t.descendants(sub)) > 14  # it asked how many drives: 14
    sw = t.of_kind("switch")[0].id
    a1, b1 = f"{sub}.A1", f"{sub}.B1"
    shot("2-hardware")

    # cables: drag port to port, each HBA on the ASIC of its storage port
    cable(w, "d1.s1", f"{sw}.p0")
    cable(w, a1, f"{sw}.p1")
    cable(w, "d1.s5", f"{sw}.p2")
    cable(w, b1, f"{sw}.p3")
    assert len(t.of_kind("cable")) == 4
    shot("3-cabled")

    # an LPAR owning both HBAs (Design > New LPAR...)
    dlg = design_action(w, "design-new-lpar")
    dlg.name.setText("prod")
    set_checked(dlg.hbas, [h.id for h in t.of_kind("hba")])
    ok(click, dlg)
    lpar = next(lp for lp in t.of_kind("lpar") if lp.name == "prod").id
    assert all(h["lpar"] == lpar for h in t.of_kind("hba"))

    # a RAID 5 array and two logical drives, one per controller (right-click the subsystem, the array)
    dlg = context_action(w, [sub], "new-array")
    dlg.first_n.setValue(9)
    dlg.segment.setCurrentIndex(dlg.segment.findData(128))
    ok(click, dlg)
    arr = t.children(sub, "array")[0].id
    for owner in ("A", "B"):
        dlg = context_action(w, [arr], "new-logical-drive")
        dlg.size_gb.setValue(100)
        dlg.owner.setCurrentIndex(dlg.owner.findData(f"{sub}.{owner}"))
        ok(click, dlg)
    lds = [ld.id for ld in t.children(arr, "logical_drive")]
    assert len(lds) == 2 and {t[ld]["owner"] for ld in lds} == {f"{sub}.A", f"{sub}.B"}
    shot("4-storage")

    # zones: the zoning editor, a tick per HBA port and storage port (Design > Zoning...)
    design_action(w, "zoning")
    zoning = w.zoning_dialog
    zoning.refresh()
    zoning.cell(h1, a1).setCheckState(Qt.CheckState.Checked)
    zoning.refresh()
    zoning.cell(h2, b1).setCheckState(Qt.CheckState.Checked)
    zoning.refresh()
    assert len(t.of_kind("zone")) == 2
    shot("5-zoning")
    zoning.close()

    # the partition: both HBA ports and both logical drives (right-click the subsystem)
    dlg = context_action(w, [sub], "new-host-mapping")
    set_checked(dlg.ports, [h1, h2])
    for i, (cid, _on, _spin) in enumerate(dlg.ld_rows()):
        if cid in lds:
            dlg.lds.item(i, 0).setCheckState(Qt.CheckState.Checked)
    ok(click, dlg)
    assert t.of_kind("host_mapping")

    # AIX: hdisks from the mapped LUNs, a VG of them (right-click the LPAR)
    context_action(w, [lpar], "create-hdisks")
    assert len(t.children(lpar, "hdisk")) == 2
    dlg = context_action(w, [lpar], "new-vg")
    dlg.name.setText("datavg")
    set_checked(dlg.pvs, [h.id for h in t.children(lpar, "hdisk")])
    ok(click, dlg)
    assert t.children(lpar, "volume_group")

    # the 1 MB LTG of the VG is above the hdisks' max_transfer: the finding's Fix button raises it
    panel = w.findings
    if panel.select_finding("LTG_MAX_TRANSFER"):
        shot("6-finding")
        click(panel.fix_button)
    assert not [f for f in w.doc.wait_for_analysis().findings if f.severity == "error"]
    shot("7-analysed")
    return {"lpar": lpar, "subsystem": sub, "array": arr}


def test_from_file_new_to_two_analysed_paths_a_pdf_and_back(blank, qtbot, tmp_path):
    w = blank
    build_first_design(w, lambda button: qtbot.mouseClick(button, Qt.MouseButton.LeftButton))
    # analysed: two paths with MB/s, no errors
    result = w.doc.analysis.result if w.doc.analysis else None
    assert result is not None and len(result.paths) == 2
    assert all(p.mbps and p.mbps > 0 for p in result.paths)
    w.grab().save(str(tmp_path / "first-design.png"))

    # File > Export > Build sheet
    pdf = tmp_path / "first"
    w.answers["export"] = str(pdf)
    w.export("pdf")
    assert (tmp_path / "first.pdf").read_bytes()[:5] == b"%PDF-"

    # undo everything, back to the empty design
    steps = w.doc.undo_stack.count()
    assert steps >= 15
    while w.doc.undo_stack.canUndo():
        w.act_undo.trigger()
    assert len(w.doc.topology) == 0


def test_a_partial_design_finished_by_the_assistants(blank, qtbot):
    w = blank
    w.act_new.trigger()
    drop(w, "7040-681")
    drop(w, "7040-61D", "p690")
    drop(w, "2109-F32")
    drop(w, "FAStT600-Turbo")
    drop(w, "FAStT600-Turbo")
    t = w.doc.topology
    assert not t.of_kind("hba") and not t.of_kind("cable")
    w.answers["text"] = "4"  # Place HBAs...: how many
    design_action(w, "assist-complete")
    result = w.doc.analysis.result if w.doc.analysis else None
    assert result is not None and len(result.paths) >= 4
    assert all(p.mbps and p.mbps > 0 for p in result.paths)
    assert not [f for f in w.doc.analysis.findings if f.severity == "error"]
    w.act_undo.trigger()  # the whole completion is one undo step
    assert not t.of_kind("cable") and not t.of_kind("hba")
