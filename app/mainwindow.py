"""The SANplan main window: canvas, docks, menus, files, autosave and crash recovery."""

from __future__ import annotations

import functools
import json
import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import QByteArray, QPointF, Qt, QTimer
from PySide6.QtGui import QAction, QActionGroup, QKeySequence, QPalette
from PySide6.QtWidgets import (
    QApplication,
    QComboBox,
    QDialog,
    QDockWidget,
    QFileDialog,
    QInputDialog,
    QLabel,
    QMainWindow,
    QMenu,
    QMessageBox,
    QStyle,
    QUndoView,
)

from app import gui_gc
from app.about import show_about
from app.actions.menus import fill_component_menu, fill_design_menu
from app.autosave import Autosaver
from app.controller import Controller
from app.dock_tabs import hide_stale_tab_bars
from app.document import Document
from app.export_files import with_extension, written_report
from app.opening import copy_design, prepare_shown, read_project, saving
from app.recent import MAX_RECENT, forget, menu_text, recent_files, remember  # noqa: F401
from app.session import APP_NAME, _latest_revision, _remove_autosave, data_dir, pending_recovery, settings  # noqa: F401
from app.startup import apply_tips, build_central, follow_options, show_guide, show_start_page
from app.status import show_building
from app.theme import apply_theme
from app.undo_actions import toolbar_buttons, undo_actions
from planner.analysis import ANALYSIS_DIRECTIONS
from planner.examples import EXAMPLES, build_example
from planner.figures import FIGURE_SETS
from planner.io import Project
from planner.model import Topology
from planner.naming import counted
from widgets import slice_budget
from widgets.canvas import DiagramScene, DiagramView
from widgets.dialogs.properties import PropertiesDialog
from widgets.headline import mbps_text
from widgets.style import set_style_sheet


class MainWindow(QMainWindow):
    """The editor. ``ask`` answers the questions a dialog would ask (tests replace it)."""

    def __init__(self, catalog, parent=None) -> None:
        super().__init__(parent)
        gui_gc.reserve_wrappers()  # before a canvas wraps its items (see there)
        slice_budget.watch()  # the panels' slices share a pass of the event loop (see widgets.slice_budget)
        self.catalog = catalog
        self.settings = settings()
        self.doc = Document(catalog.as_dict(), self)
        self.scene = DiagramScene(self.doc, self)
        self.view = DiagramView(self.scene, self)
        self.setCentralWidget(build_central(self))
        self.ask: Callable[..., Any] = self._ask_dialog
        self.doc.modelEvents.connect(self._on_model_events)
        self.doc.fileStateChanged.connect(self._update_title)
        self.doc.analysisReady.connect(self._show_totals)
        self.doc.totalsReady.connect(self._show_totals)
        self.doc.message.connect(self.show_message)
        self.doc.projectReplaced.connect(gui_gc.thaw)  # the old design's cyclic garbage can go
        self.doc.analysisReady.connect(gui_gc.adopt_analysis)  # its objects are not walked again
        gui_gc.follow_canvas(self.scene)  # the new items stay: not walked again
        gui_gc.follow_view(self.view)  # what a pan or zoom made stays too
        self.scene.building.connect(self._show_building)
        self.controller = Controller(self.doc, catalog, self)
        self.controller.connect_canvas(self.scene)
        self.view.extra_menu = self.fill_component_menu
        self.controller.drive_count = lambda part: self.ask("drives", part.get("id", ""), part)
        self._build_docks()
        self.controller.connect_inspector(self.inspector)
        self.doc.scenariosChanged.connect(self._update_title)
        self._build_actions()
        self._build_status()
        self.autosaver = Autosaver(self)
        self.autosaver.failed.connect(self.show_message)
        self._autosave_timer = QTimer(self)
        self._autosave_timer.setInterval(int(self.settings.value("autosave_seconds", 30)) * 1000)
        self._autosave_timer.timeout.connect(self.autosave)
        self._autosave_timer.start()
        self._restore_layout()
        self._update_title()

    # -- building the window --------------------------------------------------------------------
    def _dock(self, title: str, widget, area: Qt.DockWidgetArea, name: str) -> QDockWidget:
        dock = QDockWidget(title, self)
        dock.setObjectName(name)
        dock.setWidget(widget)
        self.addDockWidget(area, dock)
        return dock

    def _build_docks(self) -> None:
        from widgets.charts import ChartsPanel
        from widgets.findings import FindingsPanel
        from widgets.inspector import InspectorPanel
        from widgets.palette import PalettePanel
        from widgets.paths import PathsPanel
        from widgets.resilience import ResiliencePanel
        from widgets.workloads import WorkloadsPanel

        self.palette_panel = PalettePanel(lambda: list(self.catalog.parts()))
        self.inspector = InspectorPanel(self.doc)
        self.findings = FindingsPanel(self.doc)
        self.paths = PathsPanel(self.doc)
        self.charts = ChartsPanel(self.doc)
        self.undo_view = QUndoView(self.doc.undo_stack)
        self.undo_view.setEmptyLabel("<opened>")
        self.docks = {
            "palette": self._dock("Parts", self.palette_panel, Qt.DockWidgetArea.LeftDockWidgetArea, "PartsDock"),
            "inspector": self._dock(
                "Properties", self.inspector, Qt.DockWidgetArea.RightDockWidgetArea, "InspectorDock"
            ),
            "history": self._dock("Undo history", self.undo_view, Qt.DockWidgetArea.RightDockWidgetArea, "UndoDock"),
            "findings": self._dock("Findings", self.findings, Qt.DockWidgetArea.BottomDockWidgetArea, "FindingsDock"),
            "paths": self._dock("Paths", self.paths, Qt.DockWidgetArea.BottomDockWidgetArea, "PathsDock"),
            "charts": self._dock("Utilization", self.charts, Qt.DockWidgetArea.BottomDockWidgetArea, "ChartsDock"),
        }
        self.tabifyDockWidget(self.docks["inspector"], self.docks["history"])
        self.docks["inspector"].raise_()
        self.tabifyDockWidget(self.docks["findings"], self.docks["paths"])
        self.tabifyDockWidget(self.docks["paths"], self.docks["charts"])
        self.workloads = WorkloadsPanel(self.doc)
        bottom = Qt.DockWidgetArea.BottomDockWidgetArea
        self.docks["workloads"] = self._dock("Workloads", self.workloads, bottom, "WorkloadsDock")
        self.tabifyDockWidget(self.docks["charts"], self.docks["workloads"])
        self.workloads.focusRequested.connect(self.focus_components)
        self.docks["findings"].raise_()
        self.palette_panel.partActivated.connect(self.controller.drop_part)
        self.findings.focusRequested.connect(self.focus_components)
        __import__("app.actions.assist", fromlist=["attach_fixes"]).attach_fixes(self)  # the findings' Fix button
        from app.actions.san import ZoneHighlighter
        from widgets.model_tree import ModelTreePanel

        self.model_tree = ModelTreePanel(self.doc, self.fill_component_menu)
        self.docks["tree"] = self._dock("Model", self.model_tree, Qt.DockWidgetArea.LeftDockWidgetArea, "ModelTreeDock")
        self.tabifyDockWidget(self.docks["palette"], self.docks["tree"])
        self.docks["palette"].raise_()
        self.model_tree.focusRequested.connect(self.focus_components)
        self.model_tree.hbasDropped.connect(self.controller.assign_hbas)  # drag HBAs onto an LPAR
        self.zone_highlighter = ZoneHighlighter(self.doc)  # the canvas marks a selected port's zone partners
        self.resilience = ResiliencePanel(self.doc)  # what survives each single failure
        self.docks["resilience"] = self._dock(
            "Resilience", self.resilience, Qt.DockWidgetArea.BottomDockWidgetArea, "ResilienceDock"
        )
        self.tabifyDockWidget(self.docks["charts"], self.docks["resilience"])
        self.resilience.focusRequested.connect(self.focus_components)
        __import__("app.actions.scaling", fromlist=["attach"]).attach(self)  # the scaling curve dock
        __import__("app.actions.racks", fromlist=["attach_racks"]).attach_racks(self)  # the Racks panel
        __import__("app.actions.crosscheck", fromlist=["attach"]).attach(self)  # the max-flow indicator
        self.docks["findings"].raise_()  # the panels attached last must not hide the findings

    def _action(self, text: str, slot, shortcut=None, icon=None, tip: str = "") -> QAction:
        act = QAction(text, self)
        if shortcut is not None:
            act.setShortcut(QKeySequence(shortcut))
        if icon is not None:
            act.setIcon(self.style().standardIcon(icon))
        if tip:
            act.setToolTip(tip)
            act.setStatusTip(tip)
        act.triggered.connect(slot)
        return act

    def _build_actions(self) -> None:
        S, SP = QKeySequence.StandardKey, QStyle.StandardPixmap
        self.act_new = self._action("&New", self.file_new, S.New, SP.SP_FileIcon, "Start a new design")
        self.act_open = self._action(
            "&Open...", self.file_open, S.Open, SP.SP_DialogOpenButton, "Open a .sanplan design or a JSON export"
        )
        self.act_save = self._action(
            "&Save", self.file_save, S.Save, SP.SP_DialogSaveButton, "Save the design (a new revision)"
        )
        self.act_save_as = self._action("Save &As...", self.file_save_as, S.SaveAs)
        self.act_revert = self._action(
            "Re&vert", self.file_revert, None, None, "Discard unsaved changes and reopen the saved file"
        )
        self.act_revisions = self._action("Revision &history...", self.show_revisions)
        self.act_quit = self._action("&Quit", self.close, S.Quit)
        self.act_undo, self.act_redo = undo_actions(self, self.doc.undo_stack)
        self.act_copy = self._action("&Copy", self.copy_selection, S.Copy)
        self.act_paste = self._action("&Paste", self.paste, S.Paste)
        self.act_duplicate = self._action("D&uplicate", lambda: self.duplicate_ids(self.scene.selected_ids()), "Ctrl+D")
        self.act_delete = self._action("&Delete", lambda: self.delete_ids(self.scene.selected_ids()), S.Delete)
        self.act_select_all = self._action("Select &All", self._select_all, S.SelectAll)
        self.act_fit = self._action("Zoom to &fit", self.view.zoom_to_fit, "Ctrl+0", SP.SP_TitleBarMaxButton)
        self.act_zoom_in = self._action("Zoom &in", lambda: self.view.zoom(1.25), S.ZoomIn)
        self.act_zoom_out = self._action("Zoom &out", lambda: self.view.zoom(0.8), S.ZoomOut)
        self.act_expand = self._action("&Expand all", lambda: self.scene.set_all_collapsed(False))
        self.act_collapse = self._action("&Collapse all", lambda: self.scene.set_all_collapsed(True))
        self.act_relayout = self._action(
            "Auto-&layout", self.auto_layout, None, None, "Forget moved boxes and lay the diagram out again"
        )
        self.act_properties = self._action("Design &properties...", self.edit_properties)
        self.act_catalog = self._action("Parts &catalog...", self.show_catalog)
        self.act_guide = self._action("&Getting started", self.show_guide, S.HelpContents)
        self._build_menus()
        self._build_toolbar()
        apply_tips(self)

    def _build_menus(self) -> None:
        mb = self.menuBar()
        m = mb.addMenu("&File")
        for a in (self.act_new, self.act_open):
            m.addAction(a)
        self.examples_menu = m.addMenu("Open &example")
        for name, (desc, _) in EXAMPLES.items():
            a = self.examples_menu.addAction(name, lambda n=name: self.open_example(n))
            a.setToolTip(desc)
        self.recent_menu = m.addMenu("Open &recent")
        self._fill_recent()
        m.addSeparator()
        for a in (self.act_save, self.act_save_as, self.act_revert, self.act_revisions):
            m.addAction(a)
        m.addSeparator()
        self.export_menu = m.addMenu("&Export")
        self._fill_export_menu()
        m.addSeparator()
        m.addAction(self.act_quit)

        m = mb.addMenu("&Edit")
        for a in (self.act_undo, self.act_redo):
            m.addAction(a)
        m.addSeparator()
        for a in (self.act_copy, self.act_paste, self.act_duplicate, self.act_delete, self.act_select_all):
            m.addAction(a)

        m = mb.addMenu("&View")
        for a in (self.act_zoom_in, self.act_zoom_out, self.act_fit):
            m.addAction(a)
        m.addSeparator()
        for a in (self.act_expand, self.act_collapse, self.act_relayout):
            m.addAction(a)
        m.addSeparator()
        for dock in self.docks.values():
            m.addAction(dock.toggleViewAction())
        m.addSeparator()
        theme = m.addMenu("&Theme")
        group = QActionGroup(self)
        for name in ("System", "Light", "Dark"):
            a = theme.addAction(name, lambda n=name: self.set_theme(n))
            a.setCheckable(True)
            a.setChecked(self.settings.value("theme", "System") == name)
            group.addAction(a)

        m = mb.addMenu("&Design")
        self.design_menu = m
        m.addAction(self.act_properties)
        self.scenario_menu = m.addMenu("&Scenarios")
        self.scenario_menu.aboutToShow.connect(self._fill_scenarios)
        m.addSeparator()
        self._fill_design_actions(m)
        m.addSeparator()
        m.addAction(self.act_catalog)

        m = mb.addMenu("&Help")
        m.addAction(self.act_guide)
        m.addAction("&About SANplan", self.about)

    def _fill_design_actions(self, menu: QMenu) -> None:
        fill_design_menu(self, menu)

    def fill_component_menu(self, menu: QMenu, ids: list[str]) -> None:
        """Add the registered actions (:mod:`app.actions`) for the components ``ids`` to ``menu``."""
        fill_component_menu(self, menu, ids)

    def _build_toolbar(self) -> None:
        tb = self.addToolBar("Main")
        tb.setObjectName("MainToolbar")
        for a in (self.act_new, self.act_open, self.act_save):
            tb.addAction(a)
        toolbar_buttons(tb, self.act_undo, self.act_redo)  # (not the actions: see toolbar_buttons)
        tb.addAction(self.act_fit)
        tb.addSeparator()
        tb.addWidget(QLabel(" Figures: "))
        self.figures_box = QComboBox()
        self.figures_box.addItems(FIGURE_SETS)
        self.figures_box.setCurrentText(self.doc.figures)
        self.figures_box.setToolTip(
            "rated: vendor design figures; measured: the P690 paper's measurements; planning: its rules of thumb"
        )
        self.figures_box.currentTextChanged.connect(self.doc.set_figures)
        tb.addWidget(self.figures_box)
        tb.addWidget(QLabel(" Direction: "))
        self.direction_box = QComboBox()
        self.direction_box.addItems(ANALYSIS_DIRECTIONS)  # mixed: each workload's read share
        self.direction_box.currentTextChanged.connect(self.doc.set_direction)
        self.doc.optionsChanged.connect(functools.partial(follow_options, self))  # (also when set elsewhere)
        tb.addWidget(self.direction_box)
        tb.addSeparator()
        tb.addAction(self.act_expand)
        tb.addAction(self.act_collapse)

    def _fill_export_menu(self) -> None:
        """One action per registered export format (menu order, a separator between groups), each
        followed by the menu settings of its options (paper, cable labels) the first time they come."""
        from planner.exports import formats

        m = self.export_menu
        m.clear()
        group, shown = None, set()
        for fmt in formats():
            if group is not None and fmt.group != group:
                m.addSeparator()
            group = fmt.group
            action = m.addAction(fmt.title, lambda f=fmt.id: self.export(f))
            action.setData(fmt.id)
            for opt in fmt.options:
                if opt.setting and opt.setting not in shown:
                    shown.add(opt.setting)
                    self._add_export_setting(m, opt)

    def _add_export_setting(self, m, opt) -> None:
        """A submenu of choices, or a checkable action for an on/off option, kept in the settings."""
        current = str(self.settings.value(opt.setting, str(opt.default).lower() if opt.switch else opt.default))
        if opt.switch:
            a = m.addAction(opt.setting_title)
            a.setCheckable(True)
            a.setChecked(current == "true")
            a.toggled.connect(lambda on, key=opt.setting: self.settings.setValue(key, "true" if on else "false"))
            return
        sub = m.addMenu(opt.setting_title)
        group = QActionGroup(sub)
        for key in opt.choices or ():
            a = sub.addAction(
                opt.choice_titles.get(key, key), lambda k=key, s=opt.setting: self.settings.setValue(s, k)
            )
            a.setCheckable(True)
            a.setChecked(current == key)
            group.addAction(a)

    def _build_status(self) -> None:
        self.totals_label = QLabel("")
        self.statusBar().addPermanentWidget(self.totals_label)
        self.message_label = QLabel("")
        self.statusBar().addWidget(self.message_label, 1)
        self._message_timer = QTimer(self)  # a child: it never fires after the window is gone
        self._message_timer.setSingleShot(True)
        self._message_timer.setInterval(15000)
        self._message_timer.timeout.connect(self.message_label.clear)

    # -- status and title -----------------------------------------------------------------------
    def _update_title(self) -> None:
        self.setWindowModified(not self.doc.is_clean())
        self.setWindowTitle(f"{self.doc.title()}[*] - {self.doc.topology.meta.get('name', '')} - {APP_NAME}")
        self.act_revert.setEnabled(self.doc.path is not None)

    def _show_totals(self, bundle) -> None:
        self.totals_label.setText(
            f"Read {mbps_text(bundle.read_mbps)}   Write {mbps_text(bundle.write_mbps)}   "
            f"({bundle.figures} figures, {len(bundle.result.paths)} paths, analysed in {bundle.seconds * 1000:.0f} ms)"
        )

    def _show_building(self, made: int, total: int) -> None:
        show_building(self, made, total)

    def show_message(self, text: str, error: bool = True) -> None:
        set_style_sheet(self.message_label, "color: #c62828" if error else "")
        self.message_label.setText(text)
        self.message_label.setToolTip(text)
        self._message_timer.start()  # cleared 15 s after the last message

    # -- model changes (the canvas and panels observe the document themselves) ---------------
    def _on_model_events(self, events) -> None:
        if any(event.type == "meta" for event in events):
            self._update_title()

    # -- edits: the controller turns them into commands ------------------------------------------
    def delete_ids(self, ids: list[str]) -> None:
        self.controller.delete(ids)

    def duplicate_ids(self, ids: list[str]) -> None:
        self.controller.duplicate(ids)

    def copy_selection(self) -> None:
        n = self.controller.copy(self.scene.selected_ids())
        QApplication.clipboard().setText(json.dumps({"sanplan-components": self.controller.clipboard}))
        self.show_message(f"copied {counted(n, 'component')}", error=False)

    def paste(self) -> None:
        self.controller.paste()

    def _select_all(self) -> None:
        self.view.select.select_all()

    def drop_part(self, part_id: str, target_id: str = "", pos: QPointF | None = None) -> None:
        """A part dropped on the canvas (or activated in the palette): add it where it fits."""
        self.controller.drop_part(part_id, target_id)

    def focus_components(self, ids: list[str]) -> None:
        self.view.center_on_ids(ids)

    def auto_layout(self) -> None:
        self.controller.auto_layout()
        self.view.zoom_to_fit()

    # -- files --------------------------------------------------------------------------------
    def maybe_save(self) -> bool:
        """Before the design is replaced: True when it may go (saved, discarded or clean)."""
        if self.doc.is_clean():
            return True
        answer = self.ask("unsaved", f"{self.doc.title()} has unsaved changes. Save them?")
        if answer == "save":
            return self.file_save()
        return answer == "discard"

    def file_new(self) -> None:
        if self.maybe_save():
            self.doc.untitled = "Untitled"
            self.doc.replace_project(Project(Topology("Untitled design")), None)
            self.discard_autosave()

    def file_open(self, path: str | None = None) -> bool:
        if not self.maybe_save():
            return False
        if not path:
            path = self.ask("open", "Open design")
            if not path:
                return False
        return self.open_path(path)

    def open_path(self, path: str | Path) -> bool:
        project = read_project(self, path)  # (in a worker, with progress and Cancel)
        if project is None:
            return False
        self.doc.replace_project(project, Path(path))
        self._add_recent(str(path))
        self.view.zoom_to_fit()
        return True

    def open_example(self, name: str) -> None:
        if not self.maybe_save():
            return
        topo = build_example(name, self.doc.parts)
        self.doc.untitled = name  # the title and Save As show the example's name, not "Untitled"
        self.doc.replace_project(Project(topo), None)
        QTimer.singleShot(0, self.view.zoom_to_fit)

    def file_save(self) -> bool:
        if self.doc.path is None:
            return self.file_save_as()
        ok = self.doc.save(runner=saving(self, self.doc.path))
        if not ok and self.doc.changed_on_disk:
            overwrite = self.ask(
                "overwrite",
                f"{self.doc.path.name} was saved by someone else since you opened it.",
                "Overwrite it with your design? (Their save stays in the file's revision history.)",
            )
            ok = bool(overwrite) and self.doc.save(force=True, runner=saving(self, self.doc.path))
            if not overwrite:
                return False
        if ok:
            self.discard_autosave()
        else:
            self.ask("error", "Cannot save", self.message_label.text())
        return ok

    def file_save_as(self) -> bool:
        path = self.ask("save", "Save design as", "" if self.doc.path else f"{self.doc.untitled}.sanplan")
        if not path:
            return False
        if not str(path).endswith(".sanplan"):
            path = f"{path}.sanplan"
        ok = self.doc.save(path, runner=saving(self, path))
        if ok:
            self._add_recent(str(path))
            self.discard_autosave()
        else:
            self.ask("error", "Cannot save", self.message_label.text())
        return ok

    def file_revert(self) -> None:
        if self.doc.path is None:
            return
        if (
            self.doc.is_clean()
            or self.ask("revert", f"Discard all changes since {self.doc.path.name} was saved?") == "yes"
        ):
            self.open_path_keep(self.doc.path)

    def open_path_keep(self, path: Path) -> None:
        project = read_project(self, path)
        if project is not None:
            self.doc.replace_project(project, path)

    def show_revisions(self) -> None:
        from app.dialogs import RevisionsDialog

        if self.doc.path is None:
            self.show_message("save the design first: revisions are kept in the file")
            return
        dlg = RevisionsDialog(self.doc.path, self.doc.project, self)
        if dlg.exec() == QDialog.DialogCode.Accepted and dlg.restored is not None:
            if self.maybe_save():
                self.doc.replace_project(dlg.restored, self.doc.path)
                self.doc.undo_stack.resetClean()
                self._update_title()

    def _add_recent(self, path: str) -> None:
        remember(self.settings, path)
        self._fill_recent()

    def _fill_recent(self) -> None:
        """File > Open recent (and the start page) from the settings: always a list of paths."""
        self.recent_menu.clear()
        recent = recent_files(self.settings)
        for i, p in enumerate(recent):
            a = self.recent_menu.addAction(menu_text(i, p), lambda p=p: self.open_recent(p))
            a.setToolTip(p)
            a.setData(p)
        self.recent_menu.setEnabled(bool(recent))
        if hasattr(self, "start_page"):
            self.start_page.set_recent(recent)

    def open_recent(self, path: str) -> bool:
        """Open a recent file; one that is gone leaves the list with a message saying so."""
        if not Path(path).exists():
            forget(self.settings, path)
            self._fill_recent()
            self.ask(
                "error", f"Cannot open {Path(path).name}", f"{path} no longer exists; removed from the recent files"
            )
            return False
        return self.file_open(path)

    # -- exports ----------------------------------------------------------------------------------
    def export(self, format_id: str) -> None:
        """File > Export: ask for the file and the options the format asks for, write it with a
        progress dialog, and report the files written or the error."""
        from app.dialogs import Cancelled, run_with_progress
        from planner.exports import ExportSource, get

        fmt = get(format_id)
        doc = self.doc
        source = ExportSource(
            doc.project, lambda: "unsaved" if not doc.is_clean() or doc.path is None else _latest_revision(doc.path)
        )
        problem = fmt.check(source) if fmt.check else None
        if problem:  # said before a file name is asked for
            self.ask("error", f"Cannot export {fmt.name}", problem)
            return
        path = self.ask("folder" if fmt.folder else "export", f"Export {fmt.name}", fmt.file_filter)
        if not path:
            return
        path = with_extension(str(path), fmt.extension)
        options = self._export_options(fmt)
        if options is None:
            return
        try:
            written = run_with_progress(
                self,
                fmt.busy_text or f"Exporting {fmt.name}...",
                lambda progress: fmt.export(source, path, options, progress),
            )
        except Cancelled:
            self.show_message("export cancelled; nothing was written", error=False)
            return
        except Exception as err:  # the export names its problem; never a traceback
            self.ask("error", "Export failed", str(err))
            return
        status, detail = written_report(written)
        self.show_message(status, error=False)
        if detail:  # several files (one per fabric): list them all
            self.ask("info", f"{fmt.name}: {len(written)} files written", detail)

    def _export_options(self, fmt) -> dict[str, Any] | None:
        """The format's options: from the settings, the window's figure set, or a question (None: cancelled)."""
        options: dict[str, Any] = {}
        for opt in fmt.options:
            if opt.view == "figures":
                options[opt.name] = self.doc.figures
            elif opt.setting:
                value = str(self.settings.value(opt.setting, opt.default))
                options[opt.name] = value.lower() == "true" if opt.switch else value
            elif opt.question:
                text = self.ask("text", opt.question, str(opt.default))
                if not text:
                    return None
                try:
                    options[opt.name] = opt.parse(text) if opt.parse else text
                except ValueError:
                    self.ask("error", "Export failed", f"{opt.question}: {text!r} is not a valid value")
                    return None
        return options

    # the File > Export entries by name (scripts and tests)
    def export_pdf(self) -> None:
        self.export("pdf")

    def export_zoning(self, vendor: str) -> None:
        self.export(f"zoning-{vendor}")

    def export_cabling(self, fmt: str) -> None:
        self.export("cabling-csv" if fmt == "csv" else fmt)

    def export_json(self) -> None:
        self.export("json")

    # -- design ---------------------------------------------------------------------------------
    def edit_properties(self) -> None:
        dlg = self.last_dialog = PropertiesDialog(self.doc.topology.meta, self)
        if dlg.exec() == QDialog.DialogCode.Accepted:
            self.controller.set_meta(dlg.values())

    def _fill_scenarios(self) -> None:
        m = self.scenario_menu
        m.clear()
        group = QActionGroup(m)
        for name in self.doc.project.scenarios:
            a = m.addAction(name, lambda n=name: self.switch_scenario(n))
            a.setCheckable(True)
            a.setChecked(name == self.doc.project.current)
            group.addAction(a)
        m.addSeparator()
        m.addAction("&Duplicate current...", self.duplicate_scenario)
        m.addAction("&Rename current...", self.rename_scenario)
        m.addAction("De&lete current", self.delete_scenario)

    def switch_scenario(self, name: str) -> None:
        if name != self.doc.project.current and name in self.doc.project.scenarios:
            prepare_shown(self, self.doc.project.scenarios[name])  # (laid out by a worker)
        self.controller.switch_scenario(name)

    def duplicate_scenario(self, name: str | None = None) -> None:
        name = name or self.ask("text", "Name of the new scenario", f"{self.doc.project.current} copy")
        if name:  # (the copy by a worker: the window keeps painting)
            self.controller.add_scenario(name, copy_design(self, self.doc.topology))

    def rename_scenario(self, name: str | None = None) -> None:
        name = name or self.ask("text", "New name of the scenario", self.doc.project.current)
        if name:
            self.controller.rename_scenario(name)

    def delete_scenario(self) -> None:
        self.controller.delete_scenario()

    def show_catalog(self) -> None:
        from widgets.catalog_browser import CatalogDialog

        dlg = CatalogDialog(self.catalog, self)
        dlg.catalogChanged.connect(self._catalog_changed)
        dlg.exec()

    def _catalog_changed(self) -> None:
        self.doc.parts = self.catalog.as_dict()
        self.palette_panel.refresh()

    def show_guide(self) -> None:
        show_guide(self)

    def show_start_page(self) -> None:
        show_start_page(self)

    def about(self) -> None:
        show_about(self)

    def set_theme(self, name: str) -> None:
        self.settings.setValue("theme", name)
        apply_theme(name)
        self.scene.setBackgroundBrush(QApplication.palette().color(QPalette.ColorRole.Base))
        self.scene.rebuild(force=True)

    # -- autosave and recovery ----------------------------------------------------------------
    def autosave_path(self) -> Path:
        return data_dir() / "autosave" / f"session-{os.getpid()}.sanplan"

    def autosave(self, wait: bool = False) -> Path | None:
        """Write the unsaved design to the autosave folder (with a note of where it came from),
        in a worker (:mod:`app.autosave`); ``wait``: until it is written."""
        if self.doc.is_clean():
            return None
        path = self.autosave_path()
        note = {
            "original": str(self.doc.path) if self.doc.path else "",
            "time": time.time(),
            "pid": os.getpid(),
            "title": self.doc.topology.meta.get("name", ""),
        }
        if not self.autosaver.start(self.doc.project, path, note, at_once=wait):
            return None  # the previous one is still being written
        if wait:
            self.autosaver.wait()
        return path

    def discard_autosave(self) -> None:
        self.autosaver.wait()  # not written again after it is removed
        for p in (self.autosave_path(), self.autosave_path().with_suffix(".json")):
            try:
                p.unlink()
            except FileNotFoundError:
                pass

    def offer_recovery(self) -> bool:
        """At start: offer the work an earlier session left unsaved (it was killed)."""
        pending = pending_recovery(exclude_pid=os.getpid())
        if not pending:
            return False
        file, note = pending[0]
        when = time.strftime("%Y-%m-%d %H:%M", time.localtime(note.get("time", 0)))
        what = note.get("original") or "an unsaved design"
        answer = self.ask("recover", f"SANplan was closed without saving {what} (autosaved {when}). Recover it?")
        if answer == "yes":
            project = read_project(self, file, "Cannot recover")
            if project is None:
                return False
            original = Path(note["original"]) if note.get("original") else None
            self.doc.replace_project(project, original)
            self.doc.undo_stack.resetClean()  # recovered work is unsaved work
            self._update_title()
            _remove_autosave(file)
            return True
        if answer == "discard":
            _remove_autosave(file)
        return False

    def showEvent(self, event) -> None:
        super().showEvent(event)
        QTimer.singleShot(0, lambda: hide_stale_tab_bars(self))

    # -- closing ----------------------------------------------------------------------------------
    def closeEvent(self, event) -> None:
        if not self.maybe_save():
            event.ignore()
            return
        self.discard_autosave()
        self.settings.setValue("geometry", self.saveGeometry())
        self.settings.setValue("state", self.saveState())
        event.accept()
        gui_gc.window_closed()

    def _restore_layout(self) -> None:
        geo = self.settings.value("geometry")
        state = self.settings.value("state")
        if isinstance(geo, QByteArray):
            self.restoreGeometry(geo)
        else:
            self.resize(1400, 900)
        if isinstance(state, QByteArray):
            self.restoreState(state)
        else:
            self.resizeDocks([self.docks["palette"], self.docks["inspector"]], [250, 330], Qt.Orientation.Horizontal)
            self.resizeDocks([self.docks["findings"]], [230], Qt.Orientation.Vertical)

    # -- questions ------------------------------------------------------------------------------
    def _ask_dialog(self, what: str, text: str, detail: str = "") -> Any:
        B = QMessageBox.StandardButton
        if what == "unsaved":
            r = QMessageBox.question(self, APP_NAME, text, B.Save | B.Discard | B.Cancel, B.Save)
            return {B.Save: "save", B.Discard: "discard"}.get(r, "cancel")
        if what in ("revert", "recover"):
            buttons = B.Yes | B.No | (B.Discard if what == "recover" else B.NoButton)
            r = QMessageBox.question(self, APP_NAME, text, buttons, B.Yes)
            return {B.Yes: "yes", B.Discard: "discard"}.get(r, "no")
        if what == "error":
            QMessageBox.warning(self, APP_NAME, f"{text}\n\n{detail}")
            return None
        if what == "drives":  # detail: the part; how many drives it comes with, None: cancel
            from app.actions.storage import ask_drive_count

            return ask_drive_count(self, detail)
        if what == "overwrite":
            r = QMessageBox.question(self, APP_NAME, f"{text}\n\n{detail}", B.Yes | B.No, B.No)
            return r == B.Yes
        if what == "open":
            path, _ = QFileDialog.getOpenFileName(self, text, "", "SANplan designs (*.sanplan *.json);;All files (*)")
            return path
        if what == "save":
            path, _ = QFileDialog.getSaveFileName(self, text, detail, "SANplan designs (*.sanplan)")
            return path
        if what == "info":
            QMessageBox.information(self, APP_NAME, f"{text}\n\n{detail}")
            return None
        if what == "export":
            path, _ = QFileDialog.getSaveFileName(self, text, "", detail or "All files (*)")
            return path
        if what == "folder":
            return QFileDialog.getExistingDirectory(self, text)
        if what == "text":
            value, ok = QInputDialog.getText(self, APP_NAME, text, text=detail)
            return value if ok else None
        return None
