#!/usr/bin/env bash
# Checks what `make dist` built (build/dist/), as a person installing it would:
#  - the .deb: its metadata and dependencies, then installed into a clean
#    root with `dpkg -x` (an unpacked install: `dpkg -i --root` would need a
#    whole Debian system inside the root to satisfy Depends), its files
#    checked, `apt-get -s` resolving its Depends on this system, and the
#    INSTALLED binary started under Xvfb until its window shows;
#  - the portable tarball: its layout and launcher;
#  - the Windows installer: listed with `7z l` (the program, the WebView2
#    bootstrapper, the uninstaller), and the script it was built from (per
#    user, Start menu, juncture://, data kept unless the person asks);
#  - SHA256SUMS matches every file.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -z "${IN_XVFB:-}" ]; then
  IN_XVFB=1 exec xvfb-run -a -s '-screen 0 1280x800x24' "$0" "$@"
fi
dist=build/dist
fail() { echo "package check: $*" >&2; exit 1; }
(cd "$dist" && sha256sum --quiet -c SHA256SUMS) || fail "SHA256SUMS does not match"

deb=$(ls "$dist"/juncture_*_amd64.deb)
dpkg-deb -f "$deb" Package Version Depends
depends=$(dpkg-deb -f "$deb" Depends)
for lib in libwebkit2gtk-4.1-0 libgtk-3-0; do
  grep -q "$lib" <<<"$depends" || fail ".deb does not depend on $lib"
done
apt-get -s -qq install "./$deb" >/dev/null 2>&1 || apt-get -s install "./$deb" || fail ".deb's dependencies do not resolve"

root=$(mktemp -d)
. scripts/desktop-lib.sh
desktop_setup "pkg-"
trap 'desktop_cleanup; rm -rf "$root"' EXIT
dpkg -x "$deb" "$root"
for f in usr/bin/juncture usr/share/applications/juncture.desktop \
  usr/share/metainfo/app.juncture.Juncture.metainfo.xml; do
  [ -f "$root/$f" ] || fail ".deb lacks /$f"
done
for n in 16 24 32 48 64 128 256 512; do
  png=$root/usr/share/icons/hicolor/${n}x$n/apps/juncture.png
  [ "$(identify -format %wx%h "$png")" = "${n}x$n" ] || fail "icon $png is not ${n}x$n"
done
grep -qx 'MimeType=x-scheme-handler/juncture;' "$root/usr/share/applications/juncture.desktop" || fail "no juncture:// handler"
grep -qx 'Exec=env JUNCTURE_URL_SCHEME=registered juncture %u' "$root/usr/share/applications/juncture.desktop" || fail "Exec does not pass the URL"
if command -v desktop-file-validate >/dev/null; then desktop-file-validate "$root/usr/share/applications/juncture.desktop"; fi
xmllint --noout "$root/usr/share/metainfo/app.juncture.Juncture.metainfo.xml" 2>/dev/null || python3 -c 'import sys,xml.dom.minidom as m; m.parse(sys.argv[1])' "$root/usr/share/metainfo/app.juncture.Juncture.metainfo.xml"
"$root/usr/bin/juncture" --version | tee /dev/stderr | grep -q "juncture $(dpkg-deb -f "$deb" Version) (commit " || fail "--version does not print the stamped version"

bin=$root/usr/bin/juncture
open_window "$out/pkg-app.log"
# The page paints a moment after "desktop window ready" (longer on a busy machine).
for _ in $(seq 1 30); do
  import -window root "$out/pkg-window.png"
  [ "$(identify -format %k "$out/pkg-window.png")" -ge 50 ] && break
  sleep 1
done
[ "$(identify -format %k "$out/pkg-window.png")" -ge 50 ] || fail "the installed binary's window looks blank"
echo "installed .deb opened its window: $out/pkg-window.png"

tgz=$(ls "$dist"/juncture-*-linux-amd64.tar.gz)
list=$(tar -tzf "$tgz")
for f in juncture install.sh bin/juncture share/applications/juncture.desktop share/icons/hicolor/512x512/apps/juncture.png; do
  grep -q "^juncture-[^/]*/$f\$" <<<"$list" || fail "tarball lacks $f"
done

exe=$(ls "$dist"/juncture-*-windows-amd64-installer.exe)
listing=$(7z l "$exe")
for f in juncture.exe MicrosoftEdgeWebview2Setup.exe uninstall.exe; do
  grep -q "$f" <<<"$listing" || fail "installer lacks $f"
done
# 7z does not list NSIS's compiled script: the script and Wails' rendered
# macros the installer was built from are checked instead.
nsi=$(cat build/bin/stage/nsis/installer/project.nsi build/bin/stage/nsis/installer/wails_tools.nsh)
grep -q 'InstallDir "$LOCALAPPDATA\\Programs' <<<"$nsi" || fail "installer is not per-user"
grep -q 'REQUEST_EXECUTION_LEVEL "user"' <<<"$nsi" || fail "installer asks for admin rights"
grep -q 'CUSTOM_PROTOCOL_ASSOCIATE "juncture"' <<<"$nsi" || fail "installer does not register juncture://"
grep -q 'SMPROGRAMS' <<<"$nsi" || fail "installer has no Start-menu entry"
grep -q 'Section /o "un.Remove my conversations' <<<"$nsi" || fail "the uninstaller removes data by default"
echo "packages ok: $(cd "$dist" && ls | tr '\n' ' ')"
