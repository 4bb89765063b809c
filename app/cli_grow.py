"""``sanplan grow FILE --to MBPS`` (the fewest parts to reach a higher target, as a new scenario:
:mod:`planner.grow`) and ``sanplan scaling FILE`` (aggregate MB/s as HBAs or drawers are added in
placement order: :mod:`planner.scaling`). Kept out of app/cli.py, which holds the other commands."""

from __future__ import annotations

import json

from planner.analysis import ANALYSIS_DIRECTIONS, SOURCES
from planner.figures import FIGURE_SETS
from planner.scaling import BY


def add_parsers(sub) -> None:
    """The ``grow`` and ``scaling`` subcommands."""
    g = sub.add_parser("grow", help="add the fewest parts to reach a higher target MB/s; save them as a new scenario")
    g.add_argument("file", help="the .sanplan design file (the new scenario is saved into it)")
    g.add_argument("--to", type=float, default=0.0, metavar="MBPS", help="read target in MB/s")
    g.add_argument("--write", type=float, default=0.0, metavar="MBPS", help="write target in MB/s")
    g.add_argument("--figures", choices=FIGURE_SETS, default="planning", help="figure set (default planning)")
    g.add_argument("--scenario", help="scenario to grow (default: the file's current one)")
    g.add_argument("--as", dest="name", metavar="NAME", help="name of the new scenario (default: 'grown to N MB/s')")
    g.add_argument("--dry-run", action="store_true", help="print the plan; do not save")
    g.add_argument("--json", action="store_true", help="machine-readable output")

    s = sub.add_parser("scaling", help="aggregate MB/s as HBAs (or drawers) are added in placement order")
    s.add_argument("file")
    s.add_argument("--by", choices=BY, default="hba", help="one point per HBA (default) or per drawer")
    s.add_argument("--figures", choices=FIGURE_SETS, default="planning", help="figure set (default planning)")
    s.add_argument("--direction", choices=ANALYSIS_DIRECTIONS, default="read", help="read (default), write or mixed")
    s.add_argument("--from", dest="source", choices=SOURCES, default="disk", help="disk (default) or cache")
    s.add_argument("--scenario", help="scenario to use (default: the file's current one)")
    s.add_argument("--json", action="store_true", help="machine-readable output")


def _scenario_name(project, base: str) -> str:
    name, n = base[:64], 2
    while name in project.scenarios:
        name, n = f"{base[:58]} ({n})", n + 1
    return name


def cmd_grow(args) -> int:
    """Grow with :func:`planner.grow.grow`, print the steps, save the grown design as a new scenario."""
    from app.cli import EXIT_OK, _open, _parts
    from planner.grow import AlreadyMet, GrowthError, format_growth, grow, growth_to_dict
    from planner.io import AddScenario, save_project
    from planner.io.project import scenario_name_problem

    if not args.dry_run and not args.file.lower().endswith(".sanplan"):
        raise GrowthError(
            f"{args.file}: grow saves a new scenario into a .sanplan file; import it first (sanplan import)"
        )
    project = _open(args.file, args.scenario)
    problem = scenario_name_problem(args.name, project.scenarios) if args.name is not None else None
    if problem:
        raise GrowthError(f"scenario name {args.name!r} {problem}")
    try:
        result = grow(project.topology, args.to, args.write, args.figures, parts=_parts(), name=args.name or "")
    except AlreadyMet as err:
        print(f"sanplan: {err}")
        return EXIT_OK
    name = args.name or _scenario_name(project, "Grown to " + result.topology.meta["name"].split(" grown to ")[-1])
    if not args.dry_run:
        cmd = AddScenario(name, make_current=True)
        cmd.topology = result.topology
        cmd.do(project)
        save_project(project, args.file, message=f"sanplan grow: scenario {name}")
    if args.json:
        print(json.dumps({**growth_to_dict(result), "scenario": name, "saved": not args.dry_run}, indent=2))
    else:
        print(format_growth(result))
        print("dry run: nothing saved" if args.dry_run else f"saved scenario {name!r} in {args.file}")
    return EXIT_OK


def cmd_scaling(args) -> int:
    """Print the scaling curve of :func:`planner.scaling.scaling` as a table (or JSON)."""
    from app.cli import EXIT_OK, _open
    from planner.scaling import format_scaling, scaling, scaling_to_dict

    project = _open(args.file, args.scenario)
    result = scaling(project.topology, args.figures, args.direction, args.source, by=args.by)
    print(json.dumps(scaling_to_dict(result), indent=2) if args.json else format_scaling(result))
    return EXIT_OK


COMMANDS = {"grow": cmd_grow, "scaling": cmd_scaling}
