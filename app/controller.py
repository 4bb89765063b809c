"""The controller: turns intent from the canvas, the inspector and the menus into commands.

Widgets emit intent (``cableRequested``, ``dropPart``, ``boxesMoved``, ``attributeEdited``...);
:class:`Controller` turns each into one planner command pushed on the document's undo stack, so
every gesture is one undo step and a refused edit changes nothing and says why (the reason goes
out through ``Document.message`` and, for the inspector, ``editRefused``). It needs no window:
tests build it from a :class:`~app.document.Document` and a catalog.

Scenario operations (add as a copy, rename, delete, switch) are undoable too: they act on the
project through :mod:`planner.io.project`'s scenario commands (``do(project)``/``undo(project)``),
pushed with ``Document.push_project`` into the same linear history as design edits.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any, Protocol

from PySide6.QtCore import QObject, Signal

from planner import edit
from planner import edit_create as ec
from planner.commands import Macro, SetAttr, SetMeta, SetPositions
from planner.io.project import AddScenario, DeleteScenario, RenameScenario, SwitchScenario
from planner.model import ModelError, Topology
from planner.naming import label, label_list
from planner.schema import KINDS, attr_label, check_attr, count_label, kind_name, name_problem, structural_kinds

# -- the controller ----------------------------------------------------------------------------------

#: structural kinds that hold catalog parts (a slot holds an HBA): deleting one deletes its parts
_PART_HOLDERS = frozenset(k for k in structural_kinds() if any(s.part_kind and k in s.parents for s in KINDS.values()))


class PartSource(Protocol):
    def get(self, part_id: str) -> dict[str, Any] | None: ...


class Controller(QObject):
    """Turns intent into commands on ``doc`` (an :class:`app.document.Document`).

    ``catalog`` is anything with ``get(part_id) -> part dict or None`` (a
    :class:`catalogs.catalog.Catalog`, or a plain dict of parts in tests). Every operation
    returns whether it changed the design; a refusal is reported through ``doc.message``.
    Signals: ``editRefused(key, reason)`` for the inspector field that asked.
    """

    editRefused = Signal(str, str)

    def __init__(self, doc: Any, catalog: PartSource | Mapping[str, dict[str, Any]], parent: QObject | None = None):
        super().__init__(parent)
        self.doc = doc
        self.catalog = catalog
        self.clipboard: list[str] = []
        #: asks how many drives a new subsystem or enclosure comes with (the window sets it);
        #: None: no question, the bays are filled
        self.drive_count: Callable[[dict[str, Any]], int | None] | None = None

    # -- wiring -------------------------------------------------------------------------------
    def connect_canvas(self, scene: Any) -> None:
        """Take intent from a ``widgets.canvas.DiagramScene``."""
        scene.cableRequested.connect(self.lay_cable)
        scene.dropPart.connect(lambda part_id, target, _pos: self.drop_part(part_id, target))
        scene.boxesMoved.connect(self.move_boxes)
        scene.deleteRequested.connect(self.delete)
        scene.duplicateRequested.connect(self.duplicate)
        if hasattr(scene, "hbaMoveRequested"):
            scene.hbaMoveRequested.connect(self.move_hba)

    def connect_inspector(self, inspector: Any) -> None:
        """Take attribute edits from a ``widgets.inspector.InspectorPanel``; report refusals back."""
        inspector.attributeEdited.connect(self.edit_attribute)
        if hasattr(inspector, "slotChosen"):
            inspector.slotChosen.connect(self.choose_slot)
        self.editRefused.connect(inspector.show_refusal)

    def _message(self, text: str) -> bool:
        self.doc.last_refusal = text
        self.doc.message.emit(text)
        return False

    # -- the canvas ---------------------------------------------------------------------------
    def lay_cable(self, a: str, b: str) -> bool:
        """Lay a cable between ports ``a`` and ``b``."""
        return self.doc.run(edit.add_cable, a, b) is not None

    def move_hba(self, hba: str, slot: str) -> bool:
        """Move HBA ``hba`` (with its ports and cables) into the free PCI slot ``slot``; one undo
        step. A taken slot, or one of another server, is refused with the reason."""
        topo = self.doc.topology
        h, s = topo.get(hba), topo.get(slot)
        if h is None or h.kind != "hba" or s is None or s.kind != "slot":
            return self._message(f"{hba} cannot move to {slot}: drag an HBA onto a PCI slot")
        if h.parent == slot:
            return False
        held = topo.children(slot, "hba")
        if held:
            return self._message(
                f"{label(topo, s)} already holds {label(topo, held[0])}; drop {label(topo, h)} on a free slot"
            )
        if topo.ancestor(slot, "server") is not topo.ancestor(hba, "server"):
            return self._message(f"{label(topo, s)} is in another server; an HBA moves within its server")
        return self.doc.run(edit.move_hba, hba, slot) is not None

    def choose_slot(self, hba: str, slot: str) -> bool:
        """The inspector's slot choice for an HBA: :meth:`move_hba`, a refusal shown under the field."""
        self.doc.last_refusal = ""
        return self.move_hba(hba, slot) or (bool(self.doc.last_refusal) and self._refuse("slot", self.doc.last_refusal))

    def assign_hbas(self, hbas: list[str], lpar: str) -> bool:
        """HBAs dropped on an LPAR (the model tree): give them to it as one undo step; an LPAR of
        another server is refused with the reason."""
        topo = self.doc.topology
        if not hbas:
            return self._message("drag HBAs, their ports or the slots holding them onto an LPAR")
        if topo.get(lpar) is not None and all(topo.get(h) is not None and topo[h]["lpar"] == lpar for h in hbas):
            return self._message(f"{label_list(topo, hbas)} already belong to {label(topo, topo[lpar])}")
        return self.doc.run(ec.assign_hbas, list(hbas), lpar) is not None

    def drop_part(self, part_id: str, target: str = "") -> bool:
        """Add catalog part ``part_id`` where it fits (into ``target`` when given)."""
        part = self.catalog.get(part_id)
        if part is None:
            return self._message(f"part {part_id} is not in the catalog")
        drives = None
        if (
            part.get("kind") in ("subsystem", "enclosure")
            and int(part.get("drive_bays", 0) or 0) > 0
            and self.drive_count
        ):
            drives = self.drive_count(part)  # how many drives it comes with; None: cancelled
            if drives is None:
                return False
        return self.doc.run(edit.place_part, part, target or None, self.doc.parts, drives) is not None

    def move_boxes(self, moved: dict[str, tuple[float, float] | None]) -> bool:
        """Place top-level boxes (id -> (x, y), None: back to the automatic place); one undo step."""
        return bool(moved) and self.doc.push(SetPositions(dict(moved)))

    def auto_layout(self) -> bool:
        """Forget every box the user placed."""
        topo = self.doc.topology
        return bool(topo.positions) and self.doc.push(SetPositions({cid: None for cid in topo.positions}))

    def delete(self, ids: Iterable[str]) -> bool:
        """Delete components. A part made with its parent that holds parts (a slot) stands for the
        parts in it (its adapter); any other (a switch's ASIC) is refused with a hint to delete
        the parent."""
        topo = self.doc.topology
        targets: list[str] = []
        structural = structural_kinds()
        for cid in ids:
            comp = topo.get(cid)
            if comp is None:
                continue
            if comp.kind in _PART_HOLDERS:
                targets += [c.id for c in topo.children(cid) if KINDS[c.kind].part_kind]
            elif comp.kind in structural:
                parent = topo.get(comp.parent) if comp.parent else None
                whole = kind_name(parent.kind) if parent is not None else "part"
                self._message(f"{label(topo, comp)} is part of its {whole}; delete the whole {whole} instead")
            else:
                targets.append(cid)
        return bool(targets) and self.doc.run(edit.delete, targets) is not None

    def duplicate(self, ids: Iterable[str]) -> bool:
        """Duplicate drawers, subsystems... with everything inside them."""
        ids = list(ids)
        if not ids:
            return self._message("select a drawer or a subsystem to duplicate")
        return self.doc.run(edit.duplicate, ids) is not None

    def copy(self, ids: Iterable[str]) -> int:
        """Remember components to paste; returns how many."""
        self.clipboard = list(ids)
        return len(self.clipboard)

    def paste(self) -> bool:
        """Add copies of the copied components that still exist."""
        ids = [i for i in self.clipboard if i in self.doc.topology]
        if not ids:
            return self._message("nothing to paste: copy a drawer or a subsystem first")
        return self.doc.run(edit.duplicate, ids) is not None

    # -- the inspector and the design properties ---------------------------------------------------
    def edit_attribute(self, ids: list[str], key: str, raw: Any) -> bool:
        """Set ``key`` ("name" or an attribute) of the components ``ids`` (all of one kind) to the
        value typed or chosen; one undo step. A refused value emits ``editRefused(key, reason)``."""
        topo = self.doc.topology
        comps = [topo[i] for i in ids if i in topo]
        kinds = {c.kind for c in comps}
        if len(kinds) != 1:
            return False
        kind = kinds.pop()
        try:
            value = self._checked(kind, key, raw)
        except ModelError as err:
            return self._refuse(key, str(err))
        self.doc.last_refusal = ""
        if len(comps) == 1:
            ok = self.doc.run(edit.set_attr, comps[0].id, key, value) is not None
        else:
            todo = [SetAttr(c.id, key, value) for c in comps if (c.name if key == "name" else c.get(key)) != value]
            if key == "wwpn":  # a WWPN the user enters is no longer a placeholder
                todo += [SetAttr(c.id, "wwpn_placeholder", False) for c in comps if c.get("wwpn_placeholder")]
            ok = not todo or self.doc.push(Macro(f"Set {attr_label(key)} of {count_label(len(todo), kind)}", todo))
        return ok or self._refuse(key, self.doc.last_refusal or "the design refused this value")

    def _checked(self, kind: str, key: str, raw: Any) -> Any:
        """The value normalised by the schema, or ModelError with the reason."""
        if key == "name":
            problem = name_problem(raw)
            if problem:
                raise ModelError(problem)
            return raw
        value = check_attr(kind, key, raw)
        attr = KINDS[kind].attrs[key]
        if attr.ref:
            topo = self.doc.topology
            for target in value if attr.many else (value,):
                if target and (target not in topo or topo[target].kind not in attr.ref):
                    raise ModelError(f"{target} is not a {' or '.join(attr.ref)} in this design")
        return value

    def _refuse(self, key: str, reason: str) -> bool:
        """Tell the inspector why the value of ``key`` was refused (shown under its field)."""
        self.editRefused.emit(key, reason)
        return False

    def set_meta(self, values: Mapping[str, str]) -> bool:
        """Set design properties (name, customer, author); one undo step."""
        meta = self.doc.topology.meta
        cmds = [SetMeta(k, v) for k, v in values.items() if v != meta.get(k, "")]
        return bool(cmds) and self.doc.push(Macro("Design properties", cmds))

    # -- scenarios ----------------------------------------------------------------------------------
    def add_scenario(self, name: str, design: Topology | None = None) -> bool:
        """Add scenario ``name`` as a copy of the current one and switch to it; ``design``: that
        copy, made beforehand (by a worker: ``app.opening.copy_design``)."""
        cmd = AddScenario(name, self.doc.project.current, make_current=True)
        cmd.topology = design  # (None: copied as the command is done)
        return self.doc.push_project(cmd)

    def rename_scenario(self, name: str) -> bool:
        """Rename the current scenario."""
        current = self.doc.project.current
        return name != current and self.doc.push_project(RenameScenario(current, name))

    def delete_scenario(self) -> bool:
        """Delete the current scenario (not the last one); its neighbour becomes current."""
        return self.doc.push_project(DeleteScenario(self.doc.project.current))

    def switch_scenario(self, name: str) -> bool:
        """Show scenario ``name``."""
        return name != self.doc.project.current and self.doc.push_project(SwitchScenario(name))
