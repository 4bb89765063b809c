"""Server I/O rules (planner.rules.server_io): adapter placement and PHB/link/planar/drawer saturation."""

from __future__ import annotations

from rules_helpers import LPAR, fourth_adapter_with_path, new_hba, reparent_raw, run

from planner import edit
from planner.analysis import analyze
from planner.fixtures import add_raw
from planner.rules import check


def test_fourth_adapter_on_phb1_is_advice_without_traffic(one, parts):
    assert not run(one, "PHB_SATURATED", "PLANAR_SATURATED", "DRAWER_SATURATED", "LINK_SATURATED")
    new_hba(one, parts, 4)  # uncabled: the analysis does not see it, placement alone does
    found = run(one, "PHB_SATURATED")
    assert [(f.severity, f.components) for f in found] == [("advice", ("d1.phb1", "hba.d1s4"))]
    assert "fourth adapter" in found[0].message
    # 17 adapters at 150 MB/s exceed the drawer's 2400 and planar 0's 1200
    assert [f.severity for f in run(one, "DRAWER_SATURATED")] == ["advice"]
    assert run(one, "PLANAR_SATURATED")[0].components[0] == "d1.p0"
    assert not run(one, "LINK_SATURATED")  # link0 feeds only PHB1: 600 of 750


def test_phb_saturated_warning_when_it_binds_paths(one, parts):
    fourth_adapter_with_path(one, parts)
    found = run(one, "PHB_SATURATED")
    assert [(f.severity, f.components) for f in found] == [("warning", ("d1.phb1",))]
    assert "4 paths" in found[0].message and "450" in found[0].message


def test_link_and_drawer_saturated_in_the_measured_profile(one):
    a = analyze(one, "measured", "read", "cache", cross_check=False)
    links = check(one, analysis=a, rules=["LINK_SATURATED"])
    assert len(links) == 1 and set(links[0].components) == {"d1.p0.link1", "d1.p1.link1"}
    assert "814" in links[0].message and links[0].severity == "warning"
    drawers = check(one, analysis=a, rules=["DRAWER_SATURATED"])
    assert [(f.severity, f.components) for f in drawers] == [("warning", ("d1",))]
    assert not check(one, "planning", rules=["LINK_SATURATED", "DRAWER_SATURATED"])


def test_planar_saturated(one):
    edit.delete(one, [h.id for h in one.of_kind("hba") if one[h.parent]["number"] > 10])
    a = analyze(one, "measured", "read", "cache", cross_check=False)
    found = check(one, analysis=a, rules=["PLANAR_SATURATED"])
    assert [(f.severity, f.components) for f in found] == [("warning", ("d1.p0",))]
    assert "1332" in found[0].message
    assert not check(
        one, analysis=analyze(one, "planning", "read", "cache", cross_check=False), rules=["PLANAR_SATURATED"]
    )


def test_slot_invalid(one):
    assert not run(one, "SLOT_INVALID")
    add_raw(one, "hba", "hba.extra", "d1.s1", "fcs99", "FC6239", lpar=LPAR)
    found = run(one, "SLOT_INVALID")
    assert len(found) == 1 and found[0].components == ("d1.s1", "hba.d1s1", "hba.extra")
    edit.move_hba(one, "hba.extra", "d1.s4")
    assert not run(one, "SLOT_INVALID")
    reparent_raw(one, "d1.s4", "d1.phb2")  # slot 4 is wired to PHB1, not PHB2
    found = run(one, "SLOT_INVALID")
    assert len(found) == 1 and found[0].components == ("d1.s4", "d1.phb2")


def test_hba_without_lpar(one, parts):
    new_hba(one, parts, 4, lpar="")
    found = run(one, "HBA_NO_LPAR")
    assert [(f.severity, f.components) for f in found] == [("warning", ("hba.d1s4",))]
    edit.set_attr(one, "hba.d1s4", "lpar", LPAR)
    assert not run(one, "HBA_NO_LPAR")


def test_saturation_fix_names_a_free_slot_with_spare_bandwidth(one, parts):
    edit.delete(one, ["hba.d1s18", "hba.d1s19"])  # planar 1 and the drawer now have room
    new_hba(one, parts, 4)
    found = run(one, "PHB_SATURATED")
    assert len(found) == 1 and found[0].severity == "advice"
    fix = found[0].fix
    assert fix.startswith("Move fcs d1s4 in Slot 4 of Drawer 1 to Slot 18 of Drawer 1")
    assert "150 MB/s spare" in fix


def test_a_move_stays_in_the_components_server_and_each_servers_slots_are_ranked_once(parts):
    """On a site of three servers with the measured figures (saturated links and drawers in
    each), the move a fix names is the best free slot of the component's own server (an
    adapter serves a partition of its server), as a plain search of that server's slots finds
    it; and each free slot's chain is looked at once per rule, not once per saturated
    component (the 32x site: 684 ms of the check, 1.2 s with the measured figures)."""
    from planner.examples import build_site
    from planner.rules import server_io
    from planner.rules.context import Context

    site = build_site(parts, 3)
    for n in (1, 2):  # room in the second and third servers: a move to make
        edit.delete(site, [h.id for h in site.of_kind("hba") if h.id.startswith(f"s{n + 1}.")][:3])
    ctx = Context(site, analysis=analyze(site, "measured", "read"))
    looked = []
    room = server_io._headroom_analysis(ctx)
    moves = server_io._Moves(ctx, lambda cid: looked.append(cid) or room(cid))
    links = [cid for cid in ctx.binding if site[cid].kind in ("rio_link", "drawer")]
    assert len({site.ancestor(cid, "server").id for cid in links}) == 3
    moved = 0
    for cid in links:
        server = site.ancestor(cid, "server").id
        plain = None
        for slot in ctx.free_slots:  # the search as a user would make it, in this server only
            chain = ctx.slot_chain(slot)
            if site.ancestor(slot.id, "server").id != server or cid in chain:
                continue
            rooms = [r for r in (room(c) for c in chain) if r is not None]
            spare = min(rooms) if rooms else 0.0
            if spare >= 1.0 and (plain is None or spare > plain[0]):
                plain = (spare, slot)
        got = moves.best(site[cid])
        assert got == plain
        if got is not None:
            moved += 1
            assert site.ancestor(got[1].id, "server").id == server
    assert moved and len(looked) <= 4 * len(ctx.free_slots)
    found = check(site, analysis=ctx.analysis, rules=["LINK_SATURATED", "DRAWER_SATURATED"])
    assert found and all(f.fix for f in found)
