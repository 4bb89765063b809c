"""planner.rules: the registry, check(), the shared Context, and every rule on whole designs."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from rules_helpers import of

from planner import edit
from planner.analysis import analyze
from planner.examples import build_example
from planner.fixtures import set_raw
from planner.rules import RULES, SEVERITIES, CheckStopped, Context, Finding, Rule, check, rule, rules_table


def test_registry_holds_the_rules_with_valid_metadata():
    required = {
        "PV_PER_VG",
        "ASIC_CROSSING",
        "PHB_SATURATED",
        "LINK_SATURATED",
        "PLANAR_SATURATED",
        "DRAWER_SATURATED",
        "SLOT_INVALID",
        "RDAC_PATHS",
        "LUN_OWNERSHIP_BALANCE",
        "FULL_STRIPE_ALIGNMENT",
        "LTG_MAX_TRANSFER",
        "RAID_DRIVE_COUNT",
        "SEGMENT_SIZE",
        "WWPN_INVALID",
        "WWPN_DUPLICATE",
        "ZONE_MEMBER_MISSING",
        "UNREACHABLE",
        "SINGLE_POINT_OF_FAILURE",
        "SPEED_MISMATCH",
        "WORK_ON_RAID5",
        "DIO_REQUEST_SIZE",
        "SGIO_BUFFER_LIMIT",
        "HBA_NO_LPAR",
        "MAPPING_EMPTY",
    }
    assert required <= set(RULES)
    for rid, r in RULES.items():
        assert r.id == rid and r.severity in SEVERITIES and r.title and r.source and callable(r.fn)
        assert r.fn.__doc__, f"{rid} has no docstring"
    assert [row["id"] for row in rules_table()] == list(RULES)


def test_rule_decorator_refuses_duplicates_and_bad_severity():
    with pytest.raises(ValueError, match="twice"):
        rule("PV_PER_VG", "error", "again", "x")(lambda topo, ctx: [])
    with pytest.raises(ValueError, match="severity"):
        rule("NEW_RULE", "fatal", "x", "x")


def test_finding_to_dict_has_exactly_the_documented_keys(one):
    edit.add_host_mapping(one, "fastt1", "EMPTY", [], [])
    findings = check(one)
    assert findings
    for f in findings:
        d = f.to_dict()
        assert set(d) == {"rule", "severity", "components", "message", "fix", "source"}
        assert isinstance(d["components"], list) and d["components"] == list(f.components)
        assert f.message and f.fix and f.source
    with pytest.raises(ValueError):
        Finding("X", "fatal", (), "m", "f", "s")


def test_findings_are_sorted_by_severity_rule_and_components(one):
    set_raw(one, "hba.d1s1.0", "wwpn", "60:05:07:68:01:80:80:98")  # error
    edit.add_host_mapping(one, "fastt1", "EMPTY", [], [])  # warning
    edit.set_attr(one, "sw1.p0", "speed_gbps", 1)  # advice
    findings = check(one)
    keys = [(SEVERITIES.index(f.severity), f.rule, f.components) for f in findings]
    assert keys == sorted(keys)
    assert {f.severity for f in findings} == set(SEVERITIES)


def test_unknown_rule_id_and_options_are_refused(one):
    with pytest.raises(ValueError, match="NO_SUCH"):
        check(one, rules=["NO_SUCH"])
    with pytest.raises(ValueError, match="figure set"):
        check(one, figures="guess")
    with pytest.raises(ValueError, match="direction"):
        check(one, direction="sideways")


def test_a_crashing_rule_becomes_an_internal_finding_and_others_still_run(one, monkeypatch):
    def boom(topo, ctx):
        raise KeyError("broken")

    monkeypatch.setitem(RULES, "BOOM", Rule("BOOM", "error", "Boom check", "test", boom))
    edit.add_host_mapping(one, "fastt1", "EMPTY", [], [])
    findings = check(one, rules=["BOOM", "MAPPING_EMPTY"])
    internal = of(findings, "INTERNAL")
    assert len(internal) == 1 and internal[0].severity == "error"
    assert "BOOM" in internal[0].message and "KeyError" in internal[0].message
    assert of(findings, "MAPPING_EMPTY")


def test_check_does_not_change_the_design(one):
    before = one.revision
    check(one)
    assert one.revision == before


def test_context_computes_the_analysis_once_and_a_given_analysis_wins(one):
    ctx = Context(one, "planning")
    assert ctx.analysis is ctx.analysis
    measured = analyze(one, "measured", "read", "cache", cross_check=False)
    assert Context(one, "planning", analysis=measured).figures == "measured"
    # the measured profile saturates link1 of both planars (P690 Figure 4); planning does not
    assert of(check(one, analysis=measured), "LINK_SATURATED")
    assert not of(check(one, "planning"), "LINK_SATURATED")


def test_check_analyses_once_and_reuses_a_given_analysis(one, monkeypatch):
    import planner.rules.context as context_module

    calls = []

    def counting(*args, **kw):
        calls.append(args[1:3])
        return analyze(*args, **kw)

    monkeypatch.setattr(context_module, "analyze", counting)
    check(one, "measured", "write")  # four saturation rules, ASIC_CROSSING and UNREACHABLE share it
    assert calls == [("measured", "write")]
    calls.clear()
    check(one, analysis=analyze(one, "planning", "read", cross_check=False))
    assert calls == []


def test_a_failing_analysis_runs_once_and_each_rule_needing_it_reports_it(one, monkeypatch):
    import planner.rules.context as context_module

    calls = []

    def broken(*args, **kw):
        calls.append(1)
        raise RuntimeError("no analysis")

    monkeypatch.setattr(context_module, "analyze", broken)
    internal = of(check(one), "INTERNAL")
    assert len(calls) == 1
    assert {re.search(r"\((\w+)\) failed", f.message).group(1) for f in internal} >= {"PHB_SATURATED", "UNREACHABLE"}


_FILE_NAME = re.compile(r"[\w./-]+\.(?:md|txt|py|json|csv|pdf|sanplan|rst|html)\b|\bseeds/", re.IGNORECASE)


def _repo_absent_files(text: str) -> list[str]:
    root = Path(__file__).resolve().parents[3]
    return [m for m in _FILE_NAME.findall(text) if not (root / m).exists()]


def test_rule_sources_name_only_publications_not_repo_absent_files(one, parts):
    """Findings cite the paper and section or the AIX/vendor manual, never a file a user cannot find."""
    for r in RULES.values():
        assert not _repo_absent_files(r.source), (r.id, r.source)
        assert "DOMAIN" not in r.source, (r.id, r.source)
    worst = build_example("p690-worst-cabling", parts)
    edit.set_attr(worst, "sw1.p0", "speed_gbps", 1)
    edit.add_host_mapping(worst, "fastt1", "EMPTY", [], [])
    findings = check(one) + check(worst, "measured")
    assert findings
    for f in findings:
        for text in (f.message, f.fix, f.source):
            assert not _repo_absent_files(text) and "DOMAIN" not in text, (f.rule, text)


def test_labels_name_components_with_their_place(one):
    ctx = Context(one)
    assert ctx.label("d1.phb1") == "PHB1 (drawer PHB1) of Drawer 1"
    assert ctx.label("d1.p0.link1") == "link1 of Planar 0 of Drawer 1"
    assert ctx.label("sw1.p3") == "sw1 port 3"
    assert ctx.label("hba.d1s1") == "fcs0 in Slot 1 of Drawer 1"


def test_benchmark_has_no_errors_with_planning_figures(benchmark):
    findings = check(benchmark, "planning")
    assert not [f for f in findings if f.severity == "error"], [f.message for f in findings if f.severity == "error"]
    # one switch per drawer is the paper's choice: one grouped warning, not 112
    spof = of(findings, "SINGLE_POINT_OF_FAILURE")
    assert len(spof) == 1
    assert sum(1 for c in spof[0].components if c.endswith((".ld1", ".ld2"))) == 112
    assert {f"sw{d}" for d in range(1, 8)} <= set(spof[0].components)
    assert len(findings) < 10


@pytest.mark.parametrize(
    "kind",
    [
        "drawer",
        "phb",
        "slot",
        "hba",
        "switch",
        "asic",
        "subsystem",
        "controller",
        "host_port",
        "array",
        "logical_drive",
        "host_mapping",
        "hdisk",
        "volume_group",
        "cable",
        "zone",
        "fabric",
        "lpar",
    ],
)
def test_rules_survive_half_built_designs(one, kind):
    """Deleting any part (with what hangs on it) leaves a draft the rules must judge, not crash on."""
    comps = one.of_kind(kind)
    edit.delete(one, [comps[len(comps) // 2].id])
    findings = check(one)
    assert not of(findings, "INTERNAL"), [f.message for f in of(findings, "INTERNAL")]


def test_a_check_told_to_stop_stops_between_rules(parts):
    """The editor stops the check of a revision an edit has made stale: ``stop`` is asked
    before each rule, and once it says so no further rule runs."""
    topo = build_example("p690-one-drawer", parts)
    asked = []

    def stop_after(n):
        def stop():
            asked.append(1)
            return len(asked) > n

        return stop

    with pytest.raises(CheckStopped):
        check(topo, stop=stop_after(3))
    assert len(asked) == 4  # three rules ran, the fourth was not started
    asked.clear()
    assert check(topo, stop=lambda: False) == check(topo)  # never told: the same findings
