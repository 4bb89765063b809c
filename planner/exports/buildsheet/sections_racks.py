"""The build sheet's rack elevations: one page per rack (or server frame), every unit at its rack
units with its name, part, height, face and location code, the units the server's frame holds for
parts the design does not model, and the units not placed yet (:mod:`planner.placement`)."""

from __future__ import annotations

from typing import Any

from planner import placement
from planner.exports.buildsheet.document import BOLD, FONT, fit_text, one_line, rl_api
from planner.exports.buildsheet.sheet import Sheet, new_section, plural
from planner.naming import label, short_label

U_NUMBERS_W = 22.0  # room left of the rack for the unit numbers
RACK_W = 300.0  # width of the rack on paper
HEAD_H = 40.0  # room the page's title and notes take
MAX_U_H = 16.0  # points per rack unit at most


def racks(sheet: Sheet) -> list[Any]:
    topo = sheet.topo
    out = new_section(sheet, "Rack elevations")
    found = topo.of_kind("rack")
    waiting = [label(topo, c.id) for c in placement.unplaced(topo)]
    note = (
        f"Not placed yet: {', '.join(waiting[:20])}" + (f" and {len(waiting) - 20} more" if len(waiting) > 20 else "")
        if waiting
        else "Every rackable unit is placed."
    )
    if not found:
        return out + [sheet.p("The design places nothing in racks yet (Design > Racks)."), sheet.p(note, "small")]
    out.append(sheet.p(note + " U numbers count from the bottom (EIA, 1U = 44.45 mm).", "small"))
    rl = rl_api()
    for i, rack in enumerate(found):
        if i:
            out.append(rl.PageBreak())
        out += [sheet.heading(_title(sheet, rack)), _elevation(sheet, rack)]
    return out


def _title(sheet: Sheet, rack: Any) -> str:
    topo = sheet.topo
    site = topo.get(rack.parent)
    where = f"row {rack['row'] or '-'}, position {rack['position']}, {rack['height_u']}U, {rack['width_mm']:g} mm"
    frame = f"frame U{rack['frame']} of {short_label(topo[rack['frame_of']])}, " if rack["frame_of"] in topo else ""
    return f"{short_label(rack)} ({frame}{where})" + (f" in {short_label(site)}" if site is not None else "")


def _elevation(sheet: Sheet, rack: Any) -> Any:
    """The rack drawn unit by unit: free units empty, reserved units grey, placed units named."""
    rl = rl_api()
    topo = sheet.topo
    height_u = max(int(rack["height_u"]), 1)
    room = sheet.portrait.height - HEAD_H - 60
    uh = min(MAX_U_H, room / height_u)
    drawing = rl.Drawing(sheet.portrait.width, height_u * uh + 4)
    x0 = U_NUMBERS_W
    grey, ink = rl.colors.HexColor("#b0b0b0"), rl.colors.HexColor("#1a1a1a")
    for u in range(1, height_u + 1):
        y = (u - 1) * uh
        drawing.add(rl.Rect(x0, y, RACK_W, uh, fillColor=None, strokeColor=grey, strokeWidth=0.3))
        drawing.add(rl.String(x0 - 3, y + (uh - 7) / 2, str(u), fontName=FONT, fontSize=7, textAnchor="end"))
    for u, h, what in placement.reserved_units(topo, rack.id):
        _unit(drawing, x0, u, h, uh, [f"{what} (part of the server frame)"], "#e0e0e0", ink)
    for comp, pos in placement.rack_contents(topo, rack.id):
        part = topo.part_of(comp) or {}
        code = placement.location_code(topo, comp.id) if comp.kind == "drawer" else ""
        first = f"{one_line(short_label(comp))}" + (f"  {code}" if code else "")
        detail = ", ".join(
            x for x in (str(part.get("id", "")), f"{pos.height_u}U", pos.face, f"U{pos.u}-{pos.top}") if x
        )
        _unit(drawing, x0, pos.u, pos.height_u, uh, [first, detail], "#e8eef6", ink)
    drawing.add(rl.Rect(x0, 0, RACK_W, height_u * uh, fillColor=None, strokeColor=ink, strokeWidth=1))
    return drawing


def _unit(drawing: Any, x0: float, u: int, h: int, uh: float, lines: list[str], fill: str, ink: Any) -> None:
    """One unit (or reserved block) from rack unit ``u`` up ``h`` units, with up to as many lines of
    text as fit (the first bold)."""
    rl = rl_api()
    y, height = (u - 1) * uh, h * uh
    drawing.add(
        rl.Rect(
            x0 + 1,
            y + 0.5,
            RACK_W - 2,
            height - 1,
            fillColor=rl.colors.HexColor(fill),
            strokeColor=ink,
            strokeWidth=0.6,
        )
    )
    fits = max(1, int((height - 2) // 9))
    shown = lines[:fits] if fits < len(lines) else lines
    top = y + height / 2 + (len(shown) - 1) * 4.5 - 3
    for i, text in enumerate(shown):
        font = BOLD if i == 0 else FONT
        size = 8.0 if i == 0 else 7.0
        if len(shown) == 1 and len(lines) > 1:  # one line of room: the name and its details
            text = f"{lines[0]}: {lines[1]}"
        text, size = fit_text(text, RACK_W - 8, size, font, rl.stringWidth)
        drawing.add(rl.String(x0 + 5, top - i * 9, text, fontName=font, fontSize=size, fillColor=ink))


def rack_rows(sheet: Sheet) -> list[list[Any]]:
    """Bill-of-materials rows for the racks: 19-inch racks by height and width, server frames by
    the unit they belong to."""
    topo = sheet.topo
    groups: dict[tuple[str, str], int] = {}
    for rack in topo.of_kind("rack"):
        owner = topo.get(rack["frame_of"]) if rack["frame_of"] else None
        if owner is not None:
            key = (
                "frame",
                f"frame of {short_label(owner)} ({rack['height_u']}U, {rack['width_mm']:g} mm), ordered with it",
            )
        else:
            key = ("rack", f"rack, {rack['height_u']}U, {rack['width_mm']:g} mm wide")
        groups[key] = groups.get(key, 0) + 1
    return [[n, kind, text, "", "rack"] for (kind, text), n in sorted(groups.items())]


def racks_summary(sheet: Sheet) -> str:
    """'11 racks (2 server frames)' for the checklist."""
    found = sheet.topo.of_kind("rack")
    frames = sum(1 for r in found if r["frame_of"])
    return plural(len(found), "rack") + (f" ({plural(frames, 'server frame')})" if frames else "")
