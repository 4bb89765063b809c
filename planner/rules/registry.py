"""The rule registry: :class:`Finding`, :class:`Rule`, the :func:`rule` decorator, :data:`RULES`
and :func:`check`, which runs the registered rules on one shared :class:`Context`."""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from planner.analysis import Analysis
from planner.gcpause import gc_paused
from planner.model import Topology
from planner.rules.context import Context

log = logging.getLogger("planner.rules")

SEVERITIES = ("error", "warning", "advice")
SEVERITY_ORDER = {s: i for i, s in enumerate(SEVERITIES)}


@dataclass(frozen=True)
class Finding:
    """One problem or suggestion: which rule, how bad, which components, what to do, and why."""

    rule: str
    severity: str  # "error" | "warning" | "advice"
    components: tuple[str, ...]
    message: str
    fix: str
    source: str

    def __post_init__(self) -> None:
        if self.severity not in SEVERITY_ORDER:
            raise ValueError(f"severity must be one of {', '.join(SEVERITIES)}, not {self.severity!r}")

    def to_dict(self) -> dict[str, Any]:
        """The finding as plain data (JSON, the findings panel, reports)."""
        return {
            "rule": self.rule,
            "severity": self.severity,
            "components": list(self.components),
            "message": self.message,
            "fix": self.fix,
            "source": self.source,
        }


RuleFn = Callable[[Topology, Context], list[Finding]]


@dataclass(frozen=True)
class Rule:
    """A registered rule: id, default severity, title, source and the checking function."""

    id: str
    severity: str
    title: str
    source: str
    fn: RuleFn

    def finding(
        self, components: Iterable[str], message: str, fix: str, severity: str | None = None, source: str | None = None
    ) -> Finding:
        """A finding of this rule with its default severity and source unless given."""
        return Finding(self.id, severity or self.severity, tuple(components), message, fix, source or self.source)


#: rule id -> Rule, in registration order
RULES: dict[str, Rule] = {}


def rule(rule_id: str, severity: str, title: str, source: str) -> Callable[[RuleFn], RuleFn]:
    """Register ``fn(topo, ctx) -> list[Finding]`` as rule ``rule_id``. Raises ValueError for a
    duplicate id or an unknown severity."""
    if severity not in SEVERITY_ORDER:
        raise ValueError(f"rule {rule_id}: severity must be one of {', '.join(SEVERITIES)}")

    def register(fn: RuleFn) -> RuleFn:
        if rule_id in RULES:
            raise ValueError(f"rule {rule_id} is registered twice")
        RULES[rule_id] = Rule(rule_id, severity, title, source, fn)
        return fn

    return register


def rules_table() -> list[dict[str, str]]:
    """The registered rules as rows (id, severity, title, source) for documentation and the UI."""
    return [{"id": r.id, "severity": r.severity, "title": r.title, "source": r.source} for r in RULES.values()]


def _selected(rules: Iterable[str] | None) -> list[Rule]:
    if rules is None:
        return list(RULES.values())
    ids = list(rules)
    unknown = [r for r in ids if r not in RULES]
    if unknown:
        raise ValueError(f"unknown rule ids {', '.join(unknown)}; known: {', '.join(RULES)}")
    return [RULES[r] for r in ids]


def _internal(r: Rule, err: Exception) -> Finding:
    """The INTERNAL error finding that stands for rule ``r`` having raised ``err``."""
    return Finding(
        "INTERNAL",
        "error",
        (),
        f"The check '{r.title}' ({r.id}) failed: {type(err).__name__}: {err}.",
        "This is a bug in SANplan, not in your design; please report it with the design file. The other "
        "checks ran normally.",
        r.source,
    )


class CheckStopped(Exception):
    """A check given ``stop`` was told to stop (the design changed meanwhile)."""


def check(
    topo: Topology,
    figures: str = "planning",
    direction: str = "read",
    analysis: Analysis | None = None,
    rules: Iterable[str] | None = None,
    stop: Callable[[], bool] | None = None,
) -> list[Finding]:
    """Run the rules (all, or the ids in ``rules``) on ``topo``.

    Parameters: ``figures`` and ``direction`` select the analysis the bandwidth rules use;
    ``analysis`` reuses a full analysis already computed (its figures and direction then win);
    without one, the rules that need it share one analysis computed at most once per check.
    Returns the findings sorted by severity (error, warning, advice), rule id, components.
    A rule that raises becomes an ``INTERNAL`` error finding naming the rule (and is logged with
    its traceback); the other rules still run. Raises ValueError for an unknown rule id, figure
    set or direction. ``stop``: asked before each rule; once it says True the check raises
    :class:`CheckStopped` (the editor's check of a revision an edit has made stale).
    """
    ctx = Context(topo, figures, direction, analysis)
    selected = _selected(rules)
    findings: list[Finding] = []
    with gc_paused():
        for r in selected:
            if stop is not None and stop():
                raise CheckStopped(r.id)
            try:
                findings += r.fn(topo, ctx)
            except Exception as err:  # a rule bug must not hide the other findings or show a traceback
                log.exception("rule %s failed", r.id)
                findings.append(_internal(r, err))
    findings.sort(key=lambda f: (SEVERITY_ORDER[f.severity], f.rule, f.components))
    return findings
