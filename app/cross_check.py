"""The max-flow cross-check of an analysed revision (run by the check lane of
:mod:`app.background` when the editor is quiet, or asked for by Analysis > Cross-check with max flow)."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from planner.analysis import Analysis


@dataclass
class CrossCheck:
    """The max-flow cross-check of one analysed revision: ``agrees`` when the analysis carries no
    more than the network can (aggregate <= max flow, up to rounding)."""

    revision: int
    figures: str
    direction: str
    aggregate: float
    max_flow: float
    min_cut: list[str]
    origin: Any = None

    @property
    def agrees(self) -> bool:
        return math.isinf(self.max_flow) or self.aggregate <= self.max_flow * (1 + 1e-6) + 1e-6


def cross_check(bundle: Any, result: Analysis, pause: Any = None) -> CrossCheck | None:
    """The max-flow cross-check of ``result`` (the analysis of ``bundle``'s revision in its
    direction); None for the mixed direction, a blend of the read and write analyses that no
    single flow network describes. ``pause``: see planner.maxflow.max_flow."""
    if result.direction == "mixed":
        return None
    from planner.maxflow import max_flow

    flow, cut = max_flow(result.paths, result.components, pause) if result.paths else (0.0, [])
    return CrossCheck(bundle.revision, bundle.figures, bundle.direction, result.aggregate, flow, cut, bundle.origin)
