#!/bin/sh
# Quick start: set up (first time only) and run SANplan: the editor's start page (new design, open, the
# bundled examples), or without a display the headless analysis of the bundled p690 benchmark.
# Any arguments go to the sanplan command, e.g. ./run.sh analyze FILE --figures measured
set -e
ROOT=$(CDPATH= cd -- "$(dirname -- "$0")" && pwd)
sh "$ROOT/packaging/bootstrap.sh"
exec "$ROOT/.venv/bin/sanplan" "$@"
