"""Bundled example designs, built with the same editing operations a user would use.

- ``p690-benchmark``: the paper's full configuration [P690 'Hardware configuration benchmarked']:
  one p690 LPAR, 7 RIO2 drawers x 16 FC 6239 HBAs, seven 2109-F32 switches (one per drawer),
  56 FAStT600 Turbo each with one EXP700 (28 x 36 GB 15K), two RAID5 8+P 128 KB arrays per
  FAStT, one big VG of all 112 arrays (LTG 1 MB, PP 512 MB), 16 striped LVs with 1 MB stripes.
- ``p690-one-drawer``: one drawer of it, cabled ASIC-local as the paper's final design.
- ``p690-worst-cabling``: the same drawer cabled as the paper's first design (HBAs on ports
  0-15, storage on 16-31, HBA n zoned to port 16+n), which put all traffic on the backplane.

Part figures are passed in (``parts``: catalog parts by id); the planner never reads the catalog.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from planner import edit
from planner.assist.racks import rack_everything
from planner.commands import SetMeta
from planner.model import Topology
from planner.placement import unplaced

DRAWER_LOCATIONS = ("U1.9", "U1.5", "U1.1", "U1.13", "U2.1", "U2.5", "U2.9")  # P690 Table 2
BENCHMARK_SLOTS = (1, 2, 3, 5, 6, 7, 8, 9, 11, 12, 13, 15, 16, 17, 18, 19)  # P690, 16 HBAs per drawer


def _wwpn(prefix: int, a: int, b: int, c: int) -> str:
    return (
        f"{prefix:02x}:00:00:00:{a:02x}:{b:02x}:{c:02x}:01"
        if prefix == 0x10
        else f"{prefix:02x}:0a:00:a0:b8:{a:02x}:{b:02x}:{c:02x}"
    )


def build_p690(
    parts: Mapping[str, dict[str, Any]], drawers: int = 7, cabling: str = "asic-local", name: str = "p690 benchmark"
) -> Topology:
    """Build the benchmark configuration with ``drawers`` drawers (1..7).

    ``cabling`` is ``"asic-local"`` (the paper's final design: each HBA next to its storage port)
    or ``"worst"`` (the first design: HBAs on ports 0-15, storage on 16-31).
    """
    if cabling not in ("asic-local", "worst"):
        raise ValueError("cabling must be 'asic-local' or 'worst'")
    t = Topology(name)
    SetMeta("customer", "IBM pSeries Benchmark Center").do(t)
    SetMeta("author", "SANplan example (from the P690 Redpaper)").do(t)
    edit.add_server(t, parts["7040-681"], "p690")
    edit.add_lpar(t, "p690", "lpar1", multipath="RDAC", aix_level="5.2")
    lpar = "p690.lpar1"
    mapped_lds: list[str] = []
    for d in range(1, drawers + 1):
        mapped_lds += _benchmark_drawer(t, parts, d, cabling, lpar)
    _benchmark_aix(t, lpar, mapped_lds, drawers)
    if unplaced(t):  # parts with rack heights: the frames, switches beside them, FAStT + EXP700 (issue 12)
        rack_everything(t)
    t.revision = 0
    return t


def _benchmark_drawer(t: Topology, parts: Mapping[str, dict[str, Any]], d: int, cabling: str, lpar: str) -> list[str]:
    """Drawer ``d`` with its 16 HBAs, its switch, its eight FAStT600 Turbo, cables and zones;
    returns the logical drives mapped to the LPAR."""
    edit.add_drawer(t, "p690", parts["7040-61D"], index=d, location=DRAWER_LOCATIONS[d - 1])
    drawer = f"d{d}"
    hba_ports = []
    for n, slot in enumerate(BENCHMARK_SLOTS):
        s = edit.find_slot(t, drawer, slot)
        edit.add_hba(
            t,
            s.id,
            parts["FC6239"],
            lpar=lpar,
            wwpns=[_wwpn(0x10, 0xC9, d, n)],
            name=f"fcs{(d - 1) * 16 + n}",
        )
        edit.set_attr(t, f"hba.{drawer}s{slot}.0", "wwpn_placeholder", True)  # made up: replace with the real one
        hba_ports.append(f"hba.{drawer}s{slot}.0")
    fabric = f"fab.FAB_D{d}"
    edit.add_fabric(t, f"FAB_D{d}")
    sw = f"sw{d}"
    edit.add_switch(t, parts["2109-F32"], fabric, sw, domain_id=d)
    host_ports: list[str] = []
    mapped: list[str] = []
    for f in range(8):
        sub = f"fastt{(d - 1) * 8 + f + 1}"
        lds = _benchmark_subsystem(t, parts, d, f, sub)
        host_ports += [f"{sub}.A1", f"{sub}.B1"]
        # one partition with both HBAs' WWPNs (P690 Appendix B, two HBAs to one FAStT)
        edit.add_host_mapping(t, sub, f"P_{sub.upper()}", hba_ports[2 * f : 2 * f + 2], lds)
        mapped += lds
    # cabling and zoning: HBA n works with storage port n (FAStT n//2, controller A or B)
    for n, (hp, sp) in enumerate(zip(hba_ports, host_ports)):
        if cabling == "asic-local":
            asic, k = divmod(n, 4)
            hba_sw, st_sw = 8 * asic + 2 * k, 8 * asic + 2 * k + 1
        else:
            hba_sw, st_sw = n, 16 + n
        edit.add_cable(
            t, hp, f"{sw}.p{hba_sw}", label=f"D{d}-{hp.split('.')[1][2:].upper()}-{sw.upper()}P{hba_sw:02d}", length_m=5
        )
        edit.add_cable(
            t,
            sp,
            f"{sw}.p{st_sw}",
            label=f"{sp.split('.')[0].upper()}-{sp.split('.')[1]}-{sw.upper()}P{st_sw:02d}",
            length_m=3,
        )
        sub_name, ctl = sp.split(".")
        edit.add_zone(t, fabric, f"Z_D{d}_FCS{n}_{sub_name.upper()}_{ctl[0]}", [hp, sp])
    return mapped


def _benchmark_subsystem(t: Topology, parts: Mapping[str, dict[str, Any]], d: int, f: int, sub: str) -> list[str]:
    """One FAStT600 Turbo with an EXP700, two RAID 5 8+P arrays and a LUN each; returns the LUNs."""
    edit.add_subsystem(
        t, parts["FAStT600-Turbo"], sub, wwpn_base=_wwpn(0x20, d, f, 0), drive_part=parts["DRV-36G-15K"], drives=14
    )
    edit.add_enclosure(t, sub, parts["EXP700"], drive_part=parts["DRV-36G-15K"], drives=14)
    free = [c.id for c in edit.free_drives(t, sub)]
    lds = []
    for k, ctl in enumerate(("A", "B")):
        # one RAID5 8+P array per controller: 9 of the 28 drives each [P690 Table 1]
        edit.add_array(t, sub, 5, free[k * 9 : (k + 1) * 9], segment_kb=128)  # named by its attributes
        arr = f"{sub}.arr{k + 1}"
        edit.add_logical_drive(t, arr, f"{sub}.{ctl}", size_gb=8 * 36 * 0.95, lun=k)
        lds.append(f"{sub}.ld{k + 1}")
    return lds


def _benchmark_aix(t: Topology, lpar: str, mapped_lds: list[str], drawers: int) -> None:
    """AIX: one hdisk per logical drive, max_transfer 1 MB; one big VG of all arrays [P690]."""
    edit.add_hdisks(t, lpar, mapped_lds, max_transfer_kb=1024)
    hdisks = [c.id for c in t.children(lpar, "hdisk")]
    vg_type = "big" if len(hdisks) > 32 else "normal"
    edit.add_volume_group(t, lpar, "datavg", hdisks, vg_type=vg_type, ltg_kb=1024, pp_mb=512)
    vg = f"{lpar}.datavg"
    for i in range(16 if drawers == 7 else 2):
        lv = f"stripelv{i + 1:02d}"
        edit.add_logical_volume(t, vg, lv, stripe_kb=1024, width=len(hdisks), size_gb=689 if drawers == 7 else 64)
        edit.add_workload(
            t,
            f"{vg}.{lv}",
            purpose="data",
            request_kb=128 * 1024 if drawers == 7 else 4096,
            read_pct=100,
            direct_io=True,
        )


EXAMPLES: dict[str, tuple[str, Callable[[Mapping[str, dict[str, Any]]], Topology]]] = {
    "p690-benchmark": (
        "the paper's full configuration: 7 drawers, 112 HBAs, 56 FAStT600 Turbo",
        lambda p: build_p690(p, 7, name="p690 benchmark"),
    ),
    "p690-one-drawer": (
        "one drawer, 16 HBAs, one 2109-F32, 8 FAStT600 Turbo, cabled ASIC-local",
        lambda p: build_p690(p, 1, name="p690 one drawer"),
    ),
    "p690-worst-cabling": (
        "the one drawer cabled as the paper's first design (all traffic over the backplane)",
        lambda p: build_p690(p, 1, cabling="worst", name="p690 worst cabling"),
    ),
    "site-16x": (
        "a generated site: 16 benchmark configurations (55,216 components), for timing",
        lambda p: build_site(p, 16),
    ),
    "site-32x": (
        "a generated site: 32 benchmark configurations (110,432 components), for timing",
        lambda p: build_site(p, 32),
    ),
}


def build_example(name: str, parts: Mapping[str, dict[str, Any]]) -> Topology:
    """Build a bundled example by name; raises KeyError naming the available examples."""
    if name not in EXAMPLES:
        raise KeyError(f"no example {name!r}; choose one of {', '.join(EXAMPLES)}")
    return EXAMPLES[name][1](parts)


def build_site(parts: Mapping[str, dict[str, Any]], copies: int = 16) -> Topology:
    """A generated site: ``copies`` independent p690 benchmark configurations in one design
    (ids prefixed ``s1.``, ``s2.``...; the names of the top-level components and racks ``s1_``,
    ``s2_``..., so each server, switch, subsystem, cable and rack has its own name, as in a real
    site; WWPNs made unique), their racks in one site (copy k's rows get k after their letter:
    'A2', 'B2'). Used by the speed benchmark."""
    from planner.model import KINDS, Component

    base = build_p690(parts, 7, name="p690 benchmark")
    site = Topology(f"{copies} x p690 benchmark site")
    site.parts = {k: dict(v) for k, v in base.parts.items()}
    for k in range(1, copies + 1):
        pre = f"s{k}."
        for c in base.components():
            if c.kind == "site" and k > 1:
                continue  # one site holds every copy's racks
            attrs = dict(c.attrs)
            for name, spec in KINDS[c.kind].attrs.items():
                if spec.ref:
                    v = attrs.get(name)
                    attrs[name] = tuple(pre + x for x in v) if spec.many else (pre + v if v else v)
            if attrs.get("wwpn"):
                w = attrs["wwpn"]
                attrs["wwpn"] = f"{w[:6]}{k:02x}{w[8:]}"
            parent = pre + c.parent if c.parent else None
            name = f"s{k}_{c.name}" if (c.parent is None or c.kind == "rack") and c.name else c.name
            if c.kind == "site":
                name = c.name
            elif c.kind == "rack":
                parent, attrs["row"] = f"s1.{c.parent}", f"{attrs.get('row', '')}{k}"
            site._add_silent(Component(pre + c.id, c.kind, name, parent, c.part, attrs))
    return site
