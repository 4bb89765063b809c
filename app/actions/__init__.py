"""The editor's component and design actions (see :mod:`app.actions.registry`).

Importing this package imports every module in it, and each registers its actions.
"""

from __future__ import annotations

import importlib
import pkgutil

from app.actions.registry import (
    ComponentAction,
    DesignAction,
    component_actions,
    design_actions,
    register,
    unregister,
)

__all__ = ["ComponentAction", "DesignAction", "component_actions", "design_actions", "register", "unregister"]

for _info in pkgutil.iter_modules(__path__):
    if _info.name != "registry":
        importlib.import_module(f"{__name__}.{_info.name}")
