"""Looking up part figures: capacity by figure set and direction, with its source.

Parts are plain dicts (from the catalog, carried in the design file). A figure entry looks like
``{"value": 195, "source": "..."}`` or ``{"read": 357, "write": 285, "source": "..."}``, with
optional ``estimate``, ``reuses`` and ``note``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

FIGURE_SETS = ("rated", "measured", "planning")
DIRECTIONS = ("read", "write")


@dataclass(frozen=True)
class Figure:
    value: float
    source: str
    estimate: bool = False
    note: str = ""


def figure(part: dict[str, Any] | None, name: str, figset: str, direction: str) -> Figure | None:
    """The capacity ``name`` of ``part`` in figure set ``figset`` for ``direction``, or None.

    Raises ValueError for an unknown figure set or direction.
    """
    if figset not in FIGURE_SETS:
        raise ValueError(f"figure set must be one of {', '.join(FIGURE_SETS)}, not {figset!r}")
    if direction not in DIRECTIONS:
        raise ValueError(f"direction must be read or write, not {direction!r}")
    if not part:
        return None
    entry = (part.get("figures") or {}).get(name, {}).get(figset)
    if not entry:
        return None
    value = entry.get(direction, entry.get("value"))
    if value is None:
        return None
    return Figure(float(value), str(entry.get("source", "")), bool(entry.get("estimate")), str(entry.get("note", "")))


def data_drives(raid_level: int, drives: int) -> int:
    """Drives that carry data in an array: RAID 5/3 n+P -> n, RAID 1/10 -> n/2, RAID 0 -> n."""
    if raid_level in (3, 5):
        return max(drives - 1, 0)
    if raid_level in (1, 10):
        return drives // 2
    return drives


def layout_throughput(
    part: dict[str, Any] | None, raid_level: int, drives: int, segment_kb: int, direction: str
) -> Figure | None:
    """Whole-subsystem throughput for arrays of this layout, from the part's layout table.

    An exact row (RAID level, data drives, segment size) gives the measured figure with its
    source. Otherwise the row with the nearest data-drive count (same RAID level preferred) is
    scaled by data drives, capped at the subsystem's rated figure, and marked as an estimate.
    Returns None when the part has no layout table.
    """
    rows = (part or {}).get("layouts") or []
    if not rows:
        return None
    n = data_drives(raid_level, drives)
    for row in rows:
        if row["raid_level"] == raid_level and row["data_drives"] == n and row["segment_kb"] == segment_kb:
            return Figure(float(row[direction]), row.get("source", ""))
    same = [r for r in rows if r["raid_level"] == raid_level] or rows
    nearest = min(same, key=lambda r: (abs(r["data_drives"] - n), -r["data_drives"]))
    scale = n / nearest["data_drives"] if nearest["data_drives"] else 0.0
    value = nearest[direction] * min(scale, 1.0) if scale < 1 else float(nearest[direction])
    if raid_level == 5 and direction == "write" and nearest["raid_level"] != 5:
        value *= 0.8
    cap = figure(part, "subsystem", "rated", direction)
    if cap is not None:
        value = min(value, cap.value)
    note = (
        f"estimated from {nearest.get('source', 'the nearest layout')}: RAID {raid_level} with {n} data "
        f"drives and {segment_kb} KB segments is not in the table"
    )
    return Figure(round(value, 1), nearest.get("source", ""), True, note)
