"""Speed benchmark for the resilience report (issue 10 section 4). Not a test: run it and read the medians.

    python benchmarks/bench_resilience.py [--repeat N]

Times, on the bundled p690 benchmark (3,451 components): the resilience report (one analysis,
one path search, one fair-share allocation per distinct set of lost paths, about 900 single
failures) and the SINGLE_POINT_OF_FAILURE rule alone. Target: the report in 2 s or less.
"""

from __future__ import annotations

import argparse
import platform
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from catalogs.catalog import builtin_parts  # noqa: E402
from planner.examples import build_example  # noqa: E402
from planner.resilience import lost_access_by_component, resilience  # noqa: E402


def median_ms(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times) * 1000


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    print(f"Python {platform.python_version()} on {platform.machine()}; medians of {args.repeat} runs")
    topo = build_example("p690-benchmark", builtin_parts())
    res = resilience(topo)
    t_res = median_ms(lambda: resilience(topo), args.repeat)
    t_spof = median_ms(lambda: lost_access_by_component(topo, ("hba", "switch", "controller")), args.repeat)
    verdict = "meets" if t_res <= 2000 else "MISSES"
    print(
        f"p690-benchmark: {len(topo):,} components, {len(res.failures)} failures analysed, {len(res.data_loss)} lose data"
    )
    print(f"  resilience report {t_res:8.1f} ms  (target 2000 ms: {verdict})")
    print(f"  SINGLE_POINT_OF_FAILURE access check {t_spof:8.1f} ms")


if __name__ == "__main__":
    main()
