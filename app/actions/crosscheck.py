"""The max-flow cross-check in the editor: the status bar's indicator
(:class:`widgets.crosscheck.CrossCheckLabel`; the background runs the check when the design is
quiet) and Design > Analysis > Cross-check with max flow, which runs it at once on the analysis
shown and reports the result."""

from __future__ import annotations

from typing import Any

from app.actions.registry import DesignAction, register


def attach(window: Any) -> None:
    """Put the cross-check indicator (``window.cross_check_label``) into the status bar."""
    from widgets.crosscheck import CrossCheckLabel

    window.cross_check_label = CrossCheckLabel(window.doc)
    window.statusBar().addPermanentWidget(window.cross_check_label)


def cross_check_now(window: Any) -> Any:
    """Cross-check the analysis shown now; returns the :class:`app.background.CrossCheck` (None
    when there is nothing to check, with a message saying why)."""
    from app.background import cross_check

    doc = window.doc
    bundle = doc.analysis
    if bundle is None or not doc.is_current(bundle):
        doc.message.emit("the analysis of this revision is not ready yet; try again in a moment")
        return None
    result = cross_check(bundle, bundle.result)
    if result is None:
        doc.message.emit("the max-flow cross-check applies to read or write: choose one direction in the toolbar")
        return None
    doc.accept_cross_check(result)
    if result.agrees:
        window.show_message(
            f"max-flow cross-check agrees: the analysis carries {result.aggregate:,.1f} MB/s, the network's max "
            f"flow is {result.max_flow:,.1f} MB/s (min cut: {', '.join(result.min_cut[:4]) or 'none'})",
            error=False,
        )
    return result


register(
    DesignAction(
        "cross-check",
        "&Cross-check with max flow",
        cross_check_now,
        tip="Compare the analysed aggregate with the max flow of the same network and name the min-cut hops "
        "(the editor also does this by itself when the design is quiet)",
        menu="Analysis",
        order=20,
    )
)
