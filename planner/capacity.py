"""The capacity of each component for one figure set, direction and data source: the figures
:func:`planner.analysis.analyze` allocates against.

Lookups are memoised per :class:`Capacities` (one per analysis): per part and figure name (a
site has thousands of PHBs, ports and controllers sharing a handful of parts), so a figure is
read from the part's table once per analysis; per array layout; per parent for the owner
(drawer, switch, subsystem) a component's figures come from; and the kinds that never limit.
"""

from __future__ import annotations

from planner.figures import Figure, figure, layout_throughput
from planner.model import Component, Topology

_LINE_RATE = "FC line rate: 1 Gbps ~ 100 MB/s"


class Capacities:
    """Capacity of each component for one figure set, direction and data source.

    Call it with a component (once per component: the analysis keeps the result): returns its
    :class:`~planner.figures.Figure` or None (no limit). Cost O(1) amortised (a subsystem: its
    arrays).
    """

    def __init__(self, topo: Topology, figset: str, direction: str, source: str) -> None:
        self.topo, self.figset, self.direction, self.source = topo, figset, direction, source
        self._nothing: set[str] = set()  # kinds with no capacity in this figure set and source
        self._figs: dict[tuple[str, str], Figure | None] = {}
        self._owners: dict[tuple[str | None, str], Component | None] = {}
        self._layouts: dict[tuple[str | None, int, int, int], Figure | None] = {}

    def __call__(self, comp: Component) -> Figure | None:
        if comp.kind in self._nothing:
            return None
        return self._compute(comp)

    def _owner(self, comp: Component, kind: str) -> Component | None:
        """``comp``'s nearest ancestor of ``kind`` (memoised by parent)."""
        key = (comp.parent, kind)
        got = self._owners.get(key, False)
        if got is False:
            got = self._owners[key] = self.topo.ancestor(comp.parent, kind) if comp.parent else None
        return got

    def _fig(self, part_owner: Component | None, name: str) -> Figure | None:
        if part_owner is None or part_owner.part is None:
            return None
        key = (part_owner.part, name)
        got = self._figs.get(key, False)
        if got is False:
            got = self._figs[key] = figure(self.topo.part_of(part_owner), name, self.figset, self.direction)
        return got

    def _compute(self, comp: Component) -> Figure | None:
        kind = comp.kind
        if kind == "server":
            return self._fig(comp, "system")
        if kind == "drawer":
            return self._fig(comp, "drawer")
        if kind in ("planar", "phb"):
            return self._fig(self._owner(comp, "drawer"), kind)
        if kind == "rio_link":
            drawer = self._owner(comp, "drawer")
            return self._fig(drawer, f"rio_link{comp['index']}") or self._fig(drawer, "rio_link")
        if kind == "hba":
            return self._fig(comp, "hba")
        if kind in ("switch_port", "asic", "backplane"):
            fig = self._fig(self._owner(comp, "switch"), kind)
            if fig is None and kind == "switch_port":
                return Figure(comp["speed_gbps"] * 100.0, _LINE_RATE, True)
            return fig
        if kind == "host_port":
            fig = self._fig(self._owner(comp, "subsystem"), "host_port")
            return fig or Figure(comp["speed_gbps"] * 100.0, _LINE_RATE, True)
        if kind == "controller":
            return self._fig(self._owner(comp, "subsystem"), "controller")
        if kind == "subsystem":
            return self._subsystem(comp)
        if kind == "array" and self.source == "disk":  # from cache the disks and arrays do not limit
            return self._array(comp)
        self._nothing.add(kind)  # never limits here, whatever the component
        return None

    def _layout(self, arr: Component) -> Figure | None:
        sub = self.topo.get(arr.parent)
        key = (sub.part if sub is not None else None, arr["raid_level"], len(arr["drives"]), arr["segment_kb"])
        got = self._layouts.get(key, False)
        if got is False:
            part = self.topo.part_of(sub) if sub is not None else None
            got = self._layouts[key] = layout_throughput(part, key[1], key[2], key[3], self.direction)
        return got

    def _subsystem(self, sub: Component) -> Figure | None:
        """The controllers' ceiling from cache; from disk the smaller of it and the layouts' figure."""
        ceiling = self._ceiling(sub)
        if self.source == "cache":
            return ceiling
        disk = self._from_disk(sub)
        if disk is None or (ceiling is not None and ceiling.value < disk.value):
            return ceiling
        return disk

    def _ceiling(self, sub: Component) -> Figure | None:
        """The subsystem's ceiling whatever the disks do: its ``subsystem_cache`` figure, else
        (a part without one) its rated read figure, which the controllers limit [P690 App. C]."""
        fig = self._fig(sub, "subsystem_cache")
        if fig is not None or sub.part is None:
            return fig
        rated = figure(self.topo.part_of(sub), "subsystem", "rated", "read")
        if rated is None:
            return None
        note = "the part has no subsystem_cache figure: its rated read figure taken as the controllers' ceiling"
        return Figure(rated.value, rated.source, True, note)

    def _from_disk(self, sub: Component) -> Figure | None:
        rated = self._fig(sub, "subsystem")
        if self.figset == "rated":
            return rated
        arrays = self.topo.children(sub.id, "array")
        layouts = [self._layout(a) for a in arrays]
        layouts = [f for f in layouts if f is not None]
        if not layouts:
            return rated
        if len({(a["raid_level"], len(a["drives"]), a["segment_kb"]) for a in arrays}) > 1:
            value = sum(f.value for f in layouts) / len(layouts)
            return Figure(
                value,
                "mean of the subsystem's array layouts (P690 Table 1)",
                True,
                "arrays of different layouts: averaged",
            )
        return layouts[0]

    def _array(self, arr: Component) -> Figure | None:
        fig = self._layout(arr)
        if fig is None:
            return None
        sub = self.topo.get(arr.parent)
        rows = (self.topo.part_of(sub) or {}).get("layouts") or [{}]
        per = int(rows[0].get("arrays", 2)) or 2
        return Figure(
            fig.value / per,
            fig.source,
            True,
            f"one array's share of the {per}-array subsystem figure (the paper measured arrays in pairs, one per controller)",
        )
