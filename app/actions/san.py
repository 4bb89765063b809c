"""SAN actions: the zoning editor (Design > Zoning..., and the context menu of a fabric, switch,
HBA or port) and the canvas marking the ports a selected port is zoned with.

The zoning dialog (:class:`widgets.zoning.ZoningDialog`) emits intent; :class:`ZoningLink` runs it
as one undo step each through ``Document.run`` with :mod:`planner.zoning_edit` and
:func:`planner.edit.set_attr`, and sends refusals back to the dialog. The window keeps its one
zoning dialog as ``window.zoning_dialog`` (also ``window.last_dialog``, for tests).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from PySide6.QtCore import QObject

from app.actions.registry import ComponentAction, DesignAction, register
from planner import edit
from planner import zoning_edit as ze
from planner.model import ModelError
from planner.naming import label
from planner.schema import KINDS
from widgets.zoning import ZoningDialog

#: kinds a zone lists (from the schema): HBA ports and host ports
ZONE_MEMBER_KINDS = KINDS["zone"].attrs["members"].ref
#: kinds whose context menu opens the zoning of their fabric: the fabric and its switches, the
#: zone members, and the adapter of an HBA port (or the slot that stands for it on the canvas)
ZONING_KINDS = ("fabric", "switch") + ZONE_MEMBER_KINDS + ("hba", "slot")


class ZoningLink(QObject):
    """Runs a zoning dialog's intent on ``doc`` (one undo step per edit; refusals go back)."""

    def __init__(self, doc: Any, dialog: ZoningDialog) -> None:
        super().__init__(dialog)
        self.doc, self.dialog = doc, dialog
        dialog.zoneToggled.connect(self.toggle)
        dialog.nameEdited.connect(self.rename)
        dialog.wwpnEdited.connect(self.set_wwpn)
        dialog.wwpnsPasted.connect(self.paste)

    def _run(self, operation: Any, *args: Any) -> bool:
        if self.doc.run(operation, *args) is not None:
            return True
        self.dialog.show_refusal(self.doc.last_refusal or "the design refused this change")
        return False

    def toggle(self, fabric: str, initiator: str, target: str, zoned: bool) -> bool:
        return self._run(ze.set_zoned, fabric, initiator, target, zoned)

    def rename(self, cid: str, text: str) -> bool:
        comp = self.doc.topology.get(cid)
        return comp is not None and comp.name != text and self._run(edit.set_attr, cid, "name", text)

    def set_wwpn(self, port: str, text: str) -> bool:
        topo = self.doc.topology
        try:
            if ze.checked_wwpn(topo, port, text) == topo[port]["wwpn"]:
                return False  # the same WWPN, written another way
        except ModelError:
            pass  # refused with its reason below
        if not self._run(ze.set_wwpn, port, text):
            return False
        self._note_duplicates([port])
        return True

    def paste(self, wwpns: dict[str, str]) -> bool:
        if not self._run(ze.set_wwpns, wwpns):
            return False
        self.dialog.show_note(f"Set {len(wwpns)} WWPN{'s' if len(wwpns) != 1 else ''} (one undo step).")
        self._note_duplicates(list(wwpns))
        return True

    def _note_duplicates(self, ports: list[str]) -> None:
        topo = self.doc.topology
        for port in ports:
            others = ze.wwpn_owners(topo, topo[port]["wwpn"], but=port)
            if others:
                self.dialog.show_note(
                    f"{label(topo, port)} now has the WWPN of {label(topo, others[0])}; "
                    "a WWPN names one port, so one of them is wrong (WWPN_DUPLICATE)"
                )
                return


def open_zoning(window: Any, fabric: str = "") -> ZoningDialog | None:
    """Show the window's zoning dialog on ``fabric`` (or the one it shows, or the first)."""
    topo = window.doc.topology
    if not topo.of_kind("fabric"):
        window.doc.message.emit(
            "This design has no fabric to zone: drop a switch from Parts first (it brings its fabric)."
        )
        return None
    dlg = getattr(window, "zoning_dialog", None)
    if dlg is None:
        dlg = ZoningDialog(window.doc, fabric, parent=window)
        dlg.link = ZoningLink(window.doc, dlg)
        window.zoning_dialog = dlg
    else:
        dlg.refresh(fabric)
    window.last_dialog = dlg
    dlg.show()
    dlg.raise_()
    return dlg


def _zoning_of(window: Any, ids: list[str]) -> ZoningDialog | None:
    return open_zoning(window, ze.fabric_for(window.doc.topology, _hba_of_slot(window.doc.topology, ids[0])) or "")


def _hba_of_slot(topo: Any, cid: str) -> str:
    comp = topo.get(cid)
    if comp is not None and comp.kind == "slot":
        hbas = topo.children(cid, "hba")
        return hbas[0].id if hbas else cid
    return cid


def _zoning_offered(topo: Any, ids: list[str]) -> bool:
    comp = topo.get(ids[0]) if len(ids) == 1 else None
    return (
        comp is not None
        and (comp.kind != "slot" or bool(topo.children(comp.id, "hba")))
        and bool(topo.of_kind("fabric"))
    )


# -- the canvas: what a selected port is zoned with ---------------------------------------------------


@dataclass(frozen=True)
class ZoneHighlight:
    """What the canvas marks for a selected port: its zone partners (``hops``, as a path's hops)."""

    hops: tuple[str, ...]
    port: str = field(default="", compare=False)
    bottleneck: str | None = field(default=None, compare=False)  # a zone has no binding hop
    mbps: float | None = field(default=None, compare=False)


def zone_highlight(topo: Any, ids: list[str]) -> ZoneHighlight | None:
    """The zone partners of the one selected HBA, HBA port, host port (or slot with its HBA)."""
    if len(ids) != 1:
        return None
    cid = _hba_of_slot(topo, ids[0])
    comp = topo.get(cid)
    if comp is None or comp.kind not in ("hba", "hba_port", "host_port"):
        return None
    partners = tuple(ze.zoned_with(topo, cid))
    return ZoneHighlight(partners, cid) if partners else None


class ZoneHighlighter(QObject):
    """Marks on the canvas the ports the selected port is zoned with (through the document's
    path highlight, which the canvas draws); a path chosen in the paths table takes over."""

    def __init__(self, doc: Any, parent: QObject | None = None) -> None:
        super().__init__(parent or doc)
        self.doc = doc
        self.shown: ZoneHighlight | None = None
        doc.selectionChanged.connect(self.update)
        doc.pathHighlighted.connect(self._on_highlight)
        doc.edited.connect(lambda: self.update(doc.selection))

    def _on_highlight(self, path: Any) -> None:
        if path is not self.shown:
            self.shown = None  # another highlight (a chosen path) replaced ours

    def update(self, ids: list[str]) -> None:
        want = zone_highlight(self.doc.topology, list(ids))
        if want == self.shown:
            return
        if want is None:
            self.shown = None
            self.doc.highlight_path(None)
            return
        self.shown = want
        self.doc.highlight_path(want)


register(
    DesignAction(
        "zoning",
        "&Zoning...",
        lambda w: open_zoning(w),
        tip="Zone HBA ports with storage ports per fabric; edit names and WWPNs, paste WWPNs from lscfg or a switch",
        order=300,
    )
)
register(
    ComponentAction(
        "zoning-of",
        "&Zoning...",
        ZONING_KINDS,
        _zoning_of,
        tip="The zoning of this fabric: who sees whom, aliases and WWPNs",
        order=300,
        many=False,
        enabled=_zoning_offered,
    )
)
