"""The topology model: components, their schema, and the events they emit.

A design is a :class:`Topology`: an ordered set of :class:`Component` records (server, drawers,
planars, RIO2 links, PHBs, slots, HBAs, switches, subsystems, arrays, volume groups, cables,
zones, ...) plus the part figures the design was planned with (``parts``). Every component has a
stable string id, a ``kind`` from :data:`planner.schema.KINDS`, an optional ``parent`` and a dict of attributes
whose names, types and allowed values come from the kind's schema.

The model never imports Qt. It is changed only through :mod:`planner.commands`; observers
(the editor's widgets) subscribe with :meth:`Topology.subscribe` and receive :class:`Event`s.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from planner.schema import (  # noqa: F401  (re-exported: the model's public names)
    KINDS,
    PORT_KINDS,
    Attr,
    KindSpec,
    ModelError,
    _wwpn_or_empty,
    check_attr,
    default_attrs,
    name_problem,
    normalize_wwpn,
    part_kinds,
    text_problem,
    wwpn_problem,
)

MAX_ID = 200  # characters of a component id

#: kinds a catalog part attaches to (from :mod:`planner.schema`)
PART_KINDS = frozenset(part_kinds())


# ---------------------------------------------------------------------------------------------


@dataclass(slots=True)
class Component:
    id: str
    kind: str
    name: str = ""
    parent: str | None = None
    part: str | None = None
    attrs: dict[str, Any] = field(default_factory=dict)

    def __getitem__(self, key: str) -> Any:
        return self.attrs[key]

    def get(self, key: str, default: Any = None) -> Any:
        return self.attrs.get(key, default)

    def copy(self) -> Component:
        return Component(self.id, self.kind, self.name, self.parent, self.part, dict(self.attrs))

    def label(self) -> str:
        return self.name or self.id


@dataclass(frozen=True)
class Event:
    """What changed: ``type`` is 'added', 'removed', 'changed', 'parts' or 'meta'; ``was_in``:
    the parent a component removed or moved (``key`` 'parent') had."""

    type: str
    id: str = ""
    key: str = ""
    was_in: str | None = None


class Topology:
    """A design: components by id (in insertion order), the part figures, and metadata.

    Read freely; change only through commands (:mod:`planner.commands`), which call the
    ``_add``/``_remove``/``_set`` primitives and so keep the indexes and notify observers.
    """

    def __init__(self, name: str = "Untitled design") -> None:
        self.meta: dict[str, Any] = {"name": name, "customer": "", "author": ""}
        self.parts: dict[str, dict[str, Any]] = {}
        self.positions: dict[str, tuple[float, float]] = {}  # top-level boxes the user placed
        self._components: dict[str, Component] = {}
        self._children: dict[str | None, list[str]] = {}
        self._by_kind: dict[str, dict[str, None]] = {k: {} for k in KINDS}
        self._refs_to: dict[str, set[tuple[str, str]]] = {}  # target id -> {(referrer id, attr)}
        self._observers: list[Callable[[Event], None]] = []
        self._seq: dict[str, int] = {}  # creation order, so undo restores the exact order
        self._next_seq = 0
        #: the tables out of design order, put back in order when read (see _fix_table): "" for
        #: the components, else a kind (an undo puts removed components back at their ends)
        self._stale: set[str] = set()
        #: parent -> where the last component removed from its children was (see _remove)
        self._removed_at: dict[str | None, int] = {}
        self.revision = 0  # bumped on every change; analysis caches key on it

    # -- reading --------------------------------------------------------------------------
    def __contains__(self, cid: object) -> bool:
        return cid in self._components

    def __getitem__(self, cid: str) -> Component:
        try:
            return self._components[cid]
        except KeyError:
            raise ModelError(f"no component with id {cid!r} in this design") from None

    def __len__(self) -> int:
        return len(self._components)

    def get(self, cid: str | None) -> Component | None:
        return self._components.get(cid) if cid else None

    def components(self) -> Iterator[Component]:
        if "" in self._stale:
            self._fix_table("")
        return iter(self._components.values())

    def _fix_order(self) -> None:
        """Put the component and kind tables back in design order."""
        for table in list(self._stale):
            self._fix_table(table)

    def _kind_table(self, kind: str) -> dict[str, None]:
        """The ids of ``kind`` in design order (the index itself: read only)."""
        if kind in self._stale:
            self._fix_table(kind)
        return self._by_kind[kind]

    def _fix_table(self, table: str) -> None:
        """Put one table (see ``_stale``) back in design order, only when read: undoing the
        deletion of a site's subsystem put 42 components back, and sorting every table again
        (with a Python key) took 25 ms in each layout, while the layout and the analysis read
        only the small kinds' tables in order. Timsort of a table nearly in order, keyed by a
        C lookup, takes a few ms; rebuilding the dict is most of it."""
        self._stale.discard(table)
        if table == "":
            self._components = _in_design_order(self._components, self._seq)
        else:
            self._by_kind[table] = _in_design_order(self._by_kind[table], self._seq)

    def _appended_late(self, kind: str) -> None:
        """A component of ``kind`` was just appended to the tables out of design order."""
        self._stale.update(("", kind))

    def _disordered(self) -> None:
        """The tables may be out of design order anywhere."""
        self._stale = {"", *self._by_kind}

    def of_kind(self, kind: str) -> list[Component]:
        comps = self._components
        return [comps[i] for i in self._kind_table(kind)]

    def ids_of_kind(self, kind: str) -> list[str]:
        """The ids of the components of ``kind``, in design order, without reading the
        components (a copy of the kind index: cheap even for a site's 50,000 drives)."""
        return list(self._kind_table(kind))

    def count_of(self, kind: str) -> int:
        """How many components of ``kind`` the design holds. O(1)."""
        return len(self._by_kind[kind])

    def children(self, cid: str | None, kind: str | None = None) -> list[Component]:
        comps = self._components
        out = [comps[i] for i in self._children.get(cid, ())]
        if kind:
            out = [c for c in out if c.kind == kind]
        return out

    def has_children(self, cid: str | None) -> bool:
        """Whether ``cid`` holds any component. O(1)."""
        return bool(self._children.get(cid))

    def siblings_before(self, cid: str) -> Iterator[str]:
        """The ids before ``cid`` among its parent's children, the nearest first (finding ``cid``
        is one C-level scan; each step after it is O(1)). Iterate it before changing the design."""
        ids = self._children.get(self._components[cid].parent, [])
        return (ids[j] for j in range(ids.index(cid) - 1, -1, -1))

    def descendants(self, cid: str) -> list[Component]:
        """All components below ``cid``, parents before children."""
        out: list[Component] = []
        stack = list(reversed(self._children.get(cid, ())))
        while stack:
            c = self._components[stack.pop()]
            out.append(c)
            stack.extend(reversed(self._children.get(c.id, ())))
        return out

    def ancestor(self, cid: str, kind: str) -> Component | None:
        comps = self._components  # no id is empty or None: get() of either gives None
        c = comps.get(cid)  # type: ignore[arg-type]
        while c is not None and c.kind != kind:
            c = comps.get(c.parent)  # type: ignore[arg-type]
        return c

    def referrer_ids(self, cid: str) -> set[str]:
        """The ids of the components whose reference attributes name ``cid`` (no order; cheaper
        than :meth:`referrers` when only the ids are wanted)."""
        return {r for r, _ in self._refs_to.get(cid, ())}

    def referrers(self, cid: str) -> list[tuple[Component, str]]:
        """Components whose reference attributes name ``cid``: [(component, attribute)]."""
        return [(self._components[r], a) for r, a in sorted(self._refs_to.get(cid, ()))]

    def part_of(self, comp: Component) -> dict[str, Any] | None:
        return self.parts.get(comp.part) if comp.part else None

    def cable_at(self, port_id: str) -> Component | None:
        for ref, attr in self._refs_to.get(port_id, ()):
            if attr in ("a", "b"):
                return self._components[ref]
        return None

    def peer_port(self, port_id: str) -> str | None:
        cable = self.cable_at(port_id)
        if cable is None:
            return None
        return cable["b"] if cable["a"] == port_id else cable["a"]

    def new_id(self, base: str) -> str:
        """An id not yet used, ``base`` itself when free, else ``base-2``, ``base-3``..."""
        base = re.sub(r"[^A-Za-z0-9_.\-]", "_", base) or "c"
        if base not in self._components:
            return base
        n = 2
        while f"{base}-{n}" in self._components:
            n += 1
        return f"{base}-{n}"

    # -- observing ------------------------------------------------------------------------
    def subscribe(self, callback: Callable[[Event], None]) -> None:
        self._observers.append(callback)

    def unsubscribe(self, callback: Callable[[Event], None]) -> None:
        if callback in self._observers:
            self._observers.remove(callback)

    def _emit(self, event: Event) -> None:
        self.revision += 1
        for cb in list(self._observers):
            cb(event)

    # -- primitives used by commands and loaders -----------------------------------------
    def seq_of(self, cid: str) -> int:
        """A component's place in design order (its creation number, restored by an undo)."""
        return self._seq[cid]

    def seq_of_next(self) -> int:
        """The creation number the next new component gets (above every ``seq_of``)."""
        return self._next_seq

    def _add(self, comp: Component, index: int | None = None, seq: int | None = None) -> None:
        if comp.id in self._components:
            raise ModelError(f"id {comp.id!r} is already used in this design")
        if comp.kind not in KINDS:
            raise ModelError(f"unknown component kind {comp.kind!r}")
        self._components[comp.id] = comp
        siblings = self._children.setdefault(comp.parent, [])
        if index is None or index >= len(siblings):
            siblings.append(comp.id)
        else:
            siblings.insert(index, comp.id)
        self._by_kind[comp.kind][comp.id] = None
        if seq is None:
            seq = self._next_seq
        elif seq < self._next_seq - 1:
            self._appended_late(comp.kind)
        self._seq[comp.id] = seq
        self._next_seq = max(self._next_seq, seq + 1)
        self._index_refs(comp, add=True)
        self._emit(Event("added", comp.id))

    def _remove(self, cid: str) -> int:
        """Remove one component (it must have no children); return its sibling index."""
        comp = self._components[cid]
        if self._children.get(cid):
            raise ModelError(f"{cid} still has parts inside it")
        siblings = self._children[comp.parent]
        index = self._place_among(siblings, cid, self._removed_at.get(comp.parent, 0))
        self._removed_at[comp.parent] = index
        del siblings[index]
        self._index_refs(comp, add=False)
        del self._by_kind[comp.kind][cid]
        del self._components[cid]
        del self._seq[cid]
        self._children.pop(cid, None)
        self._removed_at.pop(cid, None)
        self.positions.pop(cid, None)  # a deleted box keeps no place on the canvas
        self._emit(Event("removed", cid, was_in=comp.parent))
        return index

    @staticmethod
    def _place_among(siblings: list[str], cid: str, near: int) -> int:
        """``cid``'s index in ``siblings``, looked for from ``near`` on first: a deletion
        removes its components in the order they were made, so a server's 224 cables among the
        16x site's 5,000 top-level components follow one another (each searched from the start:
        2 ms of the deletion)."""
        try:
            return siblings.index(cid, near)
        except ValueError:
            return siblings.index(cid, 0, near)

    def _set(self, cid: str, key: str, value: Any) -> Any:
        comp = self._components[cid]
        if key == "name":
            old, comp.name = comp.name, value
        elif key == "part":
            old, comp.part = comp.part, value
        else:
            self._index_refs(comp, add=False)
            old = comp.attrs.get(key)
            comp.attrs[key] = value
            self._index_refs(comp, add=True)
        self._emit(Event("changed", cid, key))
        return old

    def _reparent(self, cid: str, parent: str | None, index: int | None = None) -> int:
        """Move a component under another parent; returns its index among the old siblings."""
        comp = self._components[cid]
        old = self._children[comp.parent]
        old_index = old.index(cid)
        del old[old_index]
        was_in, comp.parent = comp.parent, parent
        siblings = self._children.setdefault(parent, [])
        siblings.insert(len(siblings) if index is None else index, cid)
        self._emit(Event("changed", cid, "parent", was_in))
        return old_index

    def _index_refs(self, comp: Component, add: bool) -> None:
        for name, many in _ref_attrs(comp.kind):
            value = comp.attrs.get(name)
            targets = value if many else (value,)
            for t in targets or ():
                if not t:
                    continue
                bucket = self._refs_to.setdefault(t, set())
                if add:
                    bucket.add((comp.id, name))
                else:
                    bucket.discard((comp.id, name))

    # -- copying ------------------------------------------------------------------------
    def clone(self) -> Topology:
        """A deep copy without observers (for scenarios and background analysis)."""
        other = Topology()
        other.meta = copy.deepcopy(self.meta)
        other.parts = copy.deepcopy(self.parts)
        other.positions = dict(self.positions)
        for comp in self.components():  # in design order: the copy numbers them afresh
            other._add_silent(comp.copy())
        other.revision = self.revision
        return other

    def snapshot(self) -> Topology:
        """An exact copy without observers, its indexes copied rather than rebuilt (cheaper than
        :meth:`clone` and keeping the creation order and the order of children as they are): the
        background analysis's start from an opened design."""
        other = Topology()
        other.meta = copy.deepcopy(self.meta)
        other.parts = copy.deepcopy(self.parts)
        other.positions = dict(self.positions)
        other._components = {cid: c.copy() for cid, c in self._components.items()}
        other._children = {cid: list(kids) for cid, kids in self._children.items()}
        other._by_kind = {kind: dict(ids) for kind, ids in self._by_kind.items()}
        other._refs_to = {cid: set(refs) for cid, refs in self._refs_to.items()}
        other._seq = dict(self._seq)
        other._next_seq = self._next_seq
        other._stale = set(self._stale)
        other.revision = self.revision
        return other

    def _add_silent(self, comp: Component) -> None:
        self._seq[comp.id] = self._next_seq
        self._next_seq += 1
        self._components[comp.id] = comp
        self._children.setdefault(comp.parent, []).append(comp.id)
        self._by_kind[comp.kind][comp.id] = None
        self._index_refs(comp, add=True)


def load_component(topo: Topology, data: dict[str, Any], strict_refs: bool = False) -> Component:
    """Build a component from a plain dict (file or JSON) and add it without events.

    Values are validated against the schema; a value that fails is reported as ModelError naming
    the component. Unknown attributes are refused. References are checked afterwards by
    :func:`check_references` (files may list components in any order).
    """
    try:
        cid = data["id"]
        kind = data["kind"]
    except (KeyError, TypeError):
        raise ModelError("a component has no 'id' or 'kind'") from None
    if not isinstance(cid, str) or not cid or len(cid) > MAX_ID or text_problem(cid, MAX_ID):
        raise ModelError(f"component id {cid!r} is not text of 1-{MAX_ID} characters without control characters")
    if kind not in KINDS:
        raise ModelError(f"component {cid}: unknown kind {kind!r}")
    if cid in topo:
        raise ModelError(f"component id {cid!r} appears twice")
    parent = data.get("parent") or None
    parents, schema = KINDS[kind].parents, KINDS[kind].attrs
    if parent is None and None not in parents:
        raise ModelError(f"component {cid}: a {kind} must sit inside a {' or '.join(p for p in parents if p)}")
    attrs = _defaults(kind, schema)
    raw = data.get("attrs") or {}
    if not isinstance(raw, dict):
        raise ModelError(f"component {cid}: attrs is not an object")
    for key, value in raw.items():
        if key not in schema:
            raise ModelError(f"component {cid}: a {kind} has no attribute {key!r}")
        try:
            attrs[key] = _lenient(schema[key], value)
        except ModelError as err:
            raise ModelError(f"component {cid}: {err}") from None
    name = data.get("name") or ""
    part = data.get("part") or None
    if not isinstance(name, str) or (part is not None and not isinstance(part, str)):
        raise ModelError(f"component {cid}: name and part must be text")
    problem = name_problem(name)
    if problem:
        raise ModelError(f"component {cid}: {problem}")
    comp = Component(cid, kind, name, parent, part, attrs)
    topo._add_silent(comp)
    return comp


# per kind: (its schema's attrs, what is derived from them), rebuilt should a kind's attrs change
_REF_ATTRS: dict[str, tuple[Any, tuple[tuple[str, bool], ...]]] = {}
_DEFAULTS: dict[str, tuple[Any, dict[str, Any]]] = {}


def _ref_attrs(kind: str) -> tuple[tuple[str, bool], ...]:
    """The reference attributes of ``kind``: (name, many), in schema order."""
    schema = KINDS[kind].attrs
    hit = _REF_ATTRS.get(kind)
    if hit is None or hit[0] is not schema:
        hit = _REF_ATTRS[kind] = (schema, tuple((name, spec.many) for name, spec in schema.items() if spec.ref))
    return hit[1]


def _defaults(kind: str, schema: Any) -> dict[str, Any]:
    """A new dict of ``kind``'s default attributes (as :func:`default_attrs`, copied from a template)."""
    hit = _DEFAULTS.get(kind)
    if hit is None or hit[0] is not schema:
        hit = _DEFAULTS[kind] = (schema, default_attrs(kind))
    return dict(hit[1])


def _lenient(spec: Attr, value: Any) -> Any:
    """Loaders keep malformed WWPNs as drafts (the WWPN_INVALID rule reports them)."""
    if spec.check is _wwpn_or_empty:
        if not isinstance(value, str):
            raise ModelError(f"WWPN {value!r} is not text")
        return value.strip().lower()
    return spec.check(value)


def check_references(topo: Topology) -> None:
    """Raise ModelError when a parent or reference names a missing or wrong-kind component."""
    for comp in topo.components():
        parents = KINDS[comp.kind].parents
        if comp.parent is not None:
            p = topo.get(comp.parent)
            if p is None:
                raise ModelError(f"component {comp.id}: its parent {comp.parent!r} is missing")
            if p.kind not in parents:
                raise ModelError(f"component {comp.id}: a {comp.kind} cannot sit inside a {p.kind}")
        if comp.part is not None and comp.part not in topo.parts:
            raise ModelError(f"component {comp.id}: part {comp.part!r} is not in the design's parts")
        for name, spec in KINDS[comp.kind].attrs.items():
            if not spec.ref:
                continue
            value = comp.attrs.get(name)
            for t in (value if spec.many else (value,)) or ():
                if not t:
                    continue
                target = topo.get(t)
                if target is None:
                    raise ModelError(f"component {comp.id}: {name} names {t!r}, which does not exist")
                if target.kind not in spec.ref:
                    raise ModelError(
                        f"component {comp.id}: {name} must name a {' or '.join(spec.ref)}, not a {target.kind}"
                    )


def _in_design_order(table: dict, seq: dict[str, int]) -> dict:
    """``table`` (keyed by component id) in design order."""
    keys = sorted(table, key=seq.__getitem__)
    return dict(zip(keys, map(table.__getitem__, keys)))
