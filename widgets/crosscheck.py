"""The status bar's max-flow cross-check indicator.

The editor's background lane runs the max-flow / min-cut cross-check of the analysis once the
design has been quiet for a second (:mod:`app.background`); Design > Analysis > Cross-check
with max flow runs it at once. This label says where it stands for the revision shown:
"max flow: pending" after an edit, "max flow ✓" when the analysis carries no more than the
network's max flow, "max flow ✗" (red) when it claims more, "max flow: n/a" for the mixed
direction. Its tooltip gives the figures and the min-cut hops.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtWidgets import QLabel

from planner.naming import counted
from widgets.style import set_style_sheet


class CrossCheckLabel(QLabel):
    """Follows ``doc.analysisReady`` and ``doc.crossChecked`` (see the module docstring)."""

    def __init__(self, doc: Any, parent: Any = None) -> None:
        super().__init__("", parent)
        self.doc = doc
        self.state = "none"  # none, pending, agrees, disagrees, n/a
        doc.analysisReady.connect(self.refresh)
        doc.crossChecked.connect(self.refresh)

    def refresh(self, *_: Any) -> None:
        doc = self.doc
        a, x = doc.analysis, doc.cross_check
        if a is None:
            self._show("none", "", "")
        elif a.direction == "mixed":
            self._show("n/a", "max flow: n/a", "The max-flow cross-check applies to read or to write, not to the mix")
        elif x is None or x.revision != a.revision or x.origin is not a.origin or x.figures != a.figures:
            self._show("pending", "max flow: pending", "The max-flow cross-check runs when the design has been quiet")
        else:
            self._show_result(x)

    def _show_result(self, x: Any) -> None:
        flow = "unbounded" if x.max_flow == float("inf") else f"{x.max_flow:,.1f} MB/s"
        cut = ", ".join(x.min_cut[:6]) + (f" and {len(x.min_cut) - 6} more" if len(x.min_cut) > 6 else "")
        tip = (
            f"The analysis carries {x.aggregate:,.1f} MB/s ({x.figures} figures, {x.direction}); "
            f"the network's max flow is {flow}.\nMin cut: {counted(len(x.min_cut), 'hop')}"
            + (f": {cut}" if cut else "")
        )
        if x.agrees:
            self._show("agrees", "max flow \u2713", tip)
        else:
            self._show("disagrees", "max flow \u2717", tip + "\nThe analysis claims more than the network can carry.")

    def _show(self, state: str, text: str, tip: str) -> None:
        self.state = state
        self.setText(text)
        self.setToolTip(tip)
        set_style_sheet(self, "color: #c62828" if state == "disagrees" else "")
