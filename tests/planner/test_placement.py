"""Physical placement: positions, location codes, the placement check, cable lengths, the edits
with undo and the rack assistant (issue 12, "Physical placement")."""

from __future__ import annotations

import pytest

from planner import edit, edit_place, placement
from planner.assist.base import NothingToDo
from planner.assist.racks import rack_everything
from planner.fixtures import set_raw
from planner.io import topology_from_dict, topology_to_dict
from planner.model import ModelError, Topology


@pytest.fixture
def racked(one_drawer):
    """The one-drawer example as the example builder racks it."""
    return one_drawer


def _small(parts) -> Topology:
    """A server with one drawer, a switch and one FAStT600 Turbo with an EXP700, nothing placed."""
    t = Topology("small")
    edit.add_server(t, parts["7040-681"], "p690")
    edit.add_drawer(t, "p690", parts["7040-61D"], location="")
    edit.add_fabric(t, "A")
    edit.add_switch(t, parts["2109-F32"], t.of_kind("fabric")[0].id, "sw1")
    edit.add_subsystem(t, parts["FAStT600-Turbo"], "fastt1")
    edit.add_enclosure(t, "fastt1", parts["EXP700"])
    return t


def _site_and_racks(t: Topology) -> tuple[str, str, str]:
    edit_place.add_site(t, "Hall 1")
    site = t.of_kind("site")[0].id
    edit_place.add_frame(t, site, "p690", row="A")
    edit_place.add_rack(t, site, "R1", 42, "A")
    frame, rack = (r.id for r in t.of_kind("rack"))
    return site, frame, rack


def test_placeable_kinds_come_from_the_schema():
    assert set(placement.placeable_kinds()) == {"server", "drawer", "switch", "subsystem", "enclosure"}


def test_heights_come_from_the_parts(parts):
    t = _small(parts)
    drawer = t.of_kind("drawer")[0].id
    assert placement.u_height(t, drawer) == 4  # P690: a 4 EIA drawer
    assert placement.u_height(t, "sw1") == 1
    assert placement.u_height(t, "fastt1") == 3
    assert placement.u_height(t, "fastt1.e1") == 3
    assert placement.u_height(t, "p690") == 17  # the CEC
    assert placement.u_height(t, "fastt1.A") is None  # a controller is not racked
    assert "controller drawer of fastt1" in placement.rackable_problem(t, "fastt1.e0")


def test_every_catalog_height_names_its_source(parts):
    for part in parts.values():
        if "u_height" in part:
            assert part["u_height_source"].strip()
            not_from_seed = "not in the seed papers" in part["u_height_source"]
            assert part.get("u_height_estimate", False) == not_from_seed, part["id"]


def test_place_move_unplace_with_undo(parts):
    t = _small(parts)
    site, frame, rack = _site_and_racks(t)
    assert placement.position(t, "sw1") is None
    b = edit_place.place(t, "sw1", rack, 10, "rear")
    assert placement.position(t, "sw1") == placement.Position(site, rack, 10, "rear", 1)
    m = edit_place.move(t, "sw1", rack, 20)
    assert placement.position(t, "sw1").u == 20 and placement.position(t, "sw1").face == "rear"
    m.undo(t)
    assert placement.position(t, "sw1").u == 10
    b.undo(t)
    assert placement.position(t, "sw1") is None
    b.do(t)
    edit_place.unplace(t, "sw1")
    assert placement.position(t, "sw1") is None and t["sw1"]["face"] == "front"


def test_placement_problems_name_the_reason(parts):
    t = _small(parts)
    site, frame, rack = _site_and_racks(t)
    drawer = t.of_kind("drawer")[0].id
    edit_place.place(t, "fastt1", rack, 1)
    problem = placement.placement_problem
    assert "overlaps fastt1 at U1-U3" in problem(t, "fastt1.e1", rack, 3)
    assert problem(t, "fastt1.e1", rack, 4) is None
    assert "reach U44" in problem(t, "fastt1.e1", rack, 42)
    assert "mounts only in a frame of p690" in problem(t, drawer, rack, 10)
    assert "frame of p690" in problem(t, "sw1", frame, 1) and "19-inch rack" in problem(t, "sw1", frame, 1)
    assert "bulk power assembly" in problem(t, drawer, frame, 33)
    assert "media drawer" in problem(t, drawer, frame, 14)
    assert problem(t, drawer, frame, 9) is None
    assert "not a rack unit" in problem(t, "sw1", rack, 0)
    assert "no rack" in problem(t, "sw1", "nowhere", 1)
    assert "not mounted in a rack by itself" in problem(t, "fastt1.A", rack, 1)
    with pytest.raises(ModelError, match="overlaps"):
        edit_place.place(t, "fastt1.e1", rack, 2)
    assert t["fastt1.e1"]["u"] == 0  # a refused edit leaves the model untouched


def test_location_codes_follow_the_p690_form(parts):
    t = _small(parts)
    site, frame, rack = _site_and_racks(t)
    drawer = t.of_kind("drawer")[0].id
    assert placement.location_code(t, drawer) == ""  # no location typed, not placed
    edit_place.place(t, drawer, frame, 9)
    assert placement.location_code(t, drawer) == "U1.9" and t[drawer]["location"] == "U1.9"
    moved = edit_place.move(t, drawer, frame, 5)
    assert placement.location_code(t, drawer) == "U1.5" and t[drawer]["location"] == "U1.5"
    moved.undo(t)
    assert t[drawer]["location"] == "U1.9"
    hba = edit.add_hba(t, edit.find_slot(t, drawer, 15).id, parts["FC6239"])
    hba_id = [c for c in t.of_kind("hba")][0].id
    port = t.children(hba_id, "hba_port")[0].id
    assert placement.location_code(t, hba_id) == "U1.9-P2-I5"  # drawer slot 15 = planar 2, slot 5
    assert placement.location_code(t, port) == "U1.9-P2-I5/Q1"
    planar = t.ancestor(port, "planar").id
    assert placement.location_code(t, planar) == "U1.9-P2"
    assert placement.location_code(t, "sw1") == ""
    assert hba is not None


def test_location_of_an_unplaced_drawer_is_the_typed_one(one_drawer):
    t = one_drawer
    drawer = t.of_kind("drawer")[0]
    assert placement.location_code(t, drawer.id) == "U1.9"
    edit_place.unplace(t, drawer.id)
    assert placement.location_code(t, drawer.id) == "U1.9"  # the typed location (P690 Table 2)


def test_cable_lengths_follow_the_stated_rule(parts):
    t = _small(parts)
    site, frame, rack = _site_and_racks(t)
    drawer = t.of_kind("drawer")[0].id
    edit.add_hba(t, edit.find_slot(t, drawer, 1).id, parts["FC6239"])
    port = t.of_kind("hba_port")[0].id
    edit.add_cable(t, port, edit.switch_port(t, "sw1", 0).id)
    edit.add_cable(t, edit.switch_port(t, "sw1", 1).id, "fastt1.A1")
    to_hba, to_sub = (c.id for c in t.of_kind("cable"))
    assert placement.cable_length_m(t, to_hba) is None  # not placed
    edit_place.place(t, drawer, frame, 9)
    edit_place.place(t, "sw1", rack, 30)
    edit_place.place(t, "fastt1", rack, 1)
    # same rack: middles 29.5 U and 1.5 U up -> 28 U = 1.245 m, + 2 x 0.5 m ends = 2.245 m;
    # x 1.1 + 1 m = 3.47 m -> the 5 m stock length
    assert placement.route_m(t, placement.position(t, "sw1"), placement.position(t, "fastt1")) == pytest.approx(2.2446)
    assert placement.cable_length_m(t, to_sub) == 5
    # neighbouring racks (frame 785 mm, rack 600 mm: centres 0.6925 m apart); up to the tops from
    # the middles (drawer U9-12: 10 U up, switch U30: 29.5 U up): 32 + 12.5 = 44.5 U = 1.978 m;
    # + 2 x 0.5 m tray rise + 2 x 0.5 m ends
    route = placement.route_m(t, placement.position(t, drawer), placement.position(t, "sw1"))
    assert route == pytest.approx(1.978025 + 0.6925 + 2.0)
    assert placement.cable_length_m(t, to_hba) == 7  # 4.67 x 1.1 + 1 = 6.14 m
    edit_place.add_rack(t, site, "R2", 42, "B")
    edit_place.move(t, "sw1", t.of_kind("rack")[-1].id, 30)
    farther = placement.route_m(t, placement.position(t, drawer), placement.position(t, "sw1"))
    assert farther == pytest.approx(1.978025 + abs(0.3925 - 0.3) + 2.4 + 2.0)  # one row crossed
    assert "2.4 m per row" in placement.LENGTH_RULE


def test_sites_and_racks_edits_with_undo(parts):
    t = _small(parts)
    site, frame, rack = _site_and_racks(t)
    assert "already a site" in edit_place.site_problem(t, "hall 1")
    assert "already a rack" in edit_place.rack_problem(t, site, "r1")
    assert "1 to 60 U" in edit_place.rack_problem(t, site, "R9", 61)
    assert "choose a site" in edit_place.rack_problem(t, "nowhere", "R9")
    r = edit_place.rename(t, rack, "SAN 1")
    assert t[rack].name == "SAN 1"
    r.undo(t)
    assert t[rack].name == "R1"
    edit_place.place(t, "sw1", rack, 5)
    d = edit_place.delete_place(t, site)
    assert not t.of_kind("rack") and placement.position(t, "sw1") is None and t["sw1"]["u"] == 0
    d.undo(t)
    assert placement.position(t, "sw1").u == 5 and t[frame]["frame_of"] == "p690"


def test_the_assistant_racks_the_benchmark_like_table_2(benchmark_design):
    t = benchmark_design
    assert placement.unplaced(t) == []
    codes = [placement.location_code(t, d.id) for d in t.of_kind("drawer")]
    assert codes == ["U1.9", "U1.5", "U1.1", "U1.13", "U2.1", "U2.5", "U2.9"]  # P690 Table 2
    frames = placement.frames_of(t, "p690")
    assert [f["frame"] for f in frames] == [1, 2]
    assert placement.position(t, "p690").u == 18
    # switches beside the frames; each FAStT600 Turbo straight under its EXP700
    first19 = [r for r in t.of_kind("rack") if not r["frame_of"]][0]
    switches = sorted(placement.position(t, s.id).u for s in t.of_kind("switch"))
    assert switches == list(range(36, 43))  # the top of the first 19-inch rack, beside the frames
    assert all(placement.position(t, s.id).rack == first19.id for s in t.of_kind("switch"))
    for sub in t.of_kind("subsystem"):
        s, e = placement.position(t, sub.id), placement.position(t, f"{sub.id}.e1")
        assert e.rack == s.rack and e.u == s.top + 1
    for rack in t.of_kind("rack"):
        units = placement.rack_contents(t, rack.id)
        for (a, pa), (b, pb) in zip(units, units[1:]):
            assert pa.top < pb.u, (a.id, b.id)
        assert all(p.top <= rack["height_u"] for _, p in units)
    assert all(placement.cable_length_m(t, c.id) for c in t.of_kind("cable"))


def test_the_assistant_is_one_undo_step_and_knows_when_it_is_done(parts):
    t = _small(parts)
    with pytest.raises(ModelError):
        edit_place.add_frame(t, "nowhere", "p690")
    a = rack_everything(t)
    assert placement.unplaced(t) == [] and len(t.of_kind("site")) == 1
    with pytest.raises(NothingToDo):
        rack_everything(t)
    a.undo(t)
    assert not t.of_kind("rack") and len(placement.unplaced(t)) == 5


def test_old_documents_without_placement_open_unchanged(one_drawer):
    doc = topology_to_dict(one_drawer)
    for key in ("sites", "racks"):
        del doc[key]
    for coll in ("servers", "drawers", "switches", "subsystems", "enclosures"):
        for entry in doc[coll]:
            for key in ("rack", "u", "face"):
                entry.pop(key)
    t = topology_from_dict(doc)
    assert not t.of_kind("rack") and placement.position(t, "sw1") is None
    assert placement.location_code(t, t.of_kind("drawer")[0].id) == "U1.9"


def test_a_damaged_position_is_reported_not_crashed(one_drawer):
    t = one_drawer
    set_raw(t, "sw1", "rack", "no-such-rack")
    assert placement.position(t, "sw1") is None
    assert placement.cable_length_m(t, t.of_kind("cable")[0].id) is None


def _rule_findings(t: Topology, rule_id: str):
    from planner.rules import check

    return check(t, rules=[rule_id])


def test_unplaced_units_are_reported_only_once_the_design_has_a_rack(parts, one_drawer):
    t = _small(parts)
    assert _rule_findings(t, "UNIT_UNPLACED") == []  # no rack: placement is not part of this design yet
    assert _rule_findings(one_drawer, "UNIT_UNPLACED") == []  # everything racked
    edit_place.unplace(one_drawer, "sw1")
    [f] = _rule_findings(one_drawer, "UNIT_UNPLACED")
    assert f.components == ("sw1",) and f.severity == "warning"
    assert f.message.startswith("1 unit has no rack position: sw1") and "Rack everything" in f.fix


def test_a_damaged_file_with_overlapping_units_is_an_error(one_drawer):
    t = one_drawer
    assert _rule_findings(t, "RACK_OVERLAP") == []
    sub = placement.position(t, "fastt1")
    set_raw(t, "fastt2", "rack", sub.rack)
    set_raw(t, "fastt2", "u", sub.u + 1)
    found = _rule_findings(t, "RACK_OVERLAP")
    assert {f.components for f in found} >= {("fastt2",)}
    assert all(f.severity == "error" for f in found)
    assert any("overlaps fastt1" in f.message for f in found)
    set_raw(t, "fastt2", "u", 41)
    found = {f.components: f.message for f in _rule_findings(t, "RACK_OVERLAP")}
    assert "would reach U43" in found[("fastt2",)]
    assert "overlaps fastt2" in found[("sw1",)]  # the switch at the top of the rack, U42


def test_two_servers_of_one_name_get_frames_of_their_own(parts):
    t = Topology("two")
    edit.add_server(t, parts["7040-681"], "p690")
    edit.add_server(t, parts["7040-681"], "p690")
    rack_everything(t)
    names = sorted(r.name for r in t.of_kind("rack"))
    assert names == ["p690 frame 1", "p690-2 frame 1"]
    assert [placement.position(t, s.id).rack for s in t.of_kind("server")] == [
        placement.frames_of(t, s.id)[0].id for s in t.of_kind("server")
    ]
    assert edit_place.free_name(t, t.of_kind("site")[0].id, "p690 frame 1") == "p690 frame 1 (2)"


def test_a_damaged_part_row_is_skipped_not_a_traceback(parts):
    t = _small(parts)
    site, frame, rack = _site_and_racks(t)
    rows = [{"u": "x", "height": 8}, "junk", {"u": 35, "height": 8, "what": "power"}]
    t.parts["7040-681"] = {**t.parts["7040-681"], "frame_reserved": rows}  # a copy: the fixture stays whole
    assert placement.reserved_units(t, frame) == [(35, 8, "power")]
    assert placement.reserved_units(t, rack) == []


def test_a_racks_contents_come_from_the_reference_index_as_from_a_pass_over_every_unit(parts):
    """rack_contents reads the units naming the rack (the reference index): the same units, in
    the same order, as a pass over every unit finds, for every rack, after units are moved,
    unplaced and deleted and a rack deleted."""
    from planner.examples import build_site

    site = build_site(parts, 2)

    def same() -> None:
        placed = 0
        for rack in site.of_kind("rack"):
            every = [
                (c, placement.position(site, c.id))
                for k in placement.placeable_kinds()
                for c in site.of_kind(k)
                if c["rack"] == rack.id and placement.position(site, c.id) is not None
            ]
            assert placement.rack_contents(site, rack.id) == sorted(every, key=lambda cp: (cp[1].u, cp[0].id))
            placed += len(every)
        assert placed > 0

    same()
    switch, subsystem, server = site.of_kind("switch")[0], site.of_kind("subsystem")[0], site.of_kind("server")[1]
    free = next(
        (r.id, u)
        for r in site.of_kind("rack")
        if r.id != switch["rack"]
        for u in range(1, r["height_u"])
        if placement.placement_problem(site, switch.id, r.id, u, "front") is None
    )
    edit_place.move(site, switch.id, *free)
    edit_place.unplace(site, subsystem.id)
    edit.delete(site, [server.id])
    same()
    edit_place.delete_place(site, next(r.id for r in site.of_kind("rack") if not r["frame_of"]))
    same()
