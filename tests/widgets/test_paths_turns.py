"""The paths panel's turns around the canvas: many labels made in slices between turns of the
event loop, many new rows shown on a later turn, and new rows waiting while the canvas paints
an analysis in slices (the canvas first)."""

from __future__ import annotations

from planner import edit
from tests.widgets.test_panels import shown
from widgets.paths import PathsPanel


def test_paths_many_labels_are_made_in_slices_between_turns(qtbot, make_doc, monkeypatch):
    """An analysis whose paths name many components not labelled yet (the 16x site's first
    showing: 3,600 labels, 25 ms) has them labelled a slice at a time, between turns of the
    event loop, and then shows its rows; an edit meanwhile (a rename) starts again from the
    analysis it brings, and the rows read as labelled afresh."""
    from planner.naming import label
    from widgets import paths as paths_module

    monkeypatch.setattr(paths_module, "LABELS_AT_ONCE", 10)
    monkeypatch.setattr(paths_module, "LABEL_SLICE_S", 0.0)  # one label a slice
    doc = make_doc("p690-benchmark")  # 112 paths
    made: list[str] = []
    real = paths_module.component_label
    monkeypatch.setattr(paths_module, "component_label", lambda topo, c: made.append(c.id) or real(topo, c))
    per_slice: list[int] = []
    real_slice = PathsPanel._label_slice

    def one_slice(self):
        before = len(made)
        real_slice(self)
        per_slice.append(len(made) - before)

    monkeypatch.setattr(PathsPanel, "_label_slice", one_slice)
    panel = shown(qtbot, PathsPanel(doc))
    assert panel.model.rowCount() == 0 and panel.summary.text() == "Listing 112 paths..."
    qtbot.waitUntil(lambda: panel.model.rowCount() == 112, timeout=10000)
    assert max(per_slice) <= 1 and len(per_slice) > 100  # one label a turn
    topo = doc.topology

    def fresh() -> bool:
        return [r.cells for r in panel.model.rows] == [tuple(label(topo, c) for c in r.ids) for r in panel.model.rows]

    assert fresh() and panel.summary.text().startswith("112 paths")
    port = next(p.hba_port for p in doc.analysis.result.paths)
    doc.run(edit.set_attr, port, "name", "renamed fcs")  # every label forgotten, a new analysis
    assert panel.summary.text() == "Listing 112 paths..."  # (the rows shown meanwhile are the last ones)
    made.clear()
    qtbot.waitUntil(lambda: len(made) > 20, timeout=5000)
    doc.run(edit.set_attr, port, "name", "fcs renamed again")  # again, in the middle of it
    qtbot.waitUntil(lambda: panel.summary.text().startswith("112 paths"), timeout=10000)
    assert fresh() and any("fcs renamed again" in r.cells[0] for r in panel.model.rows)


def test_paths_many_new_rows_are_shown_on_a_later_turn(qtbot, doc, monkeypatch):
    """An analysis that makes more rows anew than ROWS_AT_ONCE (a figure set switched: every
    path's rate read again) shows them on a later turn than the one it arrives in (where the
    canvas starts painting it); no more than ROWS_AT_ONCE are shown at once."""
    from widgets import paths as paths_module

    monkeypatch.setattr(paths_module, "ROWS_AT_ONCE", 10)
    panel = shown(qtbot, PathsPanel(doc))
    qtbot.waitUntil(lambda: panel.model.rowCount() == len(doc.analysis.result.paths) == 16)
    seen: list[bool] = []  # whether the rows were the new analysis's when it arrived

    def arrived(bundle) -> None:
        seen.append({id(r.path) for r in panel.model.rows} <= {id(p) for p in bundle.result.paths})

    doc.analysisReady.connect(arrived)  # (after the panel's own connection)
    doc.set_figures("measured")
    assert seen and not any(seen)
    qtbot.waitUntil(lambda: {id(r.path) for r in panel.model.rows} == {id(p) for p in doc.analysis.result.paths})
    assert (
        panel.summary.text().startswith(f"{len(doc.analysis.result.paths)} paths")
        and "measured" in panel.summary.text()
    )
    seen.clear()
    monkeypatch.setattr(paths_module, "ROWS_AT_ONCE", 16)  # no more than that: at once
    doc.set_figures("planning")
    assert seen and all(seen)


def test_paths_rows_shown_later_wait_for_the_canvas(qtbot, doc, monkeypatch):
    """Rows shown on a later turn wait while the canvas paints the analysis in slices
    (``doc.analysis_showing``), and at most CANVAS_WAIT_S."""
    from widgets import paths as paths_module

    monkeypatch.setattr(paths_module, "ROWS_AT_ONCE", 10)
    panel = shown(qtbot, PathsPanel(doc))
    qtbot.waitUntil(lambda: panel.model.rowCount() == 16)

    def current() -> bool:
        return {id(r.path) for r in panel.model.rows} == {id(p) for p in doc.analysis.result.paths}

    def canvas_paints(_bundle) -> None:
        doc.analysis_showing = True  # (as the canvas does when it paints in slices)

    doc.analysisReady.connect(canvas_paints)
    doc.set_figures("measured")
    qtbot.wait(150)
    assert not current()  # the canvas is still painting
    doc.analysis_showing = False
    qtbot.waitUntil(current, timeout=2000)
    monkeypatch.setattr(paths_module, "CANVAS_WAIT_S", 0.2)
    doc.set_figures("planning")
    qtbot.waitUntil(current, timeout=3000)  # the canvas never done: shown after the wait
    assert doc.analysis_showing


def test_paths_new_rows_wait_while_the_canvas_paints_in_slices(qtbot, doc):
    """Even a few new rows (under ROWS_AT_ONCE) wait while the canvas paints the analysis in
    slices (the canvas's connection comes first and sets ``doc.analysis_showing``): the canvas
    is recoloured first, the rows follow once it is done; with the canvas done at once they
    are shown in the turn the analysis arrives in."""

    def canvas_paints(_bundle) -> None:
        doc.analysis_showing = slices[0]

    slices = [False]
    doc.analysisReady.connect(canvas_paints)  # (before the panel's own, as the canvas's)
    panel = shown(qtbot, PathsPanel(doc))
    qtbot.waitUntil(lambda: panel.model.rowCount() == 16)
    seen: list[bool] = []  # whether the rows were the new analysis's when it arrived

    def current() -> bool:
        return {id(r.path) for r in panel.model.rows} == {id(p) for p in doc.analysis.result.paths}

    doc.analysisReady.connect(lambda _b: seen.append(current()))
    slices[0] = True
    doc.set_figures("measured")
    qtbot.waitUntil(lambda: bool(seen), timeout=3000)
    qtbot.wait(100)
    assert seen == [False] and not current()  # the canvas is still painting
    doc.analysis_showing = False
    qtbot.waitUntil(current, timeout=2000)
    seen.clear()
    slices[0] = False
    doc.set_figures("planning")
    qtbot.waitUntil(lambda: bool(seen), timeout=3000)
    assert seen == [True]


def test_paths_rows_shown_later_are_made_in_slices_and_read_as_made_at_once(qtbot, make_doc, monkeypatch):
    """The rows of an analysis shown on a later turn are made a few at a time between turns
    (the 16x site's figure set switched: 1,792 rows, 6-9 ms of the turn that showed them), and
    read as rows made at once; an analysis arriving meanwhile drops the rows half made."""
    from widgets import paths as paths_module

    monkeypatch.setattr(paths_module, "ROWS_AT_ONCE", 10)
    monkeypatch.setattr(paths_module, "ROWS_PER_STEP", 8)
    monkeypatch.setattr(paths_module, "LABEL_SLICE_S", 0.0)  # one step a slice
    doc = make_doc("p690-benchmark")  # 112 paths
    panel = shown(qtbot, PathsPanel(doc))
    qtbot.waitUntil(lambda: panel.model.rowCount() == 112, timeout=10000)
    per_slice: list[int] = []
    real_making = PathsPanel._making_rows

    def making(self, result, rows):
        for _ in real_making(self, result, rows):
            per_slice.append(len(rows))
            yield

    monkeypatch.setattr(PathsPanel, "_making_rows", making)

    def current() -> bool:
        return [id(r.path) for r in panel.model.rows] == [
            id(r.path) for r in panel.model._sorted(panel.model.rows)
        ] and {id(r.path) for r in panel.model.rows} == {id(p) for p in doc.analysis.result.paths}

    doc.set_figures("measured")
    assert not current() and panel._labelling is not None
    doc.set_figures("planning")  # meanwhile: its rows are made afresh, the half made ones dropped
    qtbot.waitUntil(lambda: panel._labelling is None, timeout=10000)
    assert current()
    assert len(per_slice) >= 112 // 8 and per_slice[:3] == [8, 16, 24]  # eight rows a step
    from widgets.paths import _shown

    at_once = {r.path.id: _shown(r) for r in PathsPanel._rows(panel, doc.analysis.result)}
    assert {r.path.id: _shown(r) for r in panel.model.rows} == at_once
