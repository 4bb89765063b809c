"""The one description per kind, the one label, the one set of bands, the shared *_problem checks."""

import pytest

from planner import bands, edit, fixtures, naming, schema
from planner.model import KINDS, ModelError


def test_every_kind_is_described_once_with_a_collection_and_parents():
    assert KINDS is schema.KINDS
    collections = [s.collection for s in KINDS.values()]
    assert len(set(collections)) == len(collections)
    for kind, spec in KINDS.items():
        assert spec.kind == kind and spec.name and spec.plural
        assert schema.kind_of_collection(spec.collection) == kind
        for parent in spec.parents:
            assert parent is None or parent in KINDS, (kind, parent)
        for attr in spec.attrs.values():
            for ref in attr.ref:
                assert ref in KINDS, (kind, ref)
        if spec.context:
            assert all(a in KINDS for a in spec.context[1])


def test_orders_and_sets_derived_from_the_table():
    assert schema.hop_kinds()[0] == "server" and schema.hop_kinds()[-1] == "array"
    assert schema.chart_kinds()[0] == "hba"
    assert set(schema.chart_kinds()) <= set(schema.hop_kinds())
    assert schema.diagram_columns()[0] == "server" and schema.diagram_columns()[-1] == "volume_group"
    assert set(schema.PORT_KINDS) == {"hba_port", "switch_port", "host_port"}
    assert "switch_port" in schema.structural_kinds() and "hba" not in schema.structural_kinds()
    for kind in schema.part_kinds():
        assert KINDS[kind].part_kind
    assert schema.count_label(1, "hba") == "1 HBA"
    assert schema.count_label(2, "switch") == "2 switches"
    assert schema.attr_label("segment_kb") == "Segment size (KB)"
    assert schema.attr_label("no_such_thing") == "No such thing"
    with pytest.raises(ModelError, match="unknown component kind"):
        schema.spec("toaster")


@pytest.mark.parametrize(
    "name, problem",
    [
        ("drawer 1", None),
        ("Ünïcödé ok", None),
        ("a\nb", "control characters"),
        ("a\x1b]0;x\x07", "control characters"),
        ("a\rb", "control characters"),
        ("a\x00", "control characters"),
        ("evil\u202etxt.exe", "U\\+202E"),
        ("x" * 65, "at most 64"),
        (42, "must be text"),
    ],
)
def test_name_problem(name, problem):
    got = schema.name_problem(name)
    if problem is None:
        assert got is None
    else:
        assert got is not None and __import__("re").search(problem, got), got


def test_names_are_checked_by_the_model_and_the_editor(one_drawer):
    with pytest.raises(ModelError, match="control characters"):
        edit.set_attr(one_drawer, "d1", "name", "bad\x1bname")
    assert one_drawer["d1"].name != "bad\x1bname"


def test_label_adds_the_context_and_follows_a_rename(one_drawer):
    t = one_drawer
    slot = t.of_kind("slot")[0]
    drawer = t.ancestor(slot.id, "drawer")
    assert naming.label(t, slot) == f"{slot.name} of {drawer.name}"
    assert naming.label(t, slot.id) == naming.label(t, slot)
    edit.set_attr(t, drawer.id, "name", "Rack B drawer")
    assert naming.label(t, slot).endswith(" of Rack B drawer")
    assert naming.label(t, "nope") == "nope" and naming.label(t, None) == ""
    port = t.of_kind("switch_port")[0]
    sw = t.ancestor(port.id, "switch")
    assert port.name == "port 0"  # the stored name does not embed the switch's name...
    assert naming.label(t, port) == naming.qualified_name(t, port) == f"{sw.name} port 0"  # ...the shown one does
    edit.set_attr(t, sw.id, "name", "core-A")
    assert naming.label(t, port) == "core-A port 0"
    host = t.of_kind("host_port")[0]
    assert naming.label(t, host) == f"{t.ancestor(host.id, 'subsystem').name} {host.name}"
    old_style = fixtures.set_raw(t, port.id, "name", "core-A port 0")  # a file from before: not doubled
    assert old_style == "port 0" and naming.label(t, port) == "core-A port 0"


def test_label_list():
    from planner.model import Topology

    t = Topology()
    assert naming.label_list(t, []) == "none"
    assert naming.label_list(t, ["a", "b"]) == "a and b"
    assert naming.label_list(t, list("abcdef"), limit=2) == "a, b and 4 more"


@pytest.mark.parametrize(
    "util, band",
    [(None, None), (0.0, "ok"), (0.699, "ok"), (0.70, "busy"), (0.949, "busy"), (0.95, "over"), (2.0, "over")],
)
def test_bands(util, band):
    assert bands.band(util) == band
    assert bands.colour(util) == bands.STRONG[band]
    assert bands.colour(util, pale=True) == bands.PALE[band]


def test_percent_html():
    assert "no capacity" in bands.percent_html(None)
    assert bands.STRONG["over"] in bands.percent_html(0.99) and "99 %" in bands.percent_html(0.99)


def test_cable_problem_is_the_one_decision(one_drawer):
    t = one_drawer
    keep = t.of_kind("cable")[0]
    for cab in t.of_kind("cable")[1:]:
        fixtures.remove_raw(t, cab.id)
    free_sw = [p.id for p in t.of_kind("switch_port") if t.cable_at(p.id) is None]
    taken_hba = keep["a"] if t[keep["a"]].kind == "hba_port" else keep["b"]
    host = [p.id for p in t.of_kind("host_port")]
    assert (
        edit.cable_problem(t, free_sw[0], free_sw[1]) == "both ends are on the same switch; an ISL joins two switches"
    )
    assert "taken" in edit.cable_problem(t, taken_hba, free_sw[0])
    assert "through a switch port" in edit.cable_problem(t, host[0], host[1])
    assert "two different ports" in edit.cable_problem(t, free_sw[0], free_sw[0])
    assert "a cable ends at" in edit.cable_problem(t, "d1", free_sw[0])
    assert "no component" in edit.cable_problem(t, "ghost", free_sw[0])
    free_host = next(h for h in host if t.cable_at(h) is None)
    assert edit.cable_problem(t, free_sw[0], free_host) is None
    with pytest.raises(ModelError, match="same switch"):
        edit.add_cable(t, free_sw[0], free_sw[1])


def test_fixtures_build_damaged_states_through_the_model(one_drawer):
    t = one_drawer
    events = []
    t.subscribe(events.append)
    lpar = t.of_kind("lpar")[0].id
    hba = t.of_kind("hba_port")[0].id
    fixtures.set_raw(t, hba, "wwpn", "not-a-wwpn")
    assert t[hba]["wwpn"] == "not-a-wwpn"
    hd = fixtures.add_raw(t, "hdisk", "hd-x", lpar, "hdisk99", logical_drive="gone")
    assert hd["max_transfer_kb"] == 256 and t.referrers("gone") == [(hd, "logical_drive")]
    assert t.referrer_ids("gone") == {"hd-x"}
    fixtures.remove_raw(t, "hd-x")
    assert "hd-x" not in t and t.referrers("gone") == [] and t.referrer_ids("gone") == set()
    assert [e.type for e in events] == ["changed", "added", "removed"]
    with pytest.raises(ModelError):
        fixtures.set_raw(t, "ghost", "name", "x")
