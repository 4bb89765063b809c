"""Speed benchmark for analyze + check (issue #2 §9). Not a test: run it and read the medians.

    python benchmarks/bench_analysis.py [--repeat N]

Times, on the bundled p690 benchmark (3,451 components, 112 paths) and on a generated site 16
times its size: building the design, analyze (with the networkx max-flow cross-check) and
check (all rules), and one plain networkx traversal of the same component graph for scale.
Targets: benchmark <= 50 ms, 16x site <= 1 s (analyze + check).
"""

from __future__ import annotations

import argparse
import platform
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import networkx as nx  # noqa: E402

from catalogs.catalog import builtin_parts  # noqa: E402
from planner.analysis import analyze  # noqa: E402
from planner.examples import build_example, build_site  # noqa: E402
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


def run(name: str, topo, repeat: int, target_ms: float) -> None:
    g = component_graph(topo)
    roots = [n for n in g.nodes if topo[n].parent is None]

    def traverse():
        seen = set()
        for r in roots:
            if r not in seen:
                seen.update(nx.dfs_preorder_nodes(g, r))

    t_an = median_ms(lambda: analyze(topo, "planning", "read"), repeat)
    t_ck = median_ms(lambda: check(topo, "planning", "read"), repeat)
    t_both = median_ms(lambda: check(topo, "planning", "read", analysis=analyze(topo, "planning", "read")), repeat)
    t_tr = median_ms(traverse, repeat)
    paths = len(analyze(topo, "planning", "read", cross_check=False).paths)
    verdict = "meets" if t_both <= target_ms else "MISSES"
    print(f"{name}: {len(topo):,} components, {g.number_of_edges():,} edges, {paths:,} paths")
    print(f"  analyze (with max-flow cross-check) {t_an:8.1f} ms   check (rules + own analysis) {t_ck:8.1f} ms")
    print(f"  analyze + check {t_both:8.1f} ms  (target {target_ms:.0f} ms: {verdict})")
    print(f"  one networkx traversal {t_tr:8.2f} ms   ratio analyze+check / traversal = {t_both / t_tr:.1f}x")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repeat", type=int, default=9)
    args = ap.parse_args()
    print(f"Python {platform.python_version()} on {platform.machine()}, networkx {nx.__version__}; medians of {args.repeat} runs")
    parts = builtin_parts()
    t0 = time.perf_counter()
    bench = build_example("p690-benchmark", parts)
    print(f"build p690-benchmark: {(time.perf_counter() - t0) * 1000:.0f} ms")
    run("p690-benchmark", bench, args.repeat, 50)
    t0 = time.perf_counter()
    site = build_site(parts, 16)
    print(f"build 16x site: {(time.perf_counter() - t0) * 1000:.0f} ms")
    run("16x site", site, max(3, args.repeat // 3), 1000)


if __name__ == "__main__":
    main()
