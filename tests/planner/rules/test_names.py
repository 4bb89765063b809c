"""NAME_DUPLICATE, and labels that tell apart the servers of a site (planner.naming)."""

from __future__ import annotations

from rules_helpers import of, run

from planner import edit
from planner.examples import build_site
from planner.exports.netbox_inventory import inventory
from planner.naming import label
from planner.rules import check


def test_two_switches_of_one_name_are_one_warning_naming_both(one, parts):
    edit.add_switch(one, parts["2109-F32"], "fab.FAB_D1", "SW1", domain_id=2)
    sw = one.of_kind("switch")
    assert len(sw) == 2
    found = of(run(one, "NAME_DUPLICATE"), "NAME_DUPLICATE")
    assert len(found) == 1 and set(found[0].components) == {c.id for c in sw}  # 'SW1' = 'sw1', as NetBox compares
    assert found[0].severity == "warning" and "2 switches are named" in found[0].message
    edit.set_attr(one, sw[1].id, "name", "sw2")
    assert not of(run(one, "NAME_DUPLICATE"), "NAME_DUPLICATE")


def test_drawers_of_one_name_clash_inside_a_server_not_across_servers(parts):
    site = build_site(parts, 2)
    assert not of(check(site), "NAME_DUPLICATE")  # 'Drawer 1' in each server is fine
    edit.set_attr(site, "s1.d2", "name", "drawer 1")
    found = of(run(site, "NAME_DUPLICATE"), "NAME_DUPLICATE")
    assert len(found) == 1 and set(found[0].components) == {"s1.d1", "s1.d2"}
    assert "in s1_p690" in found[0].message
    edit.set_attr(site, "s2.sw1", "name", "s1_sw1")  # a second top-level clash: its own finding
    assert len(of(run(site, "NAME_DUPLICATE"), "NAME_DUPLICATE")) == 2


def test_labels_name_the_server_only_when_the_design_has_several(parts, one):
    site = build_site(parts, 2)
    a, b = label(site, "s1.d1"), label(site, "s2.d1")
    assert a != b and a.endswith("of s1_p690") and b.endswith("of s2_p690")
    port = site.of_kind("hba_port")[0]
    assert label(site, port).startswith("fcs0 port 0 in Slot 1 of Drawer 1") and label(site, port).endswith("s1_p690")
    assert label(site, "s2.p690.lpar1") == "lpar1 of s2_p690"
    assert label(site, "s2.sw1.p27") == "s2_sw1 port 27"  # its switch already names it: nothing added
    assert label(one, "d1") == "Drawer 1" and label(one, "p690.lpar1") == "lpar1"
    edit.delete(site, ["s2.p690"])
    assert site.count_of("server") == 1 and label(site, "s1.d1") == "Drawer 1"


def test_a_generated_site_names_each_device_once_so_netbox_takes_it(parts):
    site = build_site(parts, 2)
    names = [d.name.casefold() for d in inventory(site).devices]  # raises ExportError on a clash
    assert len(names) == len(set(names)) and "s2_sw1" in names


def test_the_build_sheet_heads_each_drawer_with_its_server_in_a_site(parts):
    from planner.exports.buildsheet import diagram, sections_hardware
    from planner.exports.buildsheet.sheet import Sheet

    site = build_site(parts, 2)
    edit.delete(site, [d.id for d in site.of_kind("drawer") if d.id not in ("s1.d1", "s2.d1")])
    sheet = Sheet(site, "planning", "", "", "a4")
    titles = [v.title for v in diagram.views(sheet)[1:]]
    assert [t.split(" (")[0] for t in titles] == ["Drawer 1 of s1_p690", "Drawer 1 of s2_p690"]
    headings = [
        x.title for f in sections_hardware.slots(sheet) for x in getattr(f, "_content", ()) if hasattr(x, "title")
    ]
    assert [h.split(" (")[0] for h in headings] == ["Drawer 1 of s1_p690", "Drawer 1 of s2_p690"]


def test_the_editor_never_makes_a_duplicate_name_itself(parts):
    from planner.naming import free_name

    site = build_site(parts, 1)
    edit.set_attr(site, "s1.sw2", "name", "sw8")  # the name the next switch would get
    edit.set_attr(site, "s1.p690", "name", "P690")
    edit.place_part(site, parts["2109-F32"])
    edit.place_part(site, parts["7040-681"])  # a second server...
    edit.place_part(site, parts["7040-681"])  # ... and a third, whose 'server3' is free
    edit.duplicate(site, ["s1.fastt1"])
    assert not of(check(site), "NAME_DUPLICATE")
    assert {c.name for c in site.of_kind("switch")} >= {"sw8", "sw9"}
    assert (
        free_name(site, "server", "p690") == "p691" and free_name(site, "drawer", "Drawer 1", "s1.p690") == "Drawer 8"
    )
    assert free_name(site, "rack", "s1_R1", "s1.site-1") == "s1_R10" and free_name(site, "fabric", "new") == "new"


def test_canvas_volume_groups_name_their_lpar_when_there_are_several(parts, one):
    from planner.layout import default_collapsed, layout

    def vg_titles(topo):
        d = layout(topo, default_collapsed(topo))
        return [b.label.split(":")[0] for b in d.boxes.values() if b.kind == "volume_group" and b.container is None]

    assert vg_titles(build_site(parts, 2)) == ["datavg on lpar1 of s1_p690", "datavg on lpar1 of s2_p690"]
    assert vg_titles(one) == ["datavg"]  # one LPAR: its name alone, as before


def test_mentions_agrees_with_the_word_pattern():
    """naming._mentions finds a name as a whole word as the regular expression it replaced does
    (names with punctuation at their ends, accents, underscores, repeats, the empty name)."""
    import re

    from hypothesis import given, settings
    from hypothesis import strategies as st

    from planner.naming import _mentions

    alphabet = st.sampled_from(list("ab_1 .-é✓()"))

    @settings(max_examples=3000, deadline=None)
    @given(st.text(alphabet, max_size=10), st.text(alphabet, max_size=4))
    def agree(text, name):
        assert _mentions(text, name) == (re.search(rf"(^|[^\w]){re.escape(name)}($|[^\w])", text) is not None)

    agree()


def test_the_fix_names_each_duplicate_apart_with_a_bracketed_number(parts):
    """The second and third of three cables labelled alike become 'LBL (2)' and 'LBL (3)' (a
    cable label's own numbers name its ports: they are not counted on); the first keeps it."""
    from planner.assist.fixes import fix_for
    from planner.examples import build_example

    t = build_example("p690-benchmark", parts)
    edit.set_attr(t, "cab2", "name", "D1-S1-SW1P00")
    edit.set_attr(t, "cab3", "name", "d1-s1-sw1p00")
    finding = of(check(t), "NAME_DUPLICATE")[0]
    fix = fix_for(t, finding)
    assert fix is not None and "D1-S1-SW1P00 (2)" in fix.preview
    fix.apply(t)
    assert [t[c].name for c in ("cab1", "cab2", "cab3")] == ["D1-S1-SW1P00", "D1-S1-SW1P00 (2)", "d1-s1-sw1p00 (3)"]
    assert not of(check(t), "NAME_DUPLICATE")
