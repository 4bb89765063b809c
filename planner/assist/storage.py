"""Storage assistants: arrays with the best full-stripe-aligned layout, balanced LUN ownership,
and host mappings (partitions) grouped as the multipath driver needs."""

from __future__ import annotations

from typing import Any

from planner import edit
from planner.assist.base import Assisted, NothingToDo, assisting, expect, name_of, require, token
from planner.assist.san import rdac_applies
from planner.model import Component, ModelError, Topology
from planner.naming import counted
from planner.rules.storage import FASTT_SEGMENTS

#: the paper's LTG: 1 MB [P690 'Logical track group size 1 MB']
PAPER_LTG_KB = 1024


def _table_rows(part: dict[str, Any], free: int, ltg: int, direction: str) -> list[tuple]:
    """Aligned Table 1 rows that fit: (score, data drives, segment, arrays, figure text)."""
    out = []
    for r in part.get("layouts") or []:
        n, seg, k = r["data_drives"], r["segment_kb"], int(r.get("arrays", 2))
        if r["raid_level"] != 5 or ltg % (n * seg) or k * (n + 1) > free:
            continue
        out.append(
            (
                (1, r[direction]),
                n,
                seg,
                k,
                f"P690 Table 1: {r[direction]} MB/s {direction} for the subsystem ({r.get('source', '')})",
            )
        )
    return out


def _generic_rows(part: dict[str, Any], free: int, ltg: int) -> list[tuple]:
    """RAID 5 n+P layouts whose full stripe divides the LTG, for parts without Table 1 rows."""
    segs = part.get("segment_kb") or FASTT_SEGMENTS
    most = int(part.get("max_drives_per_array") or 30)
    out = []
    for n in range(2, most):
        for seg in segs:
            stripe = n * seg
            if ltg % stripe or n + 1 > free:
                continue
            k = 2 if 2 * (n + 1) <= free else 1
            out.append(
                (
                    (0, stripe == ltg, k, stripe, n),
                    n,
                    seg,
                    k,
                    "no Table 1 figure for this part: the layout is chosen by alignment only (an estimate)",
                )
            )
    return out


def best_layout(
    part: dict[str, Any] | None, free: int, ltg_kb: int = PAPER_LTG_KB, direction: str = "read"
) -> tuple | None:
    """(data drives, segment KB, arrays, why) of the best RAID 5 layout for ``free`` drives whose
    full stripe (segment x data drives) divides the LTG: the fastest Table 1 row of the part that
    fits, else the widest aligned stripe; None when no layout fits."""
    rows = _table_rows(part or {}, free, ltg_kb, direction) or _generic_rows(part or {}, free, ltg_kb)
    if not rows:
        return None
    best = max(rows, key=lambda r: r[0])
    return best[1:]


def layout_arrays(
    topo: Topology, subsystem: str, ltg_kb: int = PAPER_LTG_KB, count: int | None = None, parts: Any = None
) -> Assisted:
    """Arrays from the free drives of ``subsystem`` in the best full-stripe-aligned layout
    (:func:`best_layout`), one logical drive each, owners alternating over the controllers, as
    the paper's two RAID 5 8+P arrays per FAStT. Raises ModelError when too few drives are free."""
    sub = expect(topo, subsystem, "subsystem")
    free = edit.free_drives(topo, subsystem)
    require(free, f"{name_of(topo, sub)} has no free drives")
    choice = best_layout(topo.part_of(sub), len(free), ltg_kb)
    if choice is None:
        raise ModelError(
            f"{name_of(topo, sub)} has {counted(len(free), 'free drive')}, too few for a RAID 5 array aligned with a {ltg_kb} KB LTG"
        )
    n, seg, k, why = choice
    k = min(count or k, len(free) // (n + 1))
    ctls = topo.children(sub.id, "controller")
    with assisting(topo, f"Lay out arrays on {name_of(topo, sub)}") as a:
        for i in range(k):
            drives = [d.id for d in free[i * (n + 1) : (i + 1) * (n + 1)]]
            a.add(edit.add_array(topo, subsystem, 5, drives, segment_kb=seg))
            arr = topo.children(subsystem, "array")[-1]
            cap = sum(float((topo.part_of(topo[d]) or {}).get("capacity_gb", 0)) for d in drives[:n])
            a.add(edit.add_logical_drive(topo, arr.id, ctls[i % len(ctls)].id, size_gb=cap))
            a.say(
                f"{name_of(topo, arr)}: RAID 5 {n}+P, {seg} KB segments, full stripe {n * seg} KB "
                f"(divides the {ltg_kb} KB LTG); one {cap:.0f} GB logical drive owned by {ctls[i % len(ctls)].name}"
            )
        a.say(why)
        rest = len(free) - k * (n + 1)
        if rest:
            a.say(f"{counted(rest, 'drive')} left free on {name_of(topo, sub)} (hot spares or more arrays)")
    return a


# -- ownership ---------------------------------------------------------------------------------


def ownership_problem(topo: Topology, sub: Component) -> str | None:
    """Why the logical drives of ``sub`` are not balanced over its controllers (the criteria of
    the LUN_OWNERSHIP_BALANCE rule), or None."""
    ctls = [c.id for c in topo.children(sub.id, "controller")]
    lds = [ld for arr in topo.children(sub.id, "array") for ld in topo.children(arr.id, "logical_drive")]
    if not lds or len(ctls) < 2:
        return None
    count = {c: sum(1 for ld in lds if ld["owner"] == c) for c in ctls}
    size = {c: sum(ld["size_gb"] for ld in lds if ld["owner"] == c) for c in ctls}
    if any(ld["owner"] not in count for ld in lds):
        return "a logical drive has no owner"
    if any(v == 0 for v in count.values()):
        return "a controller owns no logical drive"
    owned, total = sum(count.values()), sum(size.values())
    if owned >= 3 and max(count.values()) * 3 > owned * 2:
        return "one controller owns more than two thirds of the logical drives"
    if total > 0 and max(size.values()) * 3 > total * 2:
        return "one controller owns more than two thirds of the capacity"
    return None


def balance_ownership(topo: Topology, subsystem: str) -> Assisted:
    """Set preferred owners so the controllers share ``subsystem``'s logical drives: with two or
    more arrays all logical drives of array k go to controller k mod n (the paper: one array per
    controller), else the logical drives alternate [P690 Appendix B 'Controller ownership']."""
    sub = expect(topo, subsystem, "subsystem")
    if ownership_problem(topo, sub) is None:
        raise NothingToDo(f"the logical drives of {name_of(topo, sub)} are already balanced")
    ctls = topo.children(sub.id, "controller")
    arrays = [a for a in topo.children(sub.id, "array") if topo.children(a.id, "logical_drive")]
    lds = [ld for arr in arrays for ld in topo.children(arr.id, "logical_drive")]
    if len(arrays) >= 2:
        owners = {
            ld.id: ctls[i % len(ctls)] for i, arr in enumerate(arrays) for ld in topo.children(arr.id, "logical_drive")
        }
    else:
        owners = {ld.id: ctls[i % len(ctls)] for i, ld in enumerate(lds)}
    with assisting(topo, f"Balance LUN ownership on {name_of(topo, sub)}") as a:
        for ld in lds:
            if ld["owner"] != owners[ld.id].id:
                a.add(
                    edit.set_attr(topo, ld.id, "owner", owners[ld.id].id),
                    f"{name_of(topo, ld)} now owned by {owners[ld.id].name}",
                )
        a.say("LUN ownership split over the controllers (P690 Appendix B 'Controller ownership')")
    return a


# -- host mappings -----------------------------------------------------------------------------


def _connections(topo: Topology) -> dict[str, dict[str, list[str]]]:
    from planner.rules.context import Context

    return Context(topo).connections


def _partitions(
    topo: Topology, sub: Component, conns: dict[str, dict[str, list[str]]], taken: set[str]
) -> list[tuple[str, list[str], set[str]]]:
    """(LPAR, HBA ports, controllers they reach) per new partition on ``sub``: under RDAC each
    partition reaches each controller once (HBA1+HBA2, HBA3+HBA4: P690 Appendix B); otherwise
    one partition per LPAR."""
    out: list[tuple[str, list[str], set[str]]] = []
    for h in topo.of_kind("hba_port"):
        reach = [t for t in conns.get(h.id, {}) if topo.ancestor(t, "subsystem").id == sub.id]
        hba = topo[h.parent]
        if not reach or h.id in taken or not hba["lpar"]:
            continue
        ctls = {topo[t].parent for t in reach}
        rdac = rdac_applies(topo, h.id, reach[0])
        for lpar, ports, seen in out:
            if lpar == hba["lpar"] and not (rdac and seen & ctls):
                ports.append(h.id)
                seen |= ctls
                break
        else:
            out.append((hba["lpar"], [h.id], set(ctls)))
    return out


def _deal(topo: Topology, lds: list[Component], parts: list[tuple[str, list[str], set[str]]]) -> list[list[str]]:
    """Logical drives per partition: each to a partition that reaches its owner, spreading
    owners over the partitions."""
    dealt: list[list[str]] = [[] for _ in parts]
    for ld in lds:
        cands = [i for i, p in enumerate(parts) if ld["owner"] in p[2]]
        if not cands:
            continue
        same = lambda i, ld=ld: sum(1 for x in dealt[i] if topo[x]["owner"] == ld["owner"])  # noqa: E731
        dealt[min(cands, key=lambda i: (same(i), i))].append(ld.id)
    return dealt


def map_luns(topo: Topology, subsystem: str | None = None, parts: Any = None) -> Assisted:
    """Map the unmapped logical drives of ``subsystem`` (or of every subsystem) to the HBA ports
    zoned to it that are in no partition there: ownership balanced first, then partitions as the
    driver needs (:func:`_partitions`), LUN numbers unique in each. NothingToDo when nothing to map."""
    subs = [expect(topo, subsystem, "subsystem")] if subsystem else topo.of_kind("subsystem")
    with assisting(topo, "Map logical drives") as a:
        for sub in subs:
            map_subsystem(topo, sub, a)
        require(
            a.commands, "no logical drive is waiting for a partition (map needs logical drives and zoned, cabled HBAs)"
        )
    return a


def map_subsystem(topo: Topology, sub: Component, a: Assisted) -> None:
    mappings = topo.children(sub.id, "host_mapping")
    taken_ports = {p for m in mappings for p in m["hba_ports"]}
    taken_lds = {ld for m in mappings for ld in m["logical_drives"]}
    lds = [
        ld
        for arr in topo.children(sub.id, "array")
        for ld in topo.children(arr.id, "logical_drive")
        if ld.id not in taken_lds
    ]
    parts = _partitions(topo, sub, _connections(topo), taken_ports)
    if not lds or not parts:
        return
    if ownership_problem(topo, sub):
        a.add(balance_ownership(topo, sub.id))
        lds = [topo[ld.id] for ld in lds]
    for k, (lpar, ports, _), mine in zip(range(len(parts)), parts, _deal(topo, lds, parts)):
        if not mine:
            a.say(
                f"{', '.join(name_of(topo, p) for p in ports)}: no logical drive left on {name_of(topo, sub)} for another partition"
            )
            continue
        name = f"P_{token(topo[lpar].name)}_{token(sub.name)}" + (f"_{k + 1}" if len(parts) > 1 else "")
        a.add(
            edit.add_host_mapping(topo, sub.id, name[:64], ports, mine),
            f"partition {name} on {name_of(topo, sub)}: {', '.join(name_of(topo, p) for p in ports)} "
            f"with {', '.join(name_of(topo, x) for x in mine)}",
        )
        luns = [topo[x]["lun"] for x in mine]
        if len(set(luns)) < len(luns):
            for n, x in enumerate(mine):
                a.add(edit.set_attr(topo, x, "lun", n), f"{name_of(topo, x)} is LUN {n} in {name}")
