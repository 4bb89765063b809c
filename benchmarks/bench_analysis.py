"""Speed benchmark for analyze + check (issues #2 and #13). Not a test: run it and read the medians.

    python benchmarks/bench_analysis.py [--repeat N] [--json] [--quick]

Times, on the bundled p690 benchmark (3,463 components, 112 paths) and on generated sites 16
and 32 times its size (``sanplan example site-16x`` / ``site-32x``): analyze (the hot path,
without the max-flow cross-check), check (all rules, reusing that analysis), the two together,
the cross-check on its own (``planner.maxflow.max_flow`` on that analysis), one plain networkx
traversal of the same component graph for scale, and an incremental re-analysis after typical
edits (a cable removed and laid again, an array's segment size changed, an undo;
planner.incremental, through a Delta and a Replica as the editor uses it). For the 32x site
also the peak memory of analyze + check (tracemalloc) and of the whole process (ru_maxrss).

Measured fairly on a shared machine: every run is a fresh process (``--repeat`` runs, default
7, the designs interleaved) that builds its design, warms up once and takes the median of three
timings; the figures are the medians over the runs, in CPU time of the process
(``time.process_time``: time lost to other processes on the cores does not count; wall-clock
medians are printed beside them). The garbage collector is paused for the traversal as it is
for analyze and check.

Scaling. ``scaling_vs_benchmark`` (site16, site32) is analyze + check against the benchmark's,
``traversal_scaling_vs_benchmark`` the same for the traversal: an O(n) walk, so it shows what the
machine does to a design 16 or 32 times larger. ``separate_ms`` / ``separate_scaling`` (site32):
analyze + check of 32 separate one-server designs in the same process: the same work, done one
small design at a time, which shows the analysis itself is linear. ``per_part_ms`` /
``per_part_scaling`` (site32): analyze + check of the site's own connected parts, each given
tables of its own beforehand (what a design stored part by part would cost; the findings of the
rules that compare parts are not the whole design's: a measure of cost only), and
``per_part_built_ms`` the same with those tables made in the timed run. ``design_mb`` is what the
design itself holds in memory (a second copy built under tracemalloc, after the other figures
are taken): the benchmark's 2.3 MB is about one core's L2 cache here (2 MB), so the ~30 passes
of analyze and check over it read it from the cache after the first; the 32x site's 84 MB is
read from memory by every pass, and each read costs 2-5x more. The size of the tables is not
the cause: the path search over one server of the 32x site, in the site's own tables, costs
what it costs on the benchmark; run over the whole site it costs 3x as much per server.

Cold caches. ``cold_analyze_check_ms`` and ``cold_traversal_ms``: the same, each timing after 96
MB of other data was read end to end (nothing of the design left in the caches; not timed);
``cold_scaling`` and ``cold_traversal_scaling`` for the sites. The benchmark costs about the same
cold as warm (its first pass brings it into the cache for the others), so the sites' scaling is
not the benchmark's warm start: it is the ~30 passes each reading the whole site from memory.

The data centre. ``dc384`` (``sanplan example datacenter-384``): 384 hosts sharing two core-edge
fabrics and 48 subsystems, one connected part of 28,789 components and 1,536 paths; the sites are
sixteen and thirty-two independent parts. Its ``edit_ms`` is an edit inside the one part (every
path shares out with every other in its fabric), which the sites never measure.

Targets (issue #13): analyze + check <= 5x one traversal on each design; the 32x site costs at
most 35x the benchmark (on this machine not even the traversal does: the target is then to scale
no worse than it); the 32x site analysed in <= 1 GB. ``--json`` prints one object per design
(``benchmark``, ``site16``, ``site32``, ``dc384``) with ``components``, ``paths``, ``analyze_ms``,
``check_ms``, ``analyze_check_ms``, ``cross_check_ms``, ``traversal_ms``, ``ratio``, ``edit_ms``,
``analyze_check_measured_ms`` / ``analyze_check_rated_ms`` and ``ratio_measured`` /
``ratio_rated`` (the same with the other figure sets, whose rules find other things: the 32x
site's check with the measured figures took 1.2 s until the thirty-fourth session), ``design_mb``, the ``wall_`` medians and, for the sites, the scalings; for site32 ``peak_mb``
(analysis) and ``rss_mb`` (process); and at the top ``scaling_32x`` and ``traversal_scaling_32x`` (the same as
site32's, kept for older readers) and ``runs``.
"""

from __future__ import annotations

import argparse
import gc
import json
import platform
import resource
import statistics
import subprocess
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
from planner.examples import build_datacenter, build_example, build_site  # noqa: E402
from planner.gcpause import gc_paused  # noqa: E402
from planner.incremental import Delta, IncrementalAnalysis, Partition, Replica  # noqa: E402
from planner.maxflow import max_flow  # noqa: E402
from planner.model import KINDS, Topology  # noqa: E402
from planner.rules import check  # noqa: E402

DESIGNS = {"benchmark": 1, "site16": 16, "site32": 32, "dc384": 0}  # copies of the benchmark (dc384: see build)


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


#: read through before each cold timing, so that none of the design is left in the CPU's caches
#: (the L3 cache here is 32 MB; 96 MB read end to end replaces every line of it)
_FLUSH = bytearray(96 * 2**20)


def _flush_caches() -> None:
    _FLUSH.find(b"\x01")  # a scan of every byte (none matches), in C


def timed(fn, repeat: int = 3, cold: bool = False) -> tuple[float, float]:
    """Median (CPU ms, wall ms) of ``repeat`` calls of ``fn``; ``cold``: each after the CPU's
    caches were filled with other data (not timed)."""
    cpu, wall = [], []
    for _ in range(repeat):
        if cold:
            _flush_caches()
        c0, w0 = time.process_time(), time.perf_counter()
        fn()
        cpu.append(time.process_time() - c0)
        wall.append(time.perf_counter() - w0)
    return statistics.median(cpu) * 1000, statistics.median(wall) * 1000


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


def build(name: str, parts):
    if name == "benchmark":
        return build_example("p690-benchmark", parts)
    if name == "dc384":  # 384 hosts sharing two fabrics and 48 subsystems: one connected part
        return build_datacenter(parts, 384)
    return build_site(parts, DESIGNS[name])


def worker(name: str, extras: bool) -> dict:
    """One fresh run on design ``name``: the timings (CPU and wall ms, medians of three after a
    warm-up); with ``extras`` also the incremental edit and, for site32, the memory."""
    parts = builtin_parts()
    topo = build(name, parts)
    g = component_graph(topo)
    roots = [n for n in g.nodes if topo[n].parent is None]

    def traverse():
        seen: set[str] = set()
        with gc_paused():  # as analyze and check run
            for r in roots:
                if r not in seen:
                    seen.update(nx.dfs_preorder_nodes(g, r))

    an = analyze(topo, "planning", "read")
    jobs = {
        "traversal": traverse,
        "analyze": lambda: analyze(topo, "planning", "read"),
        "check": lambda: check(topo, "planning", "read", analysis=an),
        "analyze_check": lambda: check(topo, "planning", "read", analysis=analyze(topo, "planning", "read")),
        "cross_check": lambda: max_flow(an.paths, an.components),
    }
    for figset in ("measured", "rated"):  # the other figure sets (their rules find other things)
        jobs[f"analyze_check_{figset}"] = lambda f=figset: check(topo, f, "read", analysis=analyze(topo, f, "read"))
    if name == "site32":  # the same work as 32 small designs: linear when the tables are small
        one = build_site(parts, 1)
        separate = [one.clone() for _ in range(DESIGNS[name])]
        jobs["separate"] = lambda: [
            check(t, "planning", "read", analysis=analyze(t, "planning", "read")) for t in separate
        ]
        # the site's own components, one connected part at a time, each part with tables of its
        # own: what a design stored part by part would cost (per_part), and the same with those
        # tables made for the run (per_part_built); a measure of cost only, the findings of
        # rules that compare parts (a WWPN or a name used twice) are not the whole design's
        groups = [p.members for p in _parts(topo)]
        subsets = [_subset(topo, g) for g in groups]
        jobs["per_part"] = lambda: [
            check(t, "planning", "read", analysis=analyze(t, "planning", "read")) for t in subsets
        ]
        jobs["per_part_built"] = lambda: [
            check(t, "planning", "read", analysis=analyze(t, "planning", "read"))
            for t in (_subset(topo, g) for g in groups)
        ]
    out: dict = {"components": len(topo), "paths": len(an.paths)}
    for key, fn in jobs.items():
        fn()  # warm-up
        out[f"{key}_ms"], out[f"wall_{key}_ms"] = timed(fn)
    for key in ("traversal", "analyze_check"):  # each timing with nothing of the design cached
        out[f"cold_{key}_ms"], out[f"wall_cold_{key}_ms"] = timed(jobs[key], cold=True)
    if extras:
        out["edit_ms"] = edit_ms(topo, 3)
        if name == "site32":
            out.update(memory(topo))
        out["design_mb"] = design_mb(name, parts)  # after the process peak was read
    return out


def _parts(topo):
    partition = Partition(topo)
    partition.split_all()
    return list(partition.parts.values())


def _subset(topo, ids) -> Topology:
    """A design of ``ids`` only, sharing their component objects with ``topo`` but with tables
    of its own (the model has no such view: this reads its private tables, for this measure)."""
    sub = Topology(topo.meta.get("name", ""))
    sub.parts = topo.parts
    comps, seq = topo._components, topo._seq
    mine = sorted((i for i in ids if i in comps), key=seq.__getitem__)
    keep = set(mine)
    sub._components = {i: comps[i] for i in mine}
    sub._seq = {i: seq[i] for i in mine}
    for i in mine:
        sub._by_kind[comps[i].kind][i] = None
    for i in mine:  # children in design order (the design's own order but for moves)
        sub._children.setdefault(comps[i].parent, []).append(i)
    refs = topo._refs_to
    sub._refs_to = {i: {r for r in refs[i] if r[0] in keep} for i in mine if i in refs}
    sub._next_seq = topo._next_seq
    return sub


def design_mb(name: str, parts) -> float:
    """MB the design itself holds: a second copy built under tracemalloc."""
    tracemalloc.start()
    topo = build(name, parts)
    size = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    del topo
    return size / 2**20


def memory(topo) -> dict:
    """Peak MB of analyze + check (tracemalloc) and of the whole process so far (ru_maxrss)."""
    tracemalloc.start()
    check(topo, "planning", "read", analysis=analyze(topo, "planning", "read"))
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KB on Linux
    return {"peak_mb": peak / 2**20, "rss_mb": rss}


def fresh_runs(names: list[str], repeat: int, progress: bool) -> dict[str, list[dict]]:
    """``repeat`` rounds of one fresh process per design (interleaved, so a busy moment of the
    machine does not land on one design only); the first round also measures the extras."""
    runs: dict[str, list[dict]] = {n: [] for n in names}
    for k in range(repeat):
        for n in names:
            cmd = [sys.executable, __file__, "--worker", n] + (["--extras"] if k == 0 else [])
            done = subprocess.run(cmd, capture_output=True, text=True, check=True)
            runs[n].append(json.loads(done.stdout))
            if progress:
                print(f"  run {k + 1}/{repeat}: {n}", file=sys.stderr)
    return runs


def summary(runs: dict[str, list[dict]]) -> dict:
    """Medians over the runs, ratios and scalings."""
    results: dict = {}
    for n, rs in runs.items():
        r: dict = {}
        for key in rs[0]:
            vals = [x[key] for x in rs if key in x]
            r[key] = statistics.median(vals) if key.endswith("_ms") and not key.startswith("edit") else vals[0]
        r["ratio"] = r["analyze_check_ms"] / r["traversal_ms"]
        for figset in ("measured", "rated"):
            if f"analyze_check_{figset}_ms" in r:
                r[f"ratio_{figset}"] = r[f"analyze_check_{figset}_ms"] / r["traversal_ms"]
        results[n] = r
    base = results.get("benchmark")
    for n in ("site16", "site32"):
        if base and n in results:
            r = results[n]
            r["scaling_vs_benchmark"] = r["analyze_check_ms"] / base["analyze_check_ms"]
            r["traversal_scaling_vs_benchmark"] = r["traversal_ms"] / base["traversal_ms"]
            r["cold_scaling"] = r["cold_analyze_check_ms"] / base["cold_analyze_check_ms"]
            r["cold_traversal_scaling"] = r["cold_traversal_ms"] / base["cold_traversal_ms"]
            for key in ("separate", "per_part", "per_part_built"):
                if f"{key}_ms" in r:
                    r[f"{key}_scaling"] = r[f"{key}_ms"] / base["analyze_check_ms"]
    if base and "site32" in results:
        results["scaling_32x"] = results["site32"]["scaling_vs_benchmark"]
        results["traversal_scaling_32x"] = results["site32"]["traversal_scaling_vs_benchmark"]
    results["runs"] = len(next(iter(runs.values())))
    return results


def report(name: str, r: dict) -> None:
    print(f"{name}: {r['components']:,} components, {r['paths']:,} paths")
    print(
        f"  analyze {r['analyze_ms']:8.1f} ms   check {r['check_ms']:8.1f} ms   "
        f"analyze + check {r['analyze_check_ms']:8.1f} ms (wall {r['wall_analyze_check_ms']:.1f})   "
        f"cross-check alone {r['cross_check_ms']:.1f} ms"
    )
    print(
        f"  one networkx traversal {r['traversal_ms']:8.2f} ms   ratio {r['ratio']:.1f}x (target <= 5x)   "
        f"incremental edit {r['edit_ms']:.1f} ms"
    )
    if "ratio_measured" in r:
        print(
            f"  the other figure sets: measured {r['analyze_check_measured_ms']:.1f} ms = {r['ratio_measured']:.1f}x, "
            f"rated {r['analyze_check_rated_ms']:.1f} ms = {r['ratio_rated']:.1f}x one traversal"
        )
    if "scaling_vs_benchmark" in r:
        print(
            f"  scaling: {r['scaling_vs_benchmark']:.1f}x the benchmark; one traversal "
            f"{r['traversal_scaling_vs_benchmark']:.1f}x"
        )
    cold = (
        f" = {r['cold_scaling']:.1f}x the benchmark; one traversal {r['cold_traversal_scaling']:.1f}x"
        if "cold_scaling" in r
        else ""
    )
    print(
        f"  from cold caches (each timing after 96 MB of other data was read): analyze + check "
        f"{r['cold_analyze_check_ms']:.1f} ms, one traversal {r['cold_traversal_ms']:.2f} ms{cold}"
    )
    print(f"  the design holds {r['design_mb']:.1f} MB (the working set every pass of analyze and check reads)")
    if "separate_ms" in r:
        print(
            f"  the same work as 32 separate one-server designs: {r['separate_ms']:.1f} ms = "
            f"{r['separate_scaling']:.1f}x the benchmark"
        )
    if "per_part_ms" in r:
        print(
            f"  the site part by part, each part with tables of its own: {r['per_part_ms']:.1f} ms = "
            f"{r['per_part_scaling']:.1f}x the benchmark; those tables made for the run: "
            f"{r['per_part_built_ms']:.1f} ms = {r['per_part_built_scaling']:.1f}x (a measure of cost only)"
        )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repeat", type=int, default=7, help="fresh runs per design (default 7)")
    ap.add_argument("--json", action="store_true", help="print the figures as JSON")
    ap.add_argument("--quick", action="store_true", help="the benchmark and the 16x site only")
    ap.add_argument("--worker", choices=list(DESIGNS), help=argparse.SUPPRESS)  # one fresh run
    ap.add_argument("--extras", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.worker:
        gc.collect()
        print(json.dumps(worker(args.worker, args.extras)))
        return
    names = ["benchmark", "site16"] + ([] if args.quick else ["site32", "dc384"])
    if not args.json:
        print(
            f"Python {platform.python_version()} on {platform.machine()}, networkx {nx.__version__}; "
            f"medians of {args.repeat} fresh runs, CPU time"
        )
    results = summary(fresh_runs(names, args.repeat, not args.json))
    if args.json:
        print(json.dumps({k: _rounded(v) for k, v in results.items()}, indent=1))
        return
    for n in names:
        report(n, results[n])
    if "site32" in results:
        s = results["site32"]
        print(
            f"scaling: the 32x site costs {results['scaling_32x']:.1f}x the benchmark (target <= 35x, or no worse "
            f"than the traversal where the machine makes that scale worse); one traversal costs "
            f"{results['traversal_scaling_32x']:.1f}x"
        )
        print(f"memory, 32x site: analyze + check peak {s['peak_mb']:.0f} MB, process peak {s['rss_mb']:.0f} MB")


def _rounded(v):
    if isinstance(v, dict):
        return {k: _rounded(x) for k, x in v.items()}
    return round(v, 2) if isinstance(v, float) else v


if __name__ == "__main__":
    main()
