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


def build_datacenter(parts: Mapping[str, dict[str, Any]], hosts: int = 384) -> Topology:
    """A generated data centre whose hosts share their fabrics and storage: ``hosts`` p690s
    (one LPAR, one drawer, four FC 6239 HBAs each), two fabrics (A and B) of 2109-F32 switches
    in core-edge form (two core switches a fabric, each edge switch one inter-switch link to
    each core), one FAStT900 with an EXP700 (two RAID 5 4+P arrays, 256 KB segments, one per controller) for
    every eight hosts. Each host has two partitions on its subsystem (HBA 0 of fabric A with
    HBA 2 of fabric B, HBA 1 with HBA 3), each with a logical drive on each controller and each
    HBA zoned to one host port of its controller, so RDAC sees each controller once per
    partition and every HBA carries a path (as the benchmark's pairs do); its LPAR stripes one
    logical volume over the four hdisks. Everything is one connected part of
    the design (the 16x site is sixteen): an edit's analysis is the whole design's, and what it
    changes ripples along the shared links. Used by the speed benchmarks; at most 420 hosts
    (the cores' 32 ports)."""
    subs = max(1, -(-hosts // 8))
    edges = -(-(2 * hosts + 2 * subs) // 30)  # (30 ports an edge: two go to the cores)
    if edges > 32:
        raise ValueError(f"{hosts} hosts need {edges} edge switches a fabric; the two cores take 32")
    t = Topology(f"data centre, {hosts} hosts")
    SetMeta("author", "SANplan example (generated, shared fabrics)").do(t)
    free: dict[str, list[str]] = {}
    fabric_edges: dict[str, list[str]] = {}
    for f in "AB":
        edit.add_fabric(t, f"FAB_{f}")
        made = []
        for n in range(edges + 2):
            name = f"{'core' if n < 2 else 'edge'}{f}{n if n < 2 else n - 2}"
            edit.add_switch(t, parts["2109-F32"], f"fab.FAB_{f}", name, domain_id=n + 1)
            free[name] = [c.id for c in t.descendants(name) if c.kind == "switch_port"]
            made.append(name)
        fabric_edges[f] = made[2:]
        for e in made[2:]:
            for core in made[:2]:
                edit.add_cable(t, free[e].pop(0), free[core].pop(0), label=f"ISL-{e.upper()}-{core.upper()}")

    def to_edge(f: str, port: str, k: int) -> None:  # the least used edge switch (k: where to look first)
        ring = fabric_edges[f][k % edges :] + fabric_edges[f][: k % edges]
        edit.add_cable(t, port, free[max(ring, key=lambda e: len(free[e]))].pop(0))

    storage: list[tuple[str, dict[str, list[str]], dict[str, str]]] = []
    for m in range(subs):
        sub = f"ds{m + 1}"
        edit.add_subsystem(
            t, parts["FAStT900"], sub, wwpn_base=_wwpn(0x20, 0x90, 4 * m // 256, 4 * m % 256)
        )  # (four ports each)
        edit.add_enclosure(t, sub, parts["EXP700"], drive_part=parts["DRV-36G-15K"], drives=14)
        drives = [c.id for c in edit.free_drives(t, sub)]
        ports = {c.id: [p.id for p in t.children(c.id, "host_port")] for c in t.children(sub, "controller")}
        arrays: dict[str, str] = {}
        for k, (ctl, hps) in enumerate(ports.items()):
            edit.add_array(t, sub, 5, drives[5 * k : 5 * k + 5], segment_kb=256)  # 4+P x 256 KB: 1 MB stripes
            arrays[ctl] = t.children(sub, "array")[-1].id
            for i, hp in enumerate(hps):
                to_edge("AB"[k], hp, m + i)
        storage.append((sub, ports, arrays))
    for h in range(hosts):
        _datacenter_host(t, parts, h, storage[h // 8], to_edge)
    if unplaced(t):
        rack_everything(t)
    t.revision = 0
    return t


def _datacenter_host(t: Topology, parts: Mapping[str, dict[str, Any]], h: int, storage: tuple, to_edge) -> None:
    """Host ``h`` of :func:`build_datacenter` on its subsystem ``storage`` (id, host ports by
    controller, array by controller); ``to_edge(fabric, port, k)`` cables a port."""
    sub, ports, arrays = storage
    name = f"h{h + 1:03d}"
    edit.add_server(t, parts["7040-681"], name)
    edit.add_lpar(t, name, "lpar1", multipath="RDAC", aix_level="5.2")
    lpar = f"{name}.lpar1"
    edit.add_drawer(t, name, parts["7040-61D"], index=1, location=DRAWER_LOCATIONS[0])
    drawer = t.children(name, "drawer")[0].id
    hba_ports = []
    for n, slot in enumerate((1, 2, 11, 12)):  # two slots on each planar
        s = edit.find_slot(t, drawer, slot)
        edit.add_hba(t, s.id, parts["FC6239"], lpar=lpar, wwpns=[_wwpn(0x10, 0xD0 + h // 256, h % 256, n)])
        hba_ports.append(t.children(t.children(s.id, "hba")[0].id, "hba_port")[0].id)
    ctls = list(ports)
    lds = []
    for k in range(2):  # partition k: HBA k (fabric A) and HBA k + 2 (fabric B), a LUN on each controller
        mine = []
        for ctl in ctls:
            edit.add_logical_drive(t, arrays[ctl], ctl, size_gb=50, lun=len(mine))
            mine.append(t.children(arrays[ctl], "logical_drive")[-1].id)
        pair = [hba_ports[k], hba_ports[k + 2]]
        edit.add_host_mapping(t, sub, f"P_{name.upper()}_{k + 1}", pair, mine)
        lds += mine
        for j, (hp, ctl) in enumerate(zip(pair, ctls)):
            fabric = "AB"[j]
            to_edge(fabric, hp, h + k)
            target = ports[ctl][k % len(ports[ctl])]
            edit.add_zone(t, f"fab.FAB_{fabric}", f"Z_{name.upper()}_FCS{k + 2 * j}", [hp, target])
    edit.add_hdisks(t, lpar, lds, max_transfer_kb=1024)
    hdisks = [c.id for c in t.children(lpar, "hdisk")]
    edit.add_volume_group(t, lpar, "datavg", hdisks, ltg_kb=1024, pp_mb=256)
    edit.add_logical_volume(t, f"{lpar}.datavg", "datalv", stripe_kb=1024, width=len(hdisks), size_gb=180)
    edit.add_workload(t, f"{lpar}.datavg.datalv", purpose="data", request_kb=1024, read_pct=100, direct_io=True)


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
    "datacenter-384": (
        "a generated data centre: 384 hosts sharing two core-edge fabrics and 48 FAStT900, for timing",
        lambda p: build_datacenter(p, 384),
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
