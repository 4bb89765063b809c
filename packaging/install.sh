#!/bin/sh
# Installs the SANplan bundle for this user (no root): the bundle in ~/.local/lib/sanplan, the
# command ~/.local/bin/sanplan, the menu entry, the icons (hicolor sizes) and the MIME type of
# .sanplan design files (by name and by content), so that double-clicking a design opens it.
# Every file and folder it makes is listed in ~/.local/lib/sanplan/install-manifest, which
# uninstall.sh reads to remove exactly those.
#     sh install.sh [BUNDLE_DIR]     (default: the folder this script is in, else dist/sanplan)
set -e
HERE=$(CDPATH= cd -- "$(dirname -- "$0")" && pwd)
if [ -n "$1" ]; then BUNDLE=$1
elif [ -x "$HERE/sanplan" ]; then BUNDLE=$HERE
else BUNDLE=$HERE/../dist/sanplan
fi
say() { printf 'sanplan install: %s\n' "$*" >&2; }
if [ ! -x "$BUNDLE/sanplan" ] || [ ! -d "$BUNDLE/share" ]; then
  say "no bundle at $BUNDLE (build it with packaging/build.sh, or give the unpacked folder)"; exit 1
fi
BUNDLE=$(CDPATH= cd -- "$BUNDLE" && pwd)
: "${HOME:?HOME is not set}"
LIB=$HOME/.local/lib/sanplan
BIN=$HOME/.local/bin
DATA=${XDG_DATA_HOME:-$HOME/.local/share}
MANIFEST=$LIB/install-manifest

if [ -e "$MANIFEST" ]; then
  say "replacing the earlier install"
  sh "$LIB/uninstall.sh" >/dev/null 2>&1 || sh "$HERE/uninstall.sh" >/dev/null
fi
[ -e "$LIB" ] && { say "$LIB exists and was not made by install.sh; move it away first"; exit 1; }

made=""
# mkdir -p that records each folder it creates (outermost first), for uninstall.sh
mkdirs() {
  [ -d "$1" ] && return 0
  mkdirs "$(dirname -- "$1")"
  mkdir "$1" && made="$made
dir $1"
}
mkdirs "$(dirname -- "$LIB")"
cp -R "$BUNDLE" "$LIB"
made="$made
tree $LIB"
put() {  # put SOURCE DEST: copy one file, recorded
  mkdirs "$(dirname -- "$2")"
  [ -e "$2" ] && { say "$2 exists and was not made by install.sh; leaving it"; return 0; }
  cp "$1" "$2"
  made="$made
file $2"
}

mkdirs "$BIN"
if [ -e "$BIN/sanplan" ] || [ -L "$BIN/sanplan" ]; then
  say "$BIN/sanplan exists and was not made by install.sh; leaving it (run $LIB/sanplan)"
else
  ln -s "$LIB/sanplan" "$BIN/sanplan"
  made="$made
file $BIN/sanplan"
fi

apps=$DATA/applications
mkdirs "$apps"
if [ ! -e "$apps/sanplan.desktop" ]; then
  sed -e "s|^Exec=.*|Exec=\"$LIB/sanplan\" gui %f|" -e "/^Exec=/a TryExec=$LIB/sanplan" \
    "$LIB/share/applications/sanplan.desktop" > "$apps/sanplan.desktop"
  made="$made
file $apps/sanplan.desktop"
fi
put "$LIB/share/mime/packages/sanplan.xml" "$DATA/mime/packages/sanplan.xml"
for icon in "$LIB"/share/icons/hicolor/*/apps/sanplan.*; do
  [ -f "$icon" ] || continue
  size=$(basename -- "$(dirname -- "$(dirname -- "$icon")")")
  put "$icon" "$DATA/icons/hicolor/$size/apps/$(basename -- "$icon")"
done
printf '%s\n' "$made" | sed '/^$/d' > "$MANIFEST"

# refresh the databases the desktop reads (when the tools are there)
if command -v update-mime-database >/dev/null 2>&1; then update-mime-database "$DATA/mime" >/dev/null 2>&1 || true; fi
if command -v update-desktop-database >/dev/null 2>&1; then update-desktop-database "$apps" >/dev/null 2>&1 || true; fi
touch "$DATA/icons/hicolor" 2>/dev/null || true
if command -v gtk-update-icon-cache >/dev/null 2>&1 && [ -f "$DATA/icons/hicolor/index.theme" ]; then
  gtk-update-icon-cache -q "$DATA/icons/hicolor" >/dev/null 2>&1 || true
fi

say "installed in $LIB; run 'sanplan' (in $BIN) or SANplan from the applications menu"
case ":$PATH:" in *":$BIN:"*) ;; *) say "$BIN is not on your PATH: add it, or run $LIB/sanplan" ;; esac
say "to remove: sh $LIB/uninstall.sh"
