"""The part record: one check, :func:`part_problem`, shared by the parts catalog and the file loader.

A part record (a row of ``catalogs/builtin/parts.toml``, a user part, or an entry of a design's
``parts``) has an id, a kind, figures with a source for every figure set, and optional layout
rows, slot map and numbers the editor reads. The format is described in ``docs/file-format.md``
(section 1.3).
"""

from __future__ import annotations

import math
from typing import Any

from planner.figures import DIRECTIONS, FIGURE_SETS
from planner.schema import part_kinds

MAX_ID_LENGTH = 64
MAX_DEPTH = 16  # nesting of a part's fields; deeper is damage, not data
NUMBERS = ("max_drawers", "ports", "speed_gbps", "drive_bays", "host_ports_per_controller", "cache_mb")
# rack space (planner.placement)
NUMBERS += ("u_height", "rack_width_in", "frame_u", "frame_width_mm", "cec_u")
LAYOUT_NUMBERS = ("raid_level", "data_drives", "segment_kb", "read", "write")
SLOT_MAP_KEYS = ("planar", "link", "phb", "drawer_phb", "slots")


def part_problem(part: Any) -> str | None:
    """Why ``part`` is not a valid part record, or None.

    The text does not name the part; the caller says where it is (``part FC6239: ...``).
    Checks the id (text of 1 to 64 characters), the kind (a part kind), the nesting depth, the
    figures (a known set, a source and a positive number of MB/s in each entry), the layout rows,
    the slot map and the numbers the editor reads.
    """
    if not isinstance(part, dict):
        return "must be an object (a table)"
    if _too_deep(part, 0):
        return f"is nested too deeply (more than {MAX_DEPTH} levels)"
    pid = part.get("id")
    if not isinstance(pid, str) or not pid.strip() or len(pid) > MAX_ID_LENGTH:
        return f"needs an id of 1-{MAX_ID_LENGTH} characters"
    kind = part.get("kind")
    if not isinstance(kind, str) or kind not in part_kinds():
        return f"kind must be one of {', '.join(sorted(part_kinds()))}"
    if not isinstance(part.get("name", ""), str):
        return "name must be text"
    return _figures_problem(part.get("figures", {})) or _fields_problem(part)


def part_where(part: Any, where: str = "part") -> str:
    """How a message names ``part``: ``part <id>`` when it has a usable id, else ``where``."""
    pid = part.get("id") if isinstance(part, dict) else None
    if isinstance(pid, str) and pid.strip() and len(pid) <= MAX_ID_LENGTH:
        return f"part {pid}"
    return where


def _figures_problem(figures: Any) -> str | None:
    if not isinstance(figures, dict):
        return "figures must be an object (a table of figures)"
    for fname, sets in figures.items():
        if not isinstance(sets, dict):
            return f"figure {fname} must be an object of figure sets"
        for set_name, entry in sets.items():
            if set_name not in FIGURE_SETS:
                return f"figure {fname} has unknown set {set_name!r} (use {', '.join(FIGURE_SETS)})"
            problem = _entry_problem(entry)
            if problem:
                return f"figure {fname}.{set_name}{problem}"
    return None


def _entry_problem(entry: Any) -> str | None:
    """The problem of one figure entry, as text to follow ``figure hba.rated``."""
    if not isinstance(entry, dict):
        return " must be an object"
    source = entry.get("source")
    if not isinstance(source, str) or not source.strip():
        return " has no source; say where the figure comes from (or 'estimate')"
    keys = [k for k in ("value", *DIRECTIONS) if k in entry]
    if not keys:
        return " has no value (give value, or read and write)"
    for key in keys:
        if not _positive(entry[key]):
            return f".{key} must be a positive number of MB/s, not {repr(entry[key])[:40]}"
    if not isinstance(entry.get("estimate", False), bool):
        return ".estimate must be true or false"
    if "reuses" in entry and (not isinstance(entry["reuses"], str) or entry["reuses"] not in FIGURE_SETS):
        return f".reuses must name a figure set ({', '.join(FIGURE_SETS)})"
    if not isinstance(entry.get("note", ""), str):
        return ".note must be text"
    return None


def _fields_problem(part: dict[str, Any]) -> str | None:
    """The layout rows, slot map, numbers and multipath drivers, where present."""
    layouts = part.get("layouts", [])
    if not isinstance(layouts, list):
        return "layouts must be a list"
    for row in layouts:
        if not isinstance(row, dict):
            return "a layout row must be an object"
        for key in (*LAYOUT_NUMBERS, *(("arrays",) if "arrays" in row else ())):
            if not _number(row.get(key)):
                return f"layout row {key} must be a number"
        if not isinstance(row.get("source"), str) or not row["source"].strip():
            return "a layout row lacks its source"
    slot_map = part.get("slot_map", [])
    if not isinstance(slot_map, list):
        return "slot_map must be a list"
    for row in slot_map:
        missing = [k for k in SLOT_MAP_KEYS if not isinstance(row, dict) or k not in row]
        if missing:
            return f"a slot map row lacks {missing[0]}"
    for key in NUMBERS:
        if key in part and not _number(part[key]):
            return f"{key} must be a number"
    multipath = part.get("multipath")
    if multipath is not None and not (
        isinstance(multipath, str) or (isinstance(multipath, list) and all(isinstance(d, str) for d in multipath))
    ):
        return "multipath must be text or a list of drivers"
    return None


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def _positive(value: Any) -> bool:
    return _number(value) and value > 0


def _too_deep(value: Any, depth: int) -> bool:
    if depth > MAX_DEPTH:
        return True
    if isinstance(value, dict):
        return any(_too_deep(v, depth + 1) for v in value.values())
    if isinstance(value, list):
        return any(_too_deep(v, depth + 1) for v in value)
    return False
