#!/bin/sh
# Removes what install.sh made, as listed in ~/.local/lib/sanplan/install-manifest: the files,
# the bundle, then the folders it created (when empty), and the MIME and desktop databases it
# refreshed. Your designs, settings and catalog are kept.
set -e
: "${HOME:?HOME is not set}"
LIB=$HOME/.local/lib/sanplan
DATA=${XDG_DATA_HOME:-$HOME/.local/share}
MANIFEST=$LIB/install-manifest
say() { printf 'sanplan uninstall: %s\n' "$*" >&2; }
if [ ! -f "$MANIFEST" ]; then say "SANplan is not installed here (no $MANIFEST)"; exit 1; fi

list=$(cat "$MANIFEST")
printf '%s\n' "$list" | while read -r what path; do
  case $what in
    file) rm -f "$path" ;;
  esac
done
rm -rf "$LIB"

# the databases, refreshed without our files; a database folder install.sh created goes if
# nothing else is registered in it
if command -v update-mime-database >/dev/null 2>&1 && [ -d "$DATA/mime/packages" ]; then
  update-mime-database "$DATA/mime" >/dev/null 2>&1 || true
fi
if command -v update-desktop-database >/dev/null 2>&1 && [ -d "$DATA/applications" ]; then
  update-desktop-database "$DATA/applications" >/dev/null 2>&1 || true
fi
made_dir() { printf '%s\n' "$list" | grep -qxF "dir $1"; }
if made_dir "$DATA/mime" && [ -z "$(ls -A "$DATA/mime/packages" 2>/dev/null)" ]; then rm -rf "$DATA/mime"; fi
if made_dir "$DATA/applications" && [ "$(ls -A "$DATA/applications")" = "mimeinfo.cache" ]; then
  rm -f "$DATA/applications/mimeinfo.cache"
fi
if made_dir "$DATA/icons/hicolor"; then rm -f "$DATA/icons/hicolor/icon-theme.cache"; fi

# the folders install.sh created, innermost first, when empty
printf '%s\n' "$list" | sed -n 's/^dir //p' | sort -r | while read -r dir; do
  [ -d "$dir" ] && rmdir "$dir" 2>/dev/null || true
done
say "removed SANplan (designs, settings and the user catalog are kept)"
