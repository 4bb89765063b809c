"""Speed benchmark for the editor (issues #3 and #13). Not a test: run it and read the medians.

    QT_QPA_PLATFORM=offscreen python benchmarks/bench_gui.py [--repeat N] [--json] [--only benchmark|site16|site32|dc384] [--site32] [--datacenter]
    xvfb-run -a python benchmarks/bench_gui.py --platform xcb     # the same on a real X server

Measures, on the 7-drawer p690 benchmark and on the 16x site (``planner.examples.build_site``;
with ``--site32`` or ``--only site32`` also the 32x site, beyond the targets, which are the 16x
site's; with ``--datacenter`` or ``--only dc384`` also the 384-host data centre of
``planner.examples.build_datacenter``, whose hosts share their fabrics and subsystems: one
connected part, where an edit's analysis is the whole design's and its figures ripple along
the shared links; there "the middle server" is a host):
- ``open_ms``: open the .sanplan file, lay it out, draw it and finish the first analysis
  (target 2 s on the benchmark, 3 s on the site), and ``open_max_block_ms``: the longest
  event-loop block meanwhile (the file is read by a worker);
- ``edit_to_recolour_ms``: from an edit (an array's segment size) until the canvas is painted with
  the analysis of the new revision (target 100 ms), and ``max_event_loop_block_ms``: the longest
  gap between ticks of a 2 ms heartbeat QTimer meanwhile (target 16 ms: one frame);
- ``struct_edit_ms`` and ``struct_max_block_ms``: the same for a structural edit, an HBA added
  into a free slot and undone, alternately (the diagram is laid out again);
  ``new_model_edit_ms`` and ``new_model_max_block_ms``: the same with an HBA of a model the
  design does not use yet (its part is put into the design with it);
  ``figure_switch_first_ms``, ``figure_switch_ms`` and ``figure_switch_max_block_ms``: from the
  figure set switched until the canvas is painted with its analysis, the first switch (once
  the editor has filled the other sets' analyses while idle, as it does a second after an
  edit) and then back and forth (median), and the longest block; ``mixed_first_ms``,
  ``direction_switch_ms`` and ``direction_switch_max_block_ms``: the same for the direction, the
  first switch to mixed, then read and write back and forth, and the longest block of all;
- ``move_edit_ms`` and ``move_max_block_ms``: the same for an edit that moves boxes, a subsystem
  deleted (the boxes below it move up) and undone;
- ``fold_ms`` and ``fold_max_block_ms``: a group opened or folded again (a drawer, as a
  double-click does) until shown and painted; ``expand_all_ms``, ``collapse_all_ms`` and their
  ``_max_block_ms``: every group expanded, then folded (once each);
- ``autosave_ms`` and ``autosave_max_block_ms``: an autosave of the unsaved design until it is
  written, and the longest event-loop block meanwhile (it is encoded and written in a worker);
  ``save_ms`` and ``save_max_block_ms``: the same for File > Save (written by a worker too);
- ``frames_per_s``: full repaints while panning and zooming with everything expanded, at a
  working zoom (``zoomed_in``) and with the whole design in view (``zoomed_out``) (target 60);
- ``zoom_back_block_ms``: the longest event-loop block while the view zooms from the whole design
  in to 1:1 a wheel step at a time, a subsystem is deleted and undone there, and it zooms out
  again (everything expanded); the median of ``--repeat`` such round trips, each one's in
  ``zoom_back_blocks_ms`` (one round trip's longest block moved by 5 ms from run to run);
- ``expanded_server_edit_ms`` and ``expanded_server_max_block_ms``: with everything still
  expanded and the whole design in view, the middle server deleted and undone (its thousands of
  boxes go and come back, every box below it moves);
- ``paths_first_show_block_ms``, ``cable_select_first_block_ms`` / ``cable_select_block_ms``,
  ``select_all_block_ms``, ``figure_switch_block_ms``: in a window just opened on the design, the
  longest event-loop block while the paths panel is shown for the first time, a cable is
  selected with the model tree showing (its group of cables opened: the first; another: the
  second), ``kinds_select_block_ms``: the median of six selections of an HBA and a cable
  alternately (the inspector's form changes each time, the zone partners light up), every
  top-level box is selected and the selection cleared, and the figure set is
  switched and back; ``search_block_ms``: the model tree searched for "fcs1", then "s3 fastt",
  cleared after each; ``scenario_block_ms``: the scenario duplicated, then the first shown again;
- ``buildsheet_s``: the PDF build sheet (``planner.exports.buildsheet.build_sheet``; target 30 s
  on the site).
``--json`` prints one object per design with these medians instead of the human lines, and
``yardstick`` / ``yardstick_after`` (see :func:`yardstick`: the machine's speed before and after
the run, to compare runs of different days by).
"""

from __future__ import annotations

import argparse
import copy
import json
import math
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def _parse() -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repeat", type=int, default=5, help="runs per figure (default 5; the medians are printed)")
    ap.add_argument("--json", action="store_true", help="print the medians as JSON")
    ap.add_argument("--only", choices=("benchmark", "site16", "site32", "dc384"), help="measure one design only")
    ap.add_argument("--site32", action="store_true", help="the 32x site too (after the others; about 8 minutes)")
    ap.add_argument("--datacenter", action="store_true", help="the 384-host data centre too (after the others)")
    ap.add_argument("--no-buildsheet", action="store_true", help="skip the build sheet (the slowest figure)")
    ap.add_argument("--platform", default="offscreen", help="Qt platform (offscreen; xcb under xvfb-run)")
    return ap.parse_args()


ARGS = _parse() if __name__ == "__main__" else None
os.environ.setdefault("QT_QPA_PLATFORM", ARGS.platform if ARGS else "offscreen")

from PySide6.QtCore import QCoreApplication, QElapsedTimer, QEvent, QEventLoop, QTimer  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

from catalogs.catalog import Catalog, builtin_parts  # noqa: E402
from planner import edit  # noqa: E402
from planner.examples import build_datacenter, build_example, build_site  # noqa: E402
from planner.figures import FIGURE_SETS  # noqa: E402
from planner.io import Project, save_project  # noqa: E402


def _window():
    from app.mainwindow import MainWindow

    w = MainWindow(Catalog(":memory:"))
    w.resize(1600, 1000)
    w.show()
    QCoreApplication.processEvents()
    return w


def _close(w) -> None:
    """Close the window and delete it now, its background lanes with it (a window only closed
    stays, and its lanes would go on working beside the next measurement)."""
    w.doc.undo_stack.setClean()
    w.close()
    w.deleteLater()
    QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    QCoreApplication.processEvents()


def measure_open(path: Path, repeat: int) -> tuple[float, float]:
    """Median ms from open to the first analysis painted; median longest event-loop block."""
    times, blocked = [], []
    beat = Heartbeat()
    for _ in range(repeat):
        w = _window()
        beat.start()
        t0 = time.perf_counter()
        w.open_path(path)
        w.doc.wait_for_analysis(120000)
        w.repaint()
        QCoreApplication.processEvents()
        times.append(time.perf_counter() - t0)
        blocked.append(beat.stop())
        _close(w)
        del w
        _collect_closed()
    return statistics.median(times) * 1000, statistics.median(blocked)


def _collect_closed() -> None:
    """Free a closed window now that nothing here holds it. The editor freezes its heap once
    quiet (``app.gui_gc``): a window closed while something still held it stayed frozen, cycles
    and all, beside the next window's measurements (two closed windows of the 16x site: 816,863
    objects, and that window's autosave blocked 17-24 ms instead of 5-13). The application has
    one window, closed to quit."""
    import gc

    gc.unfreeze()
    gc.collect()


_TICK: QTimer | None = None


def _pump() -> None:
    """Wait for the next events and handle them, as the editor's event loop does: the GUI thread
    blocks without holding the interpreter (a loop of bare processEvents() would hold it almost
    all the time, and the analysis lanes would compute at a fraction of their speed). A 5 ms
    timer bounds the wait."""
    global _TICK
    if _TICK is None:
        _TICK = QTimer()
        _TICK.setInterval(5)
        _TICK.start()
    QCoreApplication.processEvents(QEventLoop.ProcessEventsFlag.WaitForMoreEvents)


class Heartbeat:
    """A 2 ms QTimer: the longest gap between its ticks is the longest the event loop was blocked."""

    def __init__(self) -> None:
        self.gaps: list[float] = []
        self.clock = QElapsedTimer()
        self.timer = QTimer()
        self.timer.setInterval(2)
        self.timer.timeout.connect(lambda: self.gaps.append(self.clock.restart()))

    def start(self) -> None:
        self.gaps.clear()
        self.clock.start()
        self.timer.start()

    def stop(self) -> float:
        self.timer.stop()
        self.gaps.append(self.clock.elapsed())  # the stretch after the last tick counts too
        return max(self.gaps)


def measure_edit(w, array: str, repeat: int) -> tuple[float, float]:
    """Median ms from an edit to the canvas painted with its analysis; median longest block."""
    scene, doc = w.scene, w.doc
    beat = Heartbeat()
    latencies, blocked = [], []
    for i in range(repeat * 2):
        beat.start()
        t0 = time.perf_counter()
        doc.run(edit.set_attr, array, "segment_kb", 256 if i % 2 == 0 else 128)
        want = doc.topology.revision
        while scene.painted_revision != want and time.perf_counter() - t0 < 60:
            _pump()
        w.view.viewport().repaint()
        latencies.append(time.perf_counter() - t0)
        blocked.append(beat.stop())
        for _ in range(5):
            QCoreApplication.processEvents()
    return statistics.median(latencies) * 1000, statistics.median(blocked)


def measure_autosave(w, repeat: int) -> tuple[float, float]:
    """Median ms until an autosave of the unsaved design is written, and median longest block
    of the event loop meanwhile (the encoding and writing run in a worker)."""
    beat = Heartbeat()
    took, blocked = [], []
    for _ in range(repeat):
        assert not w.doc.is_clean()
        beat.start()
        t0 = time.perf_counter()
        assert w.autosave() is not None
        while w.autosaver.busy():
            _pump()
        took.append(time.perf_counter() - t0)
        blocked.append(beat.stop())
    w.discard_autosave()
    return statistics.median(took) * 1000, statistics.median(blocked)


def measure_save(w, repeat: int) -> tuple[float, float]:
    """Median ms of File > Save (the design as opened, an edit made), and median longest block
    of the event loop meanwhile (written by a worker). The edit is undone after each save."""
    beat = Heartbeat()
    took, blocked = [], []
    arrays = w.doc.topology.ids_of_kind("array")
    for i in range(repeat):
        w.doc.run(edit.set_attr, arrays[i % len(arrays)], "segment_kb", 512)
        _wait_quiet(w)
        beat.start()
        t0 = time.perf_counter()
        assert w.file_save()
        took.append(time.perf_counter() - t0)
        blocked.append(beat.stop())
        w.doc.undo_stack.undo()
    _wait_quiet(w)
    return statistics.median(took) * 1000, statistics.median(blocked)


def _wait_quiet(w) -> None:
    """Until the background lanes have nothing left: the rules of the last edit, then the idle
    cross-check (it starts after IDLE_S of quiet)."""
    from app.background import IDLE_S

    for _ in range(2):
        t0 = time.perf_counter()
        while w.doc.background_busy() and time.perf_counter() - t0 < 60:
            _pump()
        t0 = time.perf_counter()
        while time.perf_counter() - t0 < IDLE_S + 0.3:
            _pump()


def _wait_painted(w, t0: float) -> None:
    want = w.doc.topology.revision
    while w.scene.painted_revision != want and time.perf_counter() - t0 < 60:
        _pump()
    w.view.viewport().repaint()


def measure_struct_edit(w, repeat: int) -> tuple[float, float]:
    """Median ms from a structural edit (an HBA into a free slot, then its undo) to the canvas
    painted with its analysis; median longest event-loop block."""
    doc = w.doc
    topo = doc.topology
    slot = next(s for s in topo.of_kind("slot") if not topo.children(s.id, "hba"))
    part = next(p for _, p in sorted(builtin_parts().items()) if p.get("kind") == "hba")
    return _edits_and_undos(w, repeat, lambda: doc.run(edit.add_hba, slot.id, part))


def measure_new_model_edit(w, repeat: int) -> tuple[float, float]:
    """The same for an HBA of a model the design does not use yet (a user part: a copy of the
    catalog's HBA under another id, other figures) added to a free slot, then undone: the part
    is put into the design with it (one ``parts`` change)."""
    doc = w.doc
    topo = doc.topology
    slot = next(s for s in topo.of_kind("slot") if not topo.children(s.id, "hba"))
    base = next(p for _, p in sorted(builtin_parts().items()) if p.get("kind") == "hba")
    part = copy.deepcopy(base)
    part["id"], part["name"] = f"{base['id']}-BENCH", f"{base.get('name', base['id'])} (user copy)"
    return _edits_and_undos(w, repeat, lambda: doc.run(edit.add_hba, slot.id, part))


def _switches(w, wants: list[str], set_it, attr: str) -> tuple[list[float], list[float]]:
    """ms from each switch (``set_it(value)``) until the canvas is painted with an analysis
    whose ``attr`` is the value, and the longest block of each."""
    doc = w.doc
    times, blocks = [], []
    for want in wants:
        got: list = []
        doc.analysisReady.connect(got.append)
        beat = Heartbeat()
        beat.start()
        t0 = time.perf_counter()
        set_it(want)
        while time.perf_counter() - t0 < 60 and not (
            any(getattr(b, attr) == want for b in got) and w.scene._job is None
        ):
            _pump()
        w.view.viewport().repaint()
        times.append((time.perf_counter() - t0) * 1000)
        blocks.append(beat.stop())
        doc.analysisReady.disconnect(got.append)
        _wait_quiet(w)
    return times, blocks


def measure_figure_switch(w, repeat: int) -> dict:
    """ms from the figure set switched until the canvas is painted with its analysis, and the
    longest block meanwhile: the first switch to another set (``figure_switch_first_ms``), then
    back and forth (``figure_switch_ms``, median: the analyses of the set shown before are kept);
    likewise the direction: the first switch to mixed (``mixed_first_ms``), then read and write
    back and forth (``direction_switch_ms``, median; the longest block of all of them
    ``direction_switch_max_block_ms``)."""
    doc = w.doc
    first = doc.figures
    other = next(f for f in FIGURE_SETS if f != first)
    t0 = time.perf_counter()  # the user looked at the design a while: the lane filled the other sets
    while not doc._background.filled(other) and time.perf_counter() - t0 < 30:
        _pump()
    times, blocks = _switches(
        w, [other if i % 2 == 0 else first for i in range(repeat * 2 + 1)], doc.set_figures, "figures"
    )
    t0 = time.perf_counter()
    while not doc._background.filled(first, ("mixed",)) and time.perf_counter() - t0 < 30:
        _pump()
    turns = ["mixed"] + ["write" if i % 2 == 0 else "read" for i in range(repeat * 2)]
    dtimes, dblocks = _switches(w, turns, doc.set_direction, "direction")
    return {
        "figure_switch_first_ms": times[0],
        "figure_switch_ms": statistics.median(times[1:]),
        "figure_switch_max_block_ms": statistics.median(blocks),
        "mixed_first_ms": dtimes[0],
        "direction_switch_ms": statistics.median(dtimes[1:]),
        "direction_switch_max_block_ms": max(dblocks),
    }


def measure_move_edit(w, repeat: int) -> tuple[float, float]:
    """The same for an edit that moves boxes: a subsystem a third of the way down the storage
    column deleted (every box below it moves up), then undone."""
    doc = w.doc
    subsystems = doc.topology.ids_of_kind("subsystem")
    victim = subsystems[len(subsystems) // 3]
    return _edits_and_undos(w, repeat, lambda: doc.run(edit.delete, [victim]))


def measure_zoomed_edits(w, array: str, repeat: int) -> dict:
    """The three edits again at a working zoom (1:1) over the first subsystem, where the view
    draws every link it shows (the default view of a site is zoomed far out, the overview);
    then back to the whole design in view."""
    view, scene = w.view, w.scene
    subsystems = w.doc.topology.ids_of_kind("subsystem")
    view.resetTransform()
    view.zoom(1.0)
    view.centerOn(scene.items_by_id[subsystems[0]].sceneBoundingRect().center())
    _wait_quiet(w)
    out = {}
    out["zoomed_edit_ms"], out["zoomed_edit_max_block_ms"] = measure_edit(w, array, repeat)
    out["zoomed_struct_edit_ms"], out["zoomed_struct_max_block_ms"] = measure_struct_edit(w, repeat)
    out["zoomed_move_edit_ms"], out["zoomed_move_max_block_ms"] = measure_move_edit(w, repeat)
    view.zoom_to_fit()
    _wait_quiet(w)
    return out


def _until_shown(w, change) -> tuple[float, float]:
    """ms from ``change`` (a view change, no edit) until the canvas shows it laid out, made and
    painted; the longest event-loop block meanwhile."""
    scene, beat = w.scene, Heartbeat()
    beat.start()
    t0 = time.perf_counter()
    change()
    while time.perf_counter() - t0 < 120:
        _pump()
        if scene._layout_asked is None and scene._build is None and scene._job is None:
            if scene.painted_revision == w.doc.topology.revision:
                break
    took = time.perf_counter() - t0
    return took * 1000, beat.stop()


def measure_folds(w, repeat: int) -> dict:
    """A group opened and folded again (a drawer of the design's middle server, double-clicked
    twice): median ms and longest block; then every group expanded and every group folded, once
    each (ms, longest block)."""
    scene = w.scene
    drawers = w.doc.topology.ids_of_kind("drawer")
    drawer = drawers[len(drawers) // 2]
    times, blocks = [], []
    for _ in range(repeat * 2):
        took, block = _until_shown(w, lambda: scene.toggle_collapsed(drawer))
        times.append(took)
        blocks.append(block)
    out = {"fold_ms": statistics.median(times), "fold_max_block_ms": statistics.median(blocks)}
    out["expand_all_ms"], out["expand_all_max_block_ms"] = _until_shown(w, lambda: scene.set_all_collapsed(False))
    out["collapse_all_ms"], out["collapse_all_max_block_ms"] = _until_shown(w, lambda: scene.set_all_collapsed(True))
    return out


def _edits_and_undos(w, repeat: int, change) -> tuple[float, float]:
    """Median ms from ``change`` (then its undo, alternately) to the canvas painted with the
    analysis of the new revision; median longest event-loop block."""
    beat = Heartbeat()
    latencies, blocked = [], []
    for i in range(repeat * 2):
        beat.start()
        t0 = time.perf_counter()
        if i % 2 == 0:
            change()
        else:
            w.doc.undo_stack.undo()
        _wait_painted(w, t0)
        latencies.append(time.perf_counter() - t0)
        blocked.append(beat.stop())
        for _ in range(5):
            QCoreApplication.processEvents()
    return statistics.median(latencies) * 1000, statistics.median(blocked)


def measure_server_edit(w, repeat: int) -> tuple[float, float]:
    """The middle server deleted (its drawers, adapters, cables and zone members with it) and
    undone, with the panels a site planner keeps open showing: the model tree, the paths and the
    racks (floated beside the paths, which share its tab group); every group folded first, as
    the site opens (the frame measurement leaves it expanded)."""
    _until_shown(w, lambda: w.scene.set_all_collapsed(True))
    w.docks["racks"].setFloating(True)
    for name in ("tree", "paths", "racks"):
        w.docks[name].show()
        w.docks[name].raise_()
    _wait_quiet(w)
    servers = w.doc.topology.ids_of_kind("server")
    victim = servers[len(servers) // 2]
    return _edits_and_undos(w, repeat, lambda: w.doc.run(edit.delete, [victim]))


def measure_expanded_server_edit(w, repeat: int) -> tuple[float, float]:
    """The middle server deleted and undone with everything expanded (as the frame measurement
    leaves it), the whole design in view."""
    w.view.zoom_to_fit()
    _wait_quiet(w)
    servers = w.doc.topology.ids_of_kind("server")
    victim = servers[len(servers) // 2]
    return _edits_and_undos(w, repeat, lambda: w.doc.run(edit.delete, [victim]))


def measure_panels(w, repeat: int) -> dict:
    """With the model tree, paths and racks showing: a server deleted and undone, then the
    subsystem edit of :func:`measure_move_edit` again."""
    out = {}
    out["server_edit_ms"], out["server_max_block_ms"] = measure_server_edit(w, repeat)
    out["panels_move_edit_ms"], out["panels_move_max_block_ms"] = measure_move_edit(w, repeat)
    return out


def _block_of(action, until=lambda: True, settle_s: float = 0.3) -> float:
    """The longest event-loop block from ``action`` until ``until()`` holds and ``settle_s`` more."""
    beat = Heartbeat()
    beat.start()
    action()
    t0 = time.perf_counter()
    while not until() and time.perf_counter() - t0 < 30:
        _pump()
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < settle_s:
        _pump()
    return beat.stop()


def measure_interactions(path: Path) -> dict:
    """The longest blocks of a few interactions in a window just opened on ``path`` (see the
    module docstring): each is the first of its kind there."""
    w = _window()
    w.open_path(path)
    w.doc.wait_for_analysis(120000)
    _wait_quiet(w)
    doc, out = w.doc, {}
    paths = len(doc.analysis.result.paths)
    out["paths_first_show_block_ms"] = _block_of(
        lambda: (w.docks["paths"].show(), w.docks["paths"].raise_()), lambda: w.paths.model.rowCount() == paths
    )
    w.docks["tree"].show()
    w.docks["tree"].raise_()
    _wait_quiet(w)
    cables = doc.topology.ids_of_kind("cable")
    for key, cable in (
        ("cable_select_first_block_ms", cables[len(cables) * 2 // 3]),
        ("cable_select_block_ms", cables[5]),
    ):
        out[key] = _block_of(lambda c=cable: doc.select([c]), lambda c=cable: w.model_tree.selected_ids() == [c])
    hbas = doc.topology.ids_of_kind("hba")  # (the inspector's form changes each time, the zone partners light up)
    picks = [(hbas if i % 2 == 0 else cables)[7 + 11 * i] for i in range(6)]
    out["kinds_select_block_ms"] = statistics.median(
        _block_of(lambda c=c: doc.select([c]), lambda c=c: w.model_tree.selected_ids() == [c]) for c in picks
    )
    tops = [cid for cid, item in w.scene.items_by_id.items() if item.parentItem() is None]
    out["select_all_block_ms"] = max(_block_of(lambda: doc.select(tops)), _block_of(lambda: doc.select([])))
    _wait_quiet(w)
    figures = doc.figures
    other = "measured" if figures != "measured" else "planning"
    out["figure_switch_block_ms"] = max(
        _block_of(lambda: doc.set_figures(other), lambda: w.scene.painted_revision == doc.topology.revision, 1.0),
        _block_of(lambda: doc.set_figures(figures), lambda: w.scene.painted_revision == doc.topology.revision, 1.0),
    )
    _wait_quiet(w)
    out["search_block_ms"] = _search_blocks(w)
    out["scenario_block_ms"] = _scenario_blocks(w)
    _close(w)
    return out


def _search_blocks(w) -> float:
    """The longest block of the model tree searched (as typed, then Enter) for an HBA port
    name, for two words, and cleared after each."""
    tree = w.model_tree
    blocks = []
    for text in ("fcs1", "", "s3 fastt", ""):

        def search(text=text) -> None:
            tree.search.setText(text)
            tree._search_now()  # (Enter: no pause)

        blocks.append(_block_of(search, lambda: tree._searching is None and not tree._filling))
    return max(blocks)


def _scenario_blocks(w) -> float:
    """The longest block of Design > Scenarios > Duplicate current, then the first scenario
    shown again, each until the canvas is painted."""
    doc = w.doc
    first = doc.project.current
    painted = lambda: w.scene.painted_revision == doc.topology.revision  # noqa: E731
    blocks = [_block_of(lambda: w.duplicate_scenario("Copy"), painted, 1.0)]
    _wait_quiet(w)
    blocks.append(_block_of(lambda: w.switch_scenario(first), painted, 1.0))
    return max(blocks)


def measure_frames(w, frames: int = 120) -> tuple[float, float, int]:
    """Frames per second panning and zooming, everything expanded: at a working zoom, and with
    the whole design in view."""
    _until_shown(w, lambda: w.scene.set_all_collapsed(False))  # laid out, made and painted
    w.view.zoom_to_fit()
    _wait_quiet(w)  # the editor idle, as after a user's last edit: no rules or cross-check running
    items = len(w.scene.items())
    vp = w.view.viewport()
    hbar, vbar = w.view.horizontalScrollBar(), w.view.verticalScrollBar()
    w.view.resetTransform()
    w.view.zoom(1.0)
    vp.repaint()
    t0 = time.perf_counter()
    for i in range(frames):
        if i % 3 == 0:
            w.view.zoom(1.02 if (i // 30) % 2 == 0 else 0.98)
        hbar.setValue(hbar.minimum() + (i * 37) % max(1, hbar.maximum() - hbar.minimum()))
        vbar.setValue(vbar.minimum() + (i * 53) % max(1, vbar.maximum() - vbar.minimum()))
        vp.repaint()
    fps_in = frames / (time.perf_counter() - t0)
    w.view.zoom_to_fit()
    vp.repaint()
    t0 = time.perf_counter()
    for i in range(frames // 2):
        w.view.zoom(1.01 if i % 2 == 0 else 1 / 1.01)
        vp.repaint()
    fps_out = frames // 2 / (time.perf_counter() - t0)
    return fps_in, fps_out, items


def measure_zoom_back(w) -> float:
    """The longest event-loop block while the view zooms from the whole design (the overview) in
    to 1:1 and out again, a Ctrl+wheel step every 30 ms as a user zooms, the event loop turning
    between them; zoomed in, an edit made (a subsystem deleted and undone): after it the overview
    gathers what changed."""
    view = w.view
    subsystems = w.doc.topology.ids_of_kind("subsystem")
    view.zoom_to_fit()
    _wait_quiet(w)
    steps = max(1, math.ceil(math.log(1.0 / view.transform().m11(), 1.25)))

    def wheel(factor: float) -> None:
        view.zoom(factor)
        t0 = time.perf_counter()
        while time.perf_counter() - t0 < 0.03:
            _pump()

    beat = Heartbeat()
    beat.start()
    for _ in range(steps):
        wheel(1.25)
    for change in (lambda: w.doc.run(edit.delete, [subsystems[len(subsystems) // 3]]), w.doc.undo_stack.undo):
        t0 = time.perf_counter()
        change()
        _wait_painted(w, t0)
    for _ in range(steps):
        wheel(1 / 1.25)
    block = beat.stop()
    view.zoom_to_fit()
    return block


def measure_buildsheet(topo, repeat: int) -> float:
    from planner.exports.buildsheet import build_sheet

    times = []
    with tempfile.TemporaryDirectory() as tmp:
        for _ in range(repeat):
            t0 = time.perf_counter()
            build_sheet(topo, str(Path(tmp) / "sheet.pdf"))
            times.append(time.perf_counter() - t0)
    return statistics.median(times)


def measure(name: str, topo, array: str, args: argparse.Namespace) -> dict:
    path = Path(tempfile.mkdtemp()) / f"{name}.sanplan"
    save_project(Project(topo), path)
    site = name != "benchmark"
    repeat = max(1, args.repeat // 2) if site else args.repeat
    out: dict = {"design": name, "components": len(topo)}
    out["open_ms"], out["open_max_block_ms"] = measure_open(path, repeat)
    w = _window()
    w.open_path(path)
    w.doc.wait_for_analysis(120000)
    # an edit is cheap enough to measure as often on the site as on the benchmark
    out["edit_to_recolour_ms"], out["max_event_loop_block_ms"] = measure_edit(w, array, args.repeat)
    out["struct_edit_ms"], out["struct_max_block_ms"] = measure_struct_edit(w, args.repeat)
    out["new_model_edit_ms"], out["new_model_max_block_ms"] = measure_new_model_edit(w, args.repeat)
    out["move_edit_ms"], out["move_max_block_ms"] = measure_move_edit(w, args.repeat)
    out.update(measure_figure_switch(w, args.repeat))
    out["autosave_ms"], out["autosave_max_block_ms"] = measure_autosave(w, args.repeat)
    out["save_ms"], out["save_max_block_ms"] = measure_save(w, repeat)
    out.update(measure_zoomed_edits(w, array, args.repeat))
    out.update(measure_folds(w, args.repeat))
    fps_in, fps_out, items = measure_frames(w)
    out["items"] = items
    out["frames_per_s"] = {"zoomed_in": round(fps_in, 1), "zoomed_out": round(fps_out, 1)}
    out["zoom_back_blocks_ms"] = [round(measure_zoom_back(w), 1) for _ in range(args.repeat)]
    out["zoom_back_block_ms"] = statistics.median(out["zoom_back_blocks_ms"])
    # (as often as the other edits: with two repeats its median moved by 20 ms from run to run)
    out["expanded_server_edit_ms"], out["expanded_server_max_block_ms"] = measure_expanded_server_edit(w, args.repeat)
    out.update(measure_panels(w, args.repeat))
    _close(w)
    del w
    _collect_closed()
    out.update(measure_interactions(path))
    if not args.no_buildsheet:
        out["buildsheet_s"] = round(measure_buildsheet(topo, 1 if site else min(3, args.repeat)), 2)
    for key in (
        "open_ms",
        "open_max_block_ms",
        "edit_to_recolour_ms",
        "max_event_loop_block_ms",
        "struct_edit_ms",
        "struct_max_block_ms",
        "move_edit_ms",
        "move_max_block_ms",
        "autosave_ms",
        "autosave_max_block_ms",
        "save_ms",
        "save_max_block_ms",
        "new_model_edit_ms",
        "new_model_max_block_ms",
        "figure_switch_first_ms",
        "figure_switch_ms",
        "figure_switch_max_block_ms",
        "mixed_first_ms",
        "direction_switch_ms",
        "direction_switch_max_block_ms",
        "zoomed_edit_ms",
        "zoomed_edit_max_block_ms",
        "zoomed_struct_edit_ms",
        "zoomed_struct_max_block_ms",
        "zoomed_move_edit_ms",
        "zoomed_move_max_block_ms",
        "fold_ms",
        "fold_max_block_ms",
        "expand_all_ms",
        "expand_all_max_block_ms",
        "collapse_all_ms",
        "collapse_all_max_block_ms",
        "expanded_server_edit_ms",
        "expanded_server_max_block_ms",
        "server_edit_ms",
        "server_max_block_ms",
        "panels_move_edit_ms",
        "panels_move_max_block_ms",
        "paths_first_show_block_ms",
        "cable_select_first_block_ms",
        "cable_select_block_ms",
        "kinds_select_block_ms",
        "select_all_block_ms",
        "figure_switch_block_ms",
        "search_block_ms",
        "scenario_block_ms",
    ):
        out[key] = round(out[key], 1)
    return out


def human(r: dict) -> str:
    fps = r["frames_per_s"]
    lines = [
        f"{r['design']} ({r['components']:,} components, {r['items']:,} items expanded):",
        f"  open + show: median {r['open_ms']:.0f} ms (target {'3000' if r['design'] != 'benchmark' else '2000'} ms); "
        f"longest block: median {r['open_max_block_ms']:.0f} ms",
        f"  edit -> recoloured canvas: median {r['edit_to_recolour_ms']:.0f} ms (target 100 ms); "
        f"longest event-loop block: median {r['max_event_loop_block_ms']:.0f} ms (target 16 ms)",
        f"  structural edit (an HBA added, undone) -> recoloured canvas: median {r['struct_edit_ms']:.0f} ms; "
        f"longest block: median {r['struct_max_block_ms']:.0f} ms",
        f"  an HBA of a model new to the design (its part put in with it) added, undone: median "
        f"{r['new_model_edit_ms']:.0f} ms; longest block: median {r['new_model_max_block_ms']:.0f} ms",
        f"  the figure set switched -> canvas painted with its analysis: first {r['figure_switch_first_ms']:.0f} ms, "
        f"then back and forth median {r['figure_switch_ms']:.0f} ms; longest block: median "
        f"{r['figure_switch_max_block_ms']:.0f} ms",
        f"  the direction switched: the first to mixed {r['mixed_first_ms']:.0f} ms, then read and write back "
        f"and forth median {r['direction_switch_ms']:.0f} ms; longest block {r['direction_switch_max_block_ms']:.0f} ms",
        f"  an edit that moves boxes (a subsystem deleted, undone) -> recoloured canvas: median "
        f"{r['move_edit_ms']:.0f} ms; longest block: median {r['move_max_block_ms']:.0f} ms",
        f"  autosave (written in a worker): median {r['autosave_ms']:.0f} ms; "
        f"longest block: median {r['autosave_max_block_ms']:.0f} ms",
        f"  File > Save (written in a worker): median {r['save_ms']:.0f} ms; "
        f"longest block: median {r['save_max_block_ms']:.0f} ms",
        f"  the same three edits at a working zoom (1:1): {r['zoomed_edit_ms']:.0f} / "
        f"{r['zoomed_struct_edit_ms']:.0f} / {r['zoomed_move_edit_ms']:.0f} ms; longest blocks "
        f"{r['zoomed_edit_max_block_ms']:.0f} / {r['zoomed_struct_max_block_ms']:.0f} / "
        f"{r['zoomed_move_max_block_ms']:.0f} ms",
        f"  a group opened or folded: median {r['fold_ms']:.0f} ms, longest block {r['fold_max_block_ms']:.0f} ms; "
        f"expand all {r['expand_all_ms']:.0f} ms (block {r['expand_all_max_block_ms']:.0f} ms), "
        f"collapse all {r['collapse_all_ms']:.0f} ms (block {r['collapse_all_max_block_ms']:.0f} ms)",
        f"  pan and zoom, everything expanded: {fps['zoomed_in']:.0f} frames/s zoomed in, "
        f"{fps['zoomed_out']:.0f} frames/s with the whole design in view (target 60); zoomed in to 1:1, "
        f"an edit made, and out again: longest block, median {r['zoom_back_block_ms']:.0f} ms "
        f"({' / '.join(f'{b:.0f}' for b in r['zoom_back_blocks_ms'])})",
        f"  everything expanded, in view: a server deleted and undone, median {r['expanded_server_edit_ms']:.0f} ms, "
        f"longest block {r['expanded_server_max_block_ms']:.0f} ms",
        f"  with the model tree, paths and racks showing: a server deleted and undone, median "
        f"{r['server_edit_ms']:.0f} ms, longest block {r['server_max_block_ms']:.0f} ms; the subsystem "
        f"edit {r['panels_move_edit_ms']:.0f} ms, longest block {r['panels_move_max_block_ms']:.0f} ms",
        f"  longest blocks in a window just opened: the paths panel first shown {r['paths_first_show_block_ms']:.0f} ms, "
        f"a cable selected with the model tree showing {r['cable_select_first_block_ms']:.0f} ms (then "
        f"{r['cable_select_block_ms']:.0f} ms), an HBA and a cable alternately {r['kinds_select_block_ms']:.0f} ms "
        f"(median of 6), Select All / clear {r['select_all_block_ms']:.0f} ms, a figure set "
        f"switched {r['figure_switch_block_ms']:.0f} ms, the model tree searched {r['search_block_ms']:.0f} ms, "
        f"a scenario duplicated and switched {r['scenario_block_ms']:.0f} ms (target 16 ms)",
    ]
    if "buildsheet_s" in r:
        lines.append(f"  build sheet: {r['buildsheet_s']:.1f} s (target 30 s)")
    return "\n".join(lines)


def main(args: argparse.Namespace) -> None:
    QApplication.instance() or QApplication([])
    os.environ["SANPLAN_HOME"] = tempfile.mkdtemp()
    parts = builtin_parts()
    designs = {
        "benchmark": (lambda: build_example("p690-benchmark", parts), "fastt1.arr1"),
        "site16": (lambda: build_site(parts, 16), "s1.fastt1.arr1"),
        "site32": (lambda: build_site(parts, 32), "s1.fastt1.arr1"),
        "dc384": (lambda: build_datacenter(parts, 384), "ds1.arr1"),
    }
    from yardstick import yardstick  # (beside this script)

    results, before = [], yardstick()
    if not args.json:
        print(f"yardstick: Python {before['python_ms']} ms, Qt paint {before['paint_ms']} ms", flush=True)
    for name, (make, array) in designs.items():
        wanted = {"site32": args.site32, "dc384": args.datacenter}.get(name, True) or args.only == name
        if (args.only and name != args.only) or not wanted:
            continue
        r = measure(name, make(), array, args)
        results.append(r)
        if not args.json:
            print(human(r), flush=True)
    if args.json:
        doc = {"platform": os.environ["QT_QPA_PLATFORM"], "yardstick": before, "yardstick_after": yardstick()}
        print(json.dumps({**doc, "results": results}, indent=2))


if __name__ == "__main__":
    main(ARGS)
