"""Paths panel: every analysed path with its rate, binding hop and that hop's utilization.

A table (sortable, numerically on MB/s and utilization; filtered by a search box over labels and
ids). Choosing a row highlights the path (``doc.highlight_path``; the canvas marks only its
binding hop), selects its HBA port, host port and logical drive, and the line above the table
says the path's MB/s, its binding hop and why (:func:`explain_path`: the hop's load and capacity,
how many paths share it, the source of the figure). The table follows ``doc.analysisReady``; the sort order and the chosen
path survive updates.
"""

from __future__ import annotations

import heapq
import itertools
import re
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import (
    QAbstractTableModel,
    QItemSelection,
    QModelIndex,
    QPersistentModelIndex,
    QSortFilterProxyModel,
    Qt,
    QTimer,
)
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QLabel, QLineEdit, QTableView, QVBoxLayout, QWidget

from planner import bands
from planner.naming import label as component_label
from planner.schema import KINDS, kind_name
from widgets import slice_budget
from widgets.deferred import WhenShown

if TYPE_CHECKING:
    from app.document import AnalysisBundle, Document
    from planner.analysis import Analysis, Path
    from planner.model import Topology

FILTER_ROLE = Qt.ItemDataRole.UserRole + 2
PATH_ROLE = Qt.ItemDataRole.UserRole + 3

#: how many rows (the first shown) the first sizing of the columns measures (see PathsPanel._sizing_columns)
SIZING_ROWS = 200
#: ... and sizes its columns a slice of about this long at a time, one column at least, between
#: turns of the event loop (all six in one turn took 11-14 ms on the 16x site, on a machine where
#: the turn it shared with a paint then blocked the editor 40-90 ms: a design opened, a scenario
#: shown)
SIZE_SLICE_S = 0.004
COLUMNS = ("HBA port", "Host port", "Logical drive", "MB/s", "Binding hop", "Hop utilization")
COL_MBPS, COL_HOP, COL_UTIL = 3, 4, 5
#: the attributes a component's label is made of (:func:`planner.naming.label`: names, the
#: parent chain, an array's RAID level and drives); a change of any other keeps the labels
NAMING_KEYS = frozenset({"name", "parent", "raid_level", "drives"})
NUMERIC = (COL_MBPS, COL_UTIL)
#: an analysis whose paths name more components not labelled yet than this (the 16x site's
#: first showing: 3,600 labels, 25 ms) has them labelled a slice of LABEL_SLICE_S at a time,
#: between turns of the event loop, before its rows are shown
LABELS_AT_ONCE = 1000
LABEL_SLICE_S = 0.004
#: an analysis that makes more rows than this anew (a figure set switched on the 16x site: 1,792
#: rows, 6-8 ms) shows them on a later turn of the event loop than the one it arrives in (where
#: the canvas starts painting it: the two made one block of 15-27 ms)
ROWS_AT_ONCE = 500
#: rows shown on a later turn wait for the canvas to finish painting the analysis in slices (a
#: slice and the rows in one turn: 13-15 ms), at most this long. New rows wait so whenever the
#: canvas paints in slices: the canvas first (a server of the 16x site restored: its 224 rows
#: and 672 labels, 3.7 ms, made before the canvas's first slice)
CANVAS_WAIT_S = 1.0
#: the rows of an analysis shown on a later turn are made in the label slices too, looking at
#: the clock every this many (a figure set switched on the 16x site: 1,792 rows, 6-9 ms in the
#: turn that showed them, with the sort and the model's announcements: 15-17)
ROWS_PER_STEP = 64


def natural_key(text: str) -> str:
    """A sort key that orders "fcs2" before "fcs10" (digit runs zero-padded)."""
    return re.sub(r"\d+", lambda m: m.group().zfill(9), text.lower())


def utilization_colour(util: float | None) -> QColor | None:
    """The band colour of a utilization (:mod:`planner.bands`); None without a figure."""
    return None if util is None else QColor(bands.colour(util))


@dataclass
class PathRow:
    """One table row, labels resolved when the analysis arrived."""

    path: Path
    cells: tuple[str, str, str]  # labels of HBA port, host port, logical drive
    ids: tuple[str, str, str]
    hop_label: str
    hop_kind: str
    hop_util: float | None
    hop_source: str


def explain_path(topo: Topology, result: Analysis, path: Path) -> str:
    """One paragraph on a path: its rate, its binding hop and why that hop binds."""
    ends = " \u2192 ".join(component_label(topo, c) for c in (path.hba_port, path.host_port, path.logical_drive))
    rate = "rate unknown" if path.mbps is None else f"{path.mbps:,.1f} MB/s"
    text = f"{ends}: {rate}."
    load = result.components.get(path.bottleneck) if path.bottleneck else None
    if load is None or not load.capacity:
        return text + " No hop with a capacity figure limits it."
    hop = component_label(topo, path.bottleneck)
    pct = (load.utilization or 0) * 100
    if load.paths > 1:
        why = f"shared by {load.paths} paths: its capacity shared fairly among them gives this path its rate"
    else:
        why = "used by this path alone: its capacity is this path's rate"
    source = f"; capacity from {load.source}" + (" (estimate)" if load.estimate else "") if load.source else ""
    return (
        f"{text} Binding hop: {hop} ({kind_name(load.kind)}), {load.load:,.0f} / {load.capacity:,.0f} MB/s "
        f"({pct:.0f} %), {why}{source}."
    )


class PathTableModel(QAbstractTableModel):
    """The paths of one analysis as rows, kept sorted here (Qt's own naming: a model class ends
    in Model). The sort is the model's, not the proxy's: Qt's proxy model asked Python for
    both keys of every comparison (30,000 calls for the 16x site's 1,792 paths: 80 ms when the
    panel was first filled, 20-40 ms on every figure set switched); here each row's key is
    read once."""

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self.rows: list[PathRow] = []
        self.sort_column, self.sort_order = COL_MBPS, Qt.SortOrder.AscendingOrder

    def _sorted(self, rows: list[PathRow]) -> list[PathRow]:
        """``rows`` in the model's sort (stable: equal keys keep the analysis's order)."""
        col = self.sort_column
        descending = self.sort_order == Qt.SortOrder.DescendingOrder
        return sorted(rows, key=lambda r: _sort_key(r, col), reverse=descending)

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        """Sort by ``column`` (a header clicked): the rows move, the selection goes with them."""
        self.sort_column, self.sort_order = column, order
        self._arrange(self._sorted(self.rows))

    def _arrange(self, rows: list[PathRow]) -> None:
        """Show the rows (the same paths) in the order of ``rows``, as one layout change; the
        persistent indexes (the view's selection and current row) follow their paths."""
        if [r.path.id for r in rows] == [r.path.id for r in self.rows]:
            self.rows = rows
            return
        self.layoutAboutToBeChanged.emit()
        place = {r.path.id: i for i, r in enumerate(rows)}
        olds = self.persistentIndexList()
        news = [self.index(place[self.rows[i.row()].path.id], i.column()) for i in olds]
        self.rows = rows
        self.changePersistentIndexList(olds, news)
        self.layoutChanged.emit()

    def set_rows(self, rows: list[PathRow]) -> None:
        """Show ``rows`` (in the analysis's order), sorted. Paths gone and new are announced as
        rows removed and inserted, the paths kept that moved in the sort as a layout change,
        and of those kept only the rows that read otherwise as changed (a reset re-sorted all
        1,792 paths of the 16x site when a subsystem's 112 came or went); the first rows of a
        design are a reset."""
        rows = self._sorted(rows)
        if not self.rows:
            self.beginResetModel()
            self.rows = rows
            self.endResetModel()
            return
        before = {r.path.id: r for r in self.rows}
        new_ids = {r.path.id for r in rows}
        gone = [i for i, r in enumerate(self.rows) if r.path.id not in new_ids]
        for first, last in reversed(_runs(gone)):
            self.beginRemoveRows(QModelIndex(), first, last)
            del self.rows[first : last + 1]
            self.endRemoveRows()
        self._arrange([r for r in rows if r.path.id in before])
        added = [i for i, r in enumerate(rows) if r.path.id not in before]
        for first, last in _runs(added):  # in order: each run's place counts the runs before it
            self.beginInsertRows(QModelIndex(), first, last)
            self.rows[first:first] = rows[first : last + 1]
            self.endInsertRows()
        self.rows = rows
        changed = [
            i
            for i, r in enumerate(rows)
            if (a := before.get(r.path.id)) is not None and a is not r and _shown(a) != _shown(r)
        ]
        last = len(COLUMNS) - 1
        for first, end in _runs(changed):
            self.dataChanged.emit(self.index(first, 0), self.index(end, last))

    def rowCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:  # noqa: B008 (Qt signature)
        return 0 if parent.isValid() else len(self.rows)

    def columnCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(COLUMNS)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if orientation == Qt.Orientation.Horizontal:
            if role == Qt.ItemDataRole.DisplayRole:
                return COLUMNS[section]
            if role == Qt.ItemDataRole.ToolTipRole:
                return {
                    COL_MBPS: "The path's share when all paths run at once (max-min fair)",
                    COL_HOP: "The hop that limits this path: raising its capacity or moving load off it raises the rate",
                    COL_UTIL: "How busy the binding hop is (load / capacity)",
                }.get(section)
        return None

    def data(self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        row, col = self.rows[index.row()], index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            return _display(row, col)
        if role == FILTER_ROLE:
            return _filter_text(row, col)
        if role == Qt.ItemDataRole.TextAlignmentRole and col in NUMERIC:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if role == Qt.ItemDataRole.ForegroundRole and col == COL_UTIL:
            return utilization_colour(row.hop_util)
        if role == Qt.ItemDataRole.ToolTipRole:
            return _tooltip(row, col)
        if role == PATH_ROLE:
            return row.path
        return None


def _shown(row: PathRow) -> tuple:
    """What a row shows, sorts and filters by (compared to announce only the rows that change)."""
    p = row.path
    return (row.cells, row.ids, p.mbps, p.bottleneck, row.hop_label, row.hop_kind, row.hop_util, row.hop_source)


def _runs(indexes: list[int]) -> list[tuple[int, int]]:
    """Sorted indexes as (first, last) runs of consecutive ones."""
    out: list[tuple[int, int]] = []
    for i in indexes:
        if out and out[-1][1] == i - 1:
            out[-1] = (out[-1][0], i)
        else:
            out.append((i, i))
    return out


def _display(row: PathRow, col: int) -> str:
    p = row.path
    if col < 3:
        return row.cells[col]
    if col == COL_MBPS:
        return "unknown" if p.mbps is None else f"{p.mbps:.1f}"
    if col == COL_HOP:
        if not row.hop_label:
            return "-"
        if row.hop_kind.lower() in row.hop_label.lower():
            return row.hop_label
        return f"{row.hop_label} ({row.hop_kind})"
    return "-" if row.hop_util is None else f"{row.hop_util * 100:.0f} %"


def _sort_key(row: PathRow, col: int) -> Any:
    p = row.path
    if col < 3:
        return natural_key(row.cells[col])
    if col == COL_MBPS:
        return -1.0 if p.mbps is None else float(p.mbps)
    if col == COL_HOP:
        return natural_key(f"{row.hop_kind} {row.hop_label}")
    return -1.0 if row.hop_util is None else float(row.hop_util)


def _filter_text(row: PathRow, col: int) -> str:
    if col < 3:
        return f"{row.cells[col]} {row.ids[col]}"
    if col == COL_HOP:
        return f"{row.hop_label} {row.hop_kind} {row.path.bottleneck or ''}"
    return _display(row, col)


def _tooltip(row: PathRow, col: int) -> str:
    if col < 3:
        return row.ids[col]
    if col == COL_HOP and row.hop_source:
        return f"{row.path.bottleneck}: capacity from {row.hop_source}"
    return row.path.id


def _single_shot(owner: QWidget, slot: Any) -> QTimer:
    """A single-shot timer of ``owner`` that calls ``slot``."""
    timer = QTimer(owner)
    timer.setSingleShot(True)
    timer.timeout.connect(slot)
    return timer


class _FilterOnly(QSortFilterProxyModel):
    """Filters the paths; a sort asked of it (a header clicked) is the source model's."""

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        source = self.sourceModel()
        if source is not None:
            source.sort(column, order)


class PathsPanel(QWidget):
    """The analysed paths. ``doc`` is an ``app.document.Document`` (duck-typed).

    Public: ``model`` (source), ``proxy`` (sorted/filtered), ``view``, ``filter``,
    :meth:`path_at` (the path in a view row), :meth:`select_path`.
    """

    def __init__(self, doc: Document, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("PathsPanel")
        self.doc = doc
        self._restoring = False
        self._sized = False
        self._sizing: Iterator[None] | None = None  # the columns being sized (see _size_slice)
        self._size_timer = _single_shot(self, self._size_slice)
        self._chosen: Path | None = None

        lay = QVBoxLayout(self)
        lay.setContentsMargins(4, 4, 4, 4)
        self.filter = QLineEdit()
        self.filter.setPlaceholderText("Filter paths: port, drive, hop (labels or ids)")
        self.filter.setClearButtonEnabled(True)
        self.filter.setToolTip("Show only paths with this text in any column (labels and ids)")
        lay.addWidget(self.filter)
        self.summary = QLabel("Analysing...")
        lay.addWidget(self.summary)
        self.detail = QLabel()
        self.detail.setWordWrap(True)
        self.detail.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.detail.setToolTip("The chosen path: its rate, the hop that limits it, and why")
        self.detail.hide()
        lay.addWidget(self.detail)

        self.model = PathTableModel(self)
        self.proxy = _FilterOnly(self)
        self.proxy.setSourceModel(self.model)
        self.proxy.setFilterRole(FILTER_ROLE)
        self.proxy.setFilterKeyColumn(-1)
        self.proxy.setFilterCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        self.proxy.setDynamicSortFilter(True)
        self.filter.textChanged.connect(self._on_filter)

        self.view = QTableView()
        self.view.setModel(self.proxy)
        self.view.setSortingEnabled(True)
        self.view.sortByColumn(COL_MBPS, Qt.SortOrder.AscendingOrder)  # the slowest paths first
        self.view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.view.setAlternatingRowColors(True)
        self.view.setWordWrap(False)
        self.view.verticalHeader().hide()
        self.view.verticalHeader().setDefaultSectionSize(self.view.fontMetrics().height() + 6)
        self.view.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        self.view.horizontalHeader().setStretchLastSection(False)
        self.view.horizontalHeader().setSectionResizeMode(COL_HOP, QHeaderView.ResizeMode.Stretch)
        self.view.setToolTip("Choose a path to highlight it on the canvas")
        self.view.selectionModel().selectionChanged.connect(self._on_selection)
        lay.addWidget(self.view, 1)

        self.follow = WhenShown(self, self._on_analysis, doc)  # only while on screen
        doc.analysisReady.connect(self.follow.take)
        doc.projectReplaced.connect(self._on_replaced)
        doc.modelEvents.connect(self._on_model_events)
        self._keep_labels()
        if doc.analysis is not None:
            self._on_analysis(doc.analysis)

    def _keep_labels(self) -> None:
        """The labels kept between analyses (see :meth:`_label`, :meth:`_label_in_slices`)."""
        self._labels: dict[str, str] = {}  # component id -> label, kept while no name can change
        self._labelled = False  # the rows shown read the labels kept (else all are made again)
        self._several: frozenset[str] = frozenset()  # the kinds the labelled design has two or more of
        self._labelling: tuple[Any, Iterator[None]] | None = None  # (bundle, its labels made in slices)
        self._wait_until = 0.0  # (see CANVAS_WAIT_S)
        self._label_timer = _single_shot(self, self._label_slice)

    # -- public ---------------------------------------------------------------------------
    def path_at(self, view_row: int) -> Path | None:
        index = self.proxy.index(view_row, 0)
        return self.proxy.data(index, PATH_ROLE) if index.isValid() else None

    def select_path(self, path_id: str) -> bool:
        """Choose the row of ``path_id`` as a user would; False when it is not shown."""
        row = self._view_row_of(path_id)
        if row < 0:
            return False
        self.view.selectRow(row)
        return True

    # -- updating -------------------------------------------------------------------------
    def _on_model_events(self, events: list[Any]) -> None:
        for event in events:
            if event.type in ("added", "removed"):  # the others' labels read only their own ancestors
                self._labels.pop(event.id, None)  # (and whether a kind has several: see _on_analysis)
            elif event.type != "changed" or event.key in NAMING_KEYS:
                self._relabel()  # a name, a parent or an array's drives: labels may read otherwise
                return

    def _relabel(self) -> None:
        """Forget every label, and the rows that show them."""
        self._labels.clear()
        self._labelled = False

    def _on_replaced(self) -> None:
        self._relabel()
        self._labelling = None
        self.follow.forget()
        self._sized = False
        self._sizing = None
        self._chosen = None
        self.model.set_rows([])
        self.summary.setText("Analysing...")
        self._explain()

    def _check_several(self) -> None:
        """Forget the labels when a kind went from one to several or back (a label names its
        server only when the design has several)."""
        topo = self.doc.topology
        several = frozenset(k for k in KINDS if topo.count_of(k) > 1)
        if several != self._several:
            self._relabel()
            self._several = several

    def _label(self, cid: str | None) -> str:
        """The label of ``cid`` (kept until a name may change: see :meth:`_on_model_events`)."""
        if not cid:
            return ""
        got = self._labels.get(cid)
        if got is None:
            topo = self.doc.topology
            comp = topo.get(cid)
            got = self._labels[cid] = component_label(topo, comp) if comp is not None else cid
        return got

    def _rows(self, result: Analysis) -> list[PathRow]:
        """The rows of ``result``'s paths (see :meth:`_making_rows`), made at once."""
        rows: list[PathRow] = []
        for _ in self._making_rows(result, rows):
            pass
        return rows

    def _making_rows(self, result: Analysis, rows: list[PathRow]) -> Iterator[None]:
        """Make the rows of ``result``'s paths into ``rows``, pausing (yielding) every
        :data:`ROWS_PER_STEP`. A path object the analysis kept (a part the edit did not reach
        keeps its paths, their rates and their hops' loads) keeps its row while no label has
        changed since: an edit of one subsystem of the 16x site makes 112 rows again, not
        1,792."""
        topo = self.doc.topology
        self._check_several()
        label = self._label
        kept = {id(r.path): r for r in self.model.rows} if self._labelled else {}
        self._labelled = True
        for n, p in enumerate(result.paths):
            row = kept.get(id(p))
            if row is not None:
                rows.append(row)
                continue
            load = result.components.get(p.bottleneck) if p.bottleneck else None
            kind = load.kind if load is not None else (topo[p.bottleneck].kind if p.bottleneck in topo else "")
            rows.append(
                PathRow(
                    p,
                    (label(p.hba_port), label(p.host_port), label(p.logical_drive)),
                    (p.hba_port, p.host_port, p.logical_drive),
                    label(p.bottleneck),
                    kind_name(kind),
                    load.utilization if load is not None else None,
                    (load.source + (" (estimate)" if load.estimate else "")) if load is not None else "",
                )
            )
            if n % ROWS_PER_STEP == ROWS_PER_STEP - 1:
                yield

    def _unlabelled(self, result: Analysis) -> list[str]:
        """The components ``result``'s paths name that have no label kept."""
        labels = self._labels
        return [
            cid
            for p in result.paths
            for cid in (p.hba_port, p.host_port, p.logical_drive, p.bottleneck)
            if cid and cid not in labels
        ]

    def _new_rows(self, result: Analysis) -> int:
        """How many rows showing ``result`` makes anew (see :meth:`_rows`)."""
        if not self._labelled:
            return len(result.paths)
        kept = {id(r.path) for r in self.model.rows}
        return sum(1 for p in result.paths if id(p) not in kept)

    def _label_in_slices(self, bundle: AnalysisBundle) -> bool:
        """Start labelling what ``bundle``'s paths name in slices when there is much of it (see
        LABELS_AT_ONCE), the bundle shown once done, or show it on a later turn when it makes
        many rows (ROWS_AT_ONCE) or new rows while the canvas paints in slices (CANVAS_WAIT_S);
        whether it started (or goes on). Only the first rows of a design, or those after every
        label was forgotten, are looked for labels: an edit's rows need the labels of its new
        paths at most."""
        self._check_several()
        fresh = self._labelled and self._labelling is None
        missing = [] if fresh else self._unlabelled(bundle.result)
        new = self._new_rows(bundle.result)
        few = len(missing) <= LABELS_AT_ONCE and new <= ROWS_AT_ONCE
        if few and not ((missing or new) and getattr(self.doc, "analysis_showing", False)):
            self._labelling = None
            return False

        rows: list[PathRow] = []

        def slices() -> Iterator[bool | None]:  # (none at all: the rows shown on the next turn)
            until = slice_budget.until(LABEL_SLICE_S)
            for _ in itertools.chain(map(self._label, missing), self._making_rows(bundle.result, rows)):
                # (a label forgotten meanwhile is made again, as it reads now)
                while until is None:  # (this turn's other slices took its time)
                    yield False
                    until = slice_budget.until(LABEL_SLICE_S)
                if time.perf_counter() >= until:
                    yield
                    until = slice_budget.until(LABEL_SLICE_S)

        self._labelling = (bundle, slices(), rows)
        self._wait_until = time.perf_counter() + CANVAS_WAIT_S
        if len(missing) > LABELS_AT_ONCE:
            self.summary.setText(f"Listing {len(bundle.result.paths)} paths...")
        self._label_timer.start(1)  # (a timer: Qt runs posted calls before timers, see _on_analysis)
        return True

    def _label_slice(self) -> None:
        if self._labelling is None:
            return
        bundle, steps, rows = self._labelling
        try:
            more = next(steps, True)
        finally:
            slice_budget.ended()
        if more is not True:  # more to label: the next slice on the next turn (put off: a moment later)
            self._label_timer.start(0 if more is None else 1)
            return
        if getattr(self.doc, "analysis_showing", False) and time.perf_counter() < self._wait_until:
            self._label_timer.start(5)  # the canvas paints it in slices: after it
            return
        self._labelling = None
        if self.doc.is_current(bundle):  # (else a newer analysis is on its way)
            self._show(bundle, rows)

    def _on_analysis(self, bundle: AnalysisBundle) -> None:
        if not self._label_in_slices(bundle):
            self._show(bundle)

    def _show(self, bundle: AnalysisBundle, made: list[PathRow] | None = None) -> None:
        """Show the rows of ``bundle`` (``made``: already made, in slices), the chosen path
        chosen again."""
        rows = self._rows(bundle.result) if made is None else made
        chosen = self._chosen
        self._restoring = True
        try:
            self.model.set_rows(rows)
            again = None
            if chosen is not None:
                again = next((r.path for r in rows if r.path.id == chosen.id), None)
                if again is not None:
                    self.select_path(again.id)
        finally:
            self._restoring = False
        if chosen is not None:
            if again is None:
                self._chosen = None
                self.doc.highlight_path(None)  # the chosen path is gone
            else:
                self._chosen = again
                if again.hops != chosen.hops or again.bottleneck != chosen.bottleneck:
                    self.doc.highlight_path(again)
        self._explain()
        if not self._sized and rows:  # once per design, not on every re-analysis, from the next turn
            self._sized = True  # (of the event loop: the rows set and the sizing took 16-20 ms in one)
            self._sizing = self._sizing_columns()
            self._size_timer.start(1)  # (a timer: Qt runs posted calls before timers)
        self._summarise()

    def _size_slice(self) -> None:
        """Size columns for SIZE_SLICE_S, one at least; the rest on later turns."""
        if self._sizing is None:
            return
        until = slice_budget.until(SIZE_SLICE_S)
        if until is None:  # (this turn's other slices took its time)
            self._size_timer.start(1)
            return
        try:
            for _ in self._sizing:
                if time.perf_counter() >= until:
                    self._size_timer.start(0)
                    return
            self._sizing = None
        finally:
            slice_budget.ended()

    def _sizing_columns(self) -> Iterator[None]:
        """Each column as wide as the widest of a sample of its cells: the first SIZING_ROWS
        rows shown and the cells with the longest texts, a column at a time (yielding after
        each). Qt's own sizing measures every row when the view is not laid out yet (a panel
        shown for the first time): 1,792 paths of the 16x site blocked the editor 0.5-0.8 s.
        The texts are measured with the view's font, and the cell's margins once per column
        from Qt's size of one cell (Qt's size of each cell sampled asked Python for several
        roles of it: 1,236 cells, 50-65 ms). Run from a turn of the event loop after the rows
        are set (the two took 16-20 ms in one). Rows set anew meanwhile are sampled from the
        next column on."""
        view, proxy = self.view, self.proxy
        grid = 1 if view.showGrid() else 0
        fm = view.fontMetrics()
        sampled: list[PathRow] | None = None
        for col in range(len(COLUMNS)):
            rows = self.model.rows
            if not rows:
                return
            if rows is not sampled:  # the rows shown first: the model's own order when nothing is
                sampled, first = rows, min(proxy.rowCount(), SIZING_ROWS)  # filtered out (the proxy
                if proxy.rowCount() == len(rows):  # only filters; each call into Qt here waits
                    shown = list(range(first))  # for the interpreter while a lane computes)
                else:
                    shown = [proxy.mapToSource(proxy.index(r, 0)).row() for r in range(first)]
            lengths = [len(r.cells[col]) for r in rows] if col < 3 else [len(_display(r, col)) for r in rows]
            longest = heapq.nlargest(3, range(len(rows)), key=lengths.__getitem__)
            probe = shown[0] if shown else longest[0]
            hint = view.sizeHintForIndex(proxy.mapFromSource(self.model.index(probe, col))).width()
            margin = hint - fm.horizontalAdvance(_display(rows[probe], col))
            texts = {_display(rows[i], col) for i in {*shown, *longest}}
            width = max(fm.horizontalAdvance(t) for t in texts) + margin + grid
            view.horizontalHeader().resizeSection(col, max(width, view.horizontalHeader().sectionSizeHint(col)))
            yield

    def _on_filter(self, text: str) -> None:
        self.proxy.setFilterFixedString(text.strip())
        self._summarise()

    def _summarise(self) -> None:
        bundle = self.doc.analysis
        n = self.model.rowCount()
        if bundle is None:
            self.summary.setText("Analysing...")
            return
        unknown = sum(1 for r in self.model.rows if r.path.mbps is None)
        text = f"{n} paths, aggregate {bundle.result.aggregate:.0f} MB/s ({bundle.direction}, {bundle.figures} figures)"
        if unknown:
            text += f"; {unknown} without a known rate"
        shown = self.proxy.rowCount()
        if shown != n:
            text = f"Showing {shown} of {text}"
        if n == 0:
            text = "No paths: a path needs cabling, zoning, a host mapping and a logical drive owner."
        self.summary.setText(text)

    def _view_row_of(self, path_id: str) -> int:
        for r, row in enumerate(self.model.rows):
            if row.path.id == path_id:
                return self.proxy.mapFromSource(self.model.index(r, 0)).row()
        return -1

    def _on_selection(self, _sel: QItemSelection, _desel: QItemSelection) -> None:
        if self._restoring:
            return
        rows = self.view.selectionModel().selectedRows()
        if not rows:
            if self._chosen is not None:
                self._chosen = None
                self.doc.highlight_path(None)
            self._explain()
            return
        path = self.proxy.data(rows[0], PATH_ROLE)
        self._chosen = path
        self._explain()
        self.doc.highlight_path(path)
        self.doc.select([path.hba_port, path.host_port, path.logical_drive])

    def _explain(self) -> None:
        """Say why the chosen path runs at its rate (hidden when no path is chosen)."""
        bundle = self.doc.analysis
        if self._chosen is None or bundle is None:
            self.detail.hide()
            self.detail.clear()
            return
        self.detail.setText(explain_path(self.doc.topology, bundle.result, self._chosen))
        self.detail.show()
