#!/bin/sh
# Adds the portable Juncture to this user's menu (no root): the desktop
# entry with the juncture:// link handler and the icons, in ~/.local/share.
# ./install.sh --remove takes them out again (your conversations stay).
set -eu
here=$(dirname "$(readlink -f "$0")")
share=${XDG_DATA_HOME:-$HOME/.local/share}
if [ "${1:-}" = "--remove" ]; then
  rm -f "$share/applications/juncture.desktop"
  find "$share/icons/hicolor" -path '*/apps/juncture.png' -delete 2>/dev/null || true
  echo "Juncture's menu entry removed. Your conversations stay in $share/juncture."
  exit 0
fi
mkdir -p "$share/applications"
sed "s|^Exec=.*|Exec=env JUNCTURE_URL_SCHEME=registered \"$here/juncture\" %u|" "$here/share/applications/juncture.desktop" >"$share/applications/juncture.desktop"
cp -r "$here/share/icons/." "$share/icons/"
command -v update-desktop-database >/dev/null 2>&1 && update-desktop-database "$share/applications" || true
command -v xdg-mime >/dev/null 2>&1 && xdg-mime default juncture.desktop x-scheme-handler/juncture || true
echo "Juncture is in your applications menu; juncture:// links open it."
