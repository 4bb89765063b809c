"""A newcomer's first five minutes: the start page, recent files across restarts, exports that
name their files, the headline bar, the guide and the tooltips (issue 8, sections 3-5)."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import tomllib
from pathlib import Path

import pytest
from PySide6.QtWidgets import QComboBox, QLabel

from app.mainwindow import MainWindow
from app.startup import GUIDE, on_start_page
from catalogs.catalog import Catalog
from planner import edit
from planner.examples import EXAMPLES, build_p690
from planner.io import Project
from widgets.headline import binding_kinds, binding_text

ROOT = Path(__file__).resolve().parents[2]


def new_window(qtbot) -> MainWindow:
    """A window as a restart makes it: it reads the settings file of ``SANPLAN_HOME`` afresh."""
    w = MainWindow(Catalog(":memory:"))
    w.doc.synchronous = True
    asked: list[tuple] = []
    answers: dict[str, object] = {}

    def ask(what, text, detail=""):
        asked.append((what, text, detail))
        return answers.get(what)

    w.ask, w.asked, w.answers = ask, asked, answers
    qtbot.addWidget(w)
    w.resize(1400, 900)
    return w


def recent_entries(w: MainWindow) -> list[str]:
    return [a.data() for a in w.recent_menu.actions()]


# -- the start page --------------------------------------------------------------------------------


def test_sanplan_with_no_file_shows_the_start_page(qtbot, home, monkeypatch):
    import app.theme
    from app.gui import create_window

    monkeypatch.setattr(app.theme, "apply_theme", lambda name: None)  # keep the test session's style
    _, w = create_window(offer_recovery=False)
    qtbot.addWidget(w)
    assert on_start_page(w)
    assert set(w.start_page.example_buttons) == set(EXAMPLES)
    for name, (description, _) in EXAMPLES.items():
        assert w.start_page.example_buttons[name].description().lower() == description.lower()


def test_the_start_page_opens_an_example_under_its_name(qtbot, home):
    w = new_window(qtbot)
    w.show_start_page()
    w.show()
    assert on_start_page(w)
    w.start_page.example_buttons["p690-one-drawer"].click()
    assert not on_start_page(w)
    assert w.doc.title() == "p690-one-drawer"
    assert w.windowTitle().startswith("p690-one-drawer") and "Untitled" not in w.windowTitle()
    assert len(w.doc.topology.of_kind("hba")) == 16
    w.answers["save"] = None
    w.file_save_as()
    assert w.asked[-1] == ("save", "Save design as", "p690-one-drawer.sanplan")  # Save As suggests its name


def test_new_on_the_start_page_gives_a_blank_design(qtbot, home):
    w = new_window(qtbot)
    w.open_example("p690-worst-cabling")
    w.show_start_page()
    w.start_page.new_button.click()
    assert not on_start_page(w)
    assert len(w.doc.topology) == 0 and w.doc.title() == "Untitled"
    assert "Untitled" in w.windowTitle()


def test_dropping_a_part_leaves_the_start_page(qtbot, home):
    w = new_window(qtbot)
    w.show_start_page()
    w.palette_panel.partActivated.emit("7040-681")
    assert not on_start_page(w) and w.doc.topology.of_kind("server")


# -- recent files --------------------------------------------------------------------------------------


def saved_designs(tmp_path: Path, names: list[str]) -> list[Path]:
    from planner.io import save_project
    from planner.model import Topology

    out = []
    for name in names:
        path = tmp_path / f"{name}.sanplan"
        save_project(Project(Topology(name)), path)
        out.append(path)
    return out


def earlier_session(home: Path, paths: list[Path]) -> None:
    """A SANplan process that opens ``paths`` one after the other and quits: it leaves them in the
    settings ini file of ``SANPLAN_HOME``, which this process has not read yet (QSettings caches a
    file per process, so only a new process reads it as a restart does)."""
    script = textwrap.dedent(
        f"""
        import os
        os.environ["QT_QPA_PLATFORM"] = "offscreen"
        from PySide6.QtWidgets import QApplication
        app = QApplication([])
        from app.mainwindow import MainWindow
        from catalogs.catalog import Catalog
        w = MainWindow(Catalog(":memory:"))
        for p in {[str(p) for p in paths]!r}:
            assert w.file_open(p), p
        w.close()
        """
    )
    env = dict(os.environ, PYTHONPATH=str(ROOT), SANPLAN_HOME=str(home / "home"))
    done = subprocess.run([sys.executable, "-c", script], env=env, cwd=ROOT, timeout=120, capture_output=True)
    assert done.returncode == 0, done.stderr.decode()[-2000:]


def test_one_recent_file_survives_a_restart(qtbot, home):
    (path,) = saved_designs(home, ["only"])
    earlier_session(home, [path])
    ini = (home / "home" / "settings.ini").read_text()
    assert f"recent={path}" in ini  # one entry: the ini file holds a bare string, not a list
    w = new_window(qtbot)
    assert recent_entries(w) == [str(path)]
    assert list(w.start_page.recent_buttons) == [str(path)]
    w.recent_menu.actions()[0].trigger()
    assert w.doc.path == path and w.doc.topology.meta["name"] == "only"
    assert not [a for a in w.asked if a[0] == "error"]
    assert recent_entries(w) == [str(path)]  # opening it again does not split it into characters


def test_several_recent_files_survive_a_restart_newest_first(qtbot, home):
    paths = saved_designs(home, ["one", "two", "three"])
    earlier_session(home, [*paths, paths[0]])  # the first opened again: first, not twice
    w = new_window(qtbot)
    assert recent_entries(w) == [str(paths[0]), str(paths[2]), str(paths[1])]
    w.show_start_page()
    w.start_page.recent_buttons[str(paths[1])].click()
    assert w.doc.path == paths[1] and not on_start_page(w)
    assert recent_entries(w) == [str(paths[1]), str(paths[0]), str(paths[2])]


def test_a_recent_file_that_is_gone_leaves_the_list(qtbot, home):
    (path,) = saved_designs(home, ["gone"])
    w = new_window(qtbot)
    assert w.file_open(str(path))
    w.file_new()
    path.unlink()
    assert not w.open_recent(str(path))
    what, text, detail = w.asked[-1]
    assert what == "error" and "gone.sanplan" in text and "no longer exists" in detail
    assert recent_entries(w) == [] and not w.recent_menu.isEnabled()


# -- exports ------------------------------------------------------------------------------------------


def test_export_adds_the_formats_extension_to_a_bare_name(window, home):
    w = window
    w.answers["export"] = str(home / "sheet")
    w.export_pdf()
    assert (home / "sheet.pdf").read_bytes().startswith(b"%PDF")
    assert not (home / "sheet").exists()
    w.answers["export"] = str(home / "cables")
    w.export_cabling("csv")
    assert (home / "cables.csv").exists()
    w.answers["export"] = str(home / "kept.PDF")  # has it already (any case): unchanged
    w.export_pdf()
    assert (home / "kept.PDF").exists() and not (home / "kept.PDF.pdf").exists()


def test_zoning_of_a_design_without_zones_says_so_before_asking_for_a_file(window, home):
    w = window
    w.file_new()
    w.asked.clear()
    w.export_zoning("brocade")
    assert [a[0] for a in w.asked] == ["error"]  # no file dialog first
    assert "no zones" in w.asked[0][2]


def test_zoning_per_fabric_lists_every_file_written(window, home):
    w = window
    w.doc.replace_project(Project(build_p690(w.doc.parts, 2, name="two drawers")), None)
    w.answers["export"] = str(home / "zones")
    w.export_zoning("brocade")
    files = sorted(p.name for p in home.glob("zones.*.txt"))
    assert files == ["zones.FAB_D1.txt", "zones.FAB_D2.txt"]
    what, text, detail = w.asked[-1]
    assert what == "info" and "2 files" in text
    assert all(name in detail for name in files) and str(home) in detail and "zones" in detail


# -- the headline bar ------------------------------------------------------------------------------


def test_the_headline_shows_the_aggregate_and_counts_and_follows_an_edit(window):
    w = window
    h = w.headline
    bundle = w.doc.analysis
    assert h.read_value.text() == f"{bundle.read_mbps:,.0f} MB/s" == "2,400 MB/s"
    assert h.write_value.text() == f"{bundle.write_mbps:,.0f} MB/s"
    assert h.bound_value.text() == "HBAs (16 paths)"
    errors = sum(f.severity == "error" for f in bundle.findings)
    warnings = sum(f.severity == "warning" for f in bundle.findings)
    assert (h.errors_value.text(), h.warnings_value.text()) == (str(errors), str(warnings))
    assert h.figures_value.text() == "planning, read"
    assert h.read_value.font().pointSizeF() >= 1.8 * w.font().pointSizeF()  # big enough to show a customer
    w.doc.run(edit.delete, ["hba.d1s1"])
    assert h.bound_value.text() == "HBAs (15 paths)"
    assert h.read_value.text() == f"{w.doc.analysis.read_mbps:,.0f} MB/s" != "2,400 MB/s"
    w.act_undo.trigger()
    assert h.bound_value.text() == "HBAs (16 paths)"
    w.figures_box.setCurrentText("measured")
    assert h.figures_value.text() == "measured, read"
    assert h.bound_value.text() == binding_text(binding_kinds(w.doc.topology, w.doc.analysis.result))


def test_the_toolbar_shows_the_figure_set_and_direction_however_they_were_set(window, monkeypatch):
    """Figures and Direction follow the document when something else sets them (a script, a
    panel), and setting them so asks for no second analysis; the boxes still set the document."""
    w = window
    asked: list[str] = []
    real = type(w.doc).set_figures
    monkeypatch.setattr(type(w.doc), "set_figures", lambda doc, f: asked.append(f) or real(doc, f))
    w.doc.set_figures("rated")
    w.doc.set_direction("write")
    assert (w.figures_box.currentText(), w.direction_box.currentText()) == ("rated", "write")
    assert asked == ["rated"]  # (the box set without asking the document again)
    assert w.headline.figures_value.text() == "rated, write"
    w.figures_box.setCurrentText("measured")
    w.direction_box.setCurrentText("read")
    assert (w.doc.figures, w.doc.direction) == ("measured", "read")


def test_the_headline_counts_errors(window):
    w = window
    w.doc.run(edit.set_attr, "hba.d1s1.0", "wwpn", w.doc.topology["hba.d1s2.0"]["wwpn"])  # a duplicate WWPN
    errors = sum(f.severity == "error" for f in w.doc.analysis.findings)
    assert errors and w.headline.errors_value.text() == str(errors)


# -- help and tooltips -----------------------------------------------------------------------------


def test_help_getting_started_opens_the_guide(window):
    w = window
    help_menu = next(a.menu() for a in w.menuBar().actions() if a.text() == "&Help")
    assert w.act_guide in help_menu.actions()
    w.act_guide.trigger()
    text = w.guide_dialog.browser.toPlainText()
    assert w.guide_dialog.isVisible()
    for step in ("server", "drawer", "HBA", "switch", "subsystem", "Cable", "Arrays", "Logical drives"):
        assert step in text
    for step in ("Mappings", "Zoning", "LPAR", "volume group", "Read the analysis", "Export"):
        assert step in text
    w.act_guide.trigger()  # again: the same window comes to the front
    assert len([d for d in w.findChildren(type(w.guide_dialog))]) == 1


def test_the_guide_is_packaged():
    data = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    assert any(p.startswith("resources") for p in data["packages"]["find"]["include"])
    patterns = data["package-data"]["resources"]
    assert any(GUIDE.relative_to(ROOT / "resources").match(p) for p in patterns)


def _meaningful(action) -> bool:
    tip = action.toolTip().strip()
    return bool(tip) and tip != action.text().replace("&", "").strip()


def test_every_toolbar_and_window_action_has_a_tooltip(window):
    w = window
    toolbar = w.findChild(type(w.addToolBar("probe")), "MainToolbar")
    for action in toolbar.actions():
        widget = toolbar.widgetForAction(action)
        if action.isSeparator() or isinstance(widget, QLabel):
            continue
        if isinstance(widget, QComboBox):
            assert widget.toolTip(), widget
        else:
            assert _meaningful(action), action.text()
    actions = {name: a for name, a in vars(w).items() if name.startswith("act_")}
    assert len(actions) > 20
    missing = [name for name, a in actions.items() if not _meaningful(a)]
    assert missing == []
    for dock in w.docks.values():
        assert _meaningful(dock.toggleViewAction()), dock.windowTitle()
    w.doc.run(edit.set_attr, "cab1", "label", "RACK1-A")
    assert w.act_undo.toolTip() == w.act_undo.text().replace("&", "") and "set label" in w.act_undo.toolTip().lower()


def test_every_palette_entry_has_a_tooltip(window):
    tree = window.palette_panel.tree
    assert tree.topLevelItemCount() >= 5
    for g in range(tree.topLevelItemCount()):
        group = tree.topLevelItem(g)
        assert group.toolTip(0)
        for i in range(group.childCount()):
            assert group.child(i).toolTip(0) and group.child(i).toolTip(1)


# -- the utilization chart ---------------------------------------------------------------------


@pytest.mark.parametrize("height", [260, 600])
def test_the_utilization_chart_keeps_its_labels_inside_and_its_ticks_apart(window, qtbot, tmp_path, height):
    w = window
    w.docks["charts"].raise_()
    panel = w.charts
    panel.resize(900, height)
    qtbot.wait(20)
    panel._fit()
    text_px = panel.fontMetrics().height()
    for plot in (panel.util_plot, panel.path_plot):
        vb = plot.getPlotItem().vb
        (_, _), (y0, y1) = vb.viewRange()
        ticks = [v for v, _ in plot.getAxis("left")._tickLevels[0]]
        assert len(ticks) >= 2
        gap_px = (ticks[1] - ticks[0]) / (y1 - y0) * vb.height()
        assert gap_px >= text_px, (height, ticks, vb.height())
    vb = panel.util_plot.getPlotItem().vb
    top = vb.sceneBoundingRect().top()
    assert panel.level_labels
    for label, _ in panel.level_labels:
        assert label.sceneBoundingRect().top() >= top - 1  # not cut off at the top of the plot
    saturated = [i for i, s in enumerate(panel.stats) if s.utilization >= 0.95]
    assert saturated and all(panel.label_inside(i) for i in saturated)
    out = tmp_path / f"charts-{height}.png"  # to look at when this fails
    assert panel.grab().save(str(out))


def test_no_tab_bar_left_over_the_docks(qtbot, home):
    """QMainWindow leaves the tab bars of earlier layouts of its tabbed docks on screen (a
    "Parts | Model" bar over the outline's header); only each group's own bar, between the
    docks, is left, and the tabs still switch once a design is open."""
    from PySide6.QtWidgets import QApplication, QDockWidget, QTabBar

    from app.mainwindow import MainWindow
    from catalogs.catalog import Catalog

    w = MainWindow(Catalog(":memory:"))
    qtbot.addWidget(w)
    w.resize(1400, 900)
    w.show()
    for _ in range(50):  # (the event loop's first turns, as the application's own loop runs them)
        QApplication.processEvents()

    def groups() -> list[tuple[str, ...]]:
        bars = [b for b in w.findChildren(QTabBar) if b.parent() is w and b.isVisible()]
        docks = [d for d in w.findChildren(QDockWidget) if d.isVisible() and not d.isFloating()]
        assert [b for b in bars if any(b.geometry().intersects(d.geometry()) for d in docks)] == []
        return sorted(tuple(b.tabText(i) for i in range(b.count())) for b in bars)

    first = groups()
    assert len(first) == len(set(first)) and ("Parts", "Model") in first and ("Properties", "Undo history") in first
    assert any("Findings" in g and "Racks" in g for g in first)
    w.open_example("p690-one-drawer")
    w.docks["tree"].raise_()
    w.docks["history"].raise_()
    qtbot.wait(50)
    assert groups() == first
    assert not w.docks["tree"].visibleRegion().isEmpty() and w.docks["palette"].visibleRegion().isEmpty()


def test_the_editor_check_quits_even_when_a_file_cannot_be_opened(home, tmp_path):
    """``sanplan gui FILE --quit-after-ms N`` (the check that the editor starts) quits after N ms
    even when the file cannot be opened: the message saying so waited for a click forever."""
    env = dict(os.environ, PYTHONPATH=str(ROOT), SANPLAN_HOME=str(home / "home"), QT_QPA_PLATFORM="offscreen")
    missing = tmp_path / "gone.sanplan"
    args = [sys.executable, "-m", "app.cli", "gui", str(missing), "--quit-after-ms", "500"]
    done = subprocess.run(args, env=env, cwd=ROOT, timeout=60, capture_output=True)
    assert done.returncode == 0, done.stderr.decode()[-2000:]
    assert "the editor opened (Untitled" in done.stdout.decode()


def test_the_editor_check_names_the_file_as_the_title_bar_does(home, tmp_path):
    """The check's line names the window as its title bar shows it: Qt's "[*]" placeholder for
    unsaved changes is not printed (a design just opened has none)."""
    env = dict(os.environ, PYTHONPATH=str(ROOT), SANPLAN_HOME=str(home / "home"), QT_QPA_PLATFORM="offscreen")
    path = tmp_path / "bench.sanplan"
    made = subprocess.run(
        [sys.executable, "-m", "app.cli", "example", "p690-benchmark", str(path)], env=env, cwd=ROOT, timeout=60
    )
    assert made.returncode == 0 and path.exists()
    args = [sys.executable, "-m", "app.cli", "gui", str(path), "--quit-after-ms", "500"]
    done = subprocess.run(args, env=env, cwd=ROOT, timeout=60, capture_output=True)
    out = done.stdout.decode()
    assert done.returncode == 0, done.stderr.decode()[-2000:]
    assert "the editor opened (bench.sanplan - " in out and "[*]" not in out and "bench.sanplan*" not in out
