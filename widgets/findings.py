"""Findings panel: the rules' findings grouped by severity, with the details of the chosen one.

Choosing a finding selects its components in the document and emits
:attr:`FindingsPanel.focusRequested` so the canvas can centre on them. When the panel has a
``fix_provider`` (``(design, finding) -> fix or None``, a fix having ``preview`` text; set by
the application, with ``fixable(rule)`` saying which rules may have one) and the chosen finding
has a mechanical fix, the preview is shown under the details and the Fix button emits
:attr:`FindingsPanel.fixRequested` with that fix: the application applies it as one undo step
(the panel never edits the design). The fix is worked out off the GUI thread
(``doc.compute_later``: trying it takes a copy of the design and two checks, 0.8 s on the 16x
site, which froze the editor each time such a finding was chosen or the analysis came back). The list follows
``doc.analysisReady``; the chosen finding stays chosen across updates while it still exists
(same rule, same components).
"""

from __future__ import annotations

import html
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any
from urllib.parse import quote, unquote

from PySide6.QtCore import Qt, QUrl, Signal
from PySide6.QtGui import QFont
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSplitter,
    QStyle,
    QTextBrowser,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from planner.naming import label

if TYPE_CHECKING:
    from app.document import AnalysisBundle, Document
    from planner.rules import Finding

#: severity -> (group title, standard icon)
SEVERITY_GROUPS: dict[str, tuple[str, QStyle.StandardPixmap]] = {
    "error": ("Errors", QStyle.StandardPixmap.SP_MessageBoxCritical),
    "warning": ("Warnings", QStyle.StandardPixmap.SP_MessageBoxWarning),
    "advice": ("Advice", QStyle.StandardPixmap.SP_MessageBoxInformation),
}

FINDING_ROLE = Qt.ItemDataRole.UserRole
#: at most this many components are named in the detail view (a finding may group hundreds)
MAX_LISTED = 40
_LINK = "component:"


def finding_key(f: Finding) -> tuple[str, tuple[str, ...]]:
    """What identifies a finding across analyses: its rule and its components."""
    return (f.rule, tuple(f.components))


class FindingsPanel(QWidget):
    """The findings of the latest analysis. ``doc`` is an ``app.document.Document`` (duck-typed).

    Signals: ``focusRequested(list[str])`` (component ids to centre on). Public:
    :meth:`findings`, :meth:`current_finding`, :meth:`select_finding`.
    """

    focusRequested = Signal(object)  # list[str] (see Document.modelEvents)
    fixRequested = Signal(object)

    def __init__(
        self, doc: Document, parent: QWidget | None = None, fix_provider: Callable[[Any], Any] | None = None
    ) -> None:
        super().__init__(parent)
        self.setObjectName("FindingsPanel")
        self.doc = doc
        self.fix_provider = fix_provider
        self.fixable: Callable[[str], bool] = lambda _rule: True
        self._findings: list[Finding] = []
        self._restoring = False
        self._fix: Any = None
        self._fix_asked: tuple[int, int, tuple[str, tuple[str, ...]]] | None = None  # (design, revision, finding)

        lay = QVBoxLayout(self)
        lay.setContentsMargins(4, 4, 4, 4)
        self.summary = QLabel("Analysing...")
        lay.addWidget(self.summary)
        split = QSplitter(Qt.Orientation.Vertical)
        self.tree = QTreeWidget()
        self.tree.setColumnCount(2)
        self.tree.setHeaderLabels(["Rule", "Message"])
        self.tree.setRootIsDecorated(True)
        self.tree.setUniformRowHeights(True)
        self.tree.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.tree.setToolTip("Choose a finding to select its components on the canvas")
        self.tree.header().setStretchLastSection(True)
        self.tree.itemSelectionChanged.connect(self._on_selected)
        split.addWidget(self.tree)
        self.detail = QTextBrowser()
        self.detail.setOpenLinks(False)
        self.detail.setToolTip("Details of the chosen finding; click a component to select it")
        self.detail.anchorClicked.connect(self._on_link)
        split.addWidget(self.detail)
        split.setStretchFactor(0, 3)
        split.setStretchFactor(1, 2)
        lay.addWidget(split, 1)
        lay.addLayout(self._fix_row())

        doc.analysisReady.connect(self._on_analysis)
        doc.projectReplaced.connect(self._on_replaced)
        doc.computed.connect(self._on_computed)
        if doc.analysis is not None:
            self._on_analysis(doc.analysis)
        else:
            self._show_detail(None)

    def _fix_row(self) -> QHBoxLayout:
        row = QHBoxLayout()
        self.fix_preview = QLabel("")
        self.fix_preview.setWordWrap(True)
        self.fix_preview.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.fix_button = QPushButton("Fix")
        self.fix_button.setObjectName("FixButton")
        self.fix_button.setToolTip("Apply the mechanical fix shown beside it (one undo step)")
        self.fix_button.clicked.connect(self._on_fix)
        row.addWidget(self.fix_preview, 1)
        row.addWidget(self.fix_button, 0, Qt.AlignmentFlag.AlignTop)
        self._show_fix(None)
        return row

    # -- public ---------------------------------------------------------------------------
    def current_fix(self) -> Any:
        """The mechanical fix offered for the chosen finding, or None."""
        return self._fix

    def findings(self) -> list[Finding]:
        """The findings shown, in display order."""
        return list(self._findings)

    def current_finding(self) -> Finding | None:
        items = self.tree.selectedItems()
        return items[0].data(0, FINDING_ROLE) if items and items[0].data(0, FINDING_ROLE) is not None else None

    def item_for(self, rule: str, components: Sequence[str] | None = None) -> QTreeWidgetItem | None:
        """The row of the first finding of ``rule`` (and these components, when given)."""
        for g in range(self.tree.topLevelItemCount()):
            group = self.tree.topLevelItem(g)
            for i in range(group.childCount()):
                f = group.child(i).data(0, FINDING_ROLE)
                if f.rule == rule and (components is None or tuple(f.components) == tuple(components)):
                    return group.child(i)
        return None

    def select_finding(self, rule: str, components: Sequence[str] | None = None) -> bool:
        """Choose a finding as the user would (selects its components); False when absent."""
        item = self.item_for(rule, components)
        if item is None:
            return False
        self.tree.setCurrentItem(item)
        return True

    # -- updating -------------------------------------------------------------------------
    def _on_replaced(self) -> None:
        self._findings = []
        self.tree.clear()
        self.summary.setText("Analysing...")
        self._show_detail(None)

    def _on_analysis(self, bundle: AnalysisBundle) -> None:
        if not bundle.checked:
            return  # the rules are still running: their findings follow
        current = self.current_finding()
        keep = finding_key(current) if current is not None else None
        order = {s: i for i, s in enumerate(SEVERITY_GROUPS)}
        findings = sorted(
            bundle.findings, key=lambda f: (order.get(f.severity, 9), f.rule, f.message, tuple(f.components))
        )
        if findings != self._findings or not self.tree.topLevelItemCount():
            self._findings = findings
            self._list(findings, keep)
        counts = {s: sum(1 for f in findings if f.severity == s) for s in SEVERITY_GROUPS}
        errors = f"{counts['error']} error" + ("" if counts["error"] == 1 else "s")
        warnings = f"{counts['warning']} warning" + ("" if counts["warning"] == 1 else "s")
        self.summary.setText(
            f"{errors}, {warnings}, {counts['advice']} advice ({bundle.direction}, {bundle.figures} figures)"
        )
        self._show_detail(self.current_finding())
        self._show_fix(self.current_finding())

    def _list(self, findings: list[Finding], keep: tuple | None) -> None:
        """List ``findings`` (sorted) by severity, the finding ``keep`` (its key) chosen again.
        An analysis with the same findings keeps the list (a server deleted and undone on the
        16x site: 186 findings listed afresh, 9-15 ms of the turn that showed the analysis)."""
        self._restoring = True
        self.tree.setUpdatesEnabled(False)
        try:
            self.tree.clear()
            style = self.style()
            restored: QTreeWidgetItem | None = None
            for severity, (title, pixmap) in SEVERITY_GROUPS.items():
                members = [f for f in findings if f.severity == severity]
                icon = style.standardIcon(pixmap)
                group = QTreeWidgetItem([f"{title} ({len(members)})", ""])
                group.setIcon(0, icon)
                group.setFlags(Qt.ItemFlag.ItemIsEnabled)
                font = QFont(group.font(0))
                font.setBold(True)
                group.setFont(0, font)
                group.setFirstColumnSpanned(True)
                self.tree.addTopLevelItem(group)
                items = []
                for f in members:
                    item = QTreeWidgetItem([f.rule, f.message])
                    item.setData(0, FINDING_ROLE, f)
                    item.setIcon(0, icon)
                    item.setToolTip(1, f"<p>{html.escape(f.message)}</p><p><b>Fix:</b> {html.escape(f.fix)}</p>")
                    items.append(item)
                    if keep is not None and finding_key(f) == keep:
                        restored = item
                group.addChildren(items)
                group.setExpanded(True)
                group.setDisabled(not members)
            self.tree.resizeColumnToContents(0)
            if restored is not None:
                self.tree.setCurrentItem(restored)
        finally:
            self.tree.setUpdatesEnabled(True)
            self._restoring = False

    def _on_selected(self) -> None:
        f = self.current_finding()
        self._show_detail(f)
        self._show_fix(f)
        if f is None or self._restoring:
            return
        ids = list(f.components)
        self.doc.select(ids)
        self.focusRequested.emit(ids)

    def _on_link(self, url: QUrl) -> None:
        text = url.toString()
        if text.startswith(_LINK):
            cid = unquote(text[len(_LINK) :])
            self.doc.select([cid])
            self.focusRequested.emit([cid])

    def _show_fix(self, f: Finding | None) -> None:
        """Ask for the chosen finding's fix (the answer comes by ``doc.computed``)."""
        self._offer(None)
        self._fix_asked = None
        provider = self.fix_provider
        if f is None or provider is None or not self.fixable(f.rule):
            return
        topo = self.doc.topology
        self._fix_asked = (id(topo), topo.revision, finding_key(f))
        self.fix_preview.setText("Looking for a mechanical fix...")
        self.doc.compute_later("fix", lambda design, _progress: provider(design, f))

    def _on_computed(self, done: Any) -> None:
        asked, f = self._fix_asked, self.current_finding()
        if done.key != "fix" or asked is None or (id(done.origin), done.revision) != asked[:2]:
            return
        if f is None or finding_key(f) != asked[2]:
            return  # another finding chosen meanwhile: its own answer comes
        self._fix_asked = None
        if isinstance(done.result, Exception):  # a fix that cannot be worked out is not offered
            self._offer(None, f"No fix offered: {done.result}")
        else:
            self._offer(done.result)

    def _offer(self, fix: Any, note: str = "") -> None:
        self._fix = fix
        self.fix_button.setVisible(fix is not None)
        self.fix_button.setEnabled(fix is not None)
        lines = fix.preview.splitlines() if fix is not None else []
        shown = "\n".join(lines[:6]) + (f"\n... and {len(lines) - 6} more steps" if len(lines) > 6 else "")
        self.fix_preview.setText(f"Fix: {shown}" if fix is not None else note)
        self.fix_preview.setToolTip(fix.preview if fix is not None else "")

    def _on_fix(self) -> None:
        if self._fix is not None:
            self.fixRequested.emit(self._fix)

    # -- details --------------------------------------------------------------------------
    def _show_detail(self, f: Finding | None) -> None:
        if f is None:
            if self._findings:
                text = "Choose a finding to see what it means, what to do and where the rule comes from."
            elif self.doc.analysis is None:
                text = "The design is being analysed."
            else:
                text = "No findings: the rules found nothing to report for this design."
            self.detail.setHtml(f"<p style='color:gray'>{html.escape(text)}</p>")
            return
        self.detail.setHtml(finding_html(f, self.doc.topology))


def finding_html(f: Finding, topo: Any) -> str:
    """A finding as escaped HTML: message, components (labels, linked), fix, source."""
    esc = html.escape
    parts = [f"<h3>{esc(f.rule)} <small>({esc(f.severity)})</small></h3>", f"<p>{esc(f.message)}</p>"]
    links = []
    for cid in f.components[:MAX_LISTED]:
        text = label(topo, cid) if topo is not None else cid
        links.append(f'<a href="{_LINK}{esc(quote(cid))}">{esc(text)}</a>')
    more = len(f.components) - MAX_LISTED
    listing = ", ".join(links) + (f" and {more} more" if more > 0 else "")
    parts.append(f"<p><b>Fix:</b> {esc(f.fix)}</p>")
    parts.append(f"<p><b>Source:</b> <i>{esc(f.source)}</i></p>")
    parts.append(f"<p><b>Components ({len(f.components)}):</b> {listing}</p>")
    return "".join(parts)
