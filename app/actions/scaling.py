"""The scaling curve (:class:`widgets.scaling.ScalingPanel`): a dock beside the other analysis
panels, toggled from the View menu, and Design > Analysis > Scaling curve, which shows and raises it."""

from __future__ import annotations

from typing import Any

from app.actions.registry import DesignAction, register


def attach(window: Any) -> None:
    """Make the Scaling dock (``window.docks['scaling']``, ``window.scaling``), tabbed with the
    Utilization charts; the View menu lists it with the other docks."""
    from PySide6.QtCore import Qt

    from widgets.scaling import ScalingPanel

    window.scaling = ScalingPanel(window.doc)
    dock = window._dock("Scaling", window.scaling, Qt.DockWidgetArea.BottomDockWidgetArea, "ScalingDock")
    window.docks["scaling"] = dock
    window.tabifyDockWidget(window.docks["charts"], dock)


def show_scaling(window: Any) -> Any:
    """Show and raise the Scaling dock; returns its panel."""
    dock = window.docks["scaling"]
    dock.show()
    dock.raise_()
    window.scaling.refresh()
    return window.scaling


register(
    DesignAction(
        "scaling-curve",
        "&Scaling curve",
        show_scaling,
        tip="Aggregate MB/s as HBAs (or drawers) are added in placement order, with the binding hop at each "
        "knee (the P690 paper's Figure 4 profile)",
        menu="Analysis",
        order=10,
    )
)
