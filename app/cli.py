"""The ``sanplan`` command.

    sanplan                      open the editor on the p690 benchmark (headless job without a display)
    sanplan gui [FILE]           open the editor
    sanplan example NAME OUT     write a bundled example design
    sanplan analyze FILE [--figures rated|measured|planning] [--direction read|write|mixed]
                         [--read-pct N] [--from disk|cache] [--only ID,...] [--scenario NAME] [--json]
    sanplan check FILE [--figures ...] [--direction ...] [--json]
    sanplan resilience FILE [--figures ...] [--direction ...] [--from ...] [--json]
                                 fail each component in turn: what survives
    sanplan export FILE --json OUT | --pdf OUT [--paper a4|letter] [--labels]
                        | --zoning brocade|cisco OUT [--vsan N] | --cabling csv|netbox OUT
    sanplan complete FILE OUT    run every assistant that applies (cable, zone, map, LVM, ...)
    sanplan fix FILE OUT [--rule RULE]   apply the mechanical fixes of the rules' findings
    sanplan import JSON OUT
    sanplan revisions FILE       list the saved revisions
    sanplan restore FILE REV     restore a revision (saved as a new revision)
    sanplan parts [--kind K] [TEXT]   list catalog parts with their figures and sources
    sanplan diff OLD NEW [--figures ...] [--from ...] [--json]   compare two designs (FILE or FILE:SCENARIO)

Exit codes: 0 fine; 1 ``check`` found errors; 2 the input is unusable (the message names the
file and the problem). No command prints a traceback for bad input.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from typing import Any

from app import cli_grow  # grow, scaling
from app.cli_format import (  # noqa: F401  (re-exported: the CLI's output functions)
    _label,
    _r,
    _short,
    _table,
    analysis_to_dict,
    format_analysis,
    format_findings,
)
from app.terminal import escape_controls, safe_output
from planner.analysis import ANALYSIS_DIRECTIONS, SOURCES, AnalysisError, analyze
from planner.figures import DIRECTIONS, FIGURE_SETS
from planner.model import ModelError
from planner.naming import counted

EXIT_OK, EXIT_FINDINGS, EXIT_UNUSABLE = 0, 1, 2


class UsageError(Exception):
    pass


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # one clear line, exit 2, as for a bad file
        raise UsageError(f"{self.prog}: {message} (see 'sanplan --help')")


def _figure_opts(sp: argparse.ArgumentParser, directions: Sequence[str] = DIRECTIONS) -> None:
    sp.add_argument("--figures", choices=FIGURE_SETS, default="planning", help="figure set (default planning)")
    sp.add_argument("--direction", choices=directions, default="read", help=f"{', '.join(directions)} (default read)")
    sp.add_argument(
        "--from",
        dest="source",
        choices=SOURCES,
        default="disk",
        help="disk: arrays and subsystems limit (default); cache: controller-cache hits, as in the paper's profiling",
    )
    sp.add_argument("--scenario", help="scenario to use (default: the file's current one)")
    sp.add_argument("--json", action="store_true", help="machine-readable output")


def _analyze_parser(sub: Any) -> None:
    a = sub.add_parser("analyze", help="bandwidth per path and the hop that binds it")
    a.add_argument("file")
    _figure_opts(a, ANALYSIS_DIRECTIONS)
    a.add_argument(
        "--read-pct",
        type=float,
        metavar="N",
        help="with --direction mixed: every path reads N %% of its traffic (default: each workload's share, else 50)",
    )
    a.add_argument("--only", default="", help="comma-separated component ids: analyse only paths through them")
    a.add_argument(
        "--cross-check",
        action=argparse.BooleanOptionalAction,
        default=False,
        help="also cross-check the aggregate with a max flow / min cut (off by default; --no-cross-check: off)",
    )


def _parser() -> argparse.ArgumentParser:
    from app.about import VersionAction

    p = _Parser(prog="sanplan", description="SANplan: server-to-storage topology planner")
    p.add_argument("--version", action=VersionAction, help="the version, the catalog's and the file formats'")
    sub = p.add_subparsers(dest="command")

    g = sub.add_parser("gui", help="open the editor")
    g.add_argument("file", nargs="?")
    g.add_argument("--quit-after-ms", type=int, metavar="N", help="open the editor, then quit after N ms (checks)")

    e = sub.add_parser("example", help="write a bundled example design")
    e.add_argument("name", help="example name (sanplan example list)")
    e.add_argument("out", nargs="?", help="output .sanplan (or .json) file")

    _analyze_parser(sub)

    c = sub.add_parser("check", help="run the rules; exit 1 when there are errors")
    c.add_argument("file")
    _figure_opts(c)

    rz = sub.add_parser("resilience", help="fail each component in turn: the aggregate left and what is lost")
    rz.add_argument("file")
    _figure_opts(rz)

    _export_parser(sub)
    _assist_parser(sub)

    i = sub.add_parser("import", help="import a JSON design into a .sanplan file")
    i.add_argument("json_file")
    i.add_argument("out")

    r = sub.add_parser("revisions", help="list the revisions saved in a design file")
    r.add_argument("file")
    rs = sub.add_parser("restore", help="restore a revision of a design file")
    rs.add_argument("file")
    rs.add_argument("revision", type=int)

    _diff_parser(sub)
    _size_parser(sub)
    cli_grow.add_parsers(sub)  # grow, scaling

    pt = sub.add_parser("parts", help="list catalog parts")
    pt.add_argument("text", nargs="?", default="")
    pt.add_argument("--kind")
    pt.add_argument("--json", action="store_true")
    return p


def _export_parser(sub) -> None:
    """``sanplan export``: one flag per format (formats that share a flag take a choice before OUT)
    and every option the formats take, all from the export registry; then --scenario."""
    from app.cli_progress import add_progress_flag
    from planner.exports import registry

    x = sub.add_parser("export", help="export a design: JSON, PDF build sheet, zoning scripts, cabling lists")
    x.add_argument("file")
    what = x.add_mutually_exclusive_group(required=True)
    for flag, _ in registry.cli_flags():
        if flag.choice_metavar:
            what.add_argument(
                flag.flag, dest=_dest(flag.flag), nargs=2, metavar=(flag.choice_metavar, "OUT"), help=flag.help
            )
        else:
            what.add_argument(flag.flag, dest=_dest(flag.flag), metavar="OUT", help=flag.help)
    for opt in registry.cli_options():
        if opt.switch:
            on = argparse.BooleanOptionalAction if opt.default else "store_true"  # on by default: --no-X
            x.add_argument(opt.flag, dest=_dest(opt.flag, "option"), action=on, default=None, help=opt.help)
        else:
            x.add_argument(
                opt.flag,
                dest=_dest(opt.flag, "option"),
                choices=opt.choices,
                type=opt.parse,
                metavar=None if opt.choices else opt.flag.lstrip("-").upper(),
                help=opt.help,
            )
    x.add_argument(
        "--scenario", help="scenario to export (default: the file's current one; not with --json, which holds them all)"
    )
    add_progress_flag(x)


def _assist_parser(sub) -> None:
    """``sanplan complete`` and ``sanplan fix``: FILE OUT, a scenario, and for fix the rules."""
    cp = sub.add_parser("complete", help="finish a partial design with the assistants; write it to OUT")
    fx = sub.add_parser("fix", help="apply the mechanical fixes of the rules' findings; write the design to OUT")
    for sp in (cp, fx):
        sp.add_argument("file")
        sp.add_argument("out", help="output .sanplan (or .json) file; may be FILE itself (a new revision)")
        sp.add_argument("--scenario", help="scenario to work on (default: the file's current one)")
    fx.add_argument("--rule", action="append", default=[], help="only this rule's findings (repeatable)")


def _diff_parser(sub) -> None:
    """``sanplan diff OLD NEW``: each side a file or FILE:SCENARIO."""
    d = sub.add_parser("diff", help="compare two designs or scenarios; exit 1 when NEW adds an error")
    d.add_argument("old", help="FILE or FILE:SCENARIO (default scenario: the file's current one)")
    d.add_argument("new", help="FILE or FILE:SCENARIO")
    d.add_argument("--figures", choices=FIGURE_SETS, default="planning", help="figure set (default planning)")
    d.add_argument("--from", dest="source", choices=SOURCES, default="disk", help="disk (default) or cache")
    d.add_argument("--json", action="store_true", help="machine-readable output")


def _dest(flag: str, prefix: str = "export") -> str:
    return f"{prefix}_{flag.lstrip('-').replace('-', '_')}"


# -- helpers -------------------------------------------------------------------------------------


def _parts() -> dict[str, dict[str, Any]]:
    from catalogs.catalog import Catalog

    cat = Catalog.default()
    try:
        return cat.as_dict()
    finally:
        cat.close()


def _open(path: str, scenario: str | None = None):
    from planner.io import ProjectError, open_project

    project = open_project(path)
    if scenario:
        if scenario not in project.scenarios:
            raise ProjectError(f"{path}: no scenario {scenario!r}; it has {', '.join(project.scenarios)}")
        project.switch(scenario)
    return project


# -- commands ------------------------------------------------------------------------------------


def cmd_example(args) -> int:
    from planner.examples import EXAMPLES, build_example
    from planner.io import Project, export_json, save_project

    if args.name == "list" or args.out is None:
        for name, (desc, _) in EXAMPLES.items():
            print(f"{name:20} {desc}")
        return (
            EXIT_OK
            if args.name == "list"
            else _fail("sanplan example: give an output file, e.g. sanplan example p690-benchmark bench.sanplan")
        )
    if args.name not in EXAMPLES:
        return _fail(f"sanplan example: no example {args.name!r}; choose one of {', '.join(EXAMPLES)}")
    topo = build_example(args.name, _parts())
    project = Project.single(topo)
    if args.out.lower().endswith(".json"):
        export_json(project, args.out)
    else:
        save_project(project, args.out, message=f"example {args.name}")
    print(f"wrote {args.out}: {args.name} ({len(topo)} components)")
    return EXIT_OK


def cmd_analyze(args) -> int:
    project = _open(args.file, args.scenario)
    topo = project.topology
    only = [s.strip() for s in args.only.split(",") if s.strip()]
    missing = [o for o in only if o not in topo]
    if missing:
        return _fail(f"{args.file}: --only names {', '.join(missing)}, which the design does not have")
    if args.read_pct is not None and args.direction != "mixed":
        return _fail("sanplan analyze: --read-pct applies to --direction mixed only")
    result = analyze(
        topo, args.figures, args.direction, args.source, only, cross_check=args.cross_check, read_pct=args.read_pct
    )
    if args.json:
        print(json.dumps(analysis_to_dict(topo, result), indent=1))
    else:
        print(format_analysis(topo, result))
    return EXIT_OK


def cmd_check(args) -> int:
    from planner.rules import check

    project = _open(args.file, args.scenario)
    topo = project.topology
    findings = check(topo, figures=args.figures, direction=args.direction)
    if args.json:
        print(
            json.dumps(
                {
                    "design": topo.meta.get("name", ""),
                    "figures": args.figures,
                    "direction": args.direction,
                    "findings": [f.to_dict() for f in findings],
                },
                indent=1,
            )
        )
    else:
        print(format_findings(topo, findings))
    return EXIT_FINDINGS if any(f.severity == "error" for f in findings) else EXIT_OK


def cmd_resilience(args) -> int:
    """Fail each single component in turn (:mod:`planner.resilience`); worst first."""
    from planner import resilience

    topo = _open(args.file, args.scenario).topology
    res = resilience.resilience(topo, args.figures, args.direction, args.source)
    print(json.dumps(resilience.to_dict(topo, res), indent=1) if args.json else resilience.format_text(topo, res))
    return EXIT_OK


def cmd_export(args) -> int:
    """One export per run, its format picked by the registry's flags (--json OUT, --pdf OUT,
    --zoning VENDOR OUT, --cabling FORMAT OUT...); options that do not apply to it, a bad choice or
    option value, an OUT that is the design itself or cannot be written are one line and exit 2."""
    from app.cli_progress import terminal_progress
    from planner.exports import ExportError, ExportSource, registry

    flag, group, choice, out = _chosen_export(args)
    fmt = next((f for f in group if f.cli_choice == choice.lower()), None)
    takes = {o.flag for o in fmt.options} if fmt is not None else set()
    misplaced = [
        o.flag for o in registry.cli_options() if _given(getattr(args, _dest(o.flag, "option"))) and o.flag not in takes
    ]
    if args.scenario and fmt is not None and fmt.whole_project:
        misplaced.append("--scenario")
    if misplaced:
        # the choice is named when it decides which options apply (--zoning cisco takes --vsan)
        shown = f" {choice}" if len({frozenset(o.flag for o in f.options) for f in group}) > 1 else ""
        return _fail(f"sanplan export: {', '.join(misplaced)} does not apply to {flag.flag}{shown}")
    if _same_file(out, args.file):
        return _fail(f"sanplan export: {out} is the design file itself; choose another output file")
    project = _open(args.file, args.scenario)
    if fmt is None:
        return _fail(
            f"sanplan export: {flag.flag} takes {registry.choices_text([f.cli_choice for f in group])}, not {choice!r}"
        )
    options = _export_options(args, fmt)
    if isinstance(options, str):
        return _fail(options)
    shown = terminal_progress(args.progress)
    try:
        written = fmt.export(ExportSource(project, lambda: _revision(args.file)), out, options, shown)
    except ExportError as err:
        return _fail(f"sanplan: {err}")
    finally:
        if shown is not None:
            shown.close()
    for w in written:
        print(f"wrote {w.path}{w.summary}")
    return EXIT_OK


def _chosen_export(args):
    """(flag, the formats it picks from, the choice typed or '', OUT) of the flag given."""
    from planner.exports import registry

    for flag, group in registry.cli_flags():
        value = getattr(args, _dest(flag.flag))
        if value:
            return (flag, group, *value) if flag.choice_metavar else (flag, group, "", value)
    raise UsageError("sanplan export: choose what to export (see 'sanplan --help')")  # argparse requires one


def _export_options(args, fmt) -> dict[str, Any] | str:
    """The options given for ``fmt``, with defaults from the environment; a note on stderr for a
    default worth knowing. Returns the error line instead for a bad value in the environment."""
    from planner.exports.registry import choices_text

    options: dict[str, Any] = {}
    for opt in fmt.options:
        value = getattr(args, _dest(opt.flag, "option"))
        if _given(value) or (opt.switch and value is False):  # False: --no-X of a switch on by default
            options[opt.name] = value
            continue
        env = os.environ.get(opt.env, "").strip() if opt.env else ""
        if env and opt.choices:
            env = env.lower()
            if env not in opt.choices:
                return (
                    f"sanplan export: {opt.env} is {env!r}; set it to {choices_text(opt.choices)}, or give {opt.flag}"
                )
        if env:
            options[opt.name] = env if opt.parse is None else opt.parse(env)
        elif opt.default_note:
            print(opt.default_note, file=sys.stderr)
    return options


def _given(value: Any) -> bool:
    """An option flag was given: not argparse's None, nor False for an absent switch (0 is a value)."""
    return value is not None and value is not False


def _same_file(out: str, design: str) -> bool:
    try:
        return os.path.samefile(out, design)
    except OSError:
        return False


def _revision(path: str) -> str:
    """'3 (saved 2026-01-01T10:00:00)', the file's newest revision; 'unsaved' for a JSON design."""
    from planner.io import ProjectError, list_revisions

    try:
        revs = list_revisions(path)
    except ProjectError:
        return "unsaved"  # a JSON design keeps no revisions
    return f"{revs[-1][0]} (saved {revs[-1][1]})" if revs else "unsaved"


def cmd_complete(args) -> int:
    from planner.assist import complete

    return _assist(args, "completed", lambda topo: complete(topo, _parts()))


def cmd_fix(args) -> int:
    from planner.assist.fixes import fix_all
    from planner.rules import RULES

    unknown = [r for r in args.rule if r not in RULES]
    if unknown:
        return _fail(f"sanplan fix: unknown rule {', '.join(unknown)}; the rules are {', '.join(RULES)}")
    return _assist(args, "fixed", lambda topo: fix_all(topo, args.rule or None))


def _assist(args, verb: str, run) -> int:
    """Run an assistant on FILE, print its lines, write OUT; exit 1 when errors remain."""
    from planner.assist import NothingToDo
    from planner.io import export_json, save_project
    from planner.rules import check

    project = _open(args.file, args.scenario)
    topo = project.topology
    try:
        done = run(topo)
        for line in done.lines:
            print(line)
    except NothingToDo as err:
        print(f"nothing done: {err}")
    if args.out.lower().endswith(".json"):
        export_json(project, args.out)
    else:
        save_project(project, args.out, message=f"{verb} by sanplan {args.command}")
    errors = sum(1 for f in check(topo) if f.severity == "error")
    print(
        f"wrote {args.out}" + (f"; {counted(errors, 'error')} remain: see 'sanplan check {args.out}'" if errors else "")
    )
    return EXIT_FINDINGS if errors else EXIT_OK


def _size_parser(sub) -> None:
    from app.cli_size import size_parser

    size_parser(sub)


def cmd_size(args) -> int:
    from app.cli_size import cmd_size as run

    return run(args)


def cmd_import(args) -> int:
    from planner.io import import_json, save_project

    project = import_json(args.json_file)
    save_project(project, args.out, message=f"imported from {os.path.basename(args.json_file)}")
    print(f"wrote {args.out} ({len(project.topology)} components)")
    return EXIT_OK


def cmd_revisions(args) -> int:
    from planner.io import list_revisions

    rows = [(r[0], r[1], r[2], ", ".join(r[3])) for r in list_revisions(args.file)]
    print(_table(rows, ("rev", "saved", "message", "scenarios"), right=(0,)))
    return EXIT_OK


def cmd_restore(args) -> int:
    from planner.io import restore_revision, save_project

    project = restore_revision(args.file, args.revision)
    save_project(project, args.file, message=f"restored revision {args.revision}")
    print(f"{args.file}: restored revision {args.revision} (saved as a new revision)")
    return EXIT_OK


def cmd_parts(args) -> int:
    from catalogs.catalog import Catalog

    cat = Catalog.default()
    try:
        found = list(cat.parts(kind=args.kind, text=args.text))
    finally:
        cat.close()
    if args.json:
        print(json.dumps([dict(p, user=u) for p, u in found], indent=1))
        return EXIT_OK
    for part, user in found:
        print(f"{part['id']:16} {part['kind']:10} {part.get('name', '')}{'  (user part)' if user else ''}")
        for fname, sets in (part.get("figures") or {}).items():
            for s, entry in sets.items():
                value = entry.get("value", f"{entry.get('read')} read / {entry.get('write')} write")
                est = " (estimate)" if entry.get("estimate") else ""
                print(f"{'':18}{fname:12} {s:9} {value} MB/s{est} - {entry.get('source', '')}")
    return EXIT_OK


def cmd_diff(args) -> int:
    from planner.diff import diff, open_design, summary_lines

    old, old_name = open_design(args.old)
    new, new_name = open_design(args.new)
    result = diff(old, new, args.figures, args.source)
    if args.json:
        print(json.dumps({"old": old_name, "new": new_name, **result.to_dict()}, indent=1))
    else:
        print("\n".join(summary_lines(result, old, new, old_name, new_name)))
    return EXIT_FINDINGS if any(f.severity == "error" for f in result.findings_added) else EXIT_OK


def cmd_default(args) -> int:
    """No arguments (or ``gui``): the editor when it and a display are available; otherwise the
    headless job on the bundled p690 benchmark."""
    from planner.examples import build_example
    from planner.rules import check

    if getattr(args, "quit_after_ms", None) is not None:  # a check: open the editor, on any platform
        from app.gui import run_gui

        return run_gui(args.file, quit_after_ms=args.quit_after_ms)
    gui = _gui_available()
    if gui is not None:
        return gui(getattr(args, "file", None))
    if getattr(args, "file", None):
        project = _open(args.file)
        topo = project.topology
    else:
        topo = build_example("p690-benchmark", _parts())
    reason = "no display" if not _has_display() else "the editor could not start"
    print(f"SANplan headless ({reason}): analysing {topo.meta.get('name')}\n")
    read = analyze(topo, "planning", "read", cross_check=True)
    print(format_analysis(topo, read, max_rows=8))
    print()
    print(f"Write, planning figures: {analyze(topo, 'planning', 'write').aggregate:,.1f} MB/s")
    print()
    m = analyze(topo, "measured", "read", "cache", cross_check=False)
    w = analyze(topo, "measured", "write", "cache", cross_check=False)
    print(
        f"Hardware profile (measured figures, data from controller cache): read {m.aggregate:,.0f} MB/s, write {w.aggregate:,.0f} MB/s\n"
    )
    print(format_findings(topo, check(topo, analysis=read)))  # the checks reuse the planning read analysis
    return EXIT_OK


def _has_display() -> bool:
    if sys.platform in ("win32", "darwin"):
        return True
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def _gui_available():
    """The editor's entry point when a display is there and Qt can open a window on it, else None
    (Qt aborts the whole process when its platform plugin cannot load, so probe in a child)."""
    if not _has_display() or os.environ.get("QT_QPA_PLATFORM") == "offscreen":
        return None
    try:
        from app.gui import probe_env, run_gui
    except ImportError as err:
        print(f"sanplan: the editor cannot start ({err}); running headless", file=sys.stderr)
        return None
    import subprocess

    from app.gui import probe_command

    try:
        done = subprocess.run(probe_command(), capture_output=True, text=True, timeout=30, env=probe_env())
    except (OSError, subprocess.TimeoutExpired) as err:
        print(f"sanplan: the editor cannot start ({err}); running headless", file=sys.stderr)
        return None
    if done.returncode != 0:
        lines = [ln for ln in done.stderr.splitlines() if "plugin" in ln or "library" in ln or "Error" in ln]
        why = lines[-1].strip() if lines else f"Qt exited with {done.returncode}"
        print(
            f"sanplan: Qt cannot open a window on this display ({why}); running headless. "
            "Run ./run.sh as root once to install the Qt system libraries.",
            file=sys.stderr,
        )
        return None
    return run_gui


def _fail(message: str) -> int:
    print(escape_controls(message), file=sys.stderr)
    return EXIT_UNUSABLE


COMMANDS = {
    "example": cmd_example,
    "analyze": cmd_analyze,
    "check": cmd_check,
    "resilience": cmd_resilience,
    "export": cmd_export,
    "complete": cmd_complete,
    "fix": cmd_fix,
    "import": cmd_import,
    "revisions": cmd_revisions,
    "restore": cmd_restore,
    "parts": cmd_parts,
    "diff": cmd_diff,
    "size": cmd_size,
    **cli_grow.COMMANDS,
    "gui": cmd_default,
    None: cmd_default,
}


def main(argv: Sequence[str] | None = None) -> int:
    from catalogs.catalog import CatalogError
    from planner.io import ProjectError

    try:
        with safe_output():  # nothing a file or a path holds can drive the terminal
            args = _parser().parse_args(argv)
            return COMMANDS[args.command](args)
    except UsageError as err:
        return _fail(str(err))
    except (ProjectError, ModelError, CatalogError, AnalysisError) as err:
        return _fail(f"sanplan: {err}")
    except BrokenPipeError:
        return EXIT_OK
    except KeyboardInterrupt:
        return 130
    except OSError as err:
        return _fail(f"sanplan: {getattr(err, 'filename', '') or ''}: {err.strerror or err}")
    except Exception as err:  # a bug: say so in one line, never a traceback for the user
        return _fail(
            f"sanplan: internal error ({type(err).__name__}: {err}); please report it with the file that caused it"
        )


if __name__ == "__main__":
    sys.exit(main())
