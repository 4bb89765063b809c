"""Design > Grow...: the higher target, the figures and the new scenario's name; the plan shown
live as the target changes (:func:`planner.grow.preview`, no build)."""

from __future__ import annotations

from typing import Any

from PySide6.QtWidgets import QWidget

from planner.figures import FIGURE_SETS
from planner.grow import GrowthError, preview
from planner.io.project import scenario_name_problem
from widgets.dialogs.base import FormDialog, choice_options


class GrowDialog(FormDialog):
    """Inputs of :func:`planner.grow.grow`; OK hands :meth:`values` to ``on_ok``."""

    def __init__(
        self, topo: Any, parts: dict[str, dict[str, Any]], scenarios: list[str], parent: QWidget | None = None
    ) -> None:
        super().__init__("Grow the design", topo, parent)
        self.parts, self.scenarios = parts, scenarios
        self.read = self.add_float("Read target", 0, 100000, 0, " MB/s", "the aggregate read the design must reach")
        self.write = self.add_float("Write target", 0, 100000, 0, " MB/s", "with a read target: both at once (mixed)")
        self.figures = self.add_combo("Figures", choice_options(FIGURE_SETS), "planning", "the figure set to plan with")
        self.name = self.add_line("New scenario", "", "empty: 'Grown to N MB/s'")
        self.refresh()

    def values(self) -> dict[str, Any]:
        return {
            "target_read_mbps": self.read.value(),
            "target_write_mbps": self.write.value(),
            "figures": self.figures.currentData(),
            "name": self.name.text().strip(),
        }

    def _plan(self) -> list[str] | str:
        v = self.values()
        v.pop("name")
        try:
            return preview(self.topo, parts=self.parts, **v)
        except GrowthError as err:
            return str(err)

    def problem(self) -> str | None:
        name = self.name.text().strip()
        if name:
            bad = scenario_name_problem(name, self.scenarios)
            if bad:
                return f"Scenario name {bad}"
        got = self._plan()
        return got if isinstance(got, str) else None

    def describe(self) -> str:
        got = self._plan()
        return "" if isinstance(got, str) else "\n".join(got)
