"""The create dialogs: each is offered in the context menu of its natural parent, creates its
component as one undo step, and keeps OK disabled with the reason while the input is refused."""

from __future__ import annotations

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QMenu

from app.actions import storage as storage_actions
from planner import edit
from planner import edit_create as ec
from widgets.dialogs.base import set_checked


def _menu_ids(window, ids) -> list[str]:
    menu = QMenu()
    window.fill_component_menu(menu, ids)
    return [a.objectName().removeprefix("action-") for a in menu.actions() if a.objectName()]


def _open(window, ids, action_id):
    menu = QMenu()
    window.fill_component_menu(menu, ids)
    act = next(a for a in menu.actions() if a.objectName() == f"action-{action_id}")
    window.last_dialog = None
    act.trigger()
    return window.last_dialog


def _ok(qtbot, dlg) -> None:
    assert dlg.ok_button().isEnabled(), dlg.reason.text()
    qtbot.mouseClick(dlg.ok_button(), Qt.MouseButton.LeftButton)


def _refused(dlg, words: str) -> None:
    assert not dlg.ok_button().isEnabled()
    assert words in dlg.reason.text()


def _tick(lst, rows) -> None:
    ids = [lst.item(i).data(Qt.ItemDataRole.UserRole) for i in rows]
    set_checked(lst, ids)


def test_each_parent_offers_its_create_actions(window):
    t = window.doc.topology
    first = {k: t.of_kind(k)[0].id for k in ("server", "lpar", "hba", "subsystem", "enclosure", "drive", "array")}
    first |= {k: t.of_kind(k)[0].id for k in ("host_mapping", "volume_group", "logical_volume")}
    assert "new-lpar" in _menu_ids(window, [first["server"]])
    assert {"lpar-hbas", "create-hdisks", "new-vg"} <= set(_menu_ids(window, [first["lpar"]]))
    hbas = [h.id for h in t.of_kind("hba")[:2]]
    assert "assign-lpar" in _menu_ids(window, hbas)
    assert "assign-lpar" in _menu_ids(window, [t[hbas[0]].parent])  # the slot stands for its HBA
    sub = set(_menu_ids(window, [first["subsystem"]]))
    assert {"add-enclosure", "add-drives", "new-array", "new-host-mapping"} <= sub
    assert "add-drives" in _menu_ids(window, [first["enclosure"]])
    assert {"remove-drive", "replace-drive", "new-array-drives"} <= set(_menu_ids(window, [first["drive"]]))
    assert {"new-logical-drive", "change-array"} <= set(_menu_ids(window, [first["array"]]))
    assert "edit-host-mapping" in _menu_ids(window, [first["host_mapping"]])
    assert "new-lv" in _menu_ids(window, [first["volume_group"]])
    assert "new-workload" in _menu_ids(window, [first["logical_volume"]])


def test_new_lpar_dialog_creates_refuses_and_undoes(window, qtbot):
    t = window.doc.topology
    hba = t.of_kind("hba")[0]
    dlg = _open(window, ["p690"], "new-lpar")
    dlg.name.setText("")
    _refused(dlg, "give the LPAR a name")
    dlg.name.setText("lpar1")
    _refused(dlg, "already has an LPAR named lpar1")
    dlg.name.setText("db")
    dlg.cpus.setValue(8)
    dlg.memory.setValue(64)
    _tick(dlg.hbas, [0])
    assert "Makes LPAR db" in dlg.summary.text() and "8 CPUs" in dlg.summary.text()
    _ok(qtbot, dlg)
    lp = next(lp for lp in t.of_kind("lpar") if lp.name == "db")
    assert (lp["cpus"], lp["memory_gb"], t[hba.id]["lpar"]) == (8, 64, lp.id)
    window.doc.undo_stack.undo()
    assert [lp.name for lp in t.of_kind("lpar")] == ["lpar1"] and t[hba.id]["lpar"] == "p690.lpar1"


def test_design_menu_new_lpar(window, qtbot):
    act = next(a for a in window.design_menu.actions() if a.objectName() == "action-design-new-lpar")
    act.trigger()
    dlg = window.last_dialog
    assert dlg.server == "p690" and dlg.name.text() == "lpar2"
    _ok(qtbot, dlg)
    assert len(window.doc.topology.of_kind("lpar")) == 2


def test_assign_hbas_from_hbas_and_from_the_lpar(window, qtbot):
    t = window.doc.topology
    window.doc.run(ec.new_lpar, "p690", "db")
    db = next(lp.id for lp in t.of_kind("lpar") if lp.name == "db")
    hbas = [h.id for h in t.of_kind("hba")[:2]]
    dlg = _open(window, hbas, "assign-lpar")
    dlg.lpar.setCurrentIndex(dlg.lpar.findData(db))
    assert "will belong to db" in dlg.summary.text()
    _ok(qtbot, dlg)
    assert [t[h]["lpar"] for h in hbas] == [db, db]
    window.doc.undo_stack.undo()
    assert [t[h]["lpar"] for h in hbas] == ["p690.lpar1"] * 2
    dlg = _open(window, [db], "lpar-hbas")
    _tick(dlg.hbas, [2, 3])
    dlg.refresh()
    assert "2 move from another LPAR" in dlg.summary.text()
    _ok(qtbot, dlg)
    assert [h.id for h in t.of_kind("hba") if h["lpar"] == db] == [h.id for h in t.of_kind("hba")[2:4]]
    window.doc.undo_stack.undo()
    assert not [h for h in t.of_kind("hba") if h["lpar"] == db]


def test_enclosure_and_drives_add_remove_replace(window, qtbot):
    t = window.doc.topology
    dlg = _open(window, ["fastt1"], "add-enclosure")
    dlg.count.setValue(20)
    _refused(dlg, "has 14 drive bays, not 20")
    dlg.count.setValue(0)
    _ok(qtbot, dlg)
    enc = t.children("fastt1", "enclosure")[-1].id
    assert not t.children(enc, "drive") and window.settings.value(storage_actions.FILL_SETTING) == "empty"
    dlg = _open(window, [enc], "add-drives")
    dlg.count.setValue(0)
    _refused(dlg, "at least one drive")
    dlg.count.setValue(3)
    assert "bays 1, 2, 3" in dlg.summary.text()
    _ok(qtbot, dlg)
    drives = [d.id for d in t.children(enc, "drive")]
    assert len(drives) == 3
    assert _open(window, [drives[2]], "remove-drive") is None  # no dialog: done at once
    assert len(t.children(enc, "drive")) == 2
    member = t["fastt1.arr1"]["drives"][0]
    _open(window, [member], "replace-drive")
    assert member not in t and t["fastt1.arr1"]["drives"][0] != member  # the new drive takes its place
    window.doc.undo_stack.undo()
    assert t["fastt1.arr1"]["drives"][0] == member
    _open(window, [member], "remove-drive")
    assert member in t and "is in array" in window.doc.last_refusal
    for _ in range(3):
        window.doc.undo_stack.undo()
    assert enc not in t


def test_array_dialog_shows_stripe_table1_and_alignment(window, qtbot):
    t = window.doc.topology
    dlg = _open(window, ["fastt1"], "new-array")
    dlg.first_n.setValue(2)
    _refused(dlg, "at least 3 drives")
    dlg.first_n.setValue(9)
    dlg.segment.setCurrentIndex(dlg.segment.findData(128))
    text = dlg.summary.text()
    assert "full stripe 8 data drives x 128 KB = 1024 KB" in text
    assert "357 MB/s read" in text and "Table 1" in text and "ESTIMATE" not in text
    assert "a VG with a 1024 KB LTG would align" in text
    dlg.segment.setCurrentIndex(dlg.segment.findData(64))
    assert "ESTIMATE" in dlg.summary.text()
    _ok(qtbot, dlg)
    arr = t.children("fastt1", "array")[-1]
    assert (arr["raid_level"], len(arr["drives"]), arr["segment_kb"]) == (5, 9, 64)
    dlg = _open(window, ["fastt1.arr1"], "change-array")
    assert "does NOT align" not in dlg.summary.text() and "aligns with the 1024 KB LTG" in dlg.summary.text()
    dlg.segment.setCurrentIndex(dlg.segment.findData(256))
    assert "does NOT align" in dlg.summary.text()
    dlg.reject()
    window.doc.undo_stack.undo()
    assert arr.id not in t


def test_logical_drive_dialog(window, qtbot):
    t = window.doc.topology
    free = [d.id for d in edit.free_drives(t, "fastt1")]
    window.doc.run(ec.new_array, "fastt1", 5, free[:5], 128)
    arr = t.children("fastt1", "array")[-1].id
    dlg = _open(window, [arr], "new-logical-drive")
    assert dlg.size_gb.value() == 4 * 36 and dlg.lun.value() == 2
    dlg.size_gb.setValue(200)
    _refused(dlg, "has 144 GB free, not 200 GB")
    dlg.size_gb.setValue(100)
    dlg.lun.setValue(0)
    _refused(dlg, "LUN 0 is already")
    dlg.lun.setValue(7)
    _ok(qtbot, dlg)
    ld = t.children(arr, "logical_drive")[0]
    assert (ld["size_gb"], ld["lun"]) == (100, 7)
    window.doc.undo_stack.undo()
    assert not t.children(arr, "logical_drive")


def _new_ld(window, lun=5):
    t = window.doc.topology
    free = [d.id for d in edit.free_drives(t, "fastt1")]
    window.doc.run(ec.new_array, "fastt1", 5, free[:5], 128)
    arr = t.children("fastt1", "array")[-1].id
    window.doc.run(ec.new_logical_drive, arr, "fastt1.A", 100, lun)
    return t.children(arr, "logical_drive")[0].id


def test_host_mapping_dialog_new_and_edit(window, qtbot):
    t = window.doc.topology
    ld = _new_ld(window)
    taken = set(t["fastt1.map.P_FASTT1"]["hba_ports"])
    free_port = next(p.id for p in t.of_kind("hba_port") if p.id not in taken)
    dlg = _open(window, ["fastt1"], "new-host-mapping")
    _refused(dlg, "tick at least one HBA port")
    _tick(
        dlg.ports,
        [i for i in range(dlg.ports.count()) if dlg.ports.item(i).data(Qt.ItemDataRole.UserRole) == free_port],
    )
    rows = dlg.ld_rows()
    for i, (cid, _on, spin) in enumerate(rows):
        if cid in (ld, t["fastt1.map.P_FASTT1"]["logical_drives"][0]):
            dlg.lds.item(i, 0).setCheckState(Qt.CheckState.Checked)
            spin.setValue(3)
    _refused(dlg, "LUN 3 is given to both")
    next(spin for cid, _on, spin in dlg.ld_rows() if cid == ld).setValue(4)
    assert "as LUN 4" in dlg.summary.text()
    _ok(qtbot, dlg)
    m = t.children("fastt1", "host_mapping")[-1]
    assert m["hba_ports"] == (free_port,) and ld in m["logical_drives"] and t[ld]["lun"] == 4
    dlg = _open(window, [m.id], "edit-host-mapping")
    dlg.name.setText("P_NEW")
    _ok(qtbot, dlg)
    assert t[m.id].name == "P_NEW"
    window.doc.undo_stack.undo()
    window.doc.undo_stack.undo()
    assert m.id not in t and t[ld]["lun"] == 5


def test_hdisks_vg_lv_workload_dialogs(window, qtbot):
    t = window.doc.topology
    _open(window, ["p690.lpar1"], "create-hdisks")
    assert "already has an hdisk" in window.doc.last_refusal
    ld = _new_ld(window)
    window.doc.run(ec.set_host_mapping, "fastt1", "P_X", list(t["fastt1.map.P_FASTT1"]["hba_ports"]), [ld], None, None)
    # the P_FASTT1 ports are in that mapping already: map through the existing one instead
    assert "already in mapping" in window.doc.last_refusal
    m = t["fastt1.map.P_FASTT1"]
    window.doc.run(ec.set_host_mapping, "fastt1", m.name, m["hba_ports"], (*m["logical_drives"], ld), None, m.id)
    _open(window, ["p690.lpar1"], "create-hdisks")
    hd = next(h for h in t.children("p690.lpar1", "hdisk") if h["logical_drive"] == ld)
    dlg = _open(window, ["p690.lpar1"], "new-vg")
    dlg.name.setText("datavg")
    _refused(dlg, "already has a volume group datavg")
    dlg.name.setText("sasvg")
    assert [dlg.pvs.item(i).data(Qt.ItemDataRole.UserRole) for i in range(dlg.pvs.count())] == [hd.id]
    dlg.vg_type.setCurrentIndex(dlg.vg_type.findData("scalable"))
    _refused(dlg, "AIX 5.3")
    dlg.vg_type.setCurrentIndex(dlg.vg_type.findData("normal"))
    assert dlg.ltg.currentData() == 512  # RAID5 4+P x 128 KB
    _ok(qtbot, dlg)
    vg = t.children("p690.lpar1", "volume_group")[-1]
    assert (vg.name, vg["pvs"], vg["ltg_kb"]) == ("sasvg", (hd.id,), 512)
    dlg = _open(window, [vg.id], "new-lv")
    dlg.stripe.setCurrentIndex(dlg.stripe.findData(512))
    assert dlg.stripe_width.maximum() == 1
    dlg.stripe_width.setValue(1)
    _refused(dlg, "at least 2 PVs")
    dlg.stripe.setCurrentIndex(dlg.stripe.findData(0))
    dlg.size_gb.setValue(150)
    _refused(dlg, "100 GB free")
    dlg.size_gb.setValue(60)
    dlg.name.setText("saslv")
    _ok(qtbot, dlg)
    lv = t.children(vg.id, "logical_volume")[0]
    assert (lv.name, lv["size_gb"], lv["stripe_kb"]) == ("saslv", 60, 0)
    dlg = _open(window, [lv.id], "new-workload")
    dlg.name.setText("")
    _refused(dlg, "give the workload a name")
    dlg.name.setText("SAS WORK")
    dlg.purpose.setCurrentIndex(dlg.purpose.findData("WORK"))
    dlg.read_pct.setValue(50)
    _ok(qtbot, dlg)
    wl = t.children(lv.id, "workload")[0]
    assert (wl.name, wl["purpose"], wl["read_pct"]) == ("SAS WORK", "WORK", 50)
    for _ in range(4):
        window.doc.undo_stack.undo()
    assert hd.id not in t and vg.id not in t


def test_ask_drive_count_remembers_the_answer(window, qtbot):
    part = window.doc.parts["FAStT600-Turbo"]
    window.settings.remove(storage_actions.FILL_SETTING)
    assert storage_actions.ask_drive_count(window, part, run=lambda dlg: dlg.count.value() == 14) == 14  # full at first
    assert storage_actions.ask_drive_count(window, part, run=lambda dlg: (dlg.count.setValue(0), True)[1]) == 0
    assert window.settings.value(storage_actions.FILL_SETTING) == "empty"
    seen = []
    assert storage_actions.ask_drive_count(window, part, run=lambda dlg: seen.append(dlg.count.value())) is None
    assert seen == [0]  # empty was remembered; a cancelled dialog answers None
    QTimer.singleShot(0, lambda: (window.last_dialog.count.setValue(6), window.last_dialog.accept()))
    assert storage_actions.ask_drive_count(window, part) == 6  # the modal path
    assert storage_actions.ask_drive_count(window, window.doc.parts["FAStT900"]) == 0  # no bays: no question


def test_a_refused_dialog_edit_keeps_the_dialog_open(window, qtbot):
    dlg = _open(window, ["p690"], "new-lpar")
    dlg.name.setText("db")
    window.doc.run(ec.new_lpar, "p690", "db")  # the design changed while the dialog was open
    depth = window.doc.undo_stack.count()
    qtbot.mouseClick(dlg.ok_button(), Qt.MouseButton.LeftButton)
    assert dlg.isVisible() and "already has an LPAR named db" in dlg.reason.text()
    assert window.doc.undo_stack.count() == depth
