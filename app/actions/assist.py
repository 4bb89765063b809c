"""The Design > Assistants menu and the findings panel's Fix button (:mod:`planner.assist`).

Each action runs one assistant through ``window.doc.run`` (one undo step; a refusal is shown by
the document's message) and shows what it did: a summary in the status line, every line in
``window.last_assist_lines`` and the message's tooltip. Targets come from the selection (a
drawer, a switch, a fabric, a subsystem, an LPAR) or, without one, every component that applies.
"""

from __future__ import annotations

from typing import Any

from app.actions.registry import DesignAction, register
from planner import assist
from planner.assist.base import Assisted, NothingToDo, assisting
from planner.assist.fixes import FIXERS, fix_for
from planner.model import ModelError, Topology
from planner.naming import counted

MENU = "Assistants"


def _selected(window: Any, kind: str) -> list[str]:
    topo = window.doc.topology
    out = []
    for cid in window.doc.selection:
        comp = topo.ancestor(cid, kind) if cid in topo else None
        if comp is not None and comp.id not in out:
            out.append(comp.id)
    return out


def _report(window: Any, title: str, cmd: Any) -> None:
    lines = list(getattr(cmd, "lines", []) or [])
    window.last_assist_lines = lines
    head = f"{title}: {counted(len(lines), 'step')}" + (f" - {lines[0]}" if lines else "")
    window.show_message(head, error=False)
    window.message_label.setToolTip("\n".join(lines))


def run_assistant(window: Any, title: str, op: Any, *args: Any) -> Any:
    """Run ``op(topo, *args)`` as one undo step and show what it did; None when refused."""
    cmd = window.doc.run(op, *args)
    if cmd is not None:
        _report(window, title, cmd)
    return cmd


def _each(topo: Topology, title: str, ids: list[str], step: Any) -> Assisted:
    """``step(topo, id)`` for each id as one step; the ids with nothing to do are skipped."""
    with assisting(topo, title) as a:
        for cid in ids:
            try:
                a.add(step(topo, cid))
            except NothingToDo:
                continue
        if not a.commands:
            raise NothingToDo(f"{title}: nothing to do in this design")
    return a


def _hba_part(window: Any) -> dict[str, Any] | None:
    parts = window.doc.parts
    return parts.get("FC6239") or next((p for p in parts.values() if p.get("kind") == "hba"), None)


def place_hbas(window: Any) -> Any:
    topo = window.doc.topology
    drawers = _selected(window, "drawer") or [d.id for d in topo.of_kind("drawer")]
    part = _hba_part(window)
    if not drawers or part is None:
        window.doc.message.emit("Place HBAs: add a drawer first (and an HBA part in the catalog)")
        return None
    answer = window.ask("text", f"How many HBAs for {drawers[0]}? (the paper: 16 per drawer)", "16")
    if answer in (None, ""):
        return None
    try:
        count = int(str(answer).strip())
    except ValueError:
        window.doc.message.emit(f"Place HBAs: {answer!r} is not a number of adapters")
        return None
    return run_assistant(window, "Place HBAs", assist.place_hbas, drawers[0], part, count)


def cable(window: Any) -> Any:
    switches = _selected(window, "switch")
    return run_assistant(window, "Cable ASIC-local", assist.cable_asic_local, switches[0] if switches else None)


def zone(window: Any) -> Any:
    topo = window.doc.topology
    fabrics = [topo[s]["fabric"] for s in _selected(window, "switch")]
    return run_assistant(
        window, "Zone for the multipath driver", assist.zone_for_multipath, fabrics[0] if fabrics else None
    )


def map_luns(window: Any) -> Any:
    subs = _selected(window, "subsystem")
    return run_assistant(window, "Map logical drives", assist.map_luns, subs[0] if subs else None)


def layout_arrays(window: Any) -> Any:
    topo = window.doc.topology
    subs = _selected(window, "subsystem") or [s.id for s in topo.of_kind("subsystem")]
    return run_assistant(window, "Lay out arrays", _each, "Lay out arrays", subs, assist.layout_arrays)


def build_lvm(window: Any) -> Any:
    topo = window.doc.topology
    lpars = _selected(window, "lpar") or [lp.id for lp in topo.of_kind("lpar")]
    return run_assistant(window, "Build LVM", _each, "Build LVM", lpars, assist.build_lvm)


def complete(window: Any) -> Any:
    return run_assistant(window, "Complete the design", assist.complete, window.doc.parts)


# -- the Fix button ------------------------------------------------------------------------------


def attach_fixes(window: Any) -> None:
    """Give the findings panel its fixes and apply a requested one as one undo step."""
    panel = window.findings

    def provider(design: Any, finding: Any) -> Any:  # off the GUI thread, on the background's copy
        try:
            return fix_for(design, finding)
        except ModelError:
            return None

    panel.fix_provider = provider
    panel.fixable = FIXERS.__contains__
    panel.fixRequested.connect(lambda fix: run_assistant(window, f"Fix {fix.rule}", fix.apply))


for _order, (_id, _title, _run, _tip) in enumerate(
    (
        ("place-hbas", "Place &HBAs...", place_hbas, "HBAs in the selected drawer in the paper's slot order"),
        ("cable-asic-local", "&Cable ASIC-local", cable, "Cable each HBA on the ASIC of its storage port"),
        ("zone-multipath", "&Zone for the multipath driver", zone, "RDAC: one port of each controller per HBA"),
        ("map-luns", "&Map logical drives", map_luns, "Partitions with LUN ownership balanced over controllers"),
        ("layout-arrays", "Lay out &arrays", layout_arrays, "Arrays from free drives, full stripe = LTG (Table 1)"),
        ("build-lvm", "Build &LVM", build_lvm, "hdisks, a VG of the right type, LTG = full stripe, striped LV"),
        ("complete", "Com&plete the design", complete, "Run every assistant that applies, as one undo step"),
    )
):
    register(
        DesignAction(
            f"assist-{_id}", _title, _run, _tip, order=100 * (2 if _id == "complete" else 1) + _order, menu=MENU
        )
    )
