#!/bin/sh
# Builds the self-contained SANplan bundle with PyInstaller: dist/sanplan/ (the ``sanplan``
# executable and everything it needs: no Python, virtual environment or network) and
# dist/sanplan-VERSION-OS-ARCH.tar.gz. Uses $PYTHON, else .venv/bin/python (./run.sh makes it);
# PyInstaller comes with the test extras (pip install -e '.[test]').
# Windows and macOS: see README "Install" (the same packaging/sanplan.spec).
set -e
ROOT=$(CDPATH= cd -- "$(dirname -- "$0")/.." && pwd)
PY=${PYTHON:-$ROOT/.venv/bin/python}
DIST=${SANPLAN_DIST:-$ROOT/dist}
WORK=${SANPLAN_BUILD:-$ROOT/build}
say() { printf 'sanplan build: %s\n' "$*" >&2; }

if ! "$PY" -c 'import PyInstaller' >/dev/null 2>&1; then
  say "PyInstaller is not installed for $PY: run '$PY -m pip install pyinstaller' (or ./run.sh once, then again)"; exit 1
fi
mkdir -p "$WORK"
log="$WORK/pyinstaller.log"
say "building dist/sanplan with PyInstaller (a few minutes; log: $log)"
cd "$ROOT"
if ! "$PY" -m PyInstaller --noconfirm --clean --log-level WARN --distpath "$DIST" --workpath "$WORK" \
    packaging/sanplan.spec >"$log" 2>&1; then
  say "PyInstaller failed; the full log: $log"; tail -n 20 "$log" >&2; exit 1
fi
if ! "$PY" packaging/stage_share.py "$DIST/sanplan" >>"$log" 2>&1; then
  say "staging the desktop files failed; the full log: $log"; tail -n 20 "$log" >&2; exit 1
fi
version=$("$DIST/sanplan/sanplan" --version | sed -n '1s/^sanplan //p')
os=$(uname -s | tr 'A-Z' 'a-z'); arch=$(uname -m)
tarball="$DIST/sanplan-$version-$os-$arch.tar.gz"
tar -C "$DIST" -czf "$tarball" sanplan
say "bundle: $DIST/sanplan (run $DIST/sanplan/sanplan; install with packaging/install.sh)"
say "archive: $tarball"
