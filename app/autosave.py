"""Autosave off the GUI thread.

Saving the 16x site whole took about 0.3 s on the GUI thread (the design turned into its JSON
document, then encoded twice and compressed), a visible stall every 30 s while the design was
unsaved. Now the GUI thread only takes the detached documents of the scenarios
(``topology_to_dict``, which shares nothing with the live designs: about 40 ms on the 16x site)
and a worker encodes and writes them (:func:`planner.io.sanfile.save_designs`, which encodes in
small steps so the GUI thread gets the interpreter between them). The note that says where the
work came from is written after the design, so a recovery never finds a note without its design.
"""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, Signal

from app import gui_gc
from planner.io import ProjectError
from planner.io.document import topology_to_dict
from planner.io.sanfile import save_designs

#: how long closing or saving waits for an autosave still being written before it removes it
WAIT_S = 10.0


class Autosaver(QObject):
    """Writes one autosave at a time in a worker; ``failed(text)`` (on the GUI thread) when a
    write fails."""

    failed = Signal(str)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._thread: threading.Thread | None = None

    def busy(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def start(self, project: Any, path: Path, note: dict[str, Any]) -> bool:
        """Save ``project`` (its scenarios as they are now) at ``path`` with ``note`` beside it
        (``path`` with ``.json``); False, doing nothing, while the previous one is still being
        written (the next tick saves the newer state)."""
        if self.busy():
            return False
        designs = [(name, topology_to_dict(topo)) for name, topo in project.scenarios.items()]
        current = project.current
        text = json.dumps(note)

        def work() -> None:
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
                save_designs(designs, current, path, "autosave")
                path.with_suffix(".json").write_text(text, encoding="utf-8")
            except (ProjectError, OSError) as err:
                self.failed.emit(f"autosave failed: {err}")

        self._thread = gui_gc.start_thread(work, "autosave")
        return True

    def wait(self, timeout: float = WAIT_S) -> bool:
        """Wait until the autosave being written (if any) is done; whether it is."""
        if self._thread is not None:
            self._thread.join(timeout)
        return not self.busy()
