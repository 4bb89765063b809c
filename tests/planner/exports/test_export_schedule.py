"""The installer's cabling schedule: a CSV any reader takes, formula cells guarded, both ends
placed, installer order, lengths with their source, golden file."""

from __future__ import annotations

import csv
import io
import os
from pathlib import Path

from planner import placement
from planner.exports import get
from planner.exports.schedule import SCHEDULE_COLUMNS, schedule_csv, schedule_rows
from planner.fixtures import set_raw

GOLDEN = Path(__file__).resolve().parents[2] / "golden" / "schedule"


def read(text: str) -> list[dict[str, str]]:
    reader = csv.DictReader(io.StringIO(text))
    assert tuple(reader.fieldnames or ()) == SCHEDULE_COLUMNS
    rows = list(reader)
    assert all(None not in r and len(r) == len(SCHEDULE_COLUMNS) for r in rows)  # no short or long rows
    return rows


def test_header_is_stable():
    assert SCHEDULE_COLUMNS[:2] == ("seq", "label") and SCHEDULE_COLUMNS[-2:] == ("installed", "tested")
    for side in "ab":
        for key in ("site", "rack", "u", "device", "slot", "port", "location_code"):
            assert f"{side}_{key}" in SCHEDULE_COLUMNS
    for key in (
        "wwpn",
        "wwpn_status",
        "speed_gbps",
        "fabric",
        "zones",
        "media",
        "length_m",
        "length_from",
        "length_rule",
    ):
        assert key in SCHEDULE_COLUMNS


def test_benchmark_rows_in_installer_order(benchmark_design):
    rows = read(schedule_csv(benchmark_design))
    assert len(rows) == 224 and [r["seq"] for r in rows] == [str(n) for n in range(1, 225)]
    # grouped by switch, each switch's ports in order; the switch end is end B
    switches = [r["b_device"] for r in rows]
    assert switches == sorted(switches, key=lambda s: int(s[2:]))
    for sw in set(switches):
        ports = [int(r["b_port"].split()[-1]) for r in rows if r["b_device"] == sw]
        assert ports == list(range(32))
    first = rows[0]
    assert (first["a_rack"], first["a_u"], first["a_device"], first["a_slot"], first["a_port"]) == (
        "p690 frame 1",
        "9",
        "p690 Drawer 1",
        "slot 1",
        "fcs0",
    )
    assert first["a_location_code"] == "U1.9-P1-I1/Q1" and first["b_rack"] == "R1"
    assert first["wwpn"] == "10:00:00:00:c9:01:00:01" and first["zones"] == "Z_D1_FCS0_FASTT1_A"
    assert first["speed_gbps"] == "2" and first["fabric"] == "FAB_D1" and first["media"] == "LC-LC OM2"
    assert all(r["installed"] == "" and r["tested"] == "" for r in rows)


def test_length_from_the_design_or_the_placement_rule(one_drawer):
    set_raw(one_drawer, "cab1", "length_m", 0)
    rows = {r["label"]: r for r in read(schedule_csv(one_drawer))}
    derived = rows["D1-S1-SW1P00"]
    assert derived["length_from"] == "placement rule" and derived["length_rule"] == placement.LENGTH_RULE
    assert float(derived["length_m"]) == placement.cable_length_m(one_drawer, "cab1")
    given = rows["FASTT1-A1-SW1P01"]
    assert (given["length_m"], given["length_from"], given["length_rule"]) == ("3", "design", "")


def test_wwpn_placeholder_and_missing_are_marked(one_drawer):
    for port in one_drawer.of_kind("hba_port") + one_drawer.of_kind("host_port"):
        set_raw(one_drawer, port.id, "wwpn_placeholder", False)  # as real WWPNs entered by the user
    set_raw(one_drawer, "hba.d1s1.0", "wwpn_placeholder", True)
    set_raw(one_drawer, "hba.d1s2.0", "wwpn", "")
    rows = {r["label"]: r for r in read(schedule_csv(one_drawer))}
    assert rows["D1-S1-SW1P00"]["wwpn_status"] == "placeholder"
    assert rows["D1-S2-SW1P02"]["wwpn_status"] == "missing"
    assert rows["FASTT1-A1-SW1P01"]["wwpn_status"] == ""


def test_no_cell_runs_as_a_formula(nasty_design, nasty_text):
    rows = read(schedule_csv(nasty_design))
    cells = [v for r in rows for v in r.values()]
    assert not any(c[:1] in ("=", "+", "-", "@") for c in cells)
    assert "'=cmd|' /C calc'!A0" in cells and "'@SUM(1)\n" + nasty_text in cells


def test_schedule_matches_the_golden_file(benchmark_design):
    """Regenerate with SANPLAN_REGEN_GOLDEN=1 when intended."""
    text = schedule_csv(benchmark_design)
    golden = GOLDEN / "p690-benchmark.csv"
    if os.environ.get("SANPLAN_REGEN_GOLDEN") == "1":
        golden.parent.mkdir(parents=True, exist_ok=True)
        golden.write_text(text, encoding="utf-8")
    assert text == golden.read_text(encoding="utf-8")


def test_schedule_through_the_registry(one_drawer, tmp_path):
    fmt = get("cabling-schedule")
    assert fmt.cli.flag == "--schedule" and fmt.extension == ".csv"
    written = fmt.export(one_drawer, tmp_path / "s.csv")
    assert written[0].summary == ": 32 cables in installation order"
    assert len(schedule_rows(one_drawer)) == 32 == len(read((tmp_path / "s.csv").read_text()))
