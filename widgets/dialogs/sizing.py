"""Design > Size to a target...: the target, figures and options; the paper's sizing steps and
counts shown live as the inputs change (:func:`planner.sizing.estimate`, no build)."""

from __future__ import annotations

from typing import Any

from PySide6.QtGui import QFont
from PySide6.QtWidgets import QWidget

from planner.figures import FIGURE_SETS
from planner.naming import counted
from planner.sizing import MULTIPATH, SizingError, estimate, format_steps
from widgets.dialogs.base import FormDialog, choice_options

#: where the sized design goes
DESTINATIONS = (("a new scenario of this design", "scenario"), ("a new design (replaces the open one)", "design"))


class SizingDialog(FormDialog):
    """Inputs of :func:`planner.sizing.size`; OK hands :meth:`values` to ``on_ok``."""

    def __init__(self, topo: Any, parts: dict[str, dict[str, Any]], parent: QWidget | None = None) -> None:
        super().__init__("Size to a target", topo, parent)
        self.parts = parts
        self.read = self.add_float("Read target", 0, 100000, 16000, " MB/s", "the aggregate read the workload needs")
        self.write = self.add_float("Write target", 0, 100000, 0, " MB/s", "with a read target: both at once (mixed)")
        self.figures = self.add_combo("Figures", choice_options(FIGURE_SETS), "planning", "the figure set to size with")
        self.headroom = self.add_float("Headroom", 0, 1000, 0, " %", "extra over the target the analysis must show")
        self.multipath = self.add_combo("Multipath driver", choice_options(MULTIPATH), "RDAC")
        self.fabrics = self.add_combo("Fabrics", [("1", 1), ("2: each subsystem over two switches", 2)], 1)
        self.whole = self.add_check("16 adapters per drawer", False, "fill every drawer, as the paper's benchmark")
        self.dest = self.add_combo("Open as", DESTINATIONS, "scenario")
        self.summary.setFont(QFont("monospace"))
        self.refresh()

    def values(self) -> dict[str, Any]:
        return {
            "target_read_mbps": self.read.value(),
            "target_write_mbps": self.write.value(),
            "figures": self.figures.currentData(),
            "headroom_pct": self.headroom.value(),
            "multipath": self.multipath.currentData(),
            "fill_drawers": self.whole.isChecked(),
            "fabrics": int(self.fabrics.currentData()),
        }

    def destination(self) -> str:
        return str(self.dest.currentData())

    def _estimate(self) -> tuple[list[Any], Any] | str:
        v = self.values()
        v.pop("multipath")
        try:
            return estimate(parts=self.parts, **v)
        except SizingError as err:
            return str(err)

    def problem(self) -> str | None:
        got = self._estimate()
        return got if isinstance(got, str) else None

    def describe(self) -> str:
        got = self._estimate()
        if isinstance(got, str):
            return ""
        steps, c = got
        lines = format_steps(steps)
        lines.append(
            f"About {counted(c.drawers, 'drawer')}, {counted(c.hbas, 'HBA')}, {counted(c.switches, 'switch')}, {counted(c.subsystems, 'subsystem')}; "
            "OK builds the design and proves it with the analysis"
        )
        return "\n".join(lines)
