"""What the canvas repaints of an analysis (widgets.canvas.figures): the components whose figures
changed, as a plain comparison of the two results finds them."""

from __future__ import annotations

import dataclasses

from planner.analysis import analyze
from widgets.canvas.figures import canvas_figures


def _plain(before, after) -> set[str]:
    a, b = before.result.components, after.result.components
    loads = {c for c in a.keys() | b.keys() if a.get(c) != b.get(c)}
    groups = {
        c
        for c in before.group_load.keys() | after.group_load.keys()
        if before.group_load.get(c) != after.group_load.get(c)
    }
    binds = {c for c in before.binds.keys() | after.binds.keys() if before.binds.get(c) != after.binds.get(c)}
    return loads | groups | binds


def test_changed_components_are_those_a_plain_comparison_finds(parts, benchmark_design):
    read = canvas_figures(analyze(benchmark_design, "planning", "read"))
    write = canvas_figures(analyze(benchmark_design, "planning", "write"), read)
    assert write.changed and set(write.changed) == _plain(read, write)
    # a load equal in its own figure but another in a field behind it is changed too
    again = analyze(benchmark_design, "planning", "read")
    cid, load = next((c, ld) for c, ld in again.components.items() if ld.paths)
    again.components[cid] = dataclasses.replace(load, paths=load.paths + 1)
    got = canvas_figures(again, read)
    assert cid in got.changed and set(got.changed) == _plain(read, got)
    same = canvas_figures(analyze(benchmark_design, "planning", "read"), read)
    assert same.changed == []  # (equal loads, other objects)
