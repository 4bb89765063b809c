"""The dockable panels driven as a user would: typing, clicking, choosing rows and combo entries."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QMessageBox

from catalogs.catalog import Catalog
from planner import edit
from widgets.catalog_browser import CatalogDialog
from widgets.charts import LEVELS, ChartsPanel
from widgets.findings import FindingsPanel
from widgets.inspector import InspectorPanel
from widgets.palette import PART_MIME, PalettePanel, part_id_from_mime, part_mime_data
from widgets.paths import COL_MBPS, PathsPanel, _shown, natural_key

ROOT = Path(__file__).resolve().parents[2]
PANEL_MODULES = (
    "inspector",
    "inspector_fields",
    "candidates",
    "palette",
    "findings",
    "paths",
    "charts",
    "catalog_browser",
)


def shown(qtbot, widget):
    qtbot.addWidget(widget)
    widget.resize(420, 700)
    widget.show()
    return widget


def inspector(qtbot, doc, parts):
    """An inspector whose edits go through a controller, as in the main window."""
    from app.controller import Controller

    panel = shown(qtbot, InspectorPanel(doc))
    controller = Controller(doc, parts, panel)
    controller.connect_inspector(panel)
    return panel


def retype(qtbot, line, text):
    """Select everything in a line edit, type ``text`` and press Enter."""
    line.setFocus()
    line.selectAll()
    qtbot.keyClicks(line, text)
    qtbot.keyClick(line, Qt.Key.Key_Return)


def click_item(qtbot, tree, item):
    tree.scrollToItem(item)
    qtbot.mouseClick(tree.viewport(), Qt.MouseButton.LeftButton, pos=tree.visualItemRect(item).center())


def double_click_item(qtbot, tree, item):
    """A real double click: press and release, then the double-click press and release
    (QTest's mouseDClick alone sends only the second half)."""
    tree.scrollToItem(item)
    pos = tree.visualItemRect(item).center()
    qtbot.mouseClick(tree.viewport(), Qt.MouseButton.LeftButton, pos=pos)
    qtbot.mouseDClick(tree.viewport(), Qt.MouseButton.LeftButton, pos=pos)


# -- layering ----------------------------------------------------------------------------------


def test_panels_do_not_import_app_at_runtime():
    """widgets <- app: a panel gets its document in the constructor; app only for type hints."""
    bad = []
    for name in PANEL_MODULES:
        tree = ast.parse((ROOT / "widgets" / f"{name}.py").read_text(encoding="utf-8"))
        for node in tree.body:  # module level only; `if TYPE_CHECKING:` blocks are ast.If
            mods = (
                [a.name for a in node.names]
                if isinstance(node, ast.Import)
                else [node.module or ""]
                if isinstance(node, ast.ImportFrom)
                else []
            )
            bad += [(name, m) for m in mods if m.split(".")[0] == "app"]
    assert bad == []


# -- inspector ---------------------------------------------------------------------------------


def test_inspector_shows_the_selected_arrays_raid_level_and_segment(qtbot, doc, parts):
    panel = inspector(qtbot, doc, parts)
    assert panel.field("raid_level") is None  # nothing selected yet
    doc.select(["fastt1.arr1"])
    assert panel.shown_ids() == ["fastt1.arr1"]
    assert panel.field("raid_level").currentData() == 5
    assert panel.field("raid_level").currentText() == "RAID 5"
    assert panel.field("segment_kb").text() == "128"
    assert panel.info_text("Id") == "fastt1.arr1"
    assert "%" in panel.info_text("Utilization")  # from the analysis
    drives = panel.field("drives")
    ticked = [
        drives.item(i).data(Qt.ItemDataRole.UserRole)
        for i in range(drives.count())
        if drives.item(i).checkState() == Qt.CheckState.Checked
    ]
    assert ticked == list(doc.topology["fastt1.arr1"]["drives"])
    # candidates: only this subsystem's drives that no other array uses
    others = set(doc.topology["fastt1.arr2"]["drives"])
    candidates = {drives.item(i).data(Qt.ItemDataRole.UserRole) for i in range(drives.count())}
    assert not candidates & others
    assert all(c.startswith("fastt1.") for c in candidates)


@pytest.mark.parametrize(
    ("cid", "key", "typed", "reason"),
    [("fastt1.arr1", "segment_kb", "abc", "not a number"), ("hba.d1s1.0", "wwpn", "xyz", "not 8 bytes of hex")],
)
def test_inspector_refuses_an_invalid_value_keeps_the_text_and_the_model(qtbot, doc, parts, cid, key, typed, reason):
    panel = inspector(qtbot, doc, parts)
    doc.select([cid])
    before = doc.topology[cid][key]
    retype(qtbot, panel.field(key), typed)
    assert reason in panel.error_text(key)
    assert panel.field(key).text() == typed  # nothing typed is lost
    assert doc.topology[cid][key] == before
    assert doc.undo_stack.count() == 0
    # an analysis update does not wipe the typed text either
    doc.run(edit.set_attr, cid, "name", "renamed")
    assert panel.field(key).text() == typed and reason in panel.error_text(key)
    # Esc gives up: the design's value is back and the reason goes
    qtbot.keyClick(panel.field(key), Qt.Key.Key_Escape)
    assert panel.field(key).text() == str(before) and panel.error_text(key) == ""


def test_inspector_valid_value_changes_the_model_and_undo_restores_it(qtbot, doc, parts):
    panel = inspector(qtbot, doc, parts)
    doc.select(["fastt1.arr1"])
    retype(qtbot, panel.field("segment_kb"), "256")
    assert panel.error_text("segment_kb") == ""
    assert doc.topology["fastt1.arr1"]["segment_kb"] == 256
    assert doc.undo_stack.count() == 1
    doc.undo_stack.undo()
    assert doc.topology["fastt1.arr1"]["segment_kb"] == 128
    assert panel.field("segment_kb").text() == "128"  # the form follows undo
    # a WWPN is stored normalised
    doc.select(["hba.d1s1.0"])
    retype(qtbot, panel.field("wwpn"), "10000000C9AABB01")
    assert doc.topology["hba.d1s1.0"]["wwpn"] == "10:00:00:00:c9:aa:bb:01"
    assert panel.field("wwpn").text() == "10:00:00:00:c9:aa:bb:01"
    # the example's made-up WWPN was a placeholder; the typed one is not, in the same undo step
    assert doc.topology["hba.d1s1.0"]["wwpn_placeholder"] is False
    doc.undo_stack.undo()
    assert doc.topology["hba.d1s1.0"]["wwpn_placeholder"] is True
    assert doc.topology["hba.d1s1.0"]["wwpn"] == "10:00:00:00:c9:01:00:01"


def test_inspector_multi_selection_edit_is_one_undo_step(qtbot, doc, parts):
    panel = inspector(qtbot, doc, parts)
    arrays = ["fastt1.arr1", "fastt1.arr2", "fastt2.arr1"]
    doc.select(arrays)
    assert panel.field("name") is None  # names are edited one at a time
    assert panel.field("segment_kb").text() == "128"
    retype(qtbot, panel.field("segment_kb"), "64")
    assert [doc.topology[a]["segment_kb"] for a in arrays] == [64, 64, 64]
    assert doc.topology["fastt2.arr2"]["segment_kb"] == 128  # not selected
    assert doc.undo_stack.count() == 1
    combo = panel.field("raid_level")
    combo.setCurrentIndex(combo.findData(10))
    assert [doc.topology[a]["raid_level"] for a in arrays] == [10, 10, 10]
    assert doc.undo_stack.count() == 2
    doc.undo_stack.undo()
    doc.undo_stack.undo()
    assert [doc.topology[a]["segment_kb"] for a in arrays] == [128, 128, 128]
    assert [doc.topology[a]["raid_level"] for a in arrays] == [5, 5, 5]
    # an invalid value for several components is refused for all, with the reason
    retype(qtbot, panel.field("segment_kb"), "0")
    assert "below the minimum" in panel.error_text("segment_kb")
    assert [doc.topology[a]["segment_kb"] for a in arrays] == [128, 128, 128]


def test_inspector_mixed_values_and_mixed_kinds(qtbot, doc, parts):
    panel = inspector(qtbot, doc, parts)
    doc.run(edit.set_attr, "fastt1.arr2", "segment_kb", 256)
    doc.select(["fastt1.arr1", "fastt1.arr2"])
    assert panel.field("segment_kb").text() == ""
    assert "different" in panel.field("segment_kb").placeholderText()
    doc.select(["fastt1.arr1", "fastt1.ld1"])
    assert panel.field("segment_kb") is None and panel.field("owner") is None
    assert "different kinds" in panel.title.text()


def test_owner_combo_lists_only_that_subsystems_controllers_and_moves_the_path(qtbot, doc, parts):
    panel = inspector(qtbot, doc, parts)
    doc.select(["fastt1.ld1"])
    combo = panel.field("owner")
    choices = [combo.itemData(i) for i in range(combo.count()) if combo.itemData(i)]
    assert choices == ["fastt1.A", "fastt1.B"]
    assert combo.currentData() == "fastt1.A"

    def host_ports_of_ld1():
        return {p.host_port for p in doc.analysis.result.paths if p.logical_drive == "fastt1.ld1"}

    assert host_ports_of_ld1() == {"fastt1.A1"}
    combo.setCurrentIndex(combo.findData("fastt1.B"))
    assert doc.topology["fastt1.ld1"]["owner"] == "fastt1.B"
    assert host_ports_of_ld1() == {"fastt1.B1"}  # the path now runs through controller B
    doc.undo_stack.undo()
    assert host_ports_of_ld1() == {"fastt1.A1"}
    assert panel.field("owner").currentData() == "fastt1.A"


def test_zone_members_offer_the_ports_cabled_into_the_fabric(qtbot, doc, parts):
    panel = inspector(qtbot, doc, parts)
    zone = "z.Z_D1_FCS0_FASTT1_A"
    doc.select([zone])
    members = panel.field("members")
    ids = [members.item(i).data(Qt.ItemDataRole.UserRole) for i in range(members.count())]
    assert len(ids) == 32  # 16 HBA ports and 16 storage ports on sw1
    assert {doc.topology[i].kind for i in ids} == {"hba_port", "host_port"}
    row = ids.index("hba.d1s2.0")
    members.item(row).setCheckState(Qt.CheckState.Checked)
    assert doc.topology[zone]["members"] == ("hba.d1s1.0", "fastt1.A1", "hba.d1s2.0")
    doc.undo_stack.undo()
    assert doc.topology[zone]["members"] == ("hba.d1s1.0", "fastt1.A1")


# -- findings ----------------------------------------------------------------------------------


def test_findings_show_asic_crossing_and_choosing_it_selects_its_components(qtbot, make_doc):
    doc = make_doc("p690-worst-cabling")
    panel = shown(qtbot, FindingsPanel(doc))
    errors = panel.tree.topLevelItem(0)
    assert errors.text(0) == "Errors (1)"
    item = panel.item_for("ASIC_CROSSING")
    assert item is not None and item.parent() is errors
    finding = item.data(0, Qt.ItemDataRole.UserRole)
    with qtbot.waitSignal(panel.focusRequested) as sig:
        click_item(qtbot, panel.tree, item)
    assert doc.selection == list(finding.components)
    assert sig.args == [list(finding.components)]
    text = panel.detail.toPlainText()
    assert "Fix:" in text and "backplane" in text and "Source:" in text

    # a user label with markup is shown as text, and the chosen finding survives an update
    doc.run(edit.set_attr, "sw1", "name", "<b>core</b>")
    assert panel.current_finding() is not None and panel.current_finding().rule == "ASIC_CROSSING"
    assert "On <b>core</b>, 16 zones" in panel.detail.toPlainText()  # the message, escaped


def test_findings_follow_the_analysis(qtbot, doc):
    panel = shown(qtbot, FindingsPanel(doc))
    assert panel.item_for("ASIC_CROSSING") is None
    assert panel.tree.topLevelItem(0).text(0) == "Errors (0)"
    doc.run(edit.set_attr, "hba.d1s1.0", "wwpn", "")
    doc.run(edit.set_attr, "hba.d1s2.0", "wwpn", "10:00:00:00:c9:01:00:01")  # a duplicate WWPN
    rules = {f.rule for f in panel.findings()}
    assert any("WWPN" in r for r in rules)


def test_findings_keep_their_list_while_the_findings_stay_the_same(qtbot, make_doc):
    """An analysis with the same findings keeps the list as it is (its items, the one chosen);
    other findings list afresh, the chosen one chosen again when it is still found."""
    doc = make_doc("p690-worst-cabling")
    panel = shown(qtbot, FindingsPanel(doc))
    item = panel.item_for("ASIC_CROSSING")
    panel.tree.setCurrentItem(item)
    before = [panel.tree.topLevelItem(0).child(i) for i in range(panel.tree.topLevelItem(0).childCount())]
    doc.run(edit.set_attr, "fastt8.ld2", "name", "archive")  # nothing found differs ...
    assert panel.item_for("ASIC_CROSSING") is item and panel.tree.currentItem() is item
    assert [panel.tree.topLevelItem(0).child(i) for i in range(len(before))] == before
    doc.run(edit.set_attr, "hba.d1s1.0", "wwpn", "")  # ... a finding more: listed afresh
    assert panel.item_for("ASIC_CROSSING") is not item
    assert panel.current_finding() is not None and panel.current_finding().rule == "ASIC_CROSSING"
    assert sum(panel.tree.topLevelItem(g).childCount() for g in range(3)) == len(doc.analysis.findings)


# -- paths -------------------------------------------------------------------------------------


def test_paths_sort_numerically_and_choosing_a_row_highlights_the_path(qtbot, doc):
    # three drives make fastt1's first array slow: 82.8 MB/s against 150 for the others
    doc.run(edit.set_attr, "fastt1.arr1", "drives", doc.topology["fastt1.arr1"]["drives"][:3])
    panel = shown(qtbot, PathsPanel(doc))
    assert panel.proxy.rowCount() == 16
    assert "16 paths" in panel.summary.text()
    panel.view.sortByColumn(COL_MBPS, Qt.SortOrder.AscendingOrder)
    rates = [panel.path_at(r).mbps for r in range(panel.proxy.rowCount())]
    assert rates == sorted(rates) and rates[0] < 100 < rates[-1]  # "82.8" sorts before "150.0"
    panel.view.sortByColumn(COL_MBPS, Qt.SortOrder.DescendingOrder)
    assert panel.path_at(panel.proxy.rowCount() - 1).logical_drive == "fastt1.ld1"

    highlighted = []
    doc.pathHighlighted.connect(highlighted.append)
    panel.view.selectionModel().select(
        panel.proxy.index(2, 0),
        panel.view.selectionModel().SelectionFlag.ClearAndSelect | panel.view.selectionModel().SelectionFlag.Rows,
    )
    chosen = panel.path_at(2)
    assert highlighted == [chosen]
    assert doc.selection == [chosen.hba_port, chosen.host_port, chosen.logical_drive]

    # an update keeps the sort order and the chosen path
    doc.run(edit.set_attr, "sw1", "name", "switch one")
    rates = [panel.path_at(r).mbps for r in range(panel.proxy.rowCount())]
    assert rates == sorted(rates, reverse=True)
    rows = panel.view.selectionModel().selectedRows()
    assert len(rows) == 1 and panel.proxy.data(rows[0], Qt.ItemDataRole.UserRole + 3).id == chosen.id


def test_paths_sizing_its_columns_reads_a_sample_of_the_rows(qtbot, make_doc, monkeypatch):
    """The first sizing of the columns measures SIZING_ROWS rows and the cells with the longest
    texts, not every row (Qt's own sizing of the 16x site's 1,792 paths, on the panel's first
    showing: 0.5-0.8 s); each column is still as wide as its widest text."""
    from widgets import paths as paths_module

    monkeypatch.setattr(paths_module, "SIZING_ROWS", 20)
    doc = make_doc("p690-benchmark")  # 112 paths
    panel = PathsPanel(doc)
    qtbot.addWidget(panel)
    panel.resize(900, 200)
    panel.show()
    qtbot.waitExposed(panel)
    read = set()
    real = panel.model.data
    monkeypatch.setattr(
        panel.model,
        "data",
        lambda index, role=Qt.ItemDataRole.DisplayRole: (
            read.add(index.row()) if role == Qt.ItemDataRole.DisplayRole else None,
            real(index, role),
        )[1],
    )  # (the sorting and filtering proxy reads every row, by roles of its own)
    panel._sized = False
    panel._on_analysis(doc.analysis)
    qtbot.waitUntil(lambda: panel._sized and panel._sizing is None)  # (on later turns of the event loop)
    in_view = panel.view.rowAt(panel.view.viewport().height() - 1) + 1 or panel.proxy.rowCount()
    assert panel.model.rowCount() == 112
    assert 0 < len(read) <= 20 + in_view + 3 * len(paths_module.COLUMNS) < 112
    for col in range(len(paths_module.COLUMNS)):
        widest = max(
            panel.view.fontMetrics().horizontalAdvance(paths_module._display(r, col)) for r in panel.model.rows
        )
        assert panel.view.columnWidth(col) > widest, col
        qt_widest = max(  # as wide as Qt's own size of each cell, margins included
            panel.view.sizeHintForIndex(panel.proxy.index(r, col)).width() for r in range(panel.proxy.rowCount())
        )
        assert panel.view.columnWidth(col) >= qt_widest, col


def test_paths_size_their_columns_over_turns_of_the_event_loop(qtbot, make_doc, monkeypatch):
    """The first sizing of the columns runs a slice of SIZE_SLICE_S at a time, a column at least,
    the rest on later turns (all at once it took 11-14 ms on the 16x site, inside turns that then
    blocked the editor 40-90 ms); once done every column is sized."""
    from widgets import paths as paths_module
    from widgets import slice_budget

    doc = make_doc("p690-benchmark")
    panel = PathsPanel(doc)
    qtbot.addWidget(panel)
    panel.resize(900, 200)
    panel.show()
    qtbot.waitExposed(panel)
    qtbot.waitUntil(lambda: panel._sized and panel._sizing is None)
    sized = [panel.view.columnWidth(c) for c in range(len(paths_module.COLUMNS))]
    monkeypatch.setattr(paths_module, "SIZE_SLICE_S", 0.0)  # (a column a slice)
    for c in range(len(sized)):
        panel.view.setColumnWidth(c, 5)  # (as narrow as the header lets them)
    narrow = [panel.view.columnWidth(c) for c in range(len(sized))]
    panel._sizing = panel._sizing_columns()
    slice_budget.reset()
    panel._size_slice()
    widths = [panel.view.columnWidth(c) for c in range(len(sized))]
    # the first column sized, the next three not yet (the binding hop's stretches to the view)
    assert widths[0] == sized[0] > narrow[0] and widths[1:4] == narrow[1:4] and panel._sizing is not None
    qtbot.waitUntil(lambda: panel._sizing is None)
    assert [panel.view.columnWidth(c) for c in range(len(sized))] == sized


def test_paths_update_in_place_announces_only_the_rows_that_change(qtbot, doc):
    """An edit that changes rates and not paths updates the rows in place (no model reset): only
    the rows that read otherwise are announced, the sort follows, a rename reaches the labels."""
    panel = shown(qtbot, PathsPanel(doc))
    panel.view.sortByColumn(COL_MBPS, Qt.SortOrder.AscendingOrder)
    resets, changed = [], []
    panel.model.modelReset.connect(lambda: resets.append(1))
    panel.model.dataChanged.connect(lambda a, b: changed.extend(range(a.row(), b.row() + 1)))
    before = [_shown(r) for r in panel.model.rows]
    doc.run(edit.set_attr, "fastt1.arr1", "drives", doc.topology["fastt1.arr1"]["drives"][:3])
    after = [_shown(r) for r in panel.model.rows]
    differ = {i for i in range(16) if before[i] != after[i]}
    assert resets == [] and set(changed) == differ and 0 < len(differ) < 16
    assert {p.id for p in doc.analysis.result.paths if p.logical_drive == "fastt1.ld1"} <= {
        panel.model.rows[i].path.id for i in differ
    }
    rates = [panel.path_at(r).mbps for r in range(panel.proxy.rowCount())]
    assert rates == sorted(rates) and panel.path_at(0).logical_drive == "fastt1.ld1"  # re-sorted

    changed.clear()
    doc.run(edit.set_attr, "fastt1", "name", "left FAStT")  # labels are cached: a rename clears them
    host = [panel.model.rows[i].cells[1] for i in range(16) if panel.model.rows[i].ids[1].startswith("fastt1.")]
    assert host and all("left FAStT" in c for c in host) and resets == [] and changed


def test_paths_filter_box(qtbot, doc):
    panel = shown(qtbot, PathsPanel(doc))
    qtbot.keyClicks(panel.filter, "fastt3")
    assert panel.proxy.rowCount() == 2
    assert all("fastt3" in panel.path_at(r).id for r in range(2))
    assert panel.summary.text().startswith("Showing 2 of 16")


# -- charts ------------------------------------------------------------------------------------


def test_charts_bar_heights_are_the_busiest_utilization_per_hop_level(qtbot, make_doc):
    doc = make_doc("p690-worst-cabling")
    panel = shown(qtbot, ChartsPanel(doc))
    result = doc.analysis.result
    expected = {}
    for ld in result.components.values():
        if ld.capacity:
            expected[ld.kind] = max(expected.get(ld.kind, 0.0), ld.load / ld.capacity * 100)
    names = dict(LEVELS)
    levels = [k for k, _ in LEVELS if k in expected]
    assert [s.kind for s in panel.stats] == levels
    heights = list(panel.level_bars.opts["height"])
    assert heights == pytest.approx([expected[k] for k in levels])
    assert heights[levels.index("backplane")] == pytest.approx(100.0)  # the worst cabling's bottleneck
    ticks = panel.util_plot.getAxis("bottom")._tickLevels[0]
    assert [t[1] for t in ticks] == [names[k] for k in levels]
    assert "backplane" in panel.hover_level(levels.index("backplane")).replace("-\n", "")
    assert panel.hover_level(len(levels) + 3) == ""
    # paths chart: one bar per path, fastest first
    path_heights = list(panel.path_bars.opts["height"])
    assert len(path_heights) == len(result.paths)
    assert path_heights == sorted(path_heights, reverse=True)
    fastest = min((p for p in result.paths if p.mbps is not None), key=lambda p: (-p.mbps, p.id))
    from planner.naming import label

    assert (
        panel.hover_path(0)
        == f"{fastest.id}\n{fastest.mbps:.1f} MB/s, bound by {label(doc.topology, fastest.bottleneck)}"
    )


def test_charts_follow_the_analysis(qtbot, doc):
    panel = shown(qtbot, ChartsPanel(doc))
    before = list(panel.level_bars.opts["height"])
    doc.set_figures("measured")
    after = list(panel.level_bars.opts["height"])
    assert after != before


# -- palette -----------------------------------------------------------------------------------


def test_palette_filter_and_drag_payload(qtbot, parts):
    panel = shown(qtbot, PalettePanel(lambda: [(p, False) for p in parts.values()]))
    assert len(panel.visible_part_ids()) == len(parts)
    qtbot.keyClicks(panel.search, "6239")
    assert panel.visible_part_ids() == ["FC6239"]

    mime = part_mime_data("FC6239")
    assert mime.hasFormat(PART_MIME)
    assert bytes(mime.data(PART_MIME).data()) == b"FC6239"
    assert part_id_from_mime(mime) == "FC6239"
    item = panel.item_for("FC6239")
    assert part_id_from_mime(panel.tree.mimeData([item])) == "FC6239"
    assert panel.tree.mimeData([item.parent()]) is None  # a group heading does not drag

    with qtbot.waitSignal(panel.partActivated) as sig:
        double_click_item(qtbot, panel.tree, item)
    assert sig.args == ["FC6239"]

    panel.search.clear()
    qtbot.keyClicks(panel.search, "no such part")
    assert panel.visible_part_ids() == [] and panel.empty.isVisible()


def test_palette_refresh_shows_new_user_parts(qtbot, tmp_path):
    catalog = Catalog(tmp_path / "c.sqlite")
    panel = shown(qtbot, PalettePanel(lambda: list(catalog.parts())))
    catalog.add_user_part({"id": "MY-HBA", "kind": "hba", "name": "My HBA", "figures": {}})
    assert "MY-HBA" not in panel.visible_part_ids()
    panel.refresh()
    assert "MY-HBA" in panel.visible_part_ids()


# -- catalog dialog ----------------------------------------------------------------------------


def fill_editor(qtbot, editor, pid, source):
    editor.id_edit.clear()
    qtbot.keyClicks(editor.id_edit, pid)
    editor.kind_combo.setCurrentIndex(editor.kind_combo.findData("hba"))
    qtbot.keyClicks(editor.name_edit, "Bench HBA")
    qtbot.keyClicks(editor.fc_edit, "9999")
    editor.set_cell(0, 0, "hba")
    editor.set_cell(0, 1, "measured")
    editor.set_cell(0, 2, "180")
    editor.set_cell(0, 4, source)


def test_catalog_dialog_adds_a_user_part(qtbot, tmp_path):
    catalog = Catalog(tmp_path / "c.sqlite")
    dlg = shown(qtbot, CatalogDialog(catalog))
    qtbot.mouseClick(dlg.add_button, Qt.MouseButton.LeftButton)
    editor = dlg.editor
    assert editor is not None and editor.isVisible()
    fill_editor(qtbot, editor, "MY-HBA", "our fio run, 2024-05")
    with qtbot.waitSignal(dlg.catalogChanged):
        qtbot.mouseClick(editor.save_button, Qt.MouseButton.LeftButton)
    assert not editor.isVisible()
    part = catalog.get("MY-HBA")
    assert part["name"] == "Bench HBA" and part["feature_code"] == "9999"
    assert part["figures"] == {"hba": {"measured": {"value": 180, "source": "our fio run, 2024-05"}}}
    assert "MY-HBA" in dlg.part_ids()
    assert dlg.edit_button.isEnabled() and dlg.delete_button.isEnabled()  # the new part is selected
    assert "our fio run" in dlg.detail.toPlainText()


def test_catalog_dialog_refuses_a_figure_without_source_and_keeps_the_form(qtbot, tmp_path):
    catalog = Catalog(tmp_path / "c.sqlite")
    dlg = shown(qtbot, CatalogDialog(catalog))
    qtbot.mouseClick(dlg.add_button, Qt.MouseButton.LeftButton)
    editor = dlg.editor
    fill_editor(qtbot, editor, "NO-SOURCE", "")
    qtbot.mouseClick(editor.save_button, Qt.MouseButton.LeftButton)
    assert editor.isVisible()
    assert editor.error.isVisible() and "has no source" in editor.error.text()
    assert editor.id_edit.text() == "NO-SOURCE" and editor.table.item(0, 2).text() == "180"
    assert catalog.get("NO-SOURCE") is None
    # adding the source fixes it
    editor.set_cell(0, 4, "estimate")
    qtbot.mouseClick(editor.save_button, Qt.MouseButton.LeftButton)
    assert catalog.get("NO-SOURCE")["figures"]["hba"]["measured"]["source"] == "estimate"


def test_catalog_builtins_are_read_only_and_duplicate_as_user_parts(qtbot, tmp_path, monkeypatch):
    catalog = Catalog(tmp_path / "c.sqlite")
    dlg = shown(qtbot, CatalogDialog(catalog))
    assert dlg.select_part("FC6239")
    assert not dlg.edit_button.isEnabled() and not dlg.delete_button.isEnabled()
    assert dlg.duplicate_button.isEnabled()
    assert dlg.edit_selected() is None and dlg.delete_selected(confirm=False) is False
    assert "read-only" in dlg.detail.toPlainText() and "195" in dlg.detail.toPlainText()

    qtbot.mouseClick(dlg.duplicate_button, Qt.MouseButton.LeftButton)
    editor = dlg.editor
    assert editor.id_edit.text() == "FC6239-copy"
    qtbot.mouseClick(editor.save_button, Qt.MouseButton.LeftButton)
    copy = catalog.get("FC6239-copy")
    assert copy["figures"] == catalog.get("FC6239")["figures"]  # every set, source and note kept
    assert copy["ports"] == 1
    assert dlg.edit_button.isEnabled()

    # edit the copy: the id cannot change, the figure can
    qtbot.mouseClick(dlg.edit_button, Qt.MouseButton.LeftButton)
    editor = dlg.editor
    assert editor.id_edit.isReadOnly()
    row = next(r for r in range(editor.table.rowCount()) if editor.table.cellWidget(r, 1).currentText() == "planning")
    editor.set_cell(row, 2, "160")
    qtbot.mouseClick(editor.save_button, Qt.MouseButton.LeftButton)
    assert catalog.get("FC6239-copy")["figures"]["hba"]["planning"]["value"] == 160
    assert catalog.get("FC6239")["figures"]["hba"]["planning"]["value"] == 150

    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.StandardButton.Yes)
    with qtbot.waitSignal(dlg.catalogChanged):
        assert dlg.delete_selected()
    assert catalog.get("FC6239-copy") is None and "FC6239-copy" not in dlg.part_ids()


def test_hba_slot_choice_lists_free_slots_with_their_phb_and_moves_the_hba(qtbot, doc, parts):
    panel = inspector(qtbot, doc, parts)
    doc.select(["hba.d1s1"])
    combo = panel.field("slot")
    slots = [combo.itemData(i) for i in range(combo.count())]
    assert slots[0] == "d1.s1" and combo.currentData() == "d1.s1"
    assert set(slots[1:]) == {"d1.s4", "d1.s10", "d1.s14", "d1.s20"}  # the free slots of the drawer
    text = combo.itemText(combo.findData("d1.s4"))
    assert text.startswith("Slot 4 of Drawer 1 - PHB") and "link0 of Planar 0" in text
    combo.setCurrentIndex(combo.findData("d1.s4"))
    assert doc.topology["hba.d1s1"].parent == "d1.s4"
    assert panel.field("slot").currentData() == "d1.s4"
    doc.undo_stack.undo()
    assert doc.topology["hba.d1s1"].parent == "d1.s1" and panel.field("slot").currentData() == "d1.s1"


def test_hba_slot_choice_refuses_a_taken_slot_under_the_field(qtbot, doc, parts):
    panel = inspector(qtbot, doc, parts)
    doc.select(["hba.d1s1"])
    panel.commit(panel._fields["slot"], "d1.s2")  # a taken slot (the combo offers none: a stale choice)
    assert doc.topology["hba.d1s1"].parent == "d1.s1"
    assert "already holds" in panel.error_text("slot")


def test_paths_panel_explains_the_chosen_path(qtbot, doc):
    panel = shown(qtbot, PathsPanel(doc))
    assert panel.detail.isHidden()
    panel.view.selectRow(0)
    path = panel.path_at(0)
    assert panel.detail.isVisible() and f"{path.mbps:,.1f} MB/s" in panel.detail.text()
    assert "Binding hop:" in panel.detail.text()


def test_paths_rows_and_labels_follow_components_added_and_removed(qtbot, parts):
    """Paths gone and back are rows removed and inserted (no reset, the sort kept). Labels are
    kept between analyses: a component added or removed drops only its own, and all are made
    again when a kind goes from several to one (an HBA port's label names its server only while
    the design has several)."""
    from app.document import Document
    from planner.examples import build_site
    from planner.io import Project
    from planner.naming import label

    doc = Document(parts)
    doc.synchronous = True
    doc.replace_project(Project(build_site(parts, 2)), None)
    panel = shown(qtbot, PathsPanel(doc))
    topo = doc.topology
    first, second = topo.ids_of_kind("server")

    def fresh():
        return [tuple(label(topo, cid) for cid in r.ids) for r in panel.model.rows]

    def shows_the_analysis():  # every path once, in the panel's sort (the slowest first)
        assert [r.path.id for r in panel.model.rows] == [p.id for p in doc.analysis.result.paths]
        shown_rates = [panel.path_at(r).mbps for r in range(panel.proxy.rowCount())]
        assert len(shown_rates) == len(doc.analysis.result.paths) and shown_rates == sorted(shown_rates)

    resets = []
    panel.model.modelReset.connect(lambda: resets.append(1))
    before = [r.cells for r in panel.model.rows]
    assert before == fresh()
    subsystems = topo.ids_of_kind("subsystem")
    doc.run(edit.delete, [subsystems[0], subsystems[-1]])  # paths gone (two runs at least): rows removed
    shows_the_analysis()
    doc.undo_stack.undo()  # and inserted again
    shows_the_analysis()
    assert resets == [] and [r.cells for r in panel.model.rows] == before
    doc.run(edit.delete, [second])
    assert panel.model.rows and [r.cells for r in panel.model.rows] == fresh()
    assert not {r.cells[0] for r in panel.model.rows} & {c[0] for c in before}  # the server is no longer named
    doc.undo_stack.undo()
    assert [r.cells for r in panel.model.rows] == fresh() == before
    shows_the_analysis()


def test_paths_rows_of_parts_an_edit_did_not_reach_are_kept(qtbot, parts):
    """Analysed in the background, an edit re-analyses only the connected parts it reaches and
    keeps the other parts' paths: their rows are kept as they are (not made again), and the
    table still reads as a panel filled afresh; a change of labels (a kind going from several
    to one) makes every row again."""
    from app.document import Document
    from planner.examples import build_site
    from planner.io import Project

    doc = Document(parts)
    doc.replace_project(Project(build_site(parts, 2)), None)
    assert doc.wait_for_analysis(20000) is not None
    panel = shown(qtbot, PathsPanel(doc))
    topo = doc.topology
    first, second = topo.ids_of_kind("server")

    def settled():
        assert doc.wait_for_analysis(20000) is not None
        showing = [id(p) for p in doc.analysis.result.paths]
        qtbot.waitUntil(lambda: [id(r.path) for r in panel.model.rows] == showing, timeout=5000)
        fresh = PathsPanel(doc)
        qtbot.addWidget(fresh)
        assert [_shown(r) for r in panel.model.rows] == [_shown(r) for r in fresh.model.rows]

    def of_server(server):
        return {r.path.id: r for r in panel.model.rows if topo.ancestor(r.ids[0], "server").id == server}

    settled()
    mine, other = of_server(first), of_server(second)
    # a segment size in the first server's storage: its FAStT's figure becomes the mean of its
    # array layouts (a port's speed would move no load: its part's figure holds)
    sub = topo.ancestor(next(iter(mine.values())).ids[1], "subsystem")
    doc.run(edit.set_attr, topo.children(sub.id, "array")[0].id, "segment_kb", 64)
    settled()
    assert all(of_server(second)[p] is row for p, row in other.items())  # kept
    assert not any(of_server(first).get(p) is row for p, row in mine.items())  # made again

    other = of_server(second)
    doc.run(edit.delete, [first])  # servers go from two to one: no label names its server any more
    settled()
    assert other and not any(of_server(second).get(p) is row for p, row in other.items())
    doc.undo_stack.undo()
    settled()
    doc._background.shutdown()


def test_paths_sorted_by_the_model_follow_edits_and_header_clicks(qtbot, doc):
    """The rows are sorted by the model (Qt's proxy only filters): a path whose rate an edit
    changes moves to its place with the chosen row following it, no reset; a click on a
    header sorts by that column, a second click the other way."""
    panel = shown(qtbot, PathsPanel(doc))
    resets, layouts = [], []
    panel.model.modelReset.connect(lambda: resets.append(1))
    panel.model.layoutChanged.connect(lambda *a: layouts.append(1))
    last = panel.proxy.rowCount() - 1
    chosen = panel.path_at(last)  # the rates are equal: the last path of the analysis
    panel.select_path(chosen.id)
    slow = next(p for p in doc.analysis.result.paths if p.id == chosen.id).logical_drive
    array = doc.topology[slow]["array"] if "array" in doc.topology[slow].attrs else doc.topology[slow].parent
    doc.run(edit.set_attr, array, "drives", doc.topology[array]["drives"][:3])  # its drive slower
    rates = [panel.path_at(r).mbps for r in range(panel.proxy.rowCount())]
    assert rates == sorted(rates) and panel.path_at(0).logical_drive == slow  # moved to the top
    assert resets == [] and layouts
    rows = panel.view.selectionModel().selectedRows()
    assert [panel.proxy.data(r, Qt.ItemDataRole.UserRole + 3).id for r in rows] == [chosen.id]

    header = panel.view.horizontalHeader()
    x = header.sectionViewportPosition(1) + header.sectionSize(1) // 2
    qtbot.mouseClick(header.viewport(), Qt.MouseButton.LeftButton, pos=QPoint(x, header.height() // 2))
    hosts = [panel.model.rows[panel.proxy.mapToSource(panel.proxy.index(r, 0)).row()].cells[1] for r in range(16)]
    key = lambda text: natural_key(text)  # noqa: E731
    assert header.sortIndicatorSection() == 1
    assert [key(h) for h in hosts] in (
        [key(h) for h in sorted(hosts, key=key)],
        sorted((key(h) for h in hosts), reverse=True),
    )
    rows = panel.view.selectionModel().selectedRows()  # the chosen row went with its path
    assert [panel.proxy.data(r, Qt.ItemDataRole.UserRole + 3).id for r in rows] == [chosen.id]
    first = hosts
    qtbot.mouseClick(header.viewport(), Qt.MouseButton.LeftButton, pos=QPoint(x, header.height() // 2))
    again = [panel.model.rows[panel.proxy.mapToSource(panel.proxy.index(r, 0)).row()].cells[1] for r in range(16)]
    assert [key(h) for h in again] == sorted((key(h) for h in first), reverse=key(first[0]) < key(first[-1]))
    assert resets == []
    rows = panel.view.selectionModel().selectedRows()  # the chosen row went with its path
    assert [panel.proxy.data(r, Qt.ItemDataRole.UserRole + 3).id for r in rows] == [chosen.id]
