"""The routes a path takes through the switches of one fabric (no Qt): within a switch, the
ASIC two ports share or the backplane; between switches, the inter-switch links, fewest first
(:class:`IslIndex`). Used by the path search of :mod:`planner.analysis`."""

from __future__ import annotations

from planner.model import Component, Topology


class IslIndex(dict):
    """The inter-switch links of a design or part: switch id -> [(own port, cable, far port,
    far switch)], and the routes between switches found so far (see :meth:`legs`). A search of
    the links for each path cost O(switches) per path, so a fabric of many switches cost
    O(paths x switches): a 512-host data centre with 40 switches a fabric spent half its
    analysis there."""

    def __init__(self) -> None:
        super().__init__()
        self._trees: dict[str, dict[str, tuple[str, str, str, str] | None]] = {}
        self._legs: dict[tuple[str, str], list[tuple[str, str, str, str]] | None] = {}

    def legs(self, sw_a: str, sw_b: str) -> list[tuple[str, str, str, str]] | None:
        """The inter-switch links from switch ``sw_a`` to ``sw_b`` as (switch, own port, cable,
        far port), fewest first (breadth-first, in the order the links were indexed); None
        when none leads there."""
        key = (sw_a, sw_b)
        if key in self._legs:
            return self._legs[key]
        prev = self._trees.get(sw_a)
        if prev is None:
            prev = self._trees[sw_a] = self._tree(sw_a)
        legs: list[tuple[str, str, str, str]] | None = None
        if sw_b in prev:
            legs = []
            s = sw_b
            while prev[s] is not None:
                legs.append(prev[s])  # type: ignore[arg-type]
                s = prev[s][0]  # type: ignore[index]
            legs.reverse()
        self._legs[key] = legs
        return legs

    def _tree(self, root: str) -> dict[str, tuple[str, str, str, str] | None]:
        """Breadth-first over the links from ``root``: each switch reached -> (the switch it was
        reached from, that one's port, the cable, its own port)."""
        prev: dict[str, tuple[str, str, str, str] | None] = {root: None}
        queue = [root]
        while queue:
            nxt = []
            for s in queue:
                for out_port, cable, in_port, s2 in self.get(s, ()):
                    if s2 not in prev:
                        prev[s2] = (s, out_port, cable, in_port)
                        nxt.append(s2)
            queue = nxt
        return prev


def switch_route(
    topo: Topology,
    a: Component,
    b: Component,
    isl: IslIndex,
    switches: tuple[Component | None, Component | None] | None = None,
) -> list[str] | None:
    """Hops from switch port ``a`` to switch port ``b`` of one fabric (both excluded).
    ``switches``: their switches when the caller has them."""
    sw_a, sw_b = switches or (topo.ancestor(a.id, "switch"), topo.ancestor(b.id, "switch"))
    if sw_a is None or sw_b is None:
        return None
    if sw_a.id == sw_b.id:
        return through_switch(topo, a, b, sw_a)
    legs = isl.legs(sw_a.id, sw_b.id)
    if legs is None:
        return None
    hops: list[str] = []
    cur = a
    for s, out_port, cable, in_port in legs:
        hops += through_switch(topo, cur, topo[out_port], topo[s]) + [out_port, cable, in_port]
        cur = topo[in_port]
    return hops + through_switch(topo, cur, b, sw_b)


def through_switch(topo: Topology, a: Component, b: Component, sw: Component | None = None) -> list[str]:
    """Within one switch (``sw``, when the caller has it): the ASIC when both ports share it,
    else the backplane."""
    if a.parent == b.parent:
        return [a.parent]  # type: ignore[list-item]
    if sw is None:
        sw = topo.ancestor(a.id, "switch")
    bp = topo.children(sw.id, "backplane")  # type: ignore[union-attr]
    return [bp[0].id] if bp else []
