"""Assistants that finish a design: each a plain function ``(topo, ...) -> Assisted`` that applies
one undoable step and says what it did (``Assisted.lines``), or raises ModelError with the reason.

- :func:`place_hbas` (server.py): the paper's 16-per-drawer slot order, spread over PHBs and links
- :func:`cable_asic_local`, :func:`zone_for_multipath` (san.py): each HBA on its storage port's
  ASIC; zones per the multipath driver (RDAC: one port of each controller per HBA)
- :func:`layout_arrays`, :func:`map_luns` (storage.py): Table 1 layouts; partitions with LUN
  ownership balanced over the controllers
- :func:`build_lvm` (lvm.py): hdisks, a VG of the right type, LTG = full stripe, a striped LV
- :func:`complete` (complete.py): all that apply, in order
- :mod:`planner.assist.fixes`: the mechanical fix of a rule's finding (``fix_for``)
"""

from __future__ import annotations

from planner.assist.base import Assisted, NothingToDo
from planner.assist.complete import complete, place_missing_hbas
from planner.assist.lvm import build_lvm
from planner.assist.san import cable_asic_local, recable_asic_local, rezone_subsystem, zone_for_multipath
from planner.assist.server import assign_lpars, place_hbas, slot_order
from planner.assist.storage import balance_ownership, best_layout, layout_arrays, map_luns

__all__ = [
    "Assisted",
    "NothingToDo",
    "assign_lpars",
    "balance_ownership",
    "best_layout",
    "build_lvm",
    "cable_asic_local",
    "complete",
    "layout_arrays",
    "map_luns",
    "place_hbas",
    "place_missing_hbas",
    "recable_asic_local",
    "rezone_subsystem",
    "slot_order",
    "zone_for_multipath",
]
