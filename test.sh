#!/bin/sh
# Quick start: set up (first time only) and run all the tests, headless.
set -e
ROOT=$(CDPATH= cd -- "$(dirname -- "$0")" && pwd)
sh "$ROOT/packaging/bootstrap.sh"
cd "$ROOT"
export QT_QPA_PLATFORM=offscreen
exec "$ROOT/.venv/bin/python" -m pytest "$@"
