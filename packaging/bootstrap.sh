#!/bin/sh
# Sets up everything SANplan needs on a fresh Debian/Ubuntu machine that has only python3:
# the system libraries Qt loads (installed when running as root, named otherwise), a virtual
# environment in .venv, and the package with its test tools. Safe to run again: it only does
# what is missing. Run by ../run.sh and ../test.sh. It prints one line per step it takes; the
# tools' own output goes to a log, shown (its path and its end) only when a step fails.
set -e
ROOT=$(CDPATH= cd -- "$(dirname -- "$0")/.." && pwd)
VENV="$ROOT/.venv"
PY=${PYTHON:-python3}

say() { printf 'sanplan setup: %s\n' "$*" >&2; }
LOG=$(mktemp "${TMPDIR:-/tmp}/sanplan-setup.XXXXXX")  # the tools' output; removed when all went well
# run a step quietly: its output goes to the log; on failure say so with the log's path
quiet() {
  what=$1; shift
  if "$@" >>"$LOG" 2>&1; then return 0; fi
  say "$what failed; the full log: $LOG"; tail -n 15 "$LOG" >&2
  return 1
}

if ! command -v "$PY" >/dev/null 2>&1; then
  say "python3 is not installed; install Python 3.11 or newer first"; exit 1
fi
if ! "$PY" -c 'import sys; sys.exit(sys.version_info < (3, 11))'; then
  say "Python 3.11 or newer is needed, found $("$PY" -V 2>&1)"; exit 1
fi

as_root() { [ "$(id -u)" = 0 ]; }
apt_updated=""
apt_install() {
  if [ -z "$apt_updated" ]; then
    DEBIAN_FRONTEND=noninteractive apt-get update -qq >/dev/null 2>&1 || true
    apt_updated=1
  fi
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@" >/dev/null 2>&1
}

# 1. System libraries Qt 6 loads (the offscreen platform needs the first group; a window on X11
#    needs the xcb group too).
QT_LIBS="libGL.so.1:libgl1 libEGL.so.1:libegl1 libxkbcommon.so.0:libxkbcommon0 libfontconfig.so.1:libfontconfig1 libdbus-1.so.3:libdbus-1-3 libglib-2.0.so.0:libglib2.0-0 libfreetype.so.6:libfreetype6 libxkbcommon-x11.so.0:libxkbcommon-x11-0 libxcb-cursor.so.0:libxcb-cursor0 libxcb-icccm.so.4:libxcb-icccm4 libxcb-keysyms.so.1:libxcb-keysyms1 libxcb-shape.so.0:libxcb-shape0 libxcb-randr.so.0:libxcb-randr0 libxcb-render-util.so.0:libxcb-render-util0 libxcb-image.so.0:libxcb-image0 libX11-xcb.so.1:libx11-xcb1"
LDCONFIG=$(command -v ldconfig || echo /sbin/ldconfig)
missing=""
for pair in $QT_LIBS; do
  lib=${pair%%:*}; pkg=${pair##*:}
  if ! "$LDCONFIG" -p 2>/dev/null | grep -q "$lib"; then missing="$missing $pkg"; fi
done
if [ -n "$missing" ]; then
  if as_root && command -v apt-get >/dev/null 2>&1; then
    say "installing Qt system libraries:$missing"
    apt_install $missing || say "could not install:$missing (the GUI may not start; the headless planner works)"
  else
    say "Qt needs these Debian packages (run as root: apt-get install$missing); the headless planner works without them"
  fi
fi

# 2. The virtual environment (Debian's python3 needs python3-venv for it).
if [ ! -x "$VENV/bin/python" ]; then
  say "creating the virtual environment .venv"
  if ! "$PY" -m venv "$VENV" >>"$LOG" 2>&1; then
    rm -rf "$VENV"
    if as_root && command -v apt-get >/dev/null 2>&1; then
      ver=$("$PY" -c 'import sys; print(f"{sys.version_info[0]}.{sys.version_info[1]}")')
      say "installing python3-venv"
      apt_install python3-venv || apt_install "python$ver-venv" || true
      quiet "creating the virtual environment" "$PY" -m venv "$VENV" || exit 1
    else
      say "cannot create a virtual environment: install python3-venv (apt-get install python3-venv) and run again"; exit 1
    fi
  fi
fi

# 3. The package and its test tools, reinstalled only when pyproject.toml changed.
stamp="$VENV/.sanplan-installed"
want=$(cksum < "$ROOT/pyproject.toml")
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
  say "installing SANplan and its dependencies into .venv (first run takes a minute)"
  "$VENV/bin/python" -m pip install -q --disable-pip-version-check --upgrade pip >>"$LOG" 2>&1 || true
  quiet "installing the package (pip)" "$VENV/bin/python" -m pip install --disable-pip-version-check -e "$ROOT[test]" || exit 1
  printf '%s' "$want" > "$stamp"
  say "ready"
fi

# 4. Python's cache of the compiled sources (about 25 ms when it is up to date). Python writes it
#    itself on import, but not where PYTHONDONTWRITEBYTECODE is set (as on this project's build
#    machines): every start then compiled every module (0.2 s of the editor's 0.6 s of imports),
#    and a module first imported with a design open was compiled on the GUI thread.
if ! "$VENV/bin/python" -m compileall -q "$ROOT/app" "$ROOT/planner" "$ROOT/widgets" "$ROOT/catalogs" >>"$LOG" 2>&1; then
  say "could not compile every source file (SANplan still starts; the log: $LOG)"
  exit 0
fi
rm -f "$LOG"
