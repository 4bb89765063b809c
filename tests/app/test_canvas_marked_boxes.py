"""The canvas repaints, after a figure set or direction switched in the background, the boxes the
analysis lane marked for the diagram it shows (widgets.canvas.figures.mark_boxes), and every box
reads as the analysis says."""

from __future__ import annotations

import widgets.canvas.scene as scene_module
from planner import edit
from widgets.canvas.figures import busiest


def test_a_switch_in_the_background_repaints_the_boxes_the_lane_marked(window, qtbot, monkeypatch):
    scene, doc = window.scene, window.doc
    window.open_example("p690-benchmark")
    doc.synchronous = False
    used: list[bool] = []
    real = scene_module.DiagramScene._changed_boxes

    def changed_boxes(self, changed, result, fig=None):
        used.append(fig is not None and fig.of is self.diagram and fig.boxes is not None)
        return real(self, changed, result, fig)

    monkeypatch.setattr(scene_module.DiagramScene, "_changed_boxes", changed_boxes)

    def painted() -> bool:
        return scene.painted_revision == doc.topology.revision and doc.is_current(doc.analysis)

    def reads_as_analysed() -> None:
        result, fig = doc.analysis.result, scene._figures
        for cid, item in scene.items_by_id.items():
            u, nb, _, _ = busiest(result, scene._members.get(cid, ()), fig.binds)
            assert (item.util, item.binds) == (u, nb), cid

    server = doc.topology.ids_of_kind("server")[0]
    doc.run(edit.set_attr, server, "name", "p690 renamed")  # laid out and analysed in the lane
    qtbot.waitUntil(lambda: painted() and not doc.background_busy(), timeout=20000)
    assert scene.diagram.boxes[server].label.startswith("p690 renamed")
    used.clear()
    for switch in (lambda: doc.set_figures("measured"), lambda: doc.set_direction("write")):
        switch()
        qtbot.waitUntil(lambda: painted() and not doc.background_busy(), timeout=20000)
        reads_as_analysed()
    assert used and all(used)
