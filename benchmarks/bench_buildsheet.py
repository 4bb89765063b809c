"""Speed benchmark for the PDF build sheet. Not a test: run it and read the medians.

    python benchmarks/bench_buildsheet.py [--repeat N] [--labels] [--keep DIR]

Times build_sheet (analysis, findings, every section, layout and writing) on the bundled p690
benchmark (7 drawers, 112 HBAs, 56 FAStT600 Turbo, 224 cables) and on the one-drawer example,
and prints the median of the runs and the page count. Target: the 7-drawer sheet in 10 s or less.
"""

from __future__ import annotations

import argparse
import platform
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import reportlab  # noqa: E402

from catalogs.catalog import builtin_parts  # noqa: E402
from planner.examples import build_example  # noqa: E402
from planner.exports.buildsheet import build_sheet  # noqa: E402

TARGET_S = 10.0


def run(name: str, parts, folder: Path, repeat: int, labels: bool) -> None:
    topo = build_example(name, parts)
    out = folder / f"{name}.pdf"
    times, pages = [], 0
    for _ in range(repeat):
        t0 = time.perf_counter()
        pages = build_sheet(topo, str(out), labels=labels)
        times.append(time.perf_counter() - t0)
    median = statistics.median(times)
    verdict = "meets" if median <= TARGET_S else "MISSES"
    size = out.stat().st_size / 1024
    print(f"{name}: {len(topo):,} components -> {pages} pages, {size:,.0f} KB")
    print(
        f"  build sheet median of {repeat}: {median:6.2f} s  (runs {', '.join(f'{t:.2f}' for t in times)}; "
        f"target {TARGET_S:.0f} s: {verdict})"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--labels", action="store_true", help="include the cable-label pages")
    ap.add_argument("--keep", help="write the PDFs to this folder (default: a temporary one)")
    args = ap.parse_args()
    print(f"Python {platform.python_version()} on {platform.machine()}, reportlab {reportlab.Version}")
    parts = builtin_parts()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(args.keep) if args.keep else Path(tmp)
        folder.mkdir(parents=True, exist_ok=True)
        for name in ("p690-benchmark", "p690-one-drawer"):
            run(name, parts, folder, args.repeat, args.labels)


if __name__ == "__main__":
    main()
