"""Dialogs that create and re-shape components (LPARs, drives, arrays, logical drives, host
mappings, the AIX LVM). Each is a :class:`~widgets.dialogs.base.FormDialog`: typed fields, a live
summary of what OK will make, OK disabled with the reason while the input is refused (the
planner's ``*_problem`` checks in :mod:`planner.edit_create`). They read the design and return
``values()``; the actions in ``app/actions`` run the edit."""

from widgets.dialogs.base import FormDialog
from widgets.dialogs.host import AssignLparDialog, LparDialog, LparHbasDialog
from widgets.dialogs.lvm import LogicalVolumeDialog, VolumeGroupDialog, WorkloadDialog
from widgets.dialogs.storage import (
    AddDrivesDialog,
    ArrayDialog,
    DriveCountDialog,
    EnclosureDialog,
    HostMappingDialog,
    LogicalDriveDialog,
)

__all__ = [
    "AddDrivesDialog",
    "ArrayDialog",
    "AssignLparDialog",
    "DriveCountDialog",
    "EnclosureDialog",
    "FormDialog",
    "HostMappingDialog",
    "LogicalDriveDialog",
    "LogicalVolumeDialog",
    "LparDialog",
    "LparHbasDialog",
    "VolumeGroupDialog",
    "WorkloadDialog",
]
