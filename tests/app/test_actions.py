"""The action registry: registered actions show in the Design menu and in the canvas context menu."""

from __future__ import annotations

from PySide6.QtWidgets import QMenu

from app.actions import ComponentAction, DesignAction, component_actions, register, unregister


def test_a_registered_component_action_reaches_the_context_menu(window):
    ran = []
    register(ComponentAction("test-probe", "Probe...", ("subsystem",), lambda w, ids: ran.append(ids), many=False))
    try:
        topo = window.doc.topology
        sub = topo.of_kind("subsystem")[0].id
        assert [a.id for a in component_actions(topo, [sub]) if a.id == "test-probe"] == ["test-probe"]
        assert not [a for a in component_actions(topo, [topo.of_kind("switch")[0].id]) if a.id == "test-probe"]
        two = [s.id for s in topo.of_kind("subsystem")[:2]]
        assert not [a for a in component_actions(topo, two) if a.id == "test-probe"]  # one at a time
        menu = QMenu()
        window.fill_component_menu(menu, [sub])
        act = next(a for a in menu.actions() if a.objectName() == "action-test-probe")
        act.trigger()
        assert ran == [[sub]]
    finally:
        unregister("test-probe")


def test_design_actions_fill_the_design_menu(qtbot, home):
    from app.mainwindow import MainWindow
    from catalogs.catalog import Catalog

    ran = []
    register(DesignAction("test-design", "Probe the design", lambda w: ran.append(w), menu="Probes"))
    try:
        w = MainWindow(Catalog(":memory:"))
        qtbot.addWidget(w)
        sub = next(a.menu() for a in w.design_menu.actions() if a.menu() and a.text() == "Probes")
        act = next(a for a in sub.actions() if a.objectName() == "action-test-design")
        act.trigger()
        assert ran == [w]
    finally:
        unregister("test-design")
