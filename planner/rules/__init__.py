"""Design rules: checks a storage admin would make, each a small function in a registry.

A rule takes the design and a shared :class:`Context` and returns :class:`Finding`s: a stable
rule id, a severity (``error``: the design cannot work as drawn or breaks a hard limit;
``warning``: it works but loses bandwidth or redundancy; ``advice``: a better choice exists),
the components involved, a message naming them by their labels, a concrete fix, and the source
of the rule: the paper and its section, or the AIX or vendor manual.

Rules are registered with :func:`rule` into :data:`RULES`; :func:`check` runs them all (or some)
and returns the findings sorted by severity, rule id and components. One finding may group many
components (all ports sharing one WWPN, all logical drives of one LPAR behind one switch), so a
big design gives a readable list rather than one line per LUN.

The :class:`Context` builds the indexes several rules share (cables by port, zones by member,
zoned connections, the volume groups' arrays) once per check, and the bandwidth analysis lazily,
once, for the rules that need it. The analysis must be a full one (no ``only`` filter).

Modules: :mod:`.registry` (Finding, Rule, rule, RULES, check), :mod:`.context` (Context),
:mod:`.wording` (message helpers), then one module per domain: :mod:`.server_io`, :mod:`.san`,
:mod:`.storage`, :mod:`.lvm`, :mod:`.workload`, :mod:`.placement`, :mod:`.names`. Importing this package registers every rule.

Papers: P690 = "JFS2/DIO Sequential I/O Performance on IBM pSeries 690" (IBM Redpaper, 2004);
SASAIX = "Setting up and tuning direct I/O for SAS 9 on AIX" (IBM, 2005); SGIO = "How to
Increase I/O Throughput with SAS for Windows' SGIO Feature" (SAS); SUN = "SAS users and Solaris
admins" (Sun/SAS); NT = "Tuning SAS for better performance on IBM Netfinity Servers running
Windows NT 4.0" (IBM).
"""

from __future__ import annotations

from planner.rules import lvm, names, placement, san, server_io, storage, workload  # noqa: F401  (registers the rules)
from planner.rules.context import Context
from planner.rules.registry import RULES, SEVERITIES, CheckStopped, Finding, Rule, RuleFn, check, rule, rules_table
from planner.rules.storage import raid_drive_problem

__all__ = [
    "RULES",
    "SEVERITIES",
    "Context",
    "CheckStopped",
    "Finding",
    "Rule",
    "RuleFn",
    "check",
    "raid_drive_problem",
    "rule",
    "rules_table",
]
