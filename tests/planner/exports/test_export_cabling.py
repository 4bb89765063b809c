"""Cabling lists: both ends named as racked, CSV and NetBox columns, no spreadsheet formulas."""

from __future__ import annotations

import csv
import io

import pytest

from planner.exports import (
    CABLING_COLUMNS,
    NETBOX_COLUMNS,
    ExportError,
    cabling_csv,
    cabling_netbox,
    cabling_rows,
    spreadsheet_cell,
)


def test_cabling_rows_name_both_ends(one_drawer):
    rows = cabling_rows(one_drawer)
    assert len(rows) == 32
    assert rows[0] == {
        "label": "D1-S1-SW1P00",
        "from_device": "p690",
        "from_port": "fcs0",
        "to_device": "sw1",
        "to_port": "port 0",
        "fabric": "FAB_D1",
        "length_m": 5.0,
        "media": "LC-LC OM2",
    }
    assert rows[1]["from_device"] == "fastt1" and rows[1]["from_port"] == "A1"


def test_cabling_csv_round_trips(one_drawer):
    rows = list(csv.DictReader(io.StringIO(cabling_csv(one_drawer))))
    assert tuple(rows[0]) == CABLING_COLUMNS and len(rows) == 32
    assert rows[0]["length_m"] == "5"


def test_netbox_columns_and_values(one_drawer):
    reader = csv.reader(io.StringIO(cabling_netbox(one_drawer)))
    header = next(reader)
    assert tuple(header) == NETBOX_COLUMNS
    first = dict(zip(header, next(reader)))
    # issue 12: the HBA port is an interface of the drawer it sits in; both ends name their site
    assert first == {
        "side_a_device": "p690 Drawer 1",
        "side_a_type": "dcim.interface",
        "side_a_name": "fcs0",
        "side_a_site": "Site 1",
        "side_b_device": "sw1",
        "side_b_type": "dcim.interface",
        "side_b_name": "port 0",
        "side_b_site": "Site 1",
        "type": "mmf-om2",
        "status": "planned",
        "label": "D1-S1-SW1P00",
        "length": "5",
        "length_unit": "m",
    }


def test_csv_cells_cannot_run_as_formulas(nasty_design, nasty_text):
    topo = nasty_design
    # NetBox files refuse such names instead of guarding them (tests/planner/exports/test_export_netbox.py)
    with pytest.raises(ExportError, match="rename"):
        cabling_netbox(topo)
    for text in (cabling_csv(topo),):
        rows = list(csv.reader(io.StringIO(text)))
        cells = [c for row in rows[1:] for c in row]
        assert not any(c[:1] in ("=", "+", "-", "@") for c in cells)
        assert "'=cmd|' /C calc'!A0" in cells
        assert "'@SUM(1)\n" + nasty_text in cells  # the new line survives, quoted
    assert spreadsheet_cell("-5") == "'-5" and spreadsheet_cell("a=b") == "a=b" and spreadsheet_cell(None) == ""
