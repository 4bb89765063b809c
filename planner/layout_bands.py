"""A site's bands: the servers, switches and subsystems that work together, each group laid
out as a one-server design of its own (no Qt).

One server's design reads left to right in columns (:mod:`planner.layout`). A site of many
servers stacked in those same columns did not: on the 16x site the servers' column ran 42,000
points down, the switches' 68,000 and the 896 subsystems sat in one grid at the top, every
cable fanning up into it. A band holds a connected part with a server in it: servers, switches
and subsystems joined by cables (an HBA or a host port at either end, an ISL) or by a
partition's disks on a subsystem's logical drives; parts without a server that come next to
each other in creation order make one band together. Each band is laid out as a one-server
design would be, its columns starting level with the band's top; the bands come one under the
other (in the editor, in :func:`band_columns` columns, filled top to bottom) in the order their
switches and subsystems were made (the creation number of the first: an undo restores it; a
band of servers alone, by its first server's). So a server deleted leaves its switches and
subsystems one band where its band stood (their parts, no longer joined through its HBAs,
still come next to each other), and when that band is no shorter (the server's column was not
its tallest) no other box moves.

Racks, sites and zoning join nothing here: zoning is drawn from the cabling it rides on, and
one site's racks hold every server.
"""

from __future__ import annotations

from planner.model import Topology

#: the components a band is made of (the diagram's top-level groups besides volume groups)
TOPS = ("server", "switch", "subsystem")
_TOPS = frozenset(TOPS)
BAND_GAP = 40.0  # the gap between two bands (vertical; three times that between columns)


def site_bands(
    topo: Topology, cable_tops: dict[str, str] | None = None, known: dict | None = None
) -> dict[str, int] | None:
    """Each server, switch and subsystem -> the index of its band (0 first), or None when
    everything is one band (one server's design: its columns run the whole height). Linear in
    the cables and disks. ``cable_tops``: filled with each cable joining two components of
    bands -> the top at its first end. ``known``: each component's top as found before and now
    (``LayoutMemo.tops``; the walks up from the 16x site's 21,000 cable ends: 6-8 ms)."""
    comps = topo._components  # read only: this runs for every layout of a site
    root: dict[str, str] = {}  # union-find over the tops

    def find(a: str) -> str:
        while (up := root.get(a, a)) != a:
            root[a] = root.get(up, up)
            a = up
        return a

    top_of: dict[str | None, str] = known if known is not None else {}  # a component -> its top ("": none)
    top_of[None] = top_of[""] = ""
    tops = _TOPS

    def walk(cid: str | None) -> str:  # (each id on the way noted)
        c = comps.get(cid)  # type: ignore[arg-type]
        t = "" if c is None else c.id if c.kind in tops else top_of.get(c.parent)
        if t is None:
            t = walk(c.parent)  # type: ignore[union-attr]
        top_of[cid] = t
        return t

    def top(cid: str | None) -> str:  # (a cable's end: a port)
        t = top_of.get(cid)
        if t is not None:
            return t
        c = comps.get(cid)  # type: ignore[arg-type]
        if c is None:
            t = ""
        elif c.kind in tops:
            t = c.id
        else:
            t = top_of.get(c.parent)
            if t is None:
                t = walk(c.parent)
        top_of[cid] = t
        return t

    seen: set[tuple[str, str]] = set()
    by_kind = topo._by_kind
    cables = list(by_kind["cable"])
    ends = [(comps[cid].attrs.get("a"), comps[cid].attrs.get("b")) for cid in cables]
    ends += [(cid, comps[cid].attrs.get("logical_drive")) for cid in by_kind["hdisk"]]  # a disk on a drive
    for i, (a, b) in enumerate(ends):
        pair = (top(a), top(b))
        if cable_tops is not None and i < len(cables) and pair[0] and pair[1]:
            cable_tops[cables[i]] = pair[0]
        if pair[0] and pair[1] and pair not in seen:
            seen.add(pair)
            ra, rb = find(pair[0]), find(pair[1])
            if ra != rb:
                root[ra] = rb
    return _number(topo, find)


def _number(topo: Topology, find) -> dict[str, int] | None:
    """The bands' indexes (see :func:`site_bands`) from the union-find's ``find`` (every
    part's root)."""
    by_kind, seq = topo._by_kind, topo._seq
    first: dict[str, int] = {}  # a part's root -> the lowest creation number of its switches and subsystems
    has_server: dict[str, int] = {}  # a part with a server's root -> its first server's creation number
    for kind in ("switch", "subsystem"):
        for cid in by_kind[kind]:
            r, n = find(cid), seq[cid]
            if n < first.get(r, n + 1):
                first[r] = n
    for cid in by_kind["server"]:
        r, n = find(cid), seq[cid]
        if n < has_server.get(r, n + 1):
            has_server[r] = n
    for r, n in has_server.items():
        first.setdefault(r, n)  # (a server with no switch or subsystem: by its own)
    place: dict[str, int] = {}  # a part's root -> its band
    band, serverless = -1, False
    for r in sorted(first, key=first.__getitem__):
        if r in has_server or not serverless:  # (parts without a server next to each other: one band)
            band += 1
        serverless = r not in has_server
        place[r] = band
    if band < 1:
        return None
    out: dict[str, int] = {}
    for kind in TOPS:
        for cid in by_kind[kind]:
            out[cid] = place[find(cid)]
    return out


def split(tops: dict[str, int] | None, comps: list, key=None) -> list[list]:
    """``comps`` (in the order wanted) in lists by band (see :func:`site_bands`; ``key``:
    the id a component is banded by, when not its own); all in one list when ``tops`` is
    None."""
    if tops is None:
        return [comps]
    out: list[list] = [[] for _ in range(max(tops.values(), default=0) + 1)]
    last = len(out) - 1
    for c in comps:
        cid = key(c) if key is not None else c.id
        out[tops.get(cid, last) if cid else last].append(c)
    return out


def band_columns(bands: int) -> int:
    """How many columns a site's bands stand in: a folded band (a benchmark server's) is about
    2.5 times as wide as it is high, so sqrt(0.8 n) columns make the site about twice as wide
    as high, as a canvas is (16 bands: 4 columns of 4; 32: 5 of 7), the whole site shown at a
    size its servers can be told apart. From the count alone, so a band growing (a group
    opened) or a server deleted moves no band to another column."""
    return max(1, round((0.8 * bands) ** 0.5))
