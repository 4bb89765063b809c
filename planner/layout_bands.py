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

from collections.abc import Callable, Iterable

from planner.model import Topology

#: the components a band is made of (the diagram's top-level groups besides volume groups)
TOPS = ("server", "switch", "subsystem")
_TOPS = frozenset(TOPS)
_JOINING = frozenset(("cable", "hdisk"))  # what joins two tops into one band
BAND_GAP = 40.0  # the gap between two bands (vertical; three times that between columns)


class EndPairs:
    """What :func:`site_bands` found for each cable and disk, kept from one layout to the next
    (``LayoutMemo.pairs``): the tops at its two ends, how many join each pair of tops, and which
    cables and disks read each end. An edit makes it look again only at what it touched (see
    :meth:`forget`): the walks over the 16x site's 5,376 cables and disks, 3-5 ms of each
    layout, then look at the few hundred ids a server deleted names."""

    def __init__(self) -> None:
        self.of: dict[str, tuple[str, str]] = {}  # cable or hdisk -> (top at its first end, at its second)
        self.count: dict[tuple[str, str], int] = {}  # a pair of tops -> how many join it (both tops known)
        self.first: dict[str, str] = {}  # each cable joining two tops -> the top at its first end
        self.at: dict[str, set[str]] = {}  # an end (a port, a drive, a disk) -> the cables and disks that read it
        self.stale: set[str] = set()  # cables and disks to look at again (and ids that may be new ones)
        self.known = False  # every cable and disk looked at once

    def reset(self, topo: Topology) -> None:
        """Look at every cable and disk of ``topo`` (the first layout with this memo)."""
        self.__init__()  # type: ignore[misc]
        self.known, self.stale = True, set(topo._by_kind["cable"]) | set(topo._by_kind["hdisk"])

    def forget(self, ids: Iterable[str]) -> None:
        """Look again at ``ids`` (changed, added or removed: a cable or disk among them) and at
        what reads them (a component whose top may have changed: every one below an edited
        component comes here, see ``LayoutMemo.forget``)."""
        stale, at = self.stale, self.at
        for cid in ids:
            stale.add(cid)
            readers = at.pop(cid, None)
            if readers:
                stale.update(readers)


def site_bands(
    topo: Topology, cable_tops: dict[str, str] | None = None, known: dict | None = None, pairs: EndPairs | None = None
) -> dict[str, int] | None:
    """Each server, switch and subsystem -> the index of its band (0 first), or None when
    everything is one band (one server's design: its columns run the whole height). Linear in
    the cables and disks. ``cable_tops``: filled with each cable joining two components of
    bands -> the top at its first end. ``known``: each component's top as found before and now
    (``LayoutMemo.tops``; the walks up from the 16x site's 21,000 cable ends: 6-8 ms);
    ``pairs``: the tops at each cable's and disk's ends as found before (:class:`EndPairs`,
    looked at again for what an edit touched)."""
    comps = topo._components  # read only: this runs for every layout of a site
    top_of: dict[str | None, str] = known if known is not None else {}  # a component -> its top ("": none)
    top_of[None] = top_of[""] = ""
    top = _top_finder(comps, top_of)
    if pairs is None:
        joined: Iterable[tuple[str, str]] = _pairs(topo, top, cable_tops)
    else:
        if not pairs.known:
            pairs.reset(topo)
        _look_again(comps, pairs, top)
        if cable_tops is not None:
            cable_tops.update(pairs.first)
        joined = pairs.count
    root: dict[str, str] = {}  # union-find over the tops

    def find(a: str) -> str:
        while (up := root.get(a, a)) != a:
            root[a] = root.get(up, up)
            a = up
        return a

    for a, b in joined:
        ra, rb = find(a), find(b)
        if ra != rb:
            root[ra] = rb
    return _number(topo, find)


def _top_finder(comps: dict, top_of: dict) -> Callable[[str | None], str]:
    """A function giving a component's top-level server, switch or subsystem ("": none),
    noting in ``top_of`` each id on the way up."""
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
        return t if t is not None else walk(cid)

    return top


def _pairs(topo: Topology, top: Callable[[str | None], str], cable_tops: dict[str, str] | None) -> set[tuple[str, str]]:
    """The pairs of tops the cables and disks of ``topo`` join (``cable_tops``: filled as
    :func:`site_bands` says), with no memo."""
    comps, by_kind = topo._components, topo._by_kind
    cables = list(by_kind["cable"])
    ends = [(comps[cid].attrs.get("a"), comps[cid].attrs.get("b")) for cid in cables]
    ends += [(cid, comps[cid].attrs.get("logical_drive")) for cid in by_kind["hdisk"]]  # a disk on a drive
    seen: set[tuple[str, str]] = set()
    for i, (a, b) in enumerate(ends):
        pair = (top(a), top(b))
        if pair[0] and pair[1]:
            seen.add(pair)
            if cable_tops is not None and i < len(cables):
                cable_tops[cables[i]] = pair[0]
    return seen


def _look_again(comps: dict, pairs: EndPairs, top: Callable[[str | None], str]) -> None:
    """The ends of the cables and disks ``pairs`` holds stale, found again (those that are
    no longer a cable or disk dropped)."""
    of, count, first, at = pairs.of, pairs.count, pairs.first, pairs.at
    for cid in pairs.stale:
        was = of.pop(cid, None)
        if was is not None and was[0] and was[1]:
            n = count[was] - 1
            if n:
                count[was] = n
            else:
                del count[was]
        first.pop(cid, None)
        c = comps.get(cid)
        if c is None or c.kind not in _JOINING:
            continue
        a, b = (c.attrs.get("a"), c.attrs.get("b")) if c.kind == "cable" else (cid, c.attrs.get("logical_drive"))
        pair = of[cid] = (top(a), top(b))
        for end in (a, b):
            if end:
                got = at.get(end)
                if got is None:
                    at[end] = {cid}
                else:
                    got.add(cid)
        if pair[0] and pair[1]:
            count[pair] = count.get(pair, 0) + 1
            if c.kind == "cable":
                first[cid] = pair[0]
    pairs.stale = set()


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
