"""The Workloads panel and the inspector's workload lines follow the analysis (targets worked by
hand in tests/planner/test_demand.py: the one-drawer design at planning figures)."""

from __future__ import annotations

from PySide6.QtCore import Qt

from planner import edit
from widgets.inspector import InspectorPanel
from widgets.workloads import WorkloadsPanel

WL1 = "p690.lpar1.datavg.stripelv01.wl"
WL2 = "p690.lpar1.datavg.stripelv02.wl"


def shown(qtbot, widget):
    qtbot.addWidget(widget)
    widget.show()
    return widget


def test_panel_lists_targets_met_and_unmet(qtbot, doc):
    """2000 and 640 MB/s: 16 paths x 150 at the HBAs; the first gets 16 x 110 = 1760, 240 short."""
    panel = shown(qtbot, WorkloadsPanel(doc))
    assert panel.rows() == [] and "No workload has a target" in panel.summary.text()
    doc.run(edit.set_attr, WL1, "target_mbps", 2000)
    doc.run(edit.set_attr, WL2, "target_mbps", 640)
    first, second = panel.rows()
    assert first[1:5] == ("2,000", "1,760", "UNMET", "-240") and first[5].startswith("fcs")
    assert second[1:] == ("640", "640", "met", "+0", "-")
    assert "2 with a target, 1 unmet" in panel.summary.text()
    with qtbot.waitSignal(panel.focusRequested) as sig:
        panel.table.selectRow(0)
    assert sig.args == [[WL1]] and doc.selection == [WL1]
    doc.undo_stack.undo()
    doc.undo_stack.undo()
    assert panel.rows() == []


def test_inspector_shows_met_or_unmet_on_the_workload_and_its_lv(qtbot, doc, parts):
    from app.controller import Controller

    panel = shown(qtbot, InspectorPanel(doc))
    Controller(doc, parts, panel).connect_inspector(panel)
    doc.run(edit.set_attr, WL1, "target_mbps", 2000)
    doc.run(edit.set_attr, WL2, "target_mbps", 640)
    doc.select([WL1])
    assert panel.info_text("Workload").startswith("UNMET: gets 1,760 of 2,000 MB/s, headroom -240 MB/s")
    assert "binding hop fcs" in panel.info_text("Workload")
    line = panel.field("target_mbps")
    line.setFocus()
    line.selectAll()
    qtbot.keyClicks(line, "1600")
    qtbot.keyClick(line, Qt.Key.Key_Return)
    assert doc.topology[WL1]["target_mbps"] == 1600
    assert panel.info_text("Workload") == "met: gets 1,600 of 1,600 MB/s, headroom +160 MB/s"
    doc.select(["p690.lpar1.datavg.stripelv02"])  # the LV shows its workload
    assert panel.info_text("Workload").startswith("met: gets 640 of 640 MB/s")
