"""Dialogs on the AIX side: volume groups, logical volumes, workloads."""

from __future__ import annotations

from typing import Any

from planner import edit_create as ec
from planner.naming import label
from planner.schema import KINDS, LTG_SIZES_KB, STRIPE_SIZES_KB, VG_TYPES, WORKLOAD_PURPOSES
from widgets.dialogs.base import FormDialog, checked_ids, choice_options

_PP_SIZES_MB = tuple(2**i for i in range(0, 11))  # 1 MB .. 1 GB, what mkvg -s offers


def _kb(v: int) -> str:
    return f"{v // 1024} MB" if v >= 1024 and v % 1024 == 0 else f"{v} KB"


class VolumeGroupDialog(FormDialog):
    """A new volume group on an LPAR: PVs (its free hdisks), VG type, LTG, PP size."""

    def __init__(self, topo: Any, lpar: str, parent=None) -> None:
        super().__init__(f"New volume group on {topo[lpar].name}", topo, parent)
        self.lpar = lpar
        n = len(topo.children(lpar, "volume_group"))
        self.name = self.add_line("Name", "datavg" if n == 0 else f"datavg{n + 1}")
        disks = ec.free_hdisks(topo, lpar)
        self.pvs = self.add_check_list(
            "Physical volumes",
            [
                (h.id, f"{h.name}  {ec.hdisk_size_gb(topo, h.id):g} GB  ({label(topo, h['logical_drive'])})", True)
                for h in disks
            ],
        )
        self.vg_type = self.add_combo("VG type", choice_options(VG_TYPES), "big" if len(disks) > 32 else "normal")
        self.ltg = self.add_combo(
            "LTG", [(_kb(v), v) for v in LTG_SIZES_KB], self._best_ltg(disks), "match the arrays' full stripe (P690)"
        )
        self.pp = self.add_combo("PP size", [(f"{v} MB", v) for v in _PP_SIZES_MB], 64)
        self.refresh()

    def _best_ltg(self, disks: list[Any]) -> int:
        """The full stripe of the first PV's array when it is an LTG size, else 128 KB."""
        for h in disks:
            ld = self.topo.get(h["logical_drive"])
            arr = self.topo.get(ld.parent) if ld is not None else None
            if arr is not None:
                stripe = ec.full_stripe_kb(arr["raid_level"], len(arr["drives"]), arr["segment_kb"])
                if stripe in LTG_SIZES_KB:
                    return stripe
        return 128

    def values(self) -> dict[str, Any]:
        return {
            "lpar": self.lpar,
            "name": self.name.text().strip(),
            "pvs": checked_ids(self.pvs),
            "vg_type": self.vg_type.currentData(),
            "ltg_kb": self.ltg.currentData(),
            "pp_mb": self.pp.currentData(),
        }

    def problem(self) -> str | None:
        if not self.pvs.count():
            return f"LPAR {self.topo[self.lpar].name} has no free hdisk: use Create hdisks on it first"
        v = dict(self.values())
        v.pop("lpar")
        return ec.volume_group_problem(self.topo, self.lpar, **v)

    def describe(self) -> str:
        v = self.values()
        size = sum(ec.hdisk_size_gb(self.topo, h) for h in v["pvs"])
        return (
            f"Makes {v['vg_type']} VG {v['name'] or '?'} of {len(v['pvs'])} PV(s), {size:g} GB, "
            f"LTG {_kb(v['ltg_kb'])}, PP {v['pp_mb']} MB (mkvg{' -B' if v['vg_type'] == 'big' else ''}"
            f"{' -S' if v['vg_type'] == 'scalable' else ''} -s {v['pp_mb']})."
        )


class LogicalVolumeDialog(FormDialog):
    """A new logical volume in a volume group: stripe size, width, size."""

    def __init__(self, topo: Any, vg: str, parent=None) -> None:
        super().__init__(f"New logical volume in {topo[vg].name}", topo, parent)
        self.vg = vg
        npv = len(topo[vg]["pvs"])
        n = len(topo.children(vg, "logical_volume")) + 1
        self.name = self.add_line("Name", f"lv{n:02d}")
        ltg = topo[vg]["ltg_kb"]
        stripes = [("not striped", 0)] + [(_kb(v), v) for v in STRIPE_SIZES_KB]
        self.stripe = self.add_combo("Stripe size", stripes, ltg if npv > 1 else 0, "the VG's LTG is a good choice")
        self.stripe_width = self.add_int("Width", 0, max(npv, 0), npv if npv > 1 else 0, " PVs")
        self.free = ec.vg_free_gb(topo, vg)
        self.size_gb = self.add_float("Size", 0, 1 << 24, self.free, " GB", f"{self.free:g} GB free in the VG")
        self.refresh()

    def values(self) -> dict[str, Any]:
        return {
            "vg": self.vg,
            "name": self.name.text().strip(),
            "stripe_kb": self.stripe.currentData(),
            "width": self.stripe_width.value(),
            "size_gb": self.size_gb.value(),
        }

    def problem(self) -> str | None:
        v = dict(self.values())
        v.pop("vg")
        return ec.logical_volume_problem(self.topo, self.vg, **v)

    def describe(self) -> str:
        v = self.values()
        how = f"striped {_kb(v['stripe_kb'])} over {v['width']} PVs" if v["stripe_kb"] else "not striped"
        return f"Makes LV {v['name'] or '?'}: {v['size_gb']:g} GB of {self.free:g} GB free, {how}."


_WL = KINDS["workload"].attrs


class WorkloadDialog(FormDialog):
    """The workload profile on a logical volume."""

    def __init__(self, topo: Any, lv: str, parent=None) -> None:
        super().__init__(f"New workload on {topo[lv].name}", topo, parent)
        self.lv = lv
        self.name = self.add_line("Name", "workload")
        self.purpose = self.add_combo("Purpose", choice_options(WORKLOAD_PURPOSES), _WL["purpose"].default)
        self.request = self.add_float("Request size", 0.5, 1 << 20, _WL["request_kb"].default, " KB")
        self.read_pct = self.add_float("Reads", 0, 100, _WL["read_pct"].default, " %")
        self.direct = self.add_check("Direct I/O", _WL["direct_io"].default)
        self.platform = self.add_combo("Platform", choice_options(("aix", "windows", "solaris")), "aix")
        self.bufsize = self.add_float("SAS BUFSIZE", 0, 1 << 20, 0, " KB", _WL["bufsize_kb"].doc)
        self.bufno = self.add_int("SAS BUFNO", 0, 100000, 0, "", _WL["bufno"].doc)
        self.refresh()

    def profile(self) -> dict[str, Any]:
        return {
            "purpose": self.purpose.currentData(),
            "request_kb": self.request.value(),
            "read_pct": self.read_pct.value(),
            "direct_io": self.direct.isChecked(),
            "platform": self.platform.currentData(),
            "bufsize_kb": self.bufsize.value(),
            "bufno": self.bufno.value(),
        }

    def values(self) -> dict[str, Any]:
        return {"lv": self.lv, "name": self.name.text().strip(), **self.profile()}

    def problem(self) -> str | None:
        return ec.workload_problem(self.topo, self.lv, self.name.text().strip(), **self.profile())

    def describe(self) -> str:
        p = self.profile()
        return (
            f"{p['purpose']} workload: {p['request_kb']:g} KB requests, {p['read_pct']:g} % reads"
            f"{', direct I/O' if p['direct_io'] else ''} on {self.topo[self.lv].name}."
        )
