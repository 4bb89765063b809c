"""Build draft and damaged designs through a public API (for tests, examples and fuzzers).

The editor's operations (:mod:`planner.edit`) refuse impossible edits, but a design can still hold
states that a rule must report: a file written by another tool, a draft the user passes through
(RAID 5 on two drives, a duplicate WWPN), a reference left dangling. These functions make such
states on purpose, without the checks of the editor, yet through the model's own primitives, so
the indexes stay consistent and observers hear about the change. Never used by the editor.
"""

from __future__ import annotations

from typing import Any

from planner.model import Component, Topology
from planner.schema import default_attrs


def set_raw(topo: Topology, cid: str, key: str, value: Any) -> Any:
    """Set a name, part or attribute as given (no validation); returns the old value."""
    topo[cid]  # raises ModelError naming a missing id
    return topo._set(cid, key, value)


def add_raw(
    topo: Topology,
    kind: str,
    cid: str,
    parent: str | None = None,
    name: str = "",
    part: str | None = None,
    **attrs: Any,
) -> Component:
    """Add a component with the kind's defaults updated by ``attrs`` (values not validated)."""
    comp = Component(cid, kind, name, parent, part, default_attrs(kind) | attrs)
    topo._add(comp)
    return comp


def remove_raw(topo: Topology, cid: str) -> None:
    """Remove one component and everything inside it, leaving references to it dangling."""
    for child in reversed(topo.descendants(cid)):
        topo._remove(child.id)
    topo._remove(cid)
