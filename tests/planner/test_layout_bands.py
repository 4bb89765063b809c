"""A site's bands (planner.layout_bands): each server with its switches and subsystems one row
of the diagram, kept in place when a server goes."""

from __future__ import annotations

import pytest

from planner import edit
from planner.examples import build_site
from planner.layout import layout
from planner.layout_bands import band_columns, site_bands


@pytest.fixture(scope="module")
def _site3(parts):
    return build_site(parts, 3)


@pytest.fixture
def site3(_site3):
    return _site3.clone()


def _copy(cid: str) -> str:
    return cid.split(".", 1)[0]  # build_site's prefix: "s1", "s2", ...


def _rects(d, key=_copy) -> dict[str, tuple[float, float, float, float]]:
    """Each band's (by ``key`` of a box id) top-level boxes' extent: (x0, y0, x1, y1)."""
    out: dict[str, tuple[float, float, float, float]] = {}
    for b in d.boxes.values():
        if b.container is None:
            k = key(b.id)
            x0, y0, x1, y1 = out.get(k, (b.x, b.y, b.x + b.w, b.y + b.h))
            out[k] = (min(x0, b.x), min(y0, b.y), max(x1, b.x + b.w), max(y1, b.y + b.h))
    return out


def _apart(r, q) -> bool:
    return r[2] < q[0] or q[2] < r[0] or r[3] < q[1] or q[3] < r[1]


@pytest.mark.parametrize("expanded", [False, True])
def test_each_server_of_a_site_is_one_band_with_its_switches_and_subsystems(site3, expanded):
    d = layout(site3, set() if expanded else None, editor=True)
    rects = _rects(d)
    assert list(rects) == ["s1", "s2", "s3"] and band_columns(3) == 2
    s1, s2, s3 = rects["s1"], rects["s2"], rects["s3"]
    assert _apart(s1, s2) and _apart(s1, s3) and _apart(s2, s3)
    # in two columns, filled top to bottom: s1 over s2, s3 right of them at the top
    assert s1[0] == s2[0] and s1[3] < s2[1] and s3[0] > max(s1[2], s2[2]) and s3[1] == s1[1]
    for k in ("s1", "s2", "s3"):  # each band's columns start level with its top
        tops = {
            kind: min(b.y for b in d.boxes.values() if b.kind == kind and _copy(b.id) == k)
            for kind in ("server", "switch", "subsystem")
        }
        assert set(tops.values()) == {rects[k][1]}, tops
    # every link joins two boxes of one band: no cable crosses the site
    assert all(_copy(link.a) == _copy(link.b) for link in d.links)
    # the build sheet (its pages cut the diagram across) keeps them one under the other
    rects = _rects(layout(site3, set() if expanded else None))
    assert rects["s1"][0] == rects["s2"][0] == rects["s3"][0]
    assert rects["s1"][3] < rects["s2"][1] and rects["s2"][3] < rects["s3"][1]


def test_a_site_stands_in_columns_by_its_count_of_bands():
    assert [band_columns(n) for n in (1, 2, 3, 4, 8, 16, 32)] == [1, 1, 2, 2, 3, 4, 5]


def test_a_one_server_design_has_no_bands_until_a_part_stands_apart(benchmark_design, parts):
    t = benchmark_design
    assert site_bands(t) is None
    before = layout(t)
    fabric = t.ids_of_kind("fabric")[0]
    edit.add_switch(t, parts["2109-F32"], fabric, "loose")  # cabled to nothing yet
    bands = site_bands(t)
    assert bands is not None and bands["loose"] == 1 and set(bands.values()) == {0, 1}
    after = layout(t)
    loose = next(b for b in after.boxes.values() if b.kind == "switch" and b.label.startswith("loose"))
    assert loose.y > max(b.y + b.h for b in before.boxes.values())  # below the server's band
    for cid, b in before.boxes.items():  # the server's band as it was
        assert (after.boxes[cid].x, after.boxes[cid].y) == (b.x, b.y), cid


@pytest.mark.parametrize("expanded", [False, True])
def test_a_server_deleted_leaves_its_band_and_moves_nothing_else(site3, expanded):
    collapsed = set() if expanded else None
    before = layout(site3, collapsed, editor=True)
    server = site3.ids_of_kind("server")[1]
    edit.delete(site3, [server])
    after = layout(site3, collapsed, editor=True)
    assert server not in after.boxes
    kept = after.boxes.keys() & before.boxes.keys()
    assert len(kept) == len(after.boxes)
    moved = [c for c in kept if (before.boxes[c].x, before.boxes[c].y) != (after.boxes[c].x, after.boxes[c].y)]
    assert moved == []  # its switches and subsystems where they stood, the next copy too
    bands = site_bands(site3)
    s2 = {bands[c] for c in bands if _copy(c) == "s2"}
    assert len(s2) == 1 and bands["s1.p690"] < s2.pop() < bands["s3.p690"]


def test_parts_without_a_server_next_to_each_other_are_one_band(site3):
    t = site3
    switches = {c for c in t.ids_of_kind("switch") if _copy(c) == "s2"}
    cut = [c.id for c in t.of_kind("cable") if {_switch_of(t, c["a"]), _switch_of(t, c["b"])} & switches]
    edit.delete(t, cut)  # the s2 switches cabled to nothing: each one a part of its own
    bands = site_bands(t)
    # the s2 server keeps its subsystems (its partition's disks are on their drives); they
    # were made after sw1 and around the other switches (sw2 after fastt8, ...): sw1 comes
    # before the server's band, the others after it, one band together
    assert {bands[c] for c in t.ids_of_kind("subsystem") if _copy(c) == "s2"} == {bands["s2.p690"]}
    rest = {bands[c] for c in switches if c != "s2.sw1"}
    assert len(rest) == 1 and len(switches) == 7
    assert bands["s1.p690"] < bands["s2.sw1"] < bands["s2.p690"] < rest.pop() < bands["s3.p690"]
    d = layout(t, editor=True)  # and the canvas shows it so: five bands apart, in two columns of three
    rects = _rects(d, lambda cid: _band_of(t, bands, cid))
    assert sorted(rects) == [0, 1, 2, 3, 4] and band_columns(5) == 2
    assert all(_apart(rects[i], rects[j]) for i in range(5) for j in range(i + 1, 5))
    assert rects[0][3] < rects[1][1] and rects[1][3] < rects[2][1] and rects[3][3] < rects[4][1]
    assert rects[3][0] > rects[0][2] and rects[3][1] == rects[0][1]


def _band_of(t, bands: dict[str, int], cid: str) -> int:
    """The band of the server, switch or subsystem ``cid`` is in."""
    c = t.get(cid)
    while c is not None and c.id not in bands:
        c = t.get(c.parent)
    return bands[c.id] if c is not None else -1


def _switch_of(t, port: str | None) -> str | None:
    sw = t.ancestor(port, "switch") if port else None
    return sw.id if sw is not None else None
