"""Dialogs on the server side: a new LPAR, HBAs to an LPAR, an LPAR's HBAs."""

from __future__ import annotations

from typing import Any

from planner import edit_create as ec
from planner.naming import label, qualified_name
from planner.schema import AIX_LEVELS, KINDS, MULTIPATH_DRIVERS
from widgets.dialogs.base import FormDialog, checked_ids, choice_options

_LPAR = KINDS["lpar"].attrs


def _hba_text(topo: Any, hba: Any) -> str:
    lpar = topo.get(hba["lpar"]) if hba["lpar"] else None
    return f"{label(topo, hba)}" + (f"  (now {lpar.name})" if lpar is not None else "  (no LPAR)")


class LparDialog(FormDialog):
    """A new LPAR on a server: name, multipath driver, AIX level, CPUs, memory, its HBAs."""

    def __init__(self, topo: Any, server: str, parent=None) -> None:
        super().__init__(f"New LPAR on {label(topo, server)}", topo, parent)
        self.server = server
        n = len(topo.children(server, "lpar")) + 1
        self.name = self.add_line("Name", f"lpar{n}", "the partition's AIX host name")
        self.multipath = self.add_combo(
            "Multipath driver", choice_options(MULTIPATH_DRIVERS), _LPAR["multipath"].default, _LPAR["multipath"].doc
        )
        self.aix = self.add_combo("AIX level", choice_options(AIX_LEVELS), _LPAR["aix_level"].default)
        self.cpus = self.add_int("CPUs", 1, 1024, _LPAR["cpus"].default)
        self.memory = self.add_float("Memory", 0, 65536, _LPAR["memory_gb"].default, " GB")
        free = [h for h in ec.server_hbas(topo, server)]
        self.hbas = self.add_check_list(
            "HBAs it owns",
            [(h.id, _hba_text(topo, h), False) for h in free],
            "tick the adapters this LPAR owns (they leave any other LPAR)",
        )
        self.refresh()

    def attrs(self) -> dict[str, Any]:
        return {
            "multipath": self.multipath.currentData(),
            "aix_level": self.aix.currentData(),
            "cpus": self.cpus.value(),
            "memory_gb": self.memory.value(),
        }

    def values(self) -> dict[str, Any]:
        return {"server": self.server, "name": self.name.text().strip(), "hbas": checked_ids(self.hbas), **self.attrs()}

    def problem(self) -> str | None:
        v = self.values()
        problem = ec.lpar_problem(self.topo, self.server, v["name"], **self.attrs())
        if problem is None and v["hbas"]:
            problem = ec.assign_problem(self.topo, v["hbas"], "")
        return problem

    def describe(self) -> str:
        v = self.values()
        hbas = f", owning {len(v['hbas'])} HBA(s)" if v["hbas"] else ", no HBA yet"
        return (
            f"Makes LPAR {v['name'] or '?'} on {label(self.topo, self.server)}: {v['multipath']}, "
            f"AIX {v['aix_level']}, {v['cpus']} CPUs, {v['memory_gb']:g} GB{hbas}."
        )


class AssignLparDialog(FormDialog):
    """Give one or several HBAs to an LPAR of their server (or to none)."""

    def __init__(self, topo: Any, hbas: list[str], parent=None) -> None:
        super().__init__("Assign to LPAR", topo, parent)
        self.hba_ids = list(hbas)
        servers = {s.id for h in hbas if (s := topo.ancestor(h, "server")) is not None}
        lpars = [lp for lp in topo.of_kind("lpar") if lp.parent in servers]
        current = {topo[h]["lpar"] for h in hbas}
        first = current.pop() if len(current) == 1 else (lpars[0].id if lpars else "")
        self.lpar = self.add_combo("LPAR", [(lp.name, lp.id) for lp in lpars] + [("(no LPAR)", "")], first)
        self.refresh()

    def values(self) -> dict[str, Any]:
        return {"hbas": self.hba_ids, "lpar": self.lpar.currentData() or ""}

    def problem(self) -> str | None:
        if self.lpar.count() == 1:
            return "the server has no LPAR yet: create one first (New LPAR... on the server)"
        return ec.assign_problem(self.topo, self.hba_ids, self.values()["lpar"])

    def describe(self) -> str:
        names = ", ".join(qualified_name(self.topo, self.topo[h]) for h in self.hba_ids[:6])
        more = f" and {len(self.hba_ids) - 6} more" if len(self.hba_ids) > 6 else ""
        lp = self.values()["lpar"]
        return f"{names}{more} will belong to {self.topo[lp].name if lp else 'no LPAR'}."


class LparHbasDialog(FormDialog):
    """Pick the HBAs an LPAR owns from the HBAs of its server."""

    def __init__(self, topo: Any, lpar: str, parent=None) -> None:
        super().__init__(f"HBAs of LPAR {topo[lpar].name}", topo, parent)
        self.lpar_id = lpar
        hbas = ec.server_hbas(topo, topo[lpar].parent)
        self.hbas = self.add_check_list(
            "HBAs", [(h.id, _hba_text(topo, h), h["lpar"] == lpar) for h in hbas], "ticked: owned by this LPAR"
        )
        self.refresh()

    def values(self) -> dict[str, Any]:
        return {"lpar": self.lpar_id, "hbas": checked_ids(self.hbas)}

    def problem(self) -> str | None:
        if not self.hbas.count():
            return "the server has no HBA yet: drop HBAs into its drawer's slots first"
        v = self.values()
        return ec.assign_problem(self.topo, v["hbas"], self.lpar_id) if v["hbas"] else None

    def describe(self) -> str:
        v = self.values()
        taken = [h for h in v["hbas"] if self.topo[h]["lpar"] not in ("", self.lpar_id)]
        dropped = [h.id for h in ec.server_hbas(self.topo, self.topo[self.lpar_id].parent) if h["lpar"] == self.lpar_id]
        dropped = [h for h in dropped if h not in v["hbas"]]
        text = f"LPAR {self.topo[self.lpar_id].name} will own {len(v['hbas'])} HBA(s)"
        if taken:
            text += f"; {len(taken)} move from another LPAR"
        if dropped:
            text += f"; {len(dropped)} left without an LPAR"
        return text + "."
