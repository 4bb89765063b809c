"""An incremental analysis says whether its result is of the design as it is
(IncrementalAnalysis.current): the editor assembles a figure set not shown while idle and keeps
that result for a switch to the set, so a result kept past an edit would show old figures."""

from __future__ import annotations

import sys
from pathlib import Path

from planner import edit
from planner.analysis import analyze
from planner.commands import UndoStack
from planner.examples import build_site
from planner.incremental import IncrementalAnalysis, Replica

sys.path.insert(0, str(Path(__file__).parent))
from test_incremental import applied, same_analysis  # noqa: E402


def test_a_result_is_current_until_an_edit_or_a_split_by_another_analysis(parts):
    site = build_site(parts, 2)
    replica = Replica(site)
    shown = IncrementalAnalysis(replica.topo, "planning", "read")
    shelf = IncrementalAnalysis(replica.topo, "measured", "read", partition=shown.partition, deferred=True)
    assert shown.current() and not shelf.current()  # (deferred: nothing assembled yet)
    assert shelf.prefill(lambda: False) and not shelf.current()
    kept = shelf.update((), token=replica.topo.revision)
    assert shelf.current() and shown.current()  # nothing changed: nothing split, the shown one stands
    same_analysis(kept, analyze(site, "measured", "read"))
    assert shelf.update(()) is not kept and shelf.current()  # (assembled again on asking)
    kept = shelf.analysis
    stack = UndoStack(site)
    delta = applied(site, replica, lambda: stack.push(edit.delete(site, [site.of_kind("cable")[0].id]), applied=True))
    assert not shown.current() and not shelf.current()  # the replica moved on
    shown.update(delta, token=replica.topo.revision)
    assert shown.current() and not shelf.current()  # split by the shown one: the shelf's parts are stale
    assert not shelf.prefill(lambda: True) and shelf.analysis is None  # (a part re-made: its old result dropped)
    assert shelf.prefill(lambda: False)
    got = shelf.update((), token=replica.topo.revision)
    assert shelf.current() and got is not kept and shelf.last_parts == 0  # (the fill allocated the part)
    same_analysis(got, analyze(site, "measured", "read"))
    same_analysis(shown.analysis, analyze(site, "planning", "read"))
