"""Helpers shared by the planner.io tests: compare designs, find a save's leftovers."""

from __future__ import annotations

import copy
from pathlib import Path

from planner import naming
from planner.analysis import analyze
from planner.model import KINDS, Topology

ROOT = Path(__file__).resolve().parents[3]
GOLDEN = ROOT / "tests" / "golden"


def snapshot(t: Topology, shown_names: bool = False):
    """Everything a design is, independent of the interleaving of kinds in creation order.

    ``shown_names``: compare names as the user sees them (:func:`planner.naming.qualified_name`):
    files written before names stopped embedding the parent's name ('sw1 port 3', now 'port 3'
    shown as 'sw1 port 3') show the same."""

    def nm(c):
        return naming.qualified_name(t, c) if shown_names else c.name

    return {
        "meta": dict(t.meta),
        "parts": copy.deepcopy(t.parts),
        "kinds": {k: [(c.id, nm(c), c.parent, c.part, dict(c.attrs)) for c in t.of_kind(k)] for k in KINDS},
        "children": {c.id: [x.id for x in t.children(c.id)] for c in t.components() if t.children(c.id)},
    }


def same_design(a: Topology, b: Topology, shown_names: bool = False) -> None:
    sa, sb = snapshot(a, shown_names), snapshot(b, shown_names)
    assert sa["meta"] == sb["meta"]
    assert sa["parts"] == sb["parts"]
    assert sa["kinds"] == sb["kinds"]
    # children keep their order within each kind (kinds under one parent come in schema order)
    for pid, kids in sa["children"].items():
        for kind in KINDS:
            assert [k for k in kids if a[k].kind == kind] == [k for k in sb["children"][pid] if b[k].kind == kind]


def aggregate(t: Topology) -> float:
    return analyze(t, "measured", "read", "cache").aggregate


def leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".tmp") or "-journal" in p.name)
