"""Moved to :mod:`planner.io.atomic`. Kept only until ``planner/exports.py`` imports it from there."""

from planner.io.atomic import TempFileError, atomic_replace

__all__ = ["TempFileError", "atomic_replace"]
