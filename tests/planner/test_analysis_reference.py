"""The analysis gives exactly the results it gave before the speed work (issue 13).

``tests/golden/analysis_reference.json`` holds, per example design and analysis option, a
SHA-256 digest of everything an :class:`~planner.analysis.Analysis` holds (floats by ``repr``,
dicts in their order), computed with the code of commit 377a22f (before the speed work) by
``python tests/planner/test_analysis_reference.py OUT``. The max-flow cross-check's min cut
must be the same and its value the same to 1e-9 (a different max-flow algorithm may round the
last bit differently).
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import sys
from pathlib import Path

GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "analysis_reference.json"
DESIGNS = ("p690-benchmark", "p690-one-drawer", "p690-worst-cabling", "site-2x", "benchmark-targets")
OPTIONS = [
    (f, d, s) for f in ("rated", "measured", "planning") for d in ("read", "write", "mixed") for s in ("disk", "cache")
]


def _r(x):
    return repr(x)


def digest(a) -> str:
    """A digest of every field of analysis ``a`` but the cross-check's (exact: floats by repr)."""
    data = {
        "opts": [a.figures, a.direction, a.source, _r(a.read_pct)],
        "paths": [
            [p.id, p.hba_port, p.host_port, p.logical_drive, p.hops, _r(p.mbps), p.bottleneck]
            + [_r(p.read_mbps), _r(p.write_mbps)]
            for p in a.paths
        ],
        "components": [[k] + [_r(v) for v in dataclasses.astuple(ld)] for k, ld in a.components.items()],
        "totals": [_r(a.aggregate), _r(a.read_mbps), _r(a.write_mbps)],
        "groups": [[g, [[k, _r(v)] for k, v in d.items()]] for g, d in a.by_group.items()],
        "unreachable": a.unreachable,
        "notes": a.notes,
        "workloads": [[_r(v) for v in dataclasses.astuple(w)] for w in a.workloads],
    }
    return hashlib.sha256(json.dumps(data).encode()).hexdigest()


def build(name: str, parts):
    from planner import edit
    from planner.examples import build_example, build_site

    if name == "site-2x":
        return build_site(parts, 2)
    if name == "benchmark-targets":  # workload targets cap the paths (planner.demand)
        t = build_example("p690-benchmark", parts)
        for i, wl in enumerate(t.of_kind("workload")):
            edit.set_attr(t, wl.id, "target_mbps", 100.0 + 90.0 * i)
        return t
    return build_example(name, parts)


def reference(parts) -> dict:
    """{design: {'figures/direction/source': [digest, max_flow repr, min_cut]}}."""
    from planner.analysis import analyze

    out: dict = {}
    for name in DESIGNS:
        t = build(name, parts)
        rows = out[name] = {}
        for f, d, s in OPTIONS:
            a = analyze(t, f, d, s, cross_check=True)
            rows[f"{f}/{d}/{s}"] = [digest(a), _r(a.max_flow), a.min_cut]
    return out


def test_analysis_is_identical_to_the_reference(parts):
    want = json.loads(GOLDEN.read_text())
    got = reference(parts)
    assert list(got) == list(want)
    for name in want:
        for key, (dig, flow, cut) in want[name].items():
            g_dig, g_flow, g_cut = got[name][key]
            assert g_dig == dig, f"{name} {key}: the analysis changed"
            assert g_cut == cut, f"{name} {key}: the min cut changed"
            if flow == "None":
                assert g_flow == "None"
            else:
                assert abs(float(g_flow) - float(flow)) <= 1e-9 * max(1.0, abs(float(flow))), (name, key)


if __name__ == "__main__":  # regenerate: python tests/planner/test_analysis_reference.py OUT
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
    from catalogs.catalog import builtin_parts

    Path(sys.argv[1]).write_text(json.dumps(reference(builtin_parts()), indent=1) + "\n")
