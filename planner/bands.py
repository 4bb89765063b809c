"""Utilization bands and the colours every view uses for them (no Qt: hex strings).

One set of thresholds and colours for the canvas, the paths table, the charts, the inspector and
the build sheet: below 70 % of capacity a hop has room ("ok", green), from 70 % to 95 % it is
busy ("busy", amber), from 95 % it is saturated ("over", red). 70 % is the usual planning
headroom for sequential streams; at 95 % a hop is at its measured limit (the P690 Redpaper's
profiles flatten there). Widgets turn the strings into colours with ``QColor(hex)``.
"""

from __future__ import annotations

OK_BELOW = 0.70
OVER_FROM = 0.95

#: band -> colour for lines, text and markers; ``None`` is a hop without a capacity figure
STRONG: dict[str | None, str] = {"ok": "#2e7d32", "busy": "#d98a00", "over": "#c62828", None: "#8a8a8a"}
#: band -> light fill for boxes and table cells
PALE: dict[str | None, str] = {"ok": "#dcf1dc", "busy": "#ffebc0", "over": "#f8cfcf", None: "#ffffff"}
#: finding severity -> colour
SEVERITY_COLOURS = {"error": "#c62828", "warning": "#d98a00", "advice": "#1565c0"}
BINDING = "#c80000"  # the frame of a binding hop
HIGHLIGHT = "#1e6eff"  # a selected path
IDLE = "#969696"  # a hop that carries nothing


def band(util: float | None) -> str | None:
    """'ok', 'busy' or 'over' for a utilization (load / capacity), None when unknown."""
    if util is None or util != util:
        return None
    if util < OK_BELOW:
        return "ok"
    if util < OVER_FROM:
        return "busy"
    return "over"


def colour(util: float | None, pale: bool = False) -> str:
    """The band colour of a utilization as '#rrggbb' (pale for fills)."""
    return (PALE if pale else STRONG)[band(util)]


def percent_html(util: float | None) -> str:
    """'85 %' in its band colour, bold, as rich text; 'no capacity figure' when unknown."""
    if util is None:
        return "no capacity figure"
    return f'<span style="color:{colour(util)}; font-weight:bold">{util * 100:.0f} %</span>'
