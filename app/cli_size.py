"""``sanplan size OUT --read MBPS [--write MBPS] ...``: the smallest complete design that meets a
target, sized in the P690 paper's steps and proved by the analysis (:mod:`planner.sizing`).
Kept out of app/cli.py, which holds the other commands."""

from __future__ import annotations

import json

from planner.figures import FIGURE_SETS
from planner.sizing import DEFAULT_PARTS, MULTIPATH

ROLES = tuple(r for r in DEFAULT_PARTS if r != "enclosure")  # the part flags


def size_parser(sub) -> None:
    """``sanplan size OUT --read MBPS``: the smallest complete design that meets a target."""
    sz = sub.add_parser("size", help="size, build and prove the smallest design for a target MB/s; write it to OUT")
    sz.add_argument("out", help="output .sanplan (or .json) file")
    sz.add_argument("--read", type=float, default=0.0, metavar="MBPS", help="read target in MB/s")
    sz.add_argument("--write", type=float, default=0.0, metavar="MBPS", help="write target in MB/s")
    sz.add_argument("--figures", choices=FIGURE_SETS, default="planning", help="figure set (default planning)")
    for role in ROLES:
        sz.add_argument(f"--{role}", metavar="PART", help=f"{role} part id (default: the paper's)")
    sz.add_argument("--multipath", choices=MULTIPATH, default="RDAC", help="LPAR driver (default RDAC)")
    sz.add_argument("--fabrics", type=int, choices=(1, 2), default=1, help="fabrics (default 1)")
    sz.add_argument("--headroom", type=float, default=0.0, metavar="PCT", help="extra %% over the target (default 0)")
    sz.add_argument(
        "--whole-drawers", action="store_true", help="16 adapters in every drawer, as the paper's benchmark"
    )
    sz.add_argument("--json", action="store_true", help="machine-readable output")


def cmd_size(args) -> int:
    """Size with :func:`planner.sizing.size`, print the steps and the analysis, write OUT."""
    from app.cli import EXIT_OK, _parts
    from planner.io import export_json, save_project
    from planner.sizing import format_sizing, size, sizing_to_dict

    result = size(
        args.read,
        args.write,
        figures=args.figures,
        parts=_parts(),
        multipath=args.multipath,
        fabrics=args.fabrics,
        headroom_pct=args.headroom,
        fill_drawers=args.whole_drawers,
        **{r: getattr(args, r) for r in ROLES},
    )
    if args.out.lower().endswith(".json"):
        export_json(result.topology, args.out)
    else:
        save_project(result.topology, args.out, message="sized by sanplan size")
    if args.json:
        print(json.dumps({**sizing_to_dict(result), "out": args.out}, indent=2))
    else:
        print(format_sizing(result))
        print(f"wrote {args.out}")
    return EXIT_OK
