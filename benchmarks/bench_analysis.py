"""Speed benchmark for analyze + check (issues #2 and #13). Not a test: run it and read the medians.

    python benchmarks/bench_analysis.py [--repeat N] [--json] [--quick]

Times, on the bundled p690 benchmark (3,451 components, 112 paths) and on generated sites 16
and 32 times its size (``sanplan example site-16x`` / ``site-32x``): analyze (the hot path,
without the max-flow cross-check), check (all rules, reusing that analysis), the two together,
the cross-check on its own, one plain networkx traversal of the same component graph for scale,
and an incremental re-analysis after typical edits (a cable removed and laid again, an array's
segment size changed, an undo; planner.incremental, through a Delta and a Replica as the editor
uses it). For the 32x site also the peak memory of analyze + check (tracemalloc) and of the
whole process (ru_maxrss), and the traversal's own scaling (``traversal_scaling_32x``: what
the machine's memory does to an O(n) walk of a 32x larger design).

Targets (issue #13): analyze + check <= 5x one traversal on each design; the 32x site costs at
most 35x the benchmark; the 32x site analysed in <= 1 GB. ``--json`` prints one object per
design (``benchmark``, ``site16``, ``site32``) with ``components``, ``paths``,
``analyze_check_ms``, ``traversal_ms``, ``ratio`` (medians), ``edit_ms`` and, for site32,
``peak_mb`` (analysis) and ``rss_mb`` (process), plus ``scaling_32x`` and
``traversal_scaling_32x``.
"""

from __future__ import annotations

import argparse
import json
import platform
import resource
import statistics
import sys
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import networkx as nx  # noqa: E402

from catalogs.catalog import builtin_parts  # noqa: E402
from planner import edit  # noqa: E402
from planner.analysis import analyze  # noqa: E402
from planner.commands import UndoStack  # noqa: E402
from planner.examples import build_example, build_site  # noqa: E402
from planner.incremental import Delta, IncrementalAnalysis, Replica  # noqa: E402
from planner.model import KINDS  # noqa: E402
from planner.rules import check  # noqa: E402


def component_graph(topo) -> nx.Graph:
    """The design as a plain graph: parent links, cables and references."""
    g = nx.Graph()
    for c in topo.components():
        g.add_node(c.id)
        if c.parent:
            g.add_edge(c.parent, c.id)
        for name, spec in KINDS[c.kind].attrs.items():
            if spec.ref:
                v = c.attrs.get(name)
                for t in (v if spec.many else (v,)) or ():
                    if t:
                        g.add_edge(c.id, t)
    return g


def median_ms(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times) * 1000


def edit_ms(topo, rounds: int) -> float:
    """Median ms of an edit's incremental re-analysis as the editor runs it: the delta copied
    from the events, applied to a replica, the replica's analysis updated."""
    topo = topo.clone()
    stack, events = UndoStack(topo), []
    topo.subscribe(events.append)
    replica = Replica(topo)
    inc = IncrementalAnalysis(replica.topo, "planning", "read")
    cables = [c for c in topo.of_kind("cable") if topo.get(c["a"]) and topo[c["a"]].kind == "hba_port"]
    arrays = topo.of_kind("array")
    times = []

    def timed(change) -> None:
        events.clear()
        change()
        t0 = time.perf_counter()
        delta = Delta.from_events(topo, events)
        replica.apply(delta)
        inc.update(delta)
        times.append(time.perf_counter() - t0)

    for k in range(rounds):
        cab = cables[(k * 37) % len(cables)]
        a, b = cab["a"], cab["b"]
        timed(lambda: stack.push(edit.delete(topo, [cab.id]), applied=True))  # noqa: B023
        timed(lambda: stack.push(edit.add_cable(topo, a, b), applied=True))  # noqa: B023
        arr = arrays[(k * 53) % len(arrays)]
        timed(lambda: stack.push(edit.set_attr(topo, arr.id, "segment_kb", 64), applied=True))  # noqa: B023
        timed(stack.undo)
    return statistics.median(times) * 1000


def run(name: str, topo, repeat: int) -> dict:
    g = component_graph(topo)
    roots = [n for n in g.nodes if topo[n].parent is None]

    def traverse():
        seen = set()
        for r in roots:
            if r not in seen:
                seen.update(nx.dfs_preorder_nodes(g, r))

    an = analyze(topo, "planning", "read")
    out = {
        "components": len(topo),
        "paths": len(an.paths),
        "analyze_ms": median_ms(lambda: analyze(topo, "planning", "read"), repeat),
        "check_ms": median_ms(lambda: check(topo, "planning", "read", analysis=an), repeat),
        "analyze_check_ms": median_ms(
            lambda: check(topo, "planning", "read", analysis=analyze(topo, "planning", "read")), repeat
        ),
        "cross_check_ms": median_ms(lambda: analyze(topo, "planning", "read", cross_check=True), repeat),
        "traversal_ms": median_ms(traverse, repeat),
        "edit_ms": edit_ms(topo, 3),
    }
    out["ratio"] = out["analyze_check_ms"] / out["traversal_ms"]
    out["cross_check_ms"] -= out["analyze_ms"]
    return out


def memory(topo) -> dict:
    """Peak MB of analyze + check (tracemalloc) and of the whole process so far (ru_maxrss)."""
    tracemalloc.start()
    check(topo, "planning", "read", analysis=analyze(topo, "planning", "read"))
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KB on Linux
    return {"peak_mb": peak / 2**20, "rss_mb": rss}


def report(name: str, r: dict) -> None:
    print(f"{name}: {r['components']:,} components, {r['paths']:,} paths")
    print(
        f"  analyze {r['analyze_ms']:8.1f} ms   check {r['check_ms']:8.1f} ms   "
        f"analyze + check {r['analyze_check_ms']:8.1f} ms   (cross-check alone {r['cross_check_ms']:.1f} ms)"
    )
    print(
        f"  one networkx traversal {r['traversal_ms']:8.2f} ms   ratio {r['ratio']:.1f}x (target <= 5x)   "
        f"incremental edit {r['edit_ms']:.1f} ms"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repeat", type=int, default=9)
    ap.add_argument("--json", action="store_true", help="print the figures as JSON")
    ap.add_argument("--quick", action="store_true", help="the benchmark and the 16x site only")
    args = ap.parse_args()
    parts = builtin_parts()
    designs = [("benchmark", lambda: build_example("p690-benchmark", parts), args.repeat)]
    designs.append(("site16", lambda: build_site(parts, 16), max(5, args.repeat // 2)))
    if not args.quick:
        designs.append(("site32", lambda: build_site(parts, 32), 5))
    if not args.json:
        print(f"Python {platform.python_version()} on {platform.machine()}, networkx {nx.__version__}; medians")
    results = {}
    for name, build, repeat in designs:
        topo = build()
        results[name] = run(name, topo, repeat)
        if name == "site32":
            results[name].update(memory(topo))
        if not args.json:
            report(name, results[name])
        del topo
    if "site32" in results:
        results["scaling_32x"] = results["site32"]["analyze_check_ms"] / results["benchmark"]["analyze_check_ms"]
        # the yardstick's own scaling: a plain traversal is O(n) too, so this is the machine's
        results["traversal_scaling_32x"] = results["site32"]["traversal_ms"] / results["benchmark"]["traversal_ms"]
    if args.json:
        print(json.dumps({k: _rounded(v) for k, v in results.items()}, indent=1))
    elif "site32" in results:
        s = results["site32"]
        print(
            f"scaling: the 32x site costs {results['scaling_32x']:.1f}x the benchmark (target <= 35x); "
            f"one traversal costs {results['traversal_scaling_32x']:.1f}x"
        )
        print(f"memory, 32x site: analyze + check peak {s['peak_mb']:.0f} MB, process peak {s['rss_mb']:.0f} MB")


def _rounded(v):
    if isinstance(v, dict):
        return {k: _rounded(x) for k, x in v.items()}
    return round(v, 2) if isinstance(v, float) else v


if __name__ == "__main__":
    main()
