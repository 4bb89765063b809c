"""Autosave off the GUI thread.

Saving the 16x site whole took about 0.3 s on the GUI thread (the design turned into its JSON
document, then encoded twice and compressed), a visible stall every 30 s while the design was
unsaved. Now the GUI thread only takes the JSON text of the scenarios
(:func:`planner.io.document.topology_text_in_steps`: about 110 ms on the 16x site), at most
:data:`STEP_S` per turn of the event loop, starting again if the design changes meanwhile
(after :data:`MAX_RESTARTS`, at once: then the documents, ``topology_to_dict``, about 40 ms);
a worker compresses and writes them (:func:`planner.io.sanfile.save_designs`, which encodes a
document still to encode in small steps so the GUI thread gets the interpreter between them).
Each piece is encoded as soon as it is copied: when the copy kept the documents (tens of
thousands of dicts and lists) until the worker had encoded them, every cyclic collection on the
GUI thread meanwhile walked them, 5-20 ms at a time, and the editor froze that long. The note
that says where the work came from is written after the design, so a recovery never finds a
note without its design.
"""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, QTimer, Signal

from app import gui_gc
from planner.io import ProjectError
from planner.io.document import topology_text_in_steps, topology_to_dict
from planner.io.sanfile import save_designs
from widgets import slice_budget

#: how long closing or saving waits for an autosave still being written before it removes it
WAIT_S = 10.0
#: the GUI thread copies the design for at most this long per turn of the event loop
STEP_S = 0.004
#: edits that restart the copy before it is taken at once
MAX_RESTARTS = 3
#: components (of one kind) copied per piece
PER_STEP = 500  # about 2 ms on the 16x site (a piece of 4000 blocked the editor 16-20 ms)


class _Copy:
    """The detached documents of a project's scenarios, made a piece at a time."""

    def __init__(self, project: Any) -> None:
        self.project = project
        self.restarts = -1
        self.begin()

    def _state(self) -> tuple:
        return self.project.current, [(n, id(t), t.revision) for n, t in self.project.scenarios.items()]

    def begin(self) -> None:
        self.restarts += 1
        self.state = self._state()
        self.current = self.project.current
        self.todo = list(self.project.scenarios.items())
        self.designs: list[tuple[str, dict[str, Any] | str]] = []
        self.steps = topology_text_in_steps(self.todo[0][1], PER_STEP) if self.todo else None

    def changed(self) -> bool:
        return self._state() != self.state

    def advance(self) -> bool:
        """One piece; whether every scenario is done."""
        if self.steps is None:
            return True
        doc = next(self.steps)
        if doc is None:
            return False
        self.designs.append((self.todo[len(self.designs)][0], doc))
        if len(self.designs) == len(self.todo):
            return True
        self.steps = topology_text_in_steps(self.todo[len(self.designs)][1], PER_STEP)
        return False

    def at_once(self) -> None:
        self.state, self.current = self._state(), self.project.current
        self.designs = [(name, topology_to_dict(topo)) for name, topo in self.project.scenarios.items()]


class Autosaver(QObject):
    """Writes one autosave at a time in a worker; ``failed(text)`` (on the GUI thread) when a
    write fails."""

    failed = Signal(str)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._thread: threading.Thread | None = None
        self._copy: tuple[_Copy, Path, dict[str, Any]] | None = None  # being made on the GUI thread

    def busy(self) -> bool:
        return self._copy is not None or (self._thread is not None and self._thread.is_alive())

    def start(self, project: Any, path: Path, note: dict[str, Any], at_once: bool = False) -> bool:
        """Save ``project`` (its scenarios as they are now) at ``path`` with ``note`` beside it
        (``path`` with ``.json``); False, doing nothing, while the previous one is still being
        made or written (the next tick saves the newer state). ``at_once``: copy the design now
        rather than a piece per turn of the event loop."""
        if self.busy():
            return False
        copy = _Copy(project)
        if at_once:
            copy.at_once()
            self._write(copy, path, note)
            return True
        self._copy = (copy, path, note)
        QTimer.singleShot(0, self, self._step)
        return True

    def _step(self) -> None:
        if self._copy is None:
            return
        copy, path, note = self._copy
        deadline = slice_budget.until(STEP_S, whole=True)  # (in what the canvas's and panels' slices left)
        if deadline is None:  # (a scenario shown of the 16x site: a step beside them made a turn of 20-23 ms)
            QTimer.singleShot(1, self, self._step)
            return
        try:
            self._pieces(copy, path, note, deadline)
        finally:
            slice_budget.ended()

    def _pieces(self, copy: _Copy, path: Path, note: dict[str, Any], deadline: float) -> None:
        while True:  # one piece at least per turn
            if copy.changed():
                if copy.restarts >= MAX_RESTARTS:
                    copy.at_once()
                    break
                copy.begin()
            try:
                done = copy.advance()
            except (TypeError, ValueError) as err:  # a value no file can store, as a save would say
                self._copy = None
                self.failed.emit(f"autosave failed: the design holds a value a file cannot store ({err}); correct it")
                return
            if done:
                break
            if time.perf_counter() >= deadline:
                # a timer, not a posted call: Qt runs posted calls before timers that are due, so
                # back-to-back steps kept the editor's own timers (and repaints) waiting 15-20 ms
                QTimer.singleShot(1, self, self._step)
                return
        self._copy = None
        self._write(copy, path, note)

    def _write(self, copy: _Copy, path: Path, note: dict[str, Any]) -> None:
        designs, current, text = copy.designs, copy.current, json.dumps(note)

        def work() -> None:
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
                save_designs(designs, current, path, "autosave")
                path.with_suffix(".json").write_text(text, encoding="utf-8")
            except (ProjectError, OSError) as err:
                self.failed.emit(f"autosave failed: {err}")

        self._thread = gui_gc.start_thread(work, "autosave")

    def wait(self, timeout: float = WAIT_S) -> bool:
        """Finish the autosave being made (at once) or written (if any); whether it is done."""
        if self._copy is not None:
            copy, path, note = self._copy
            self._copy = None
            copy.at_once()
            self._write(copy, path, note)
        if self._thread is not None:
            self._thread.join(timeout)
        return not self.busy()
