"""Dialogs on the storage side: drives and enclosures, arrays, logical drives, host mappings."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QHeaderView, QSpinBox, QTableWidget, QTableWidgetItem

from planner import edit
from planner import edit_create as ec
from planner.figures import data_drives, layout_throughput
from planner.naming import counted, label
from planner.rules.storage import FASTT_SEGMENTS
from planner.schema import RAID_LEVELS
from widgets.dialogs.base import FormDialog, checked_ids, choice_options, set_checked


def _parts_of(parts: dict[str, dict[str, Any]], kind: str) -> list[tuple[str, str]]:
    return [(f"{p.get('name', pid)} ({pid})", pid) for pid, p in parts.items() if p.get("kind") == kind]


class DriveCountDialog(FormDialog):
    """How many drives a new subsystem or enclosure comes with (``bays`` at most)."""

    def __init__(self, what: str, bays: int, drives: int = 0, parent=None) -> None:
        super().__init__(f"Drives in {what}", None, parent)
        self.what, self.bays = what, bays
        self.count = self.add_int("Drives", 0, bays, min(max(drives, 0), bays), f" of {bays} bays")
        self.add_button("Empty", lambda: self.count.setValue(0), "no drives: add them later")
        self.add_button("Full", lambda: self.count.setValue(bays), "a drive in every bay")
        self.refresh()

    def values(self) -> dict[str, Any]:
        return {"drives": self.count.value()}

    def describe(self) -> str:
        n = self.count.value()
        return (
            f"{self.what} comes with {counted(n, 'drive')} in bays 1-{n}."
            if n
            else f"{self.what} comes with empty bays."
        )


class EnclosureDialog(FormDialog):
    """A new expansion enclosure on a subsystem: its part, the drive part and how many drives."""

    def __init__(self, topo: Any, subsystem: str, parts: dict[str, dict[str, Any]], fill: str = "empty", parent=None):
        super().__init__(f"Add enclosure to {label(topo, subsystem)}", topo, parent)
        self.subsystem, self.parts = subsystem, parts
        self.part = self.add_combo("Enclosure", _parts_of(parts, "enclosure"))
        drives = [d for d in topo.descendants(subsystem) if d.kind == "drive"]
        self.drive_part = self.add_combo("Drive part", _parts_of(parts, "drive"), drives[0].part if drives else None)
        bays = self.bays()
        self.count = self.add_int("Drives", 0, 64, bays if fill == "full" else 0, " drives")
        self.add_button("Empty", lambda: self.count.setValue(0))
        self.add_button("Full", lambda: self.count.setValue(self.bays()))
        self.refresh()

    def bays(self) -> int:
        return int(self.parts.get(self.part.currentData() or "", {}).get("drive_bays", 0))

    def values(self) -> dict[str, Any]:
        return {
            "subsystem": self.subsystem,
            "part": self.parts.get(self.part.currentData() or ""),
            "drive_part": self.parts.get(self.drive_part.currentData() or "") if self.count.value() else None,
            "drives": self.count.value(),
        }

    def problem(self) -> str | None:
        v = self.values()
        if v["part"] is None:
            return "the catalog has no enclosure part: add one in Tools > Parts catalog"
        if v["drives"] > self.bays():
            return f"{v['part']['id']} has {self.bays()} drive bays, not {v['drives']}"
        if v["drives"] and v["drive_part"] is None:
            return "choose a drive part (the catalog has none)"
        return None

    def describe(self) -> str:
        v = self.values()
        if v["part"] is None:
            return ""
        n = len(self.topo.children(self.subsystem, "enclosure"))
        return f"Adds enclosure {n} ({v['part']['id']}, {self.bays()} bays) with {counted(v['drives'], 'drive')}."

    def full(self) -> bool:
        return self.count.value() == self.bays() and self.bays() > 0


class AddDrivesDialog(FormDialog):
    """Drives into the free bays of an enclosure."""

    def __init__(self, topo: Any, enclosure: str, parts: dict[str, dict[str, Any]], parent=None) -> None:
        super().__init__(f"Add drives to {label(topo, enclosure)}", topo, parent)
        self.enclosure, self.parts = enclosure, parts
        drives = [d for d in topo.descendants(topo[enclosure].parent) if d.kind == "drive"]
        self.part = self.add_combo("Drive part", _parts_of(parts, "drive"), drives[0].part if drives else None)
        free = len(ec.free_bays(topo, enclosure))
        self.count = self.add_int("Drives", 0, 64, free, f" of {free} free bays")
        self.refresh()

    def values(self) -> dict[str, Any]:
        return {
            "enclosure": self.enclosure,
            "part": self.parts.get(self.part.currentData() or ""),
            "count": self.count.value(),
        }

    def problem(self) -> str | None:
        v = self.values()
        return ec.drives_problem(self.topo, self.enclosure, v["part"], v["count"])

    def describe(self) -> str:
        v = self.values()
        bays = ec.free_bays(self.topo, self.enclosure)[: v["count"]]
        cap = (v["part"] or {}).get("capacity_gb", "?")
        return f"Adds {v['count']} x {cap} GB {'drive' if v['count'] == 1 else 'drives'} in bays {', '.join(map(str, bays)) or '-'}."


class ArrayDialog(FormDialog):
    """A new array on a subsystem (or ``array`` re-shaped): drives, RAID level, segment size;
    shows the full stripe, the P690 Table 1 throughput of the layout and the LTG alignment."""

    def __init__(self, topo: Any, subsystem: str, array: str | None = None, parent=None) -> None:
        title = f"Change array {topo[array].name}" if array else f"New array on {label(topo, subsystem)}"
        super().__init__(title, topo, parent)
        self.subsystem, self.array = subsystem, array
        part = topo.part_of(topo[subsystem]) or {}
        self.part = part
        mine = list(topo[array]["drives"]) if array else []
        free = [d.id for d in edit.free_drives(topo, subsystem)]
        ids = mine + [d for d in free if d not in mine]
        self.name = self.add_line("Name", topo[array].name if array else "", "empty: a name is made for you")
        self.name.setEnabled(array is None)
        self.drives = self.add_check_list(
            "Drives", [(d, f"{label(topo, d)}  {ec.drive_capacity_gb(topo, d):g} GB", d in mine) for d in ids]
        )
        self.first_n = self.add_int("or the first", 0, len(ids), len(mine), " drives", "tick the first n drives listed")
        self.first_n.valueChanged.connect(lambda n: (set_checked(self.drives, ids[:n]), self.refresh()))
        levels = part.get("raid_levels") or RAID_LEVELS
        now = topo[array] if array else None
        self.raid = self.add_combo("RAID level", choice_options(levels, "RAID {}"), now["raid_level"] if now else 5)
        segments = part.get("segment_kb") or FASTT_SEGMENTS
        self.segment = self.add_combo(
            "Segment size", choice_options(segments, "{} KB"), now["segment_kb"] if now else 128
        )
        self.refresh()

    def values(self) -> dict[str, Any]:
        v = {
            "subsystem": self.subsystem,
            "raid_level": self.raid.currentData(),
            "drives": checked_ids(self.drives),
            "segment_kb": self.segment.currentData(),
        }
        if self.array:
            return {"array": self.array, **{k: v[k] for k in ("raid_level", "drives", "segment_kb")}}
        return {**v, "name": self.name.text().strip()}

    def problem(self) -> str | None:
        v = self.values()
        return ec.array_problem(self.topo, self.subsystem, v["raid_level"], v["drives"], v["segment_kb"], self.array)

    def describe(self) -> str:
        v = self.values()
        level, n, seg = v["raid_level"], len(v["drives"]), v["segment_kb"]
        if not n:
            return "Tick the drives of the array (or give a number of drives)."
        k = data_drives(level, n)
        shape = f"RAID {level} {k}+P" if level in (3, 5) else f"RAID {level} on {n} drives"
        lines = [
            f"{shape}: full stripe {k} data drives x {seg} KB = {k * seg} KB; "
            f"{ec.array_capacity_gb(self.topo, level, v['drives']):g} GB usable."
        ]
        lines.append(self._throughput(level, n, seg))
        lines += ec.alignment_notes(self.topo, self.array, level, n, seg)
        return "\n".join(lines)

    def _throughput(self, level: int, n: int, seg: int) -> str:
        read = layout_throughput(self.part, level, n, seg, "read")
        write = layout_throughput(self.part, level, n, seg, "write")
        if read is None or write is None:
            return f"{self.part.get('id', 'This subsystem')} has no layout table (P690 Table 1): no throughput figure."
        text = f"Subsystem throughput with this layout: {read.value:g} MB/s read, {write.value:g} MB/s write"
        if read.estimate:
            return f"{text} (an ESTIMATE: {read.note})."
        return f"{text} ({read.source})."


class LogicalDriveDialog(FormDialog):
    """A new logical drive on an array: size (the array's free capacity shown), owner, LUN."""

    def __init__(self, topo: Any, array: str, parent=None) -> None:
        super().__init__(f"New logical drive on {topo[array].name}", topo, parent)
        self.array = array
        sub = topo[array].parent
        self.free = ec.array_free_gb(topo, array)
        self.name = self.add_line("Name", "", "empty: 'LUN n'")
        self.size_gb = self.add_float("Size", 0, 1 << 24, self.free, " GB", f"{self.free:g} GB free on the array")
        ctls = topo.children(sub, "controller")
        self.owner = self.add_combo(
            "Owning controller", [(c.name, c.id) for c in ctls], ec.balanced_owner(topo, sub), "preferred owner"
        )
        self.lun = self.add_int("LUN", 0, 255, ec.next_lun(topo, sub))
        self.refresh()

    def values(self) -> dict[str, Any]:
        return {
            "array": self.array,
            "owner": self.owner.currentData() or "",
            "size_gb": self.size_gb.value(),
            "lun": self.lun.value(),
            "name": self.name.text().strip(),
        }

    def problem(self) -> str | None:
        v = self.values()
        return ec.logical_drive_problem(self.topo, self.array, v["size_gb"], v["owner"], v["lun"], v["name"])

    def describe(self) -> str:
        v = self.values()
        owner = self.topo.get(v["owner"])
        return (
            f"Makes {v['name'] or 'LUN ' + str(v['lun'])}: {v['size_gb']:g} GB of the array's {self.free:g} GB free, "
            f"owned by {owner.name if owner else '?'}, LUN {v['lun']}."
        )


class HostMappingDialog(FormDialog):
    """A host mapping (storage partition) on a subsystem: HBA ports (WWPN and name) x logical
    drives with their LUN numbers; ``mapping`` edits an existing one."""

    def __init__(self, topo: Any, subsystem: str, mapping: str | None = None, parent=None) -> None:
        m = topo[mapping] if mapping else None
        super().__init__(f"{'Edit' if m else 'New'} host mapping on {label(topo, subsystem)}", topo, parent)
        self.subsystem, self.mapping = subsystem, mapping
        n = len(topo.children(subsystem, "host_mapping")) + 1
        self.name = self.add_line("Name", m.name if m else f"P_{subsystem.upper()}_{n}", "the host group")
        ports = [p.id for p in topo.of_kind("hba_port")]
        on = set(m["hba_ports"]) if m else set()
        held = {p: o.name for o in topo.children(subsystem, "host_mapping") if o.id != mapping for p in o["hba_ports"]}
        self.ports = self.add_check_list(
            "HBA ports",
            [(p, ec.hba_port_title(topo, p) + (f"  - in {held[p]}" if p in held else ""), p in on) for p in ports],
            "the host's WWPNs; a port belongs to one mapping per subsystem",
        )
        self.lds = self._ld_table(set(m["logical_drives"]) if m else set())
        self.form.addRow("Logical drives", self.lds)
        self.refresh()

    def _ld_table(self, on: set[str]) -> QTableWidget:
        lds = [
            ld for a in self.topo.children(self.subsystem, "array") for ld in self.topo.children(a.id, "logical_drive")
        ]
        t = QTableWidget(len(lds), 3)
        t.setHorizontalHeaderLabels(["Logical drive", "Size", "LUN"])
        for row, ld in enumerate(lds):
            it = QTableWidgetItem(f"{ld.name} on {self.topo[ld.parent].name}")
            it.setData(Qt.ItemDataRole.UserRole, ld.id)
            it.setFlags(Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsUserCheckable)
            it.setCheckState(Qt.CheckState.Checked if ld.id in on else Qt.CheckState.Unchecked)
            t.setItem(row, 0, it)
            size = QTableWidgetItem(f"{ld['size_gb']:g} GB")
            size.setFlags(Qt.ItemFlag.ItemIsEnabled)
            t.setItem(row, 1, size)
            spin = QSpinBox()
            spin.setRange(0, 255)
            spin.setValue(ld["lun"])
            spin.valueChanged.connect(self.refresh)
            t.setCellWidget(row, 2, spin)
        t.itemChanged.connect(self.refresh)
        t.verticalHeader().hide()
        head = t.horizontalHeader()
        head.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        for col in (1, 2):
            head.setSectionResizeMode(col, QHeaderView.ResizeMode.ResizeToContents)
        self.setMinimumWidth(560)
        return t

    def ld_rows(self) -> list[tuple[str, bool, QSpinBox]]:
        """(logical drive id, ticked, its LUN box) per row."""
        out = []
        for row in range(self.lds.rowCount()):
            it = self.lds.item(row, 0)
            out.append(
                (
                    it.data(Qt.ItemDataRole.UserRole),
                    it.checkState() == Qt.CheckState.Checked,
                    self.lds.cellWidget(row, 2),
                )
            )
        return out

    def values(self) -> dict[str, Any]:
        rows = [r for r in self.ld_rows() if r[1]]
        return {
            "subsystem": self.subsystem,
            "name": self.name.text().strip(),
            "hba_ports": checked_ids(self.ports),
            "logical_drives": [r[0] for r in rows],
            "luns": {r[0]: r[2].value() for r in rows},
            "mapping": self.mapping,
        }

    def problem(self) -> str | None:
        if not self.lds.rowCount():
            return (
                f"{label(self.topo, self.subsystem)} has no logical drive yet: make an array and a logical drive first"
            )
        v = self.values()
        return ec.host_mapping_problem(
            self.topo, self.subsystem, v["name"], v["hba_ports"], v["logical_drives"], v["luns"], self.mapping
        )

    def describe(self) -> str:
        v = self.values()
        luns = ", ".join(f"{self.topo[ld].name} as LUN {lun}" for ld, lun in v["luns"].items())
        return f"{v['name'] or '?'}: {counted(len(v['hba_ports']), 'HBA port')} see {luns or 'no logical drive'}."
