"""The bundle's entry point (PyInstaller runs this script): the ``sanplan`` command."""

import sys

from app.gui import run_probe

if __name__ == "__main__":
    run_probe()  # the child process app.cli starts to check that Qt can open a window
    from app.cli import main

    sys.exit(main())
