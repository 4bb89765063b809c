"""A partial design: a p690 with HBAs, a 2109-F32 and FAStT600 Turbo subsystems with drives."""

from __future__ import annotations

import pytest

from planner import edit
from planner.model import Topology


def build_partial(parts, slots=(1, 11, 5, 15), subsystems=2, lpar=False) -> Topology:
    t = Topology("partial")
    edit.add_server(t, parts["7040-681"], "p690")
    if lpar:
        edit.add_lpar(t, "p690", "lpar1")
    edit.add_drawer(t, "p690", parts["7040-61D"])
    for n in slots:
        edit.add_hba(t, edit.find_slot(t, "d1", n).id, parts["FC6239"], lpar="p690.lpar1" if lpar else "")
    edit.add_fabric(t, "FAB_A")
    edit.add_switch(t, parts["2109-F32"], "fab.FAB_A", "sw1")
    for k in range(1, subsystems + 1):
        edit.add_subsystem(t, parts["FAStT600-Turbo"], f"fastt{k}", drive_part=parts["DRV-36G-15K"], drives=14)
        edit.add_enclosure(t, f"fastt{k}", parts["EXP700"], drive_part=parts["DRV-36G-15K"], drives=14)
    t.revision = 0
    return t


@pytest.fixture
def partial(parts):
    return build_partial(parts)


def snapshot(topo: Topology) -> list:
    return [(c.id, c.kind, c.name, c.parent, c.part, dict(c.attrs)) for c in topo.components()]
