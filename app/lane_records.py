"""The records the editor's background analysis passes between the GUI thread and its lanes
(:mod:`app.background`): a job, a layout made, a panel's computation and its result, and the
gate the lanes send their results through. No work is done here."""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import QObject

from planner.incremental import Delta, Replica
from planner.model import Topology


class _Adopted(Replica):
    """A replica that takes over a private exact copy of the design (made by
    :meth:`Topology.snapshot` and used by no one else) instead of copying it again."""

    def __init__(self, snapshot: Topology) -> None:  # not Replica's: its copy is what is saved
        self.topo = snapshot


@dataclass
class _Job:
    """One request: the deltas since the last job (or a reset snapshot), the options, and the
    live design the result is for (never read by the lanes)."""

    delta: Delta | None
    figures: str
    direction: str
    origin: Topology
    snapshot: Topology | None = None  # set: start again from this copy of the design
    layout: tuple | None = None  # (collapsed ids, box positions, diagram shown): lay out too (see LaidOut)
    warm: tuple | None = None  # the same, laid out only once the lane has nothing else to do

    def counts(self) -> bool:
        """Whether it is more than a warm-up (one gives way to every other job and to the rules)."""
        return self.delta is not None or self.snapshot is not None


@dataclass
class LaidOut:
    """The canvas layout (:func:`planner.layout.layout`, ``editor=True``) of one revision, made
    by the analysis lane on its replica: a structural edit is laid out off the GUI thread."""

    revision: int
    origin: Topology
    collapsed: frozenset
    diagram: Any
    since: Any = None  # the diagram laid out before (the fields below are against it)
    moved: list[str] | None = None  # components shown by another box than in ``since``
    same: bool | None = None  # the boxes and links of ``since`` where they were (texts aside)
    relabelled: list[str] | None = None  # boxes that differ from those of ``since``
    kept: set[str] | None = None  # boxes whose items of ``since`` show them (when not ``same``)
    changed: list[str] | None = None  # the boxes a canvas showing ``since`` touches (with ``kept``)
    warm: bool = False  # asked for by BackgroundAnalysis.warm: nothing changed, the memo is filled


@dataclass
class _Extra:
    """A computation a panel wants on the design as it is (the scaling curve): ``work(design,
    progress)`` runs in the check lane on its replica; ``progress(fraction)`` raises
    :class:`Superseded` once an edit is queued behind it."""

    key: str
    work: Callable[[Topology, Callable[[float], None]], Any]
    revision: int  # the revision it is for: it waits until the lane's copy is there
    origin: Any = None  # the live design it is for, handed back on the result (never read here)


@dataclass
class Computed:
    """The result of a panel's computation (:meth:`BackgroundAnalysis.compute`): ``result`` is
    what the work returned, or the Exception it raised; ``origin`` and ``revision`` say which
    design and revision it describes (a panel drops a stale one)."""

    key: str
    revision: int
    origin: Any
    result: Any


class Superseded(Exception):
    """An edit arrived while a panel's computation ran: it stops, and the panel asks again."""


class _Gate:
    """The lanes send their results through this: a signal is emitted while the gate is open and
    holding its lock, and the GUI thread closes it (taking the lock: an emission under way ends
    first) before the QObject is deleted. Qt forbids deleting an object while another thread
    emits its signals: a lane emitting while the window was destroyed crashed the process (2
    runs in 6 of a probe emitting in a loop while the owner was deleted)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.open = True

    def send(self, owner: QObject, name: str, value: Any) -> None:
        with self._lock:
            if self.open:
                getattr(owner, name).emit(value)

    def close(self, *_args: Any) -> None:
        with self._lock:
            self.open = False
