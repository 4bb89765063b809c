"""Every inspector field has a tooltip: the attribute's label, its doc and what it accepts."""

from __future__ import annotations

from widgets.inspector import SLOT, InspectorPanel
from widgets.inspector_fields import ListField


def _first_of_each_kind(topo):
    out: dict[str, str] = {}
    for comp in topo.components():
        out.setdefault(comp.kind, comp.id)
    return out


def test_every_field_of_every_kind_in_the_example_has_a_tooltip(qtbot, doc):
    panel = InspectorPanel(doc)
    qtbot.addWidget(panel)
    kinds = _first_of_each_kind(doc.topology)
    assert {"server", "lpar", "hba", "array", "logical_drive", "zone", "cable"} <= set(kinds)
    for kind, cid in kinds.items():
        doc.select([cid])
        assert panel.shown_ids() == [cid]
        assert panel._fields, kind
        for key, field in panel._fields.items():
            widgets = [field.editor] + ([field.list] if isinstance(field, ListField) else [])
            for w in widgets:
                assert w.toolTip().strip(), f"{kind} field {key} has no tooltip"
        assert ("name" in panel._fields) and (kind != "hba" or SLOT in panel._fields)


def test_tooltips_name_the_label_the_doc_and_the_allowed_values(qtbot, doc):
    panel = InspectorPanel(doc)
    qtbot.addWidget(panel)
    doc.select(["fastt1.a1"] if "fastt1.a1" in doc.topology else [doc.topology.of_kind("array")[0].id])
    segment = panel.field("segment_kb").toolTip()
    assert segment.startswith("Segment size (KB)") and "a whole number from 1 to 4096" in segment
    raid = panel.field("raid_level").toolTip()
    assert raid.startswith("RAID level") and "one of " in raid and "RAID 5" in raid
    doc.select([doc.topology.of_kind("logical_volume")[0].id])
    stripe = panel.field("stripe_kb").toolTip()
    assert "0 = not striped" in stripe and "one of 0 (not striped)" in stripe
    doc.select([doc.topology.of_kind("hba_port")[0].id])
    assert "16 hex digits" in panel.field("wwpn").toolTip()
    doc.select([doc.topology.of_kind("hba")[0].id])
    assert panel.field(SLOT).toolTip().startswith("Slot: the PCI slot")
    assert panel.field("name").toolTip().startswith("Name: shown on the canvas")
    assert "LPAR" in panel.field("lpar").toolTip() and "or none" in panel.field("lpar").toolTip()
