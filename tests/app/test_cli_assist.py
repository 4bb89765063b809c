"""``sanplan complete`` and ``sanplan fix``: what they say, what they write, their exit codes."""

from __future__ import annotations

import json

import pytest

from planner import edit
from planner.io import save_project
from planner.model import Topology
from tests.app.test_cli import _home, run  # noqa: F401  (the CLI tests' fixture and runner)


@pytest.fixture
def partial(tmp_path, parts):
    """A p690 with a drawer and two HBAs, a 2109-F32, two FAStT600 Turbo with drives; nothing
    cabled, no LPAR, no arrays (built through planner.edit, as the editor would)."""
    t = Topology("partial")
    edit.add_server(t, parts["7040-681"], "p690")
    edit.add_drawer(t, "p690", parts["7040-61D"])
    for n in (1, 11, 5, 15):
        edit.add_hba(t, edit.find_slot(t, "d1", n).id, parts["FC6239"])
    edit.add_fabric(t, "FAB_A")
    edit.add_switch(t, parts["2109-F32"], "fab.FAB_A", "sw1")
    for k in (1, 2):
        edit.add_subsystem(t, parts["FAStT600-Turbo"], f"fastt{k}", drive_part=parts["DRV-36G-15K"], drives=14)
        edit.add_enclosure(t, f"fastt{k}", parts["EXP700"], drive_part=parts["DRV-36G-15K"], drives=14)
    path = tmp_path / "partial.sanplan"
    save_project(t, path)
    return path


def test_complete_reaches_paths_and_passes_check(partial, tmp_path, capsys):
    out_path = tmp_path / "done.sanplan"
    code, out, err = run(capsys, "complete", str(partial), str(out_path))
    assert code == 0, err
    lines = out.strip().splitlines()
    assert any(line.startswith("cabled ") for line in lines)
    assert any(line.startswith("zone ") for line in lines)
    assert any(line.startswith("partition ") for line in lines)
    assert lines[-1] == f"wrote {out_path}"
    code, out, _ = run(capsys, "analyze", str(out_path), "--json")
    result = json.loads(out)
    assert len(result["paths"]) == 4 and all(p["mbps"] > 0 for p in result["paths"])
    assert run(capsys, "check", str(out_path))[0] == 0  # no errors


def test_complete_on_a_finished_design_says_so(partial, tmp_path, capsys):
    done = tmp_path / "done.sanplan"
    run(capsys, "complete", str(partial), str(done))
    code, out, _ = run(capsys, "complete", str(done), str(done))
    assert code == 0 and out.startswith("nothing done: nothing to complete")


def test_fix_worst_cabling(tmp_path, capsys):
    worst = tmp_path / "worst.sanplan"
    run(capsys, "example", "p690-worst-cabling", str(worst))
    assert run(capsys, "check", str(worst))[0] == 1
    fixed = tmp_path / "fixed.json"
    code, out, err = run(capsys, "fix", str(worst), str(fixed), "--rule", "ASIC_CROSSING")
    assert code == 0, err
    assert out.splitlines()[0].startswith("ASIC_CROSSING: ")
    assert "unplugged 32 cables" in out
    assert run(capsys, "check", str(fixed))[0] == 0


def test_fix_exit_codes(tmp_path, capsys):
    worst = tmp_path / "worst.sanplan"
    run(capsys, "example", "p690-worst-cabling", str(worst))
    code, out, _ = run(capsys, "fix", str(worst), str(tmp_path / "same.sanplan"), "--rule", "PV_PER_VG")
    assert code == 1 and "nothing done" in out and "remain: see" in out
    code, _, err = run(capsys, "fix", str(worst), str(tmp_path / "x.sanplan"), "--rule", "NO_SUCH_RULE")
    assert code == 2 and "unknown rule NO_SUCH_RULE" in err
    code, _, err = run(capsys, "complete", str(tmp_path / "missing.sanplan"), str(tmp_path / "y.sanplan"))
    assert code == 2 and "missing.sanplan" in err
