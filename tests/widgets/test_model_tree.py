"""The model tree: every component by kind and parent, search, selection both ways, the
registered context-menu actions, and updates per model event (no rebuild on an attribute edit)."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from app.actions import ComponentAction, register, unregister
from app.actions.menus import fill_component_menu
from planner import edit
from planner.examples import build_example
from planner.io import Project
from widgets.model_tree import ModelTreePanel


@pytest.fixture
def tree(qtbot, doc):
    panel = ModelTreePanel(doc, lambda menu, ids: fill_component_menu(SimpleNamespace(doc=doc), menu, ids))
    qtbot.addWidget(panel)
    panel.show()
    return panel


def _path(tree, cid):
    """Texts from the group down to the component's row."""
    item, out = tree.items[cid], []
    while item is not None:
        out.append(item.text())
        item = item.parent()
    return list(reversed(out))


def test_every_component_is_in_the_outline(tree, doc):
    topo = doc.topology
    assert set(tree.items) == {c.id for c in topo.components()}
    assert [g.text() for g in tree.groups.values()] == [
        "Servers (1)",
        "Fabrics (1)",
        "Switches (1)",
        "Subsystems (8)",
        "Cables (32)",
        "Sites (1)",
    ]
    assert _path(tree, "site-1.r1") == ["Sites (1)", "Site 1", "R1"]
    assert _path(tree, "z.Z_D1_FCS0_FASTT1_A") == ["Fabrics (1)", "FAB_D1", "Z_D1_FCS0_FASTT1_A"]
    assert _path(tree, "fastt1.map.P_FASTT1") == ["Subsystems (8)", "fastt1", "P_FASTT1"]
    assert _path(tree, "fastt1.ld1")[:3] == ["Subsystems (8)", "fastt1", "RAID5 8+P #1"]
    assert _path(tree, "p690.lpar1.hdisk2") == ["Servers (1)", "p690", "lpar1", "hdisk2"]
    lv = "p690.lpar1.datavg.stripelv01"
    assert _path(tree, lv + ".wl") == ["Servers (1)", "p690", "lpar1", "datavg", "stripelv01", "workload"]
    detail = tree.items["z.Z_D1_FCS0_FASTT1_A"].parent().child(0, 1).text()
    assert detail == "Members: fcs0 port 0 and fastt1 A1"


def test_search_filters_and_keeps_the_parents(tree):
    tree.search.setText("fastt1 a1")
    shown = tree.visible_ids()
    assert "fastt1.A1" in shown and "fastt1" in shown and "fastt1.A" in shown
    assert "fastt2.A1" not in shown and "sw1" not in shown
    tree.search.setText("A1 FAStT1")  # (any order, any case)
    assert tree.visible_ids() == shown
    tree.search.setText("10:00:00:00:c9:01:00:01")  # a WWPN finds its port
    assert "hba.d1s1.0" in tree.visible_ids() and "hba.d1s2.0" not in tree.visible_ids()
    tree.search.setText("")
    assert len(tree.visible_ids()) == len(tree.items)


def test_on_a_large_design_the_search_waits_for_a_pause_in_the_typing(tree, qtbot, monkeypatch):
    """Each filtering of a site's outline took 0.2-0.45 s: a large design's search begins once
    the typing pauses (or at Enter), not at each keystroke, and finds its matches in slices
    between turns of the event loop, the view filtered once all are found; a small one at once."""
    from types import SimpleNamespace

    from PySide6.QtCore import Qt

    from widgets import model_tree_search as search

    searches: list[str] = []
    real = tree._filtering
    monkeypatch.setattr(tree, "_filtering", lambda text: searches.append(text) or real(text))
    monkeypatch.setattr(search, "SEARCH_AT_ONCE", 10)  # (the one-drawer design counts as large)
    monkeypatch.setattr(search, "SEARCH_SLICE_S", 0.0)  # (a step a slice)
    turns: list[int] = []  # the slices asked for, run here one by one
    monkeypatch.setattr(tree, "_search_slicer", SimpleNamespace(start=turns.append))
    before = tree.proxy.filterRegularExpression().pattern()
    qtbot.keyClicks(tree.search, "fastt1 a1")
    assert searches == []  # typing: nothing searched yet
    qtbot.waitUntil(lambda: searches == ["fastt1 a1"], timeout=2000)  # once, after the pause
    patterns = []  # the view's filter before each slice
    while tree._searching is not None:
        patterns.append(tree.proxy.filterRegularExpression().pattern())
        tree._search_slice()
    assert len(patterns) > 5 and len(turns) == len(patterns)
    # the view filtered once all are found, then opened in the slices after, its names sized in the last
    filtered = patterns.index(patterns[-1])
    assert patterns[-1] != before and len(patterns) - filtered >= 2 and filtered > 3
    assert set(patterns[:filtered]) == {before} and set(patterns[filtered:]) == {patterns[-1]}
    shown = tree.visible_ids()
    assert "fastt1.A1" in shown and "fastt2.A1" not in shown
    tree.search.clear()
    qtbot.keyClick(tree.search, Qt.Key.Key_Return)  # Enter: at once
    assert searches == ["fastt1 a1", ""]
    while tree._searching is not None:
        tree._search_slice()
    qtbot.wait(search.SEARCH_PAUSE_MS + 50)
    assert searches == ["fastt1 a1", ""]  # (not again when the pause comes)
    assert len(tree.visible_ids()) == len(tree.items)
    monkeypatch.setattr(search, "SEARCH_AT_ONCE", 10**9)
    qtbot.keyClicks(tree.search, "sw")
    assert searches[-2:] == ["s", "sw"] and tree._searching is None  # a small design: at each keystroke


def test_a_new_filter_resets_the_view_instead_of_hiding_rows_one_run_at_a_time(tree, doc):
    """Changed in place, the proxy told the view of every run of rows it hid or showed (the
    16x site's outline: 0.14-1.0 s a filtering); it now starts the view afresh, once, and the
    selection is shown again."""
    doc.select(["fastt1.A1"])
    tree.view.setColumnWidth(0, 230)  # (the user's; the view's reset set it back to 100)
    tree.search.setText("fastt1")
    assert tree.view.columnWidth(0) == 230
    signals: list[str] = []
    tree.proxy.modelReset.connect(lambda: signals.append("reset"))
    tree.proxy.rowsRemoved.connect(lambda *a: signals.append("removed"))
    tree.proxy.rowsInserted.connect(lambda *a: signals.append("inserted"))
    tree.search.setText("a1")
    assert signals and set(signals) == {"reset"}  # (detached, attached again: no rows told one by one)
    shown = tree.visible_ids()
    assert "fastt1.A1" in shown and "fastt2.A1" in shown and "fastt1.B1" not in shown
    assert tree.selected_ids() == ["fastt1.A1"]
    tree.search.setText("")
    assert set(signals) == {"reset"} and tree.selected_ids() == ["fastt1.A1"]
    assert len(tree.visible_ids()) == len(tree.items) and tree.view.columnWidth(0) == 230
    tree.view.setColumnWidth(0, 40)
    tree.search.setText("a1")  # the rows found deep in the outline: the names widened to show whole
    assert tree.view.columnWidth(0) == tree.view.sizeHintForColumn(0) > 40


def test_selection_both_ways(tree, doc):
    doc.select(["z.Z_D1_FCS0_FASTT1_A", "fastt2.map.P_FASTT2"])
    assert tree.selected_ids() == ["z.Z_D1_FCS0_FASTT1_A", "fastt2.map.P_FASTT2"]
    item = tree.items["p690.lpar1.hdisk3"]
    index = tree.proxy.mapFromSource(item.index())
    tree.view.selectionModel().select(index, tree.view.selectionModel().SelectionFlag.ClearAndSelect)
    assert doc.selection == ["p690.lpar1.hdisk3"]


def test_the_context_menu_offers_registered_actions(tree, doc):
    ran = []
    register(ComponentAction("test-tree-probe", "Probe...", ("zone",), lambda w, ids: ran.append(ids)))
    try:
        menu = tree.context_menu(["z.Z_D1_FCS0_FASTT1_A"])
        act = next(a for a in menu.actions() if a.objectName() == "action-test-tree-probe")
        act.trigger()
        assert ran == [["z.Z_D1_FCS0_FASTT1_A"]]
        assert "Show on &canvas" in [a.text() for a in menu.actions()]
        assert not [a for a in tree.context_menu(["sw1"]).actions() if a.objectName() == "action-test-tree-probe"]
    finally:
        unregister("test-tree-probe")


def test_edits_update_rows_in_place(tree, doc):
    zone_row = tree.items["z.Z_D1_FCS0_FASTT1_A"]
    fastt1 = tree.items["fastt1"]
    doc.run(edit.set_attr, "fastt1", "name", "fastt-one")
    assert tree.items["fastt1"] is fastt1 and fastt1.text() == "fastt-one"  # the same row, new text
    assert tree.items["z.Z_D1_FCS0_FASTT1_A"] is zone_row
    assert zone_row.parent().child(zone_row.row(), 1).text() == "Members: fcs0 port 0 and fastt-one A1"
    doc.run(edit.add_zone, "fab.FAB_D1", "Z_NEW", ["hba.d1s1.0", "fastt2.A1"])
    assert _path(tree, "z.Z_NEW") == ["Fabrics (1)", "FAB_D1", "Z_NEW"]
    assert tree.items["z.Z_NEW"].row() == 16  # after the sixteen zones already there
    doc.undo_stack.undo()
    assert "z.Z_NEW" not in tree.items
    doc.run(edit.delete, ["fastt8"])
    assert "fastt8" not in tree.items and "fastt8.ld1" not in tree.items
    assert tree.groups["subsystem"].text() == "Subsystems (7)"
    doc.undo_stack.undo()
    assert _path(tree, "fastt8.ld1")[:2] == ["Subsystems (8)", "fastt8"]
    assert tree.items["fastt8"].row() == 7
    assert set(tree.items) == {c.id for c in doc.topology.components()}


def test_a_moved_hba_moves_in_the_tree(tree, doc):
    free = next(s for s in doc.topology.of_kind("slot") if not doc.topology.children(s.id))
    doc.run(edit.move_hba, "hba.d1s1", free.id)
    assert tree.items["hba.d1s1"].parent() is tree.items[free.id]
    assert tree.items["hba.d1s1.0"].parent() is tree.items["hba.d1s1"]


def test_a_new_project_rebuilds(tree, doc, parts):
    doc.replace_project(Project(build_example("p690-worst-cabling", parts)), None)
    assert set(tree.items) == {c.id for c in doc.topology.components()}


def test_on_a_large_design_the_groups_open_in_the_turn_after_the_outline_is_rebuilt(
    tree, doc, parts, qtbot, monkeypatch
):
    """Opening the 32x site, the outline's four small groups (481 rows built, the column sized
    to them) took 21-23 ms of the turn that shows the design: a large design has them opened on
    the next turn."""
    import widgets.model_tree as model_tree

    def opened() -> set[str]:
        return {k for k, g in tree.groups.items() if tree.view.isExpanded(tree.proxy.mapFromSource(g.index()))}

    doc.replace_project(Project(build_example("p690-worst-cabling", parts)), None)
    small = opened()
    assert small and tree.rows  # a small design: opened at once, their rows built
    monkeypatch.setattr(model_tree, "OPEN_LATER_AT", len(doc.topology))
    doc.replace_project(Project(build_example("p690-worst-cabling", parts)), None)
    assert not opened() and not tree.rows  # not yet: the group rows only
    qtbot.waitUntil(lambda: opened() == small, timeout=3000)
    assert tree.rows


def test_qts_filtering_of_a_large_design_begins_a_turn_of_its_own(tree, monkeypatch):
    """Qt's filtering of the outline once the matches are found (the proxy attached again: one
    call, 6-8 ms on the 16x site) is a slice's first work and runs only as a turn's first slice
    (slice_budget's ``whole``): after a slice of finding matches in the same turn it made turns
    of 10-11.5 ms."""
    import time

    from widgets import model_tree_search as search
    from widgets import slice_budget

    monkeypatch.setattr(search, "SEARCH_AT_ONCE", 10)  # (the one-drawer design counts as large)
    monkeypatch.setattr(search, "SEARCH_SLICE_S", 0.05)  # (long slices: matches and filter could share one)
    monkeypatch.setattr(tree, "_search_slicer", SimpleNamespace(start=lambda ms: None))
    slices, revealed, attached = [0], set(), []
    real_slice, real_revealing, real_attach = tree._search_slice, tree._revealing, tree.proxy.setSourceModel

    def counted_slice():
        slices[0] += 1
        real_slice()

    def revealing(ids):
        revealed.add(slices[0])
        return real_revealing(ids)

    def attach(model):
        if model is not None:
            attached.append((slices[0], time.perf_counter() - slice_budget._start))
        real_attach(model)

    monkeypatch.setattr(tree, "_search_slice", counted_slice)
    monkeypatch.setattr(tree, "_revealing", revealing)
    monkeypatch.setattr(tree.proxy, "setSourceModel", attach)
    slice_budget.reset()
    tree.search.setText("fastt1 a1")
    tree._search_now()
    while tree._searching is not None:
        time.sleep(2 * slice_budget.GAP_S)  # (the loop went round: the next slice is a turn's first)
        tree._search_slice()
    assert len(attached) == 1 and revealed
    at, into_turn = attached[0]
    assert at not in revealed  # no match looked for in the slice that filters
    assert into_turn < 0.002  # ... which began the turn
    shown = tree.visible_ids()
    assert "fastt1.A1" in shown and "fastt2.A1" not in shown


def _search_steps(tree, text: str, ids: list[str]) -> list[int]:
    """Run the search for ``text`` step by step: how many rows of ``ids`` each step built."""
    built = [0]
    for _ in tree._filtering(text):
        built.append(sum(1 for c in ids if c in tree.rows))
    return [b - a for a, b in zip(built, built[1:]) if b > a]


def test_a_search_builds_a_group_of_many_a_few_rows_a_step(tree, doc, monkeypatch):
    """A match among the 16x site's 3,584 cables built all their rows in one turn of the
    search (45 ms): a group of many is built a few rows a step, the search pausing between,
    its rows in the design's order and the match shown."""
    import widgets.model_tree as model_tree

    topo = doc.topology
    cables = [c.id for c in topo.children(None) if c.kind == "cable"]
    assert len(cables) > 6
    monkeypatch.setattr(model_tree, "OPEN_GROUP_ROWS", 0)  # (no group opened: none built)
    monkeypatch.setattr(model_tree, "FILL_AT_ONCE", 2)
    monkeypatch.setattr(model_tree, "GROUP_STEP", 1)
    tree.rebuild()
    assert not any(c in tree.rows for c in cables)
    target = cables[-1]
    steps = _search_steps(tree, target, cables)
    assert len(steps) >= len(cables) // 2 and max(steps) <= 2  # (the first: the placeholder's and one)
    group = tree.groups["cable"]
    assert [group.child(i).data(model_tree.ID_ROLE) for i in range(group.rowCount())] == cables
    assert target in tree.visible_ids()


def test_a_search_builds_the_rows_inside_a_component_of_many_a_few_a_step(tree, doc, monkeypatch):
    """A match among a data centre's fabric of 768 zones built all of them in one turn of the
    search (30-45 ms): the rows inside a component of many are built a few a step, the search
    pausing between, in the design's order, and the match shown."""
    import widgets.model_tree as model_tree

    topo = doc.topology
    fabric = max(topo.of_kind("fabric"), key=lambda f: len(topo.children(f.id)))
    zones = [c.id for c in topo.children(fabric.id)]
    assert len(zones) > 6
    monkeypatch.setattr(model_tree, "FILL_AT_ONCE", 2)
    monkeypatch.setattr(model_tree, "GROUP_STEP", 1)
    tree.rebuild()
    assert fabric.id in tree.rows and not any(z in tree.rows for z in zones)
    target = zones[-1]
    steps = _search_steps(tree, target, zones)
    assert len(steps) >= len(zones) // 2 and max(steps) <= 2  # (the first: the placeholder's and one)
    row = tree.rows[fabric.id]
    assert [row.child(i).data(model_tree.ID_ROLE) for i in range(row.rowCount())] == zones
    assert target in tree.visible_ids() and ("row", fabric.id) not in tree._filling


def test_a_component_of_many_opened_fills_in_slices(tree, doc, qtbot, monkeypatch):
    """Opened by the user, a component of more than FILL_AT_ONCE rows (a data centre's fabric)
    builds its first rows at once and the others in slices between turns, as a group of many
    does; then it shows every row in the design's order."""
    import widgets.model_tree as model_tree

    topo = doc.topology
    fabric = max(topo.of_kind("fabric"), key=lambda f: len(topo.children(f.id)))
    zones = [c.id for c in topo.children(fabric.id)]
    monkeypatch.setattr(model_tree, "FILL_AT_ONCE", 3)
    monkeypatch.setattr(model_tree, "FILL_SLICE_S", 0.0)  # one row a slice
    tree.rebuild()
    tree.fill_first = 3
    index = tree.proxy.mapFromSource(tree.rows[fabric.id].index())
    tree.view.expand(index)
    assert ("row", fabric.id) in tree._filling and sum(z in tree.rows for z in zones) == 3
    qtbot.waitUntil(lambda: not tree._filling, timeout=5000)
    row = tree.rows[fabric.id]
    assert [row.child(i).data(model_tree.ID_ROLE) for i in range(row.rowCount())] == zones
    assert not tree._unfetched(row)


def test_a_selection_inside_a_component_of_many_waits_for_its_rows(tree, doc, qtbot, monkeypatch):
    """A zone selected (on the canvas, in the zoning editor) inside a fabric of many zones builds
    only REACH_AT_ONCE of them in its turn, the others in slices, and then selects the row."""
    import widgets.model_tree as model_tree

    topo = doc.topology
    fabric = max(topo.of_kind("fabric"), key=lambda f: len(topo.children(f.id)))
    zones = [c.id for c in topo.children(fabric.id)]
    monkeypatch.setattr(model_tree, "FILL_AT_ONCE", 3)
    monkeypatch.setattr(model_tree, "REACH_AT_ONCE", 2)
    monkeypatch.setattr(model_tree, "FILL_SLICE_S", 0.0)  # one row a slice
    tree.rebuild()
    doc.select([zones[-2]])
    assert sum(z in tree.rows for z in zones) == 2 and tree.selected_ids() == []
    assert ("row", fabric.id) in tree._filling
    qtbot.waitUntil(lambda: tree.selected_ids() == [zones[-2]], timeout=5000)
    row = tree.rows[fabric.id]
    assert [row.child(i).data(model_tree.ID_ROLE) for i in range(row.rowCount())] == zones


def test_a_search_builds_no_rows_inside_its_matches(tree, doc, qtbot):
    """The view opening every branch a search found asked for the rows inside each match (the
    16x site searched for "fcs1": 1,104 rows made and filtered, 42 ms); none of them would
    show. Once the search is cleared, a match opened builds its rows."""
    topo = doc.topology
    tree.set_filter("controller")
    assert "fastt1.A" in tree.visible_ids()
    inside = [c.id for c in topo.children("fastt1.A")]
    assert inside and not any(c in tree.rows for c in inside)  # (its branch is open: not fetched)
    assert not tree.model.canFetchMore(tree.rows["fastt1.A"].index())
    tree.set_filter("")
    assert tree.model.canFetchMore(tree.rows["fastt1.A"].index())
    index = tree.proxy.mapFromSource(tree.rows["fastt1.A"].index())
    while index.isValid():  # (it and the rows above it opened)
        tree.view.expand(index)
        index = index.parent()
    qtbot.waitUntil(lambda: all(c in tree.rows for c in inside), timeout=2000)


def test_the_rows_of_an_outline_gone_are_deleted_a_few_at_a_time(tree, doc, qtbot):
    """Removed at once, the 16x site's outline after a search (12,123 rows) took 38-52 ms of
    the turn that showed another scenario: the outline starts from a new model and the old one's
    rows go a few at a time, never a row with rows below it."""
    from widgets.retired import delete_last_rows

    def count(item) -> int:
        return sum(1 + count(item.child(r)) for r in range(item.rowCount()))

    tree.expand_all()
    old = tree.model
    built = count(old.invisibleRootItem())
    assert built >= len(doc.topology)
    doc.replace_project(Project(build_example("p690-one-drawer", doc.parts)), None)
    assert tree.model is not old and len(tree.retired.pending) == 1
    assert count(tree.model.invisibleRootItem()) < built  # (the new outline: its groups, some opened)
    tree.retired.timer.stop()  # (its steps taken here)
    left, steps = built, 0
    while delete_last_rows(old, most=5):
        now = count(old.invisibleRootItem())
        assert 1 <= left - now <= 5  # rows with nothing below them, a few a step
        left, steps = now, steps + 1
    assert left == 0 and steps >= built // 5
    tree.retired.pending.clear()  # (emptied here)
    tree.retired.add_model(old)  # (another, emptied by the timer)
    qtbot.waitUntil(lambda: not tree.retired.pending, timeout=3000)


def test_the_groups_opened_as_a_design_is_shown_build_a_few_rows_at_once(tree, doc, qtbot, monkeypatch):
    """Opening the 32x site, its groups of 224 switches and 224 fabrics built 200 rows each in
    the turn that showed them (17-19 ms): a group of many opened as a design is shown builds
    REACH_AT_ONCE rows at once, the others in slices; a group the user opens, FILL_AT_ONCE."""
    import widgets.model_tree as model_tree

    topo = doc.topology
    cables = [c.id for c in topo.children(None) if c.kind == "cable"]
    monkeypatch.setattr(model_tree, "FILL_AT_ONCE", 4)
    monkeypatch.setattr(model_tree, "REACH_AT_ONCE", 2)
    monkeypatch.setattr(model_tree, "OPEN_GROUP_ROWS", 10**6)  # (every group opened)
    tree._fill_timer.stop()
    tree.rebuild()
    tree._fill_timer.stop()  # (the slices are looked at below)
    assert len(cables) > 4 and sum(c in tree.rows for c in cables) == 2 and "cable" in tree._filling
    assert tree.fill_first == model_tree.FILL_AT_ONCE  # (back for the user's own openings)
    tree._fill_timer.start(1)
    qtbot.waitUntil(lambda: not tree._filling, timeout=3000)
    assert all(c in tree.rows for c in cables)


def test_the_search_pattern_keeps_the_rows_holding_every_word_as_python_finds_them():
    """The proxy keeps a row when its search text holds every word typed, in any order, words
    overlapping or holding the expression's own signs: what the search's Python side reveals
    (``all(w in text for w in words)``); one word is looked for as it is (quicker), several
    by a lookahead each."""
    from widgets.model_tree_search import search_pattern

    texts = [
        "fcs1 s3_p690.fcs1 hba 2 gb fibre channel",
        "lun 0 on s3 fastt1 (ld_1) 36 gb",
        "fastt",
        "10:00:00:00:c9:2b:4c:01 port.1 (a+b)",
        "two lines\nfcs1 below",
        "",
    ]
    searches = [
        ["fcs1"],
        ["s3", "fastt"],
        ["fas", "ast"],
        ["port.1"],
        ["(a+b)"],
        ["c9:2b"],
        ["p.1"],
        ["below", "two"],
        ["x"],
    ]
    for words in searches:
        pattern = search_pattern(words)
        assert pattern.isValid(), words
        for text in texts:
            assert pattern.match(text).hasMatch() == all(w in text for w in words), (words, text)


def test_a_batch_of_events_retitles_each_group_once(tree, doc, monkeypatch):
    """A server deleted takes its cables with it: the cables' group is retitled once, at the end
    of the batch, with the count left (each retitle is a change the view and its filter follow)."""
    retitled: list[str] = []
    real = tree._retitle_now
    monkeypatch.setattr(tree, "_retitle_now", lambda kind: (retitled.append(kind), real(kind)))
    cables = len(doc.topology.of_kind("cable"))
    server = doc.topology.of_kind("server")[0].id
    doc.run(edit.delete, [server])
    left = len(doc.topology.of_kind("cable"))
    assert left < cables and retitled.count("cable") == 1 and len(retitled) == len(set(retitled))
    assert tree.groups["cable"].text() == f"Cables ({left})" and "server" not in tree.groups
    doc.undo_stack.undo()
    assert tree.groups["cable"].text() == f"Cables ({cables})" and tree.groups["server"].text() == "Servers (1)"
