"""Items made from nothing (a design opened, everything expanded) come a slice at a time: the
editor answers between slices, the views stay still until the items are all there, an edit in
the middle begins the build again, and the result is the full paint of a fresh scene."""

from __future__ import annotations

from PySide6.QtWidgets import QApplication

import widgets.canvas.scene as scene_module
from planner import edit
from tests.widgets.test_canvas_incremental import background_canvas, full_paint, settle, shown


def test_expanding_everything_makes_the_items_a_slice_at_a_time(qtbot, parts, benchmark_design, monkeypatch):
    doc, scene = background_canvas(qtbot, parts, benchmark_design)
    monkeypatch.setattr(scene_module, "BUILD_SLICE_S", 0.0)  # a few dozen boxes a turn
    progress, turns = [], []
    scene.building.connect(lambda made, total: progress.append((made, total)))
    scene.set_low_detail(True, 0.2)  # zoomed out: each box made in summary mode
    scene.set_all_collapsed(False)  # most boxes are new: made again, not morphed
    qtbot.waitUntil(lambda: scene._build is not None, timeout=10000)  # once laid out in the lane
    total = len(scene.diagram.boxes)
    assert 0 < len(scene.items_by_id) < total and scene.links == []  # the rest comes later
    assert scene.painted_revision is None and scene.items_rect().width() == scene.diagram.width
    while scene._build is not None:
        turns.append(len(scene.items_by_id))
        QApplication.processEvents()
    assert len(turns) > 10 and turns == sorted(turns)
    made = [m for m, t in progress]
    assert progress[-1] == (total, total) and made == sorted(made) and len(made) > 10
    settle(qtbot, doc, scene)
    assert len(scene.items_by_id) == total and scene.links
    assert all(item.low for item in scene.items_by_id.values())
    assert shown(scene) == full_paint(qtbot, parts, doc, scene)


def test_an_edit_during_a_build_begins_it_again(qtbot, parts, benchmark_design, monkeypatch):
    doc, scene = background_canvas(qtbot, parts, benchmark_design)
    monkeypatch.setattr(scene_module, "BUILD_SLICE_S", 0.0)
    scene.set_all_collapsed(False)
    qtbot.waitUntil(lambda: scene._build is not None and scene._build.made > 50, timeout=10000)
    doc.run(edit.set_attr, "fastt2", "name", "fastt2-renamed")  # relabelled while being made
    doc.run(edit.delete, ["fastt3"])  # laid out again: the build begins again
    settle(qtbot, doc, scene)
    assert scene._build is None
    assert "fastt3" not in scene.items_by_id and "fastt2-renamed" in scene.items_by_id["fastt2"].box.label
    assert shown(scene) == full_paint(qtbot, parts, doc, scene)

