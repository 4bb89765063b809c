"""planner.grow: the fewest parts that take a design to a higher target, everything old unchanged."""

from __future__ import annotations

import pytest

from planner import edit
from planner.assist.storage import layout_arrays
from planner.grow import AlreadyMet, GrowthError, _analyse, _Design, build_growth, grow, layout, meets
from planner.rules import check
from planner.sizing import size


def _errors(topo):
    return [f for f in check(topo) if f.severity == "error"]


def _unchanged(old, new):
    """Every component of ``old`` is in ``new``, equal in every field; positions kept."""
    for comp in old.components():
        assert new.get(comp.id) == comp, comp.id
    assert {k: v for k, v in new.positions.items() if k in old.positions} == old.positions


@pytest.fixture
def with_idle(parts):
    """A sized 600 MB/s design (one drawer, 4 HBAs, 2 FAStT600 Turbo) with two more FAStT600 Turbo
    bought, arrays laid out, not yet cabled: 12 free paper slots and idle storage."""
    t = size(600, parts=parts).topology
    for n in (3, 4):
        edit.add_subsystem(
            t,
            parts["FAStT600-Turbo"],
            f"fastt{n}",
            wwpn_base=f"20:0a:00:a0:b8:99:{n:02x}:00",
            drive_part=parts["DRV-36G-15K"],
            drives=14,
        )
        edit.add_enclosure(t, f"fastt{n}", parts["EXP700"], drive_part=parts["DRV-36G-15K"], drives=14)
        layout_arrays(t, f"fastt{n}")
    return t


def test_one_drawer_to_two_drawers(one_drawer, parts):
    old = one_drawer.clone()
    g = grow(one_drawer, 3000, parts=parts)
    c = g.candidate
    assert (c.drawers, c.hbas, c.subsystems, c.switches) == (1, 4, 2, 1)
    assert g.analysis.aggregate >= 3000 and g.meets()
    assert g.before.aggregate == pytest.approx(2400)
    _unchanged(old, g.topology)
    _unchanged(old, one_drawer)  # the design itself is not touched
    assert not _errors(g.topology)
    assert len(g.topology.of_kind("volume_group")) == 2  # the old VG keeps its PVs
    steps = {st.title: st for st in g.steps}
    assert steps["drawers"].count == 1 and "step 2" in steps["drawers"].source
    assert steps["HBAs in free slots"].figure == 150


def test_free_slots_suffice_adds_only_hbas(with_idle, parts):
    old = with_idle.clone()
    g = grow(with_idle, 1200, parts=parts)
    c = g.candidate
    assert (c.drawers, c.subsystems, c.switches) == (0, 0, 0) and c.hbas == 4 and c.idle_used == 2
    kinds = {x.kind for x in g.topology.components() if x.id not in old}
    assert "hba" in kinds and not kinds & {"drawer", "subsystem", "switch", "array"}
    _unchanged(old, g.topology)
    assert g.analysis.aggregate >= 1200 and not _errors(g.topology)


def test_impossible_target_names_the_limit(benchmark_design, parts):
    with pytest.raises(GrowthError, match="takes at most 7 drawers .7 used, 0 left.* 0 free slot"):
        grow(benchmark_design, 17000, parts=parts)


def test_already_met(one_drawer, parts):
    with pytest.raises(AlreadyMet, match="already gives 2,400"):
        grow(one_drawer, 2000, parts=parts)


def test_bad_target(one_drawer, parts):
    with pytest.raises(GrowthError, match="greater than 0"):
        grow(one_drawer, 0, parts=parts)


def test_smallest_addition_against_exhaustive_search(with_idle, parts):
    """Every (HBAs, new subsystems) up to 10 and 5 built and analysed: none that meets is cheaper."""
    target = 1650
    g = grow(with_idle, target, parts=parts)
    design = _Design(with_idle, parts, "planning", {"read": target})
    best = None
    for h in range(1, 11):
        for s in range(0, 6):
            cand = layout(design, h, s)
            if cand is None:
                continue
            result = _analyse(build_growth(design, cand), "planning", {"read": target})
            if meets(result, target, 0) and (best is None or cand.cost() < best.cost()):
                best = cand
    assert best is not None and g.candidate.cost() == best.cost()
    assert g.candidate.subsystems >= 1  # the idle storage alone does not reach it


def test_grown_parts_take_no_name_the_design_uses(one_drawer, parts):
    """A user's subsystem renamed 'FASTT9' and switch 'SW2' (the names the growth would
    count up to): the new ones are named past them (NAME_DUPLICATE stays quiet)."""
    from planner.rules import check

    edit.set_attr(one_drawer, "fastt8", "name", "FASTT9")
    edit.set_attr(one_drawer, "sw1", "name", "SW2")
    g = grow(one_drawer, 3000, parts=parts)
    assert not [f for f in check(g.topology) if f.rule == "NAME_DUPLICATE"]
    new_subs = {c.name for c in g.topology.of_kind("subsystem")} - {c.name for c in one_drawer.of_kind("subsystem")}
    assert new_subs and "fastt9" not in {n.casefold() for n in new_subs}
