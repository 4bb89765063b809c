"""A lane's pile (app.piecewise) frees what the lane dropped a piece at a time, and empties only
the tables that what it dropped alone holds."""

from __future__ import annotations

import weakref

from app import piecewise
from app.piecewise import Pile


class Thing:
    """A value whose end a test can see (a weak reference to it)."""


class Holder:
    def __init__(self, **tables) -> None:
        self.__dict__.update(tables)


def _alive(refs) -> int:
    return sum(r() is not None for r in refs)


def test_a_pile_frees_its_tables_a_piece_at_a_time_and_leaves_shared_ones_alone():
    n = piecewise.PIECE * 6
    own = {i: Thing() for i in range(n)}
    nested = {"kinds": {k: [Thing() for _ in range(n // 3)] for k in "abc"}}  # tables inside a small one
    shared = [Thing() for _ in range(n)]  # a table someone else holds too (a diagram the canvas shows)
    refs = [weakref.ref(t) for t in own.values()] + [weakref.ref(t) for v in nested["kinds"].values() for t in v]
    shared_refs = [weakref.ref(t) for t in shared]
    design = Holder(components=own, nested=nested, shown=shared)
    pile = Pile()
    pile.add(design)
    del design, own, nested
    assert _alive(refs) == len(refs)  # kept until freed
    assert not pile.free(busy=lambda: True)  # looked through first, then a piece per call
    assert _alive(refs) == len(refs)
    pieces = 0
    while not pile.free(busy=lambda: True):
        pieces += 1
        assert len(refs) - _alive(refs) <= pieces * piecewise.PIECE  # at most a piece each time
    assert pieces >= 6 and _alive(refs) == 0 and not pile
    assert _alive(shared_refs) == n and len(shared) == n  # the shared table was only let go


def test_a_lane_frees_the_design_it_dropped_once_idle(qtbot, home, parts, monkeypatch):
    """A design opened after another: the analysis lane's pile gets the old replica's design,
    analyses and layout memo, and has freed them once the lane is idle."""
    from app.document import Document
    from planner.examples import build_example
    from planner.io import Project

    doc = Document(parts)
    doc.replace_project(Project(build_example("p690-benchmark", parts)), None)
    doc.wait_for_analysis(30000)
    bg = doc._background
    old = weakref.ref(bg._replica.topo)
    added = []
    real = bg._lane.pile.add
    monkeypatch.setattr(bg._lane.pile, "add", lambda *objs: (added.extend(objs), real(*objs))[1])
    doc.replace_project(Project(build_example("p690-one-drawer", parts)), None)
    doc.wait_for_analysis(30000)
    qtbot.waitUntil(lambda: not bg.busy() and not bg._lane.pile, timeout=10000)
    assert added and added[0] is not None
    del added[:]
    assert old() is None  # the old design is gone
