"""Cyclic garbage collection on the GUI thread only, while worker threads run.

CPython's cyclic collector runs in whichever thread happens to allocate when a generation's
threshold is passed. If that is a worker thread and the garbage holds a Qt object (a window, a
timer, a graphics item caught in a reference cycle), Qt destroys the object from the wrong
thread and aborts the process (seen on CI: ``Fatal Python error: Aborted`` with the analysis
lane "Garbage-collecting" inside ``Topology.snapshot``). pyqtgraph documents the same hazard
and the same cure: switch the automatic collector off and collect from a timer on the GUI thread.

A worker holds the automatic collector off (:func:`planner.gcpause.hold_gc`, counted, which
the workers' own short pauses respect) while it works: the export thread from before it starts
until its last line (:func:`start_thread`), each analysis lane from waking until its work is
done (``app.background._Lane``). Meanwhile a timer on the GUI thread collects whatever
generation has passed its threshold, as the automatic collector would; once no worker works,
the timer (never a worker, whose next allocation could collect) switches it back on. Idle
lanes hold nothing, so between edits collection is CPython's own, on the GUI thread.

A large design is a large heap that lives as long as it is open (the 16x site: a few million
objects, whose full collection takes 250-300 ms). Once the canvas has been rebuilt and the editor
is idle, :func:`freeze_when_idle` moves everything alive into CPython's permanent generation
(``gc.freeze``), which no collection walks: a full collection while the user pans then takes tens
of milliseconds instead of a dropped quarter second. Frozen objects are still freed when their
last reference goes; only garbage in reference cycles waits, until :func:`thaw` (a design
opened) hands it all back to the collector. A large analysis is frozen as it arrives
(:func:`adopt_analysis`): forty edits and figure switches on the 16x site so left no cyclic
garbage behind (a full collection after thawing freed 0 objects; the same resident size). A
large layout or analysis is frozen by the lane as soon as it is made, and the collector leaves
the young generations alone meanwhile (:func:`lane_making`): forty edits again, a server
deleted and restored among them, left 0 objects for the collection after thawing (RSS 357 MB
with and without).
"""

from __future__ import annotations

import gc
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from PySide6.QtCore import QObject, QTimer

from planner.gcpause import hold_gc, release_gc, settle_gc

#: how often the GUI thread looks at the collector's counts; a generation is collected only
#: when its threshold has been passed, as the automatic collector would
INTERVAL_MS = 100
#: ... and how often while a worker holds the automatic collector off. The young generation is
#: then collected only when the GUI thread looks, and all that the GUI thread and the workers
#: made meanwhile is walked at once: looking every 100 ms, a gen-0 collection took 12-19 ms
#: (the 16x site expanded while the rules ran, an edit analysed); every 10 ms it takes a tenth
HELD_INTERVAL_MS = 10
#: The workers (the analysis lanes, the threads that read, save and export) are Python threads
#: sharing the GIL with the GUI thread. With CPython's default 5 ms switch interval, every time
#: the GUI thread lets go of the GIL (each call into Qt may) it waits up to 5 ms for a busy
#: worker to hand it back: on the 16x site one pass over the canvas items took 1.0 s instead of
#: 0.08 s while a lane computed the scaling curve; 0.2 ms brings it to 0.11 s (cProfile of the
#: GUI thread during an edit). A GUI thread waiting for events costs the workers nothing. Set by
#: :func:`install`, before the first worker starts: set only when the first analysis lane was
#: made, the file reader of a session's first open still ran at 5 ms and blocked the 16x
#: site's window 20-43 ms at a time (8 such blocks in its 0.28 s; none in the opens after)
GIL_SWITCH_S = 0.0002
#: quiet time after a canvas rebuild before the heap is frozen (see the module docstring)
FREEZE_AFTER_MS = 1500


class _Collector(QObject):
    """Collects as CPython's automatic collector would, including its rule for the oldest
    generation: a full collection only once the objects promoted into it since the last one
    reach a quarter of those that survived it (on the 16x site a full collection takes about
    140 ms, so doing one every tenth middle collection would stall the editor every few
    seconds). CPython does not publish its generations' sizes, so they are estimated from the
    young counts and what each collection freed."""

    def __init__(self) -> None:
        super().__init__()
        self.timer = QTimer(self)
        self.timer.setInterval(INTERVAL_MS)
        self.timer.timeout.connect(self.collect)
        self.middle = 0  # estimated objects in generation 1
        self.pending = 0  # estimated objects promoted into generation 2 since the last full one
        self.long_lived = len(gc.get_objects())  # estimated survivors of the last full one

    def collect(self) -> int:
        """Collect the oldest generation whose threshold has been passed (a collection of one
        generation includes the younger ones); return how many objects were freed."""
        if gc.isenabled():
            self._pace(INTERVAL_MS)
            return 0  # no worker holds it off: the automatic collector does its job
        self._pace(HELD_INTERVAL_MS)
        if _making:
            return 0  # a lane is making a layout or an analysis, frozen once made (see lane_making)
        counts = gc.get_count()
        limits = gc.get_threshold()
        young = max(counts[0], 0)
        freed = 0
        if limits[2] and counts[2] > limits[2] and self.pending > self.long_lived // 4 and not slicing():
            freed = gc.collect(2)
            self.long_lived = max(self.long_lived + self.pending + self.middle + young - freed, 0)
            self.pending = self.middle = 0
        elif limits[1] and counts[1] > limits[1] and not slicing():  # (see SLICES_QUIET_MS)
            freed = gc.collect(1)
            self.pending += max(self.middle + young - freed, 0)
            self.middle = 0
        elif limits[0] and young > limits[0] and slicing():
            gc.freeze()  # what the slices made (see SLICES_QUIET_MS)
            self.long_lived = self.middle = 0
        elif limits[0] and young > limits[0]:
            freed = gc.collect(0)
            self.middle += max(young - freed, 0)
        if settle_gc():  # the last worker has ended: the automatic collector takes over again
            self._pace(INTERVAL_MS)
        return freed

    def _pace(self, ms: int) -> None:
        if self.timer.interval() != ms:  # (setting it restarts the timer)
            self.timer.setInterval(ms)


class _Freezer(QObject):
    """Freezes the heap once the editor has been quiet for FREEZE_AFTER_MS (no worker holds the
    collector off: they would still be making objects of the edit)."""

    def __init__(self) -> None:
        super().__init__()
        self.timer = QTimer(self)
        self.timer.setSingleShot(True)
        self.timer.setInterval(FREEZE_AFTER_MS)
        self.timer.timeout.connect(self.freeze)
        self.frozen = 0  # how many times the heap was frozen (tests, the log)

    def freeze(self) -> None:
        if not gc.isenabled():  # a worker is busy: later
            self.timer.start()
            return
        gc.collect(1)  # young garbage is collected, not frozen
        gc.freeze()
        self.frozen += 1
        if _collector is not None:
            _collector.long_lived = len(gc.get_objects())  # the permanent generation is not counted


_collector: _Collector | None = None
_freezer: _Freezer | None = None


def freeze_when_idle() -> None:
    """Freeze the heap once the editor has been quiet a moment (call from the GUI thread after
    a change that made many long-lived objects: a design opened, the canvas rebuilt)."""
    global _freezer
    if _freezer is None:
        _freezer = _Freezer()
    try:
        _freezer.timer.start()
    except RuntimeError:  # its timer deleted (the application torn down while a view still scrolls)
        _freezer = None


#: while the canvas makes its items in slices, the heap is frozen at most this often
SLICE_FREEZE_S = 0.25
_sliced_at = 0.0
#: ... and the automatic collector is held off until no slice has come for this long, the GUI
#: thread's timer freezing the young generation meanwhile and collecting none, and the heap
#: frozen once more at the end: a full collection walked the items made since the last freeze
#: again and freed nothing (one of 35-90 ms fell now and then inside expanding every group of the
#: 16x site), and so did a middle one (10-15 ms, a few times an expand) and a young one. What
#: the slices make they keep (the items, the overview's places of the boxes a morph moved), and
#: the young generation's size is not what the collector's count says (objects made less objects
#: freed: each new place of a moved box replaces an older, frozen one): the 16x site expanded, a
#: server deleted and restored at once, a young collection counted 2,700 objects, walked 90,000
#: (the places of 44,864 boxes) and blocked the editor 34 ms, freeing nothing.
SLICES_QUIET_MS = 500


def follow_canvas(scene: Any) -> None:
    """Freeze what the canvas makes: once it is quiet after making its items again (a design
    opened, everything expanded), and every SLICE_FREEZE_S while it makes them in slices. A
    growing heap was otherwise walked by each full collection again: expanding the 16x site
    ran four of 74-140 ms, freeing nothing, in the middle of the slices."""
    scene.rebuilt.connect(freeze_when_idle)
    scene.sliced.connect(_freeze_sliced)


def follow_view(view: Any) -> None:
    """Freeze what panning and zooming ``view`` made (its layers' tiles, the pictures drawn
    beforehand), once it has been still a moment: left to the collector, a full collection
    fell in the next edit (the 16x site panned and zoomed out, then a server deleted: 90,000
    objects walked, 28 ms of a 50 ms block, freeing nothing)."""
    moved = lambda *_: freeze_when_idle()  # noqa: E731  (a pan step restarts the wait)
    view.zoomChanged.connect(moved)
    view.horizontalScrollBar().valueChanged.connect(moved)
    view.verticalScrollBar().valueChanged.connect(moved)


class _SliceHold(QObject):
    """Holds the automatic collector off while the canvas works in slices (see SLICES_QUIET_MS)."""

    def __init__(self) -> None:
        super().__init__()
        self.holding = False
        self.timer = QTimer(self)
        self.timer.setSingleShot(True)
        self.timer.setInterval(SLICES_QUIET_MS)
        self.timer.timeout.connect(self.release)

    def slice_done(self) -> None:
        if not self.holding:
            install()
            worker_coming()
            hold_gc()
            self.holding = True
        self.timer.start()

    def release(self) -> None:
        if self.holding:
            self.holding = False
            gc.freeze()  # what the last slices made (see SLICES_QUIET_MS)
            if _collector is not None:
                _collector.long_lived = _collector.middle = 0
            release_gc()


_slice_hold: _SliceHold | None = None


def slicing() -> bool:
    """Whether the canvas is working in slices (the collector's full collections wait)."""
    return _slice_hold is not None and _slice_hold.holding


def _freeze_sliced() -> None:
    global _sliced_at, _slice_hold
    if _slice_hold is None:
        _slice_hold = _SliceHold()
    _slice_hold.slice_done()
    now = time.monotonic()
    if now - _sliced_at >= SLICE_FREEZE_S:
        _sliced_at = now
        gc.freeze()  # (moves the generations' lists: no walk)
        if _collector is not None:
            _collector.long_lived = 0  # what it counted is frozen


#: an analysis of at least this many paths is frozen on arrival (see :func:`adopt_analysis`)
ADOPT_PATHS = 500


def adopt_analysis(bundle: Any) -> None:
    """Freeze the heap as a large analysis arrives from a lane (its tens of thousands of loads,
    paths and lists live until the next one replaces them, freed by their counts): the
    collector's next middle generation would otherwise walk them all, freeing nothing (10-15
    ms on the 16x site after each edit or figure set switched, in the same turn as a paint)."""
    result = getattr(bundle, "result", None)
    if result is None or len(result.paths) < ADOPT_PATHS:
        return
    gc.freeze()
    if _collector is not None:
        _collector.long_lived = 0  # what it counted is frozen
        _collector.middle = 0


#: the collector's count of long-lived objects after a thaw, until it counts them anew (see :func:`thaw`)
UNCOUNTED = 1 << 40

#: a lane's layout or analysis of a design of at least this many components is frozen as it is
#: made (see :func:`lane_making`); the 16x site has 55,393
MAKING_COMPONENTS = 20_000
_making = 0  # how many lanes are making one now
_making_lock = threading.Lock()


@contextmanager
def lane_making(components: int) -> Iterator[None]:
    """A lane makes a layout or an analysis of a design of ``components`` (call from the lane):
    when large, the GUI thread's collector leaves the young generations alone meanwhile and the
    lane freezes the heap once done. A site's layout is some 500,000 objects that live until the
    next one; the collector walked them as they came (young collections every 10 ms), again as
    they were promoted (a middle one of 10-17 ms) and once more later (a young one of 27 ms,
    after a server deleted on the 16x site expanded), freeing nothing: the lanes make no
    reference cycles (:mod:`planner.gcpause`). Whatever the GUI thread made meanwhile is frozen
    too, as :func:`adopt_analysis` does; :func:`thaw` hands it back."""
    global _making
    if components < MAKING_COMPONENTS:
        yield
        return
    with _making_lock:
        _making += 1
    try:
        yield
    finally:
        gc.freeze()  # (no walk: the generations' lists are moved)
        if _collector is not None:
            _collector.long_lived = _collector.middle = 0  # what it counted is frozen
        with _making_lock:
            _making -= 1


def thaw() -> None:
    """Hand the frozen objects back to the collector (a design was opened or closed: the old
    one's cyclic garbage can go). How many they are is not counted (``gc.get_freeze_count``
    walks them all: 11 ms on the 16x site, 19 ms on the 32x, in the turn that shows the design
    opened): the collector takes them for too many to walk in a full collection until the heap
    is frozen again (:func:`freeze_when_idle`, once the canvas shown is quiet), which counts
    anew; a full collection of a site's heap would block the editor a quarter second anyway."""
    gc.unfreeze()
    if _collector is not None:
        _collector.long_lived = UNCOUNTED


def window_closed() -> None:
    """A window has closed: everything frozen goes back to the collector, and on the next turn
    of the event loop (never at all when closing quits the application) a full collection frees
    what the window leaves: its objects hold one another in cycles (the slots it connected),
    and frozen with the rest they were never freed (two windows of the 16x site closed in one
    process: 816,863 objects kept, and the next window's autosave blocked the editor 17-24 ms
    instead of 5-13). A hold of the collector for the window's canvas slicing is let go (left
    on, the next window's workers' garbage was frozen, not collected)."""
    if _slice_hold is not None:
        _slice_hold.timer.stop()
        _slice_hold.release()
    thaw()
    QTimer.singleShot(0, _collect_all)


def _collect_all() -> None:
    freed = gc.collect()
    if _collector is not None:
        _collector.long_lived = max(_collector.long_lived - freed, 0)
        _collector.pending = _collector.middle = 0


def install() -> None:
    """Start the GUI thread's collecting timer (once; call from the GUI thread) and shorten the
    interpreter's switch interval (:data:`GIL_SWITCH_S`)."""
    global _collector
    sys.setswitchinterval(min(sys.getswitchinterval(), GIL_SWITCH_S))
    if _collector is None:
        _collector = _Collector()
        _collector.timer.start()


def worker_coming() -> None:
    """A worker is about to hold the collector off (work posted to it): look at the counts at
    the held pace from now on, not from the next look at the idle pace (see HELD_INTERVAL_MS).
    Does nothing outside the GUI thread (a lane posting to another)."""
    if _collector is not None and threading.current_thread() is threading.main_thread():
        _collector._pace(HELD_INTERVAL_MS)


def start_thread(target: Callable[[], None], name: str) -> threading.Thread:
    """Start a daemon thread running ``target`` that never runs the cyclic collector; call
    from the GUI thread (whose timer then does the collecting)."""
    install()
    worker_coming()
    hold_gc()

    def run() -> None:
        try:
            target()
        finally:
            release_gc(leave_off=True)  # switched back on by the GUI thread, never here

    thread = threading.Thread(target=run, name=name, daemon=True)
    try:
        thread.start()
    except BaseException:
        release_gc()
        raise
    return thread


#: wrapped Qt objects the table is grown for at startup (see :func:`reserve_wrappers`)
RESERVED_WRAPPERS = 140_000
_reserved = False


def reserve_wrappers(count: int | None = None) -> bool:
    """Grow PySide's table of wrapped Qt objects once, before the first window shows: ``count``
    objects wrapped and dropped at once (a C++ hash table, which grows by doubling, copying
    every entry, and never shrinks). Without it, the first expand of everything on the 16x site
    (its canvas then wraps 116,000 objects) crossed a doubling inside one slice: the event loop
    blocked 15-18 ms, 10 ms with the table grown beforehand (probes, twenty-sixth session);
    the growing takes 55 ms, once a process. True when it grew the table (the first call)."""
    global _reserved
    if _reserved:
        return False
    from PySide6.QtCore import QPointF

    _reserved = True
    held = [
        QPointF() for _ in range(RESERVED_WRAPPERS if count is None else count)
    ]  # (each registered in the table while it lives)
    del held
    return True
