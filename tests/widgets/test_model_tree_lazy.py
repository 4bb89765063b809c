"""The model tree builds its rows when a branch is opened: opened, it shows exactly the design;
search and selection reach components inside branches never opened; edits inside closed
branches build nothing and show once the branch opens."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from planner import edit
from planner.naming import short_label
from widgets.model_tree import ID_ROLE, KIND_ROLE, ModelTreePanel, details


@pytest.fixture
def tree(qtbot, doc):
    panel = ModelTreePanel(doc)
    qtbot.addWidget(panel)
    panel.resize(500, 700)
    panel.show()
    qtbot.waitExposed(panel)
    return panel


def _outline(tree) -> dict[object, list[str]]:
    """Every row of the model: (group kind) or component id -> the ids of the rows inside it."""
    out: dict[object, list[str]] = {}
    stack = [tree.model.item(r) for r in range(tree.model.rowCount())]
    while stack:
        item = stack.pop()
        key = item.data(ID_ROLE) or ("group", item.data(KIND_ROLE))
        kids = [item.child(r) for r in range(item.rowCount())]
        out[key] = [k.data(ID_ROLE) for k in kids]
        stack.extend(kids)
    return out


def _deep(topo, kind: str) -> str:
    return topo.of_kind(kind)[0].id


def test_a_new_tree_builds_only_the_open_rows(tree, doc):
    topo = doc.topology
    top = {c.id for c in topo.children(None)}
    assert top <= set(tree.rows)  # the groups are open: their rows are built
    assert len(tree.rows) < len(list(topo.components())) / 2
    assert _deep(topo, "hdisk") not in tree.rows
    hba = tree.rows["p690"]
    assert tree.proxy.hasChildren(tree.proxy.mapFromSource(hba.index()))  # shows it can open
    cable = tree.rows[topo.of_kind("cable")[0].id]
    assert not tree.proxy.hasChildren(tree.proxy.mapFromSource(cable.index()))  # nothing inside


def test_opened_the_tree_shows_every_component_under_its_parent(tree, doc):
    next(a for a in tree.context_menu([]).actions() if a.text() == "E&xpand all").trigger()
    _assert_shows_the_design(tree, doc.topology)


def test_a_deletion_undone_puts_every_row_back_in_its_place(qtbot, make_doc):
    """Undoing a deletion adds back top-level cables between others; each row goes
    after the nearest sibling before it that has one (finding the place by counting the rows of
    every top-level sibling took 0.45 s for a server of the 16x site)."""
    doc = make_doc("p690-benchmark")
    tree = ModelTreePanel(doc)
    qtbot.addWidget(tree)
    next(a for a in tree.context_menu([]).actions() if a.text() == "E&xpand all").trigger()
    topo = doc.topology
    gone = [topo.of_kind("subsystem")[0].id, topo.of_kind("switch")[0].id]
    cables = topo.count_of("cable")
    assert doc.run(edit.delete, gone) is not None
    assert 0 < topo.count_of("cable") < cables
    _assert_shows_the_design(tree, topo)  # (a row naming a component deleted says so)
    doc.undo_stack.undo()
    next(
        a for a in tree.context_menu([]).actions() if a.text() == "E&xpand all"
    ).trigger()  # (what came back is closed)
    _assert_shows_the_design(tree, topo)


def _assert_shows_the_design(tree, topo) -> None:
    rows = _outline(tree)
    groups = {k[1] for k in rows if isinstance(k, tuple)}
    assert groups == {c.kind for c in topo.children(None)}
    for kind in groups:
        assert rows[("group", kind)] == [c.id for c in topo.children(None) if c.kind == kind]
    for comp in topo.components():
        assert rows[comp.id] == [c.id for c in topo.children(comp.id)], comp.id
        item = tree.rows[comp.id]
        holder = item.parent()
        assert item.text() == short_label(comp)
        assert holder.child(item.row(), 1).text() == details(topo, comp)
    assert set(tree.rows) == {c.id for c in topo.components()}


def test_selection_opens_the_branches_down_to_the_row(tree, doc):
    hdisk = _deep(doc.topology, "hdisk")
    assert hdisk not in tree.rows
    doc.select([hdisk])
    assert tree.selected_ids() == [hdisk]
    index = tree.proxy.mapFromSource(tree.rows[hdisk].index()).parent()
    while index.isValid():
        assert tree.view.isExpanded(index)
        index = index.parent()


def test_search_finds_a_component_in_a_closed_branch(tree, doc):
    lv = "p690.lpar1.datavg.stripelv01"
    assert lv not in tree.rows
    tree.search.setText("stripelv01 workload")
    assert lv + ".wl" in tree.rows
    index = tree.proxy.mapFromSource(tree.rows[lv + ".wl"].index())
    assert index.isValid() and tree.view.isExpanded(index.parent())
    assert tree.visible_ids() == ["p690", "p690.lpar1", "p690.lpar1.datavg", lv, lv + ".wl"]


def test_search_shows_a_match_added_inside_a_closed_branch(tree, doc):
    tree.search.setText("z_brand_new")
    assert tree.visible_ids() == []
    doc.run(edit.add_zone, "fab.FAB_D1", "Z_BRAND_NEW", ["hba.d1s1.0", "fastt2.A1"])
    assert tree.visible_ids() == ["fab.FAB_D1", "z.Z_BRAND_NEW"]
    tree.search.setText("lparx")
    assert tree.visible_ids() == [] and "p690.lpar1" not in tree.rows
    doc.run(edit.set_attr, "p690.lpar1", "name", "lparx")  # a rename inside a closed branch
    shown = tree.visible_ids()  # the LPAR, and the HBAs whose details name it
    assert shown[:2] == ["p690", "p690.lpar1"] and "hba.d1s1" in shown and "fastt1" not in shown


def test_edits_inside_a_closed_branch_show_when_it_opens(tree, doc):
    topo = doc.topology
    assert "p690.lpar1" not in tree.rows and "fab.FAB_D1" in tree.rows
    zones_before = len([z for z in topo.children("fab.FAB_D1")])
    doc.run(edit.add_zone, "fab.FAB_D1", "Z_NEW", ["hba.d1s1.0", "fastt2.A1"])
    assert "z.Z_NEW" not in tree.rows  # the fabric's branch is closed: nothing built
    doc.run(edit.set_attr, "fastt1", "name", "fastt-one")
    zone = tree.items["z.Z_D1_FCS0_FASTT1_A"]
    assert zone.parent().child(zone.row(), 1).text() == "Members: fcs0 port 0 and fastt-one A1"
    assert zone.parent().rowCount() == zones_before + 1
    doc.run(edit.delete, ["fastt8"])
    assert tree.groups["subsystem"].text() == "Subsystems (7)"
    doc.undo_stack.undo()
    doc.undo_stack.undo()
    tree.expand_all()
    assert set(tree.rows) == {c.id for c in topo.components()}
    assert tree.items["fastt1"].text() == "fastt1"


def test_deleting_every_cable_drops_its_closed_group(tree, doc):
    tree.view.collapseAll()
    cables = [c.id for c in doc.topology.of_kind("cable")]
    doc.run(edit.delete, cables)
    assert "cable" not in tree.groups
    doc.undo_stack.undo()
    assert tree.groups["cable"].text() == f"Cables ({len(cables)})"


def test_a_slot_row_drags_while_it_holds_an_hba(tree, doc):
    drag = tree.proxy.flags(tree.proxy.mapFromSource(tree.items["d1.s1"].index()))
    assert drag & Qt.ItemFlag.ItemIsDragEnabled
    free = next(s for s in doc.topology.of_kind("slot") if not doc.topology.children(s.id)).id
    assert not tree.model.flags(tree.items[free].index()) & Qt.ItemFlag.ItemIsDragEnabled
    doc.run(edit.move_hba, "hba.d1s1", free)
    for slot, drags in (("d1.s1", False), (free, True)):
        for column in (0, 1):
            index = tree.items[slot].index().siblingAtColumn(column)
            assert bool(tree.model.flags(index) & Qt.ItemFlag.ItemIsDragEnabled) is drags, (slot, column)
    lpar = tree.model.flags(tree.items["p690.lpar1"].index())
    assert lpar & Qt.ItemFlag.ItemIsDropEnabled and not lpar & Qt.ItemFlag.ItemIsDragEnabled
    group = tree.model.flags(tree.groups["server"].index())
    assert not group & (Qt.ItemFlag.ItemIsDropEnabled | Qt.ItemFlag.ItemIsDragEnabled)
    doc.run(edit.delete, ["hba.d1s1"])
    assert not tree.model.flags(tree.items[free].index()) & Qt.ItemFlag.ItemIsDragEnabled
    doc.undo_stack.undo()
    assert tree.model.flags(tree.items[free].index()) & Qt.ItemFlag.ItemIsDragEnabled


def test_a_closed_branch_shows_it_can_open_while_something_is_inside(tree, doc, qtbot):
    """A row not opened yet holds one placeholder row while its component holds anything (the
    view asks no question of Python to draw its arrow); it goes with the last part inside and
    comes back with a new one, and opening the branch turns it into the first real row."""
    topo = doc.topology
    hba = topo.of_kind("hba")[0]
    slot = tree.items[hba.parent]  # built, not opened
    index = lambda: tree.proxy.mapFromSource(slot.index())  # noqa: E731
    assert hba.parent not in tree._fetched and tree.proxy.hasChildren(index())
    assert doc.run(edit.delete, [hba.id]) is not None
    assert not tree.proxy.hasChildren(index()) and slot.rowCount() == 0
    doc.undo_stack.undo()
    assert tree.proxy.hasChildren(index()) and slot.rowCount() == 1
    chain, up = [], index()
    while up.isValid():  # the branch and the branches above it opened, as a user would
        chain.append(up)
        up = up.parent()
    for step in reversed(chain):
        tree.view.expand(step)  # (the view fetches at its next layout)
    qtbot.waitUntil(lambda: slot.child(0).data(ID_ROLE) is not None)
    assert [slot.child(r).data(ID_ROLE) for r in range(slot.rowCount())] == [hba.id]
    assert slot.child(0).text() == short_label(hba) and slot.child(0).isSelectable()
    assert slot.parent().child(slot.row(), 1).text() == details(topo, topo[hba.parent])
    next(a for a in tree.context_menu([]).actions() if a.text() == "E&xpand all").trigger()
    _assert_shows_the_design(tree, topo)  # no placeholder left anywhere


def test_a_large_selection_opens_no_branch(tree, doc, monkeypatch):
    """A selection of more than SELECTION_OPENS_AT_MOST ids selects the rows built already and
    builds none (Select All of a site); a small one opens the branches down to its rows."""
    from widgets import model_tree

    monkeypatch.setattr(model_tree, "SELECTION_OPENS_AT_MOST", 5)
    topo = doc.topology
    deep = [c.id for c in topo.of_kind("hdisk")][:6]
    top = [c.id for c in topo.children(None)][:2]
    built = set(tree.rows)
    assert not set(deep) & built and set(top) <= built
    doc.select(deep + top)
    assert set(tree.rows) == built and tree.selected_ids() == top
    doc.select(deep[:3])
    assert set(deep[:3]) <= set(tree.rows) and tree.selected_ids() == deep[:3]


def test_a_batch_adding_a_component_back_builds_no_rows_inside_it(qtbot, make_doc):
    """A command adding a component with everything inside it (a subsystem undone) builds its
    row only: the rows inside wait for its branch to open (a server of the 16x site: 714 rows
    looked at one by one). Rows elsewhere that named a part of it while it was missing (a
    zone, a cable: a reference left dangling) show its name again."""
    from planner.fixtures import add_raw, remove_raw

    doc = make_doc("p690-benchmark")
    tree = ModelTreePanel(doc)
    qtbot.addWidget(tree)
    next(a for a in tree.context_menu([]).actions() if a.text() == "E&xpand all").trigger()
    topo = doc.topology
    back = [topo["fastt1"].copy()] + [c.copy() for c in topo.descendants("fastt1")]
    namers = sorted({r.id for c in back for r, _ in topo.referrers(c.id) if r.id not in {b.id for b in back}})
    assert {topo[n].kind for n in namers} >= {"zone", "cable"}
    remove_raw(topo, "fastt1")  # (the references to it left dangling)
    zone = next(n for n in namers if topo[n].kind == "zone")
    stale = tree.items[zone].parent().child(tree.items[zone].row(), 1).text()
    doc.modelEvents.disconnect(tree._held.take)  # the events of one command, sent as one batch
    batch = []
    topo.subscribe(batch.append)
    for c in back:
        add_raw(topo, c.kind, c.id, c.parent, c.name, c.part, **c.attrs)
    topo.unsubscribe(batch.append)
    doc.modelEvents.connect(tree._held.take)
    looked = []
    one = tree._on_event
    tree._on_event = lambda event: (looked.append(event.id), one(event))
    tree._on_events(batch)
    assert looked == ["fastt1"]  # (what is inside it is not looked at one by one)
    assert "fastt1" in tree.rows and not any(c.id in tree.rows for c in back[1:])
    assert tree.proxy.hasChildren(tree.proxy.mapFromSource(tree.rows["fastt1"].index()))  # it can open
    for n in namers:
        item = tree.rows[n]
        assert item.parent().child(item.row(), 1).text() == details(topo, topo[n]), n
    assert tree.items[zone].parent().child(tree.items[zone].row(), 1).text() != stale
    next(a for a in tree.context_menu([]).actions() if a.text() == "E&xpand all").trigger()
    _assert_shows_the_design(tree, topo)


def test_a_group_of_many_components_starts_closed(qtbot, make_doc, monkeypatch):
    """Groups of more than OPEN_GROUP_ROWS top-level components start closed (the 16x site's
    3,584 cables were laid out again by the view after every edit); opened, they show them."""
    import widgets.model_tree as model_tree

    monkeypatch.setattr(model_tree, "OPEN_GROUP_ROWS", 100)
    doc = make_doc("p690-benchmark")  # 224 cables, 56 subsystems
    tree = ModelTreePanel(doc)
    qtbot.addWidget(tree)
    tree.show()
    qtbot.waitExposed(tree)
    group = {k: tree.proxy.mapFromSource(g.index()) for k, g in tree.groups.items()}
    assert tree.view.isExpanded(group["subsystem"]) and not tree.view.isExpanded(group["cable"])
    cables = [c.id for c in doc.topology.of_kind("cable")]
    assert not any(c in tree.rows for c in cables)
    assert tree.groups["cable"].text().startswith("Cables (224)")
    tree.view.expand(group["cable"])
    qtbot.waitUntil(lambda: not tree._filling, timeout=5000)  # (more than FILL_AT_ONCE: in slices)
    assert _outline(tree)[("group", "cable")] == cables


def test_a_small_design_opens_its_groups_at_once(qtbot, make_doc, monkeypatch):
    """Below OPEN_LATER_AT components every small group is open as soon as the outline is built,
    no turn of the event loop between."""
    import widgets.model_tree as model_tree

    monkeypatch.setattr(model_tree, "OPEN_GROUP_ROWS", 100)
    doc = make_doc("p690-benchmark")
    assert len(doc.topology) < model_tree.OPEN_LATER_AT
    tree = ModelTreePanel(doc)
    qtbot.addWidget(tree)
    small = [k for k in tree.groups if tree._top_count[k] <= 100]
    assert len(small) >= 2 and not tree._groups_pending
    assert all(tree.view.isExpanded(tree.proxy.mapFromSource(tree.groups[k].index())) for k in small)


def test_a_large_design_opens_its_groups_one_a_turn(qtbot, make_doc, monkeypatch):
    """A design of OPEN_LATER_AT components or more opens its small groups in the turns after the
    outline is rebuilt, one a turn (the 16x site's four in one turn: 8-14 ms of a scenario's
    showing), the column sized to them once all are open."""
    import widgets.model_tree as model_tree

    monkeypatch.setattr(model_tree, "OPEN_LATER_AT", 10)
    monkeypatch.setattr(model_tree, "OPEN_GROUP_ROWS", 100)
    doc = make_doc("p690-benchmark")
    tree = ModelTreePanel(doc)
    qtbot.addWidget(tree)
    tree.show()
    qtbot.waitExposed(tree)
    opened: list[int] = []
    real = tree._open_groups

    def counted(at_most=None):
        n = sum(tree.view.isExpanded(tree.proxy.mapFromSource(g.index())) for g in tree.groups.values())
        real(at_most)
        opened.append(sum(tree.view.isExpanded(tree.proxy.mapFromSource(g.index())) for g in tree.groups.values()) - n)

    monkeypatch.setattr(tree, "_open_groups", counted)
    tree.rebuild()
    qtbot.waitUntil(lambda: not tree._groups_pending, timeout=5000)
    small = [k for k in tree.groups if tree._top_count[k] <= 100]
    assert len(small) >= 2 and opened and max(opened) == 1 and sum(opened) == len(small)
    assert all(tree.view.isExpanded(tree.proxy.mapFromSource(tree.groups[k].index())) for k in small)
    assert not tree.view.isExpanded(tree.proxy.mapFromSource(tree.groups["cable"].index()))


def test_a_group_of_many_is_filled_in_slices_and_a_selection_inside_waits_for_it(qtbot, make_doc, monkeypatch):
    """A group of more than FILL_AT_ONCE rows, opened by a selection inside it (a cable clicked
    on the canvas), builds its rows a slice at a time between turns of the event loop (the 16x
    site's 3,584 cables at once: 126-153 ms), only REACH_AT_ONCE of them in the selection's turn
    (200 took 5-7 ms of it), and then selects the row; an edit meanwhile builds the rest at once,
    and the outline is then the one built afresh."""
    import widgets.model_tree as model_tree

    monkeypatch.setattr(model_tree, "OPEN_GROUP_ROWS", 100)
    monkeypatch.setattr(model_tree, "FILL_AT_ONCE", 20)
    monkeypatch.setattr(model_tree, "REACH_AT_ONCE", 5)
    monkeypatch.setattr(model_tree, "FILL_SLICE_S", 0.0)  # one row a slice
    doc = make_doc("p690-benchmark")  # 224 cables
    tree = ModelTreePanel(doc)
    qtbot.addWidget(tree)
    tree.show()
    qtbot.waitExposed(tree)
    cables = [c.id for c in doc.topology.of_kind("cable")]
    made: list[int] = []
    real_slice = tree._fill_slice

    def one_slice():
        before = len(tree.rows)
        real_slice()
        made.append(len(tree.rows) - before)

    tree._fill_timer.timeout.disconnect()
    tree._fill_timer.timeout.connect(one_slice)
    doc.select([cables[-10]])
    assert len([c for c in cables if c in tree.rows]) == 5 and tree.selected_ids() == []
    qtbot.waitUntil(lambda: tree.selected_ids() == [cables[-10]], timeout=10000)
    assert max(made) == 1 and len(made) >= 200  # a row a turn
    assert _outline(tree)[("group", "cable")] == cables
    index = tree.proxy.mapFromSource(tree.rows[cables[-10]].index())
    assert tree.view.isExpanded(index.parent())

    doc.select([])
    tree.rebuild()  # closed again; a selection starts the filling
    doc.select([cables[-1]])
    assert tree._filling
    doc.run(edit.delete, [cables[5], cables[-2]])  # the rest built at once, then the rows go
    assert not tree._filling and tree.selected_ids() == [cables[-1]]
    fresh = ModelTreePanel(doc)
    qtbot.addWidget(fresh)
    fresh.expand_all()
    assert (
        _outline(tree)[("group", "cable")]
        == _outline(fresh)[("group", "cable")]
        == cables[:5] + cables[6:-2] + cables[-1:]
    )


def test_a_search_opens_what_it_found_a_few_branches_a_step_and_survives_an_edit_between(tree, doc, monkeypatch):
    """The branches a search found are opened a few a step (``OutlineSearch._expanding``), held
    as persistent indexes: a server deleted between two steps (its rows gone) leaves the rest
    opened, and every row the filter shows is reachable, its parents open."""
    import widgets.model_tree_search as search

    monkeypatch.setattr(search, "_EXPAND_EVERY", 1)
    tree.search.setText("fcs")  # (the benchmark: a small design, searched at once)
    tree.set_filter("")
    tree._words = "fcs".split()
    steps = tree._filtering("fcs")
    next(steps)
    while tree.view.isExpanded(tree.proxy.index(0, 0)) is False:  # (until the opening has begun)
        next(steps)
    next(steps)
    doc.run(edit.delete, ["p690"])  # every HBA port's row goes: the branches held are gone
    assert sum(1 for _ in steps) >= 2  # (it was midway: more branches opened after the edit)
    shown = tree.visible_ids()
    assert shown and not any(cid.startswith("p690") for cid in shown)
    for cid in shown:
        index = tree.proxy.mapFromSource(tree.rows[cid].index())
        assert index.isValid()
        parent = index.parent()
        while parent.isValid():
            assert tree.view.isExpanded(parent), cid
            parent = parent.parent()


def test_a_search_in_slices_builds_one_matchs_rows_a_step(tree, doc, monkeypatch):
    """A search of a large design in slices looks at the clock after each match whose rows
    it built (a match deep in closed branches builds the rows above it: 1-2 ms each on a site),
    and opens the branches found a few at a time."""
    from widgets import model_tree_search as search

    monkeypatch.setattr(search, "SEARCH_AT_ONCE", 10)
    monkeypatch.setattr(search, "SEARCH_SLICE_S", 0.0)  # (a step a slice)
    monkeypatch.setattr(tree, "_search_slicer", type("T", (), {"start": lambda self, ms: None})())
    tree.search.setText("port 0")
    ports = [c.id for c in doc.topology.components() if "port 0" in tree._search_text(c) and c.id not in tree.rows]
    assert len(ports) > 4  # (matches in branches never opened)
    building: list[int] = []  # per slice: the matches whose rows it built
    real = tree._ensure

    def ensure(cid):
        before = len(tree.rows)
        got = real(cid)
        if len(tree.rows) > before and cid in ports:
            building[-1] += 1
        return got

    monkeypatch.setattr(tree, "_ensure", ensure)
    building.append(0)
    tree._search_now()  # (its first slice at once)
    while tree._searching is not None:
        building.append(0)
        tree._search_slice()
    assert max(building) == 1 and sum(building) > 4  # one match's rows a step
    assert all(p in tree.rows for p in ports) and set(ports) <= set(tree.visible_ids())
