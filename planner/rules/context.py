"""The :class:`Context` the rules of one check share: the design, the figure set and direction,
one bandwidth analysis (given, or computed at most once) and indexes built on first use."""

from __future__ import annotations

from collections.abc import Iterable
from functools import cached_property

from planner import naming
from planner.analysis import Analysis, Path, analyze
from planner.figures import DIRECTIONS, FIGURE_SETS, Figure, figure
from planner.model import Component, Topology
from planner.schema import spec


def _io_levels() -> tuple[str, ...]:
    """The kinds an adapter sits in, up to its server (slot, PHB, RIO2 link, planar, drawer),
    following the first parent kind of each in the schema."""
    out: list[str] = []
    kind = spec("hba").parents[0]
    while kind is not None and kind != "server":
        out.append(kind)
        kind = spec(kind).parents[0]
    return tuple(out)


_IO_LEVELS = _io_levels()


class Context:
    """What the rules share during one check: the design, the figure set and direction, the
    analysis (computed lazily, once) and indexes built on first use.

    Parameters: ``topo``; ``figures`` (rated/measured/planning) and ``direction`` (read/write)
    for the analysis; ``analysis``: a full analysis already computed for this design (its figure
    set and direction then win). Raises ValueError for an unknown figure set or direction.
    """

    def __init__(
        self, topo: Topology, figures: str = "planning", direction: str = "read", analysis: Analysis | None = None
    ) -> None:
        if analysis is not None:
            figures, direction = analysis.figures, analysis.direction
        if figures not in FIGURE_SETS:
            raise ValueError(f"figure set must be one of {', '.join(FIGURE_SETS)}, not {figures!r}")
        if direction not in DIRECTIONS:
            raise ValueError(f"direction must be read or write, not {direction!r}")
        self.topo, self.figures, self.direction = topo, figures, direction
        self._analysis = analysis
        self._analysis_error: Exception | None = None
        self._figures: dict[tuple[str | None, str, str], Figure | None] = {}
        self._of_kind: dict[str, list[Component]] = {}
        self._attachment: dict[str, tuple[str, Component | None]] = {}  # port id -> attachment()
        self._switch_of: dict[str, Component | None] = {}  # switch port id -> switch_of()

    def of_kind(self, kind: str) -> list[Component]:
        """``topo.of_kind(kind)``, listed once per check (read it, do not change it): on a site
        each listing reads every component of the kind from memory again."""
        got = self._of_kind.get(kind)
        if got is None:
            got = self._of_kind[kind] = self.topo.of_kind(kind)
        return got

    # -- analysis ------------------------------------------------------------------------------
    @property
    def analysis(self) -> Analysis:
        """The bandwidth analysis from disk for this context's figure set and direction: the one
        given, else computed on first use and kept; a failure is kept too and re-raised for each
        rule that asks, so a broken design is analysed once per check, not once per rule."""
        if self._analysis is None:
            if self._analysis_error is not None:
                raise self._analysis_error
            try:
                self._analysis = analyze(self.topo, self.figures, self.direction, "disk", cross_check=False)
            except Exception as err:
                self._analysis_error = err
                raise
        return self._analysis

    @cached_property
    def all_paths(self) -> list[Path] | None:
        """Every path, RDAC's standby ones included, from the analysis's path search when it kept
        them; None when it did not (or the design cannot be analysed): search again."""
        try:
            a = self.analysis
        except Exception:  # the rules that need the analysis report it; the others run without
            return None
        return None if a.standby is None else a.paths + a.standby

    @cached_property
    def binding(self) -> dict[str, int]:
        """Bottleneck component id -> number of paths it binds."""
        return self.analysis.binding_hops()

    # -- labels --------------------------------------------------------------------------------
    def label(self, cid: str) -> str:
        """A component's name with enough context to find it (:func:`planner.naming.label`);
        an id not in the design is returned as it is."""
        return naming.label(self.topo, cid)

    def names(self, ids: Iterable[str], limit: int = 4, short: bool = True) -> str:
        """'a, b, c and 5 more': labels of the first ``limit`` components (:func:`planner.naming.label_list`)."""
        return naming.label_list(self.topo, ids, limit, short)

    # -- cabling and zoning --------------------------------------------------------------------
    @cached_property
    def cable_of(self) -> dict[str, Component]:
        """Port id -> the cable plugged into it."""
        out: dict[str, Component] = {}
        for cab in self.of_kind("cable"):
            for end in (cab["a"], cab["b"]):
                if end:
                    out[end] = cab
        return out

    def peer(self, port: str) -> Component | None:
        """The port at the other end of ``port``'s cable."""
        cab = self.cable_of.get(port)
        if cab is None:
            return None
        return self.topo.get(cab["b"] if cab["a"] == port else cab["a"])

    def switch_of(self, switch_port: Component) -> Component | None:
        """The switch of ``switch_port`` (the parent of its ASIC), once per port and check."""
        got = self._switch_of.get(switch_port.id, False)
        if got is False:
            asic = self.topo.get(switch_port.parent)
            got = self._switch_of[switch_port.id] = self.topo.get(asic.parent) if asic is not None else None
        return got

    @cached_property
    def islands(self) -> dict[str, str]:
        """Switch id -> id of the first switch of its group of switches joined by ISLs."""
        root: dict[str, str] = {s.id: s.id for s in self.of_kind("switch")}

        def find(s: str) -> str:
            while root[s] != s:
                root[s] = root[root[s]]
                s = root[s]
            return s

        switch_ports = self.topo._by_kind["switch_port"]  # ids: no component read for the other cables
        for cab in self.of_kind("cable"):
            if cab["a"] not in switch_ports or cab["b"] not in switch_ports:
                continue
            sa, sb = self.switch_of(self.topo[cab["a"]]), self.switch_of(self.topo[cab["b"]])
            if sa is not None and sb is not None:
                root[find(sa.id)] = find(sb.id)
        return {s: find(s) for s in root}

    def attachment(self, port: str) -> tuple[str, Component | None]:
        """How an HBA or host port is attached: ('switch', switch port), ('direct', the other
        end port), ('none', None) when it is not cabled, ('other', the other end) otherwise.
        Once per port and check (a host port is in many zone pairs)."""
        got = self._attachment.get(port)
        if got is None:
            got = self._attachment[port] = self._attach(port)
        return got

    def _attach(self, port: str) -> tuple[str, Component | None]:
        peer = self.peer(port)
        if peer is None:
            return "none", None
        if peer.kind == "switch_port":
            return "switch", peer
        if peer.kind in ("hba_port", "host_port"):
            return "direct", peer
        return "other", peer

    @cached_property
    def zones_by_member(self) -> dict[str, list[Component]]:
        out: dict[str, list[Component]] = {}
        for z in self.of_kind("zone"):
            for m in z["members"]:
                out.setdefault(m, []).append(z)
        return out

    @cached_property
    def zone_pairs(self) -> list[tuple[Component, str, str]]:
        """(zone, hba_port id, host_port id) for every initiator-target pair a zone allows."""
        out = []
        for z in self.of_kind("zone"):
            members = [self.topo.get(m) for m in z["members"]]
            initiators = [m.id for m in members if m is not None and m.kind == "hba_port"]
            targets = [m.id for m in members if m is not None and m.kind == "host_port"]
            out += [(z, i, t) for i in initiators for t in targets]
        return out

    def in_fabric(self, port: str, fabric: str) -> Component | None:
        """The switch port ``port`` is cabled to when that switch is in ``fabric``, else None."""
        how, sp = self.attachment(port)
        if how != "switch" or sp is None:
            return None
        sw = self.switch_of(sp)
        return sp if sw is not None and sw["fabric"] == fabric else None

    @cached_property
    def connections(self) -> dict[str, dict[str, list[str]]]:
        """HBA port id -> {host port id: zones allowing it} for every logical connection:
        both ports cabled into the zone's fabric, on switches joined by ISLs, or direct-attached
        (key '' stands for 'no zone needed')."""
        out: dict[str, dict[str, list[str]]] = {}
        islands = self.islands
        for z, i, t in self.zone_pairs:
            si, st = self.in_fabric(i, z.parent or ""), self.in_fabric(t, z.parent or "")
            if si is None or st is None:
                continue
            swi, swt = self.switch_of(si), self.switch_of(st)
            if islands.get(swi.id) != islands.get(swt.id):
                continue
            out.setdefault(i, {}).setdefault(t, []).append(z.id)
        for hp in self.of_kind("hba_port"):
            how, peer = self.attachment(hp.id)
            if how == "direct" and peer is not None and peer.kind == "host_port":
                out.setdefault(hp.id, {}).setdefault(peer.id, []).append("")
        return out

    # -- server side ---------------------------------------------------------------------------
    @cached_property
    def io_chain(self) -> dict[str, dict[str, str]]:
        """HBA id -> {'slot', 'phb', 'rio_link', 'planar', 'drawer': id} (levels that exist)."""
        out: dict[str, dict[str, str]] = {}
        for hba in self.of_kind("hba"):
            chain: dict[str, str] = {}
            c = self.topo.get(hba.parent)
            while c is not None:
                if c.kind in _IO_LEVELS:
                    chain[c.kind] = c.id
                c = self.topo.get(c.parent)
            out[hba.id] = chain
        return out

    @cached_property
    def hbas_under(self) -> dict[str, list[str]]:
        """Slot, PHB, link, planar or drawer id -> the HBAs placed below it."""
        out: dict[str, list[str]] = {}
        for hba, chain in self.io_chain.items():
            for cid in chain.values():
                out.setdefault(cid, []).append(hba)
        return out

    @cached_property
    def free_slots(self) -> list[Component]:
        """PCI slots that hold no adapter, in design order."""
        taken = self.hbas_under
        return [s for s in self.of_kind("slot") if s.id not in taken]

    def slot_chain(self, slot: Component) -> list[str]:
        """The slot's PHB, RIO2 link, planar and drawer ids."""
        out, c = [], self.topo.get(slot.parent)
        while c is not None and c.kind in _IO_LEVELS:
            out.append(c.id)
            c = self.topo.get(c.parent)
        return out

    def io_capacity(self, comp: Component, figset: str) -> float | None:
        """Capacity of a PHB, RIO2 link, planar or drawer in ``figset`` (from the drawer part)."""
        drawer = comp if comp.kind == "drawer" else self.topo.ancestor(comp.id, "drawer")
        if comp.kind == "rio_link":
            fig = self._figure(drawer, f"rio_link{comp['index']}", figset) or self._figure(drawer, "rio_link", figset)
        else:
            fig = self._figure(drawer, comp.kind, figset)
        return fig.value if fig is not None else None

    def hba_planning(self, hba_id: str) -> float:
        """The HBA's planning figure (P690 step 1: 150 MB/s when many adapters are busy)."""
        fig = self._figure(self.topo[hba_id], "hba", "planning")
        return fig.value if fig is not None else 0.0

    def _figure(self, part_owner: Component | None, name: str, figset: str) -> Figure | None:
        """:func:`planner.figures.figure` of ``part_owner``'s part in this direction, looked up
        once per part, figure and set in a check."""
        part = part_owner.part if part_owner is not None else None
        key = (part, name, figset)
        got = self._figures.get(key, False)
        if got is False:
            got = self._figures[key] = figure(self.topo.parts.get(part) if part else None, name, figset, self.direction)
        return got

    @cached_property
    def ports_of_lpar(self) -> dict[str, list[str]]:
        """LPAR id -> ids of the HBA ports of its adapters."""
        out: dict[str, list[str]] = {}
        for hp in self.of_kind("hba_port"):
            hba = self.topo.get(hp.parent)
            if hba is not None and hba.kind == "hba" and hba["lpar"]:
                out.setdefault(hba["lpar"], []).append(hp.id)
        return out

    def lpar_of_port(self, hba_port: str) -> str:
        hba = self.topo.get(self.topo[hba_port].parent)
        return hba["lpar"] if hba is not None and hba.kind == "hba" else ""

    # -- storage side --------------------------------------------------------------------------
    @cached_property
    def mappings_by_ld(self) -> dict[str, list[Component]]:
        out: dict[str, list[Component]] = {}
        for m in self.of_kind("host_mapping"):
            for ld in m["logical_drives"]:
                out.setdefault(ld, []).append(m)
        return out

    @cached_property
    def mappings_by_port(self) -> dict[str, list[Component]]:
        """HBA port id -> the host mappings (partitions) that name it, in design order."""
        out: dict[str, list[Component]] = {}
        for m in self.of_kind("host_mapping"):
            for p in m["hba_ports"]:
                out.setdefault(p, []).append(m)
        return out

    def subsystem_of(self, cid: str) -> Component | None:
        return self.topo.ancestor(cid, "subsystem")

    @cached_property
    def arrays_of_vg(self) -> dict[str, list[str]]:
        """Volume group id -> the arrays its hdisks' logical drives live on (design order)."""
        out: dict[str, list[str]] = {}
        for vg in self.of_kind("volume_group"):
            arrays: dict[str, None] = {}
            for pv in vg["pvs"]:
                hd = self.topo.get(pv)
                ld = self.topo.get(hd["logical_drive"]) if hd is not None else None
                if ld is not None and ld.parent:
                    arrays[ld.parent] = None
            out[vg.id] = list(arrays)
        return out
