"""Comparing two designs: aggregates, binding hops, findings and the bill of materials."""

from __future__ import annotations

import pytest

from planner import edit
from planner.diff import diff, finding_key, open_design, summary_lines
from planner.io import Project, ProjectError, save_project


@pytest.fixture
def one_hba_less(one_drawer):
    t = one_drawer.clone()
    edit.delete(t, ["hba.d1s1"])
    return t


def test_removing_one_hba(one_drawer, one_hba_less):
    """One drawer, planning figures, from disk. Read: 16 paths, each bound by its FC 6239 at
    150 MB/s (P690 planning figure) = 2400; without fcs0 (hba.d1s1) its path to fastt1.ld1 goes:
    15 x 150 = 2250, delta -150. Write: each path is bound by its RAID 5 8+P array at 142.5 MB/s
    (the FAStT600 Turbo's 285 MB/s layout figure over its two arrays, P690 Table 1): 16 x 142.5 =
    2280, 15 x 142.5 = 2137.5, delta -142.5. No remaining path changes its binding hop. The bill
    of materials loses one FC 6239 (its cable goes too: 5 m cables 16 -> 15)."""
    d = diff(one_drawer, one_hba_less)
    assert (d.aggregate["read"].old, d.aggregate["read"].new, d.aggregate["read"].delta) == (2400, 2250, -150)
    w = d.aggregate["write"]
    assert (w.old, w.new, w.delta) == pytest.approx((2280, 2137.5, -142.5))
    assert d.binding_changed == []
    assert d.paths_removed == ["hba.d1s1.0>fastt1.A1>fastt1.ld1"] and d.paths_added == []
    assert d.parts_delta == {"FC6239": -1}
    assert d.cables_delta == {"LC-LC OM2 cable, 5 m": -1}
    added = {(f.rule, f.severity, f.components) for f in d.findings_added}
    # fastt1.ld1 can no longer be reached, nor host port A1 (its zone lost its HBA port); RDAC
    # sees the LPAR with no path to controller A of fastt1
    assert ("UNREACHABLE", "error", ("fastt1.ld1",)) in added
    assert ("UNREACHABLE", "warning", ("fastt1.A1",)) in added
    assert ("ZONE_MEMBER_MISSING", "warning", ("z.Z_D1_FCS0_FASTT1_A", "fastt1.A1")) in added
    assert "RDAC_PATHS" in {f.rule for f in d.findings_added}
    assert d.findings_removed == []
    assert not d.unchanged


def test_reverse_comparison_mirrors(one_drawer, one_hba_less):
    there, back = diff(one_drawer, one_hba_less), diff(one_hba_less, one_drawer)
    assert back.aggregate["read"].delta == 150 and back.parts_delta == {"FC6239": 1}
    assert {finding_key(f) for f in back.findings_removed} == {finding_key(f) for f in there.findings_added}
    assert back.paths_added == there.paths_removed


def test_worst_cabling_against_the_benchmark_drawer(one_drawer, worst_cabling):
    """The paper's first cabling (HBAs on ports 0-15, storage on 16-31) sends every path over the
    2109-F32 backplane, 1600 MB/s in planning figures (P690 Appendix C): 16 paths share it at
    100 MB/s each. Read 2400 -> 1600 (-800), write 2280 -> 1600 (-680); all 16 paths change
    their binding hop in each direction (read: HBA -> backplane; write: array -> backplane).
    ASIC_CROSSING is added; the parts are the same."""
    d = diff(one_drawer, worst_cabling)
    assert d.aggregate["read"].delta == pytest.approx(-800)
    assert d.aggregate["write"].delta == pytest.approx(-680)
    assert len(d.binding_changed) == 32
    assert {b.new for b in d.binding_changed} == {"sw1.bp"}
    read = [b for b in d.binding_changed if b.direction == "read"]
    assert {b.old for b in read} == {h.id for h in one_drawer.of_kind("hba")}
    assert all(b.old_mbps == 150 and b.new_mbps == pytest.approx(100) for b in read)
    assert [f.rule for f in d.findings_added] == ["ASIC_CROSSING"] and d.findings_added[0].severity == "error"
    assert d.findings_removed == [] and d.parts_delta == {} and d.cables_delta == {}
    text = "\n".join(summary_lines(d, one_drawer, worst_cabling))
    assert "HBA -> backplane" in text and "-800.0" in text and "ASIC_CROSSING" in text


def test_same_design_is_unchanged(one_drawer):
    d = diff(one_drawer, one_drawer.clone())
    assert d.unchanged and d.to_dict()["parts_delta"] == {}
    assert "Bill of materials: unchanged." in summary_lines(d, one_drawer, one_drawer)


def test_json_shape(one_drawer, one_hba_less):
    data = diff(one_drawer, one_hba_less).to_dict()
    assert set(data["aggregate"]) == {"read", "write"}
    assert set(data["aggregate"]["read"]) == {"old", "new", "delta"}
    assert {"rule", "severity", "components"} <= set(data["findings_added"][0])
    assert data["parts_delta"] == {"FC6239": -1} and data["binding_changed"] == []


@pytest.fixture
def two_scenarios(tmp_path, one_drawer, one_hba_less):
    project = Project.from_scenarios({"Base": one_drawer, "less:one": one_hba_less}, "Base")
    path = tmp_path / "plan.sanplan"
    save_project(project, path)
    return path


def test_open_design_file_and_scenario(two_scenarios):
    topo, name = open_design(str(two_scenarios))
    assert name.endswith("plan.sanplan:Base") and len(topo.of_kind("hba")) == 16
    topo, name = open_design(f"{two_scenarios}:less:one")  # a scenario name may hold a ':'
    assert len(topo.of_kind("hba")) == 15 and name.endswith(":less:one")


def test_open_design_refuses_an_unknown_scenario_naming_the_scenarios(two_scenarios):
    with pytest.raises(ProjectError) as err:
        open_design(f"{two_scenarios}:Nope")
    assert "no scenario 'Nope'" in str(err.value) and "Base, less:one" in str(err.value)


def test_open_design_windows_style_path_without_the_file(tmp_path):
    with pytest.raises(ProjectError) as err:
        open_design(r"C:\designs\missing.sanplan:Base")
    assert "missing.sanplan" in str(err.value)


def test_open_design_a_path_with_a_colon_that_exists(tmp_path, one_drawer):
    path = tmp_path / "odd:name.sanplan"
    save_project(Project.single(one_drawer), path)
    topo, name = open_design(str(path))
    assert len(topo.of_kind("hba")) == 16 and name == f"{path}:Base"


def _pdf_text(path) -> str:
    """The literal strings of an uncompressed PDF's content streams, joined."""
    import re

    data = path.read_bytes()
    return " ".join(m.decode("cp1252", "replace") for m in re.findall(rb"\(((?:[^()\\]|\\.)*)\)\s*Tj", data))


def test_build_sheet_changes_section(tmp_path, one_drawer, one_hba_less):
    from planner.exports.buildsheet import build_sheet

    path = tmp_path / "changes.pdf"
    build_sheet(one_hba_less, path, scenario="less", compare_with=("Base", one_drawer), compress=False)
    text = _pdf_text(path)
    assert "Changes from scenario Base" in text
    assert "-150.0" in text and "-142.5" in text  # read and write deltas
    assert "FC6239" in text and "UNREACHABLE" in text
    plain = tmp_path / "plain.pdf"
    build_sheet(one_hba_less, plain, scenario="less", compress=False)
    assert "Changes from scenario" not in _pdf_text(plain)


def test_pdf_export_option_compare_with(tmp_path, one_drawer, one_hba_less):
    from planner.exports import ExportError, get

    project = Project.from_scenarios({"Base": one_drawer, "less": one_hba_less}, "less")
    fmt = get("pdf")
    assert fmt.option("compare_with").flag == "--changes-from"
    fmt.export(project, tmp_path / "a.pdf", {"compare_with": "Base"})
    assert (tmp_path / "a.pdf").stat().st_size > 0
    with pytest.raises(ExportError) as err:
        fmt.export(project, tmp_path / "b.pdf", {"compare_with": "Nope"})
    assert "Base, less" in str(err.value) and not (tmp_path / "b.pdf").exists()
