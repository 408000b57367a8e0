#!/usr/bin/env bash
# make dist: every package this machine can build, into build/dist/ with a
# SHA256SUMS file. Expects the binaries `make dist` linked (version stamped):
#   build/bin/juncture      the Linux desktop build (webkit2_41)
#   build/bin/juncture.exe  the Windows desktop build
# Builds:
#   juncture_<V>_amd64.deb                   nfpm as a Go library (build/pack)
#   juncture-<V>-linux-amd64.tar.gz          portable: launcher + bin/ + share/ + install.sh
#   juncture-<V>-windows-amd64-installer.exe Debian's makensis on Wails' NSIS template
# The portable build is a tarball with a launcher, not an AppImage: an
# AppImage needs appimagetool and its runtime, which are not Debian packages
# (and could not be fetched here), and it would still need the system's
# WebKitGTK, as the tarball does.
set -euo pipefail
cd "$(dirname "$0")/.."
: "${VERSION:?VERSION is required (the Makefile sets it)}"
dist=build/dist
rm -rf "$dist" build/bin/stage
mkdir -p "$dist" build/bin/stage
export SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || date +%s)}

(cd build/pack && go build -o ../bin/pack .)
pack=build/bin/pack

# .deb
$pack deb -bin build/bin/juncture -version "$VERSION" -out "$dist" >/dev/null

# Portable tarball
name=juncture-$VERSION-linux-amd64
p=build/bin/stage/$name
mkdir -p "$p/bin" "$p/share/applications" "$p/share/metainfo"
install -m 755 build/bin/juncture "$p/bin/juncture"
install -m 755 build/linux/portable/juncture build/linux/portable/install.sh "$p/"
install -m 644 build/linux/juncture.desktop "$p/share/applications/"
sed -e "s/@VERSION@/$VERSION/" -e "s/@DATE@/$(date -u -d "@$SOURCE_DATE_EPOCH" +%F)/" \
  build/linux/app.juncture.Juncture.metainfo.xml >"$p/share/metainfo/app.juncture.Juncture.metainfo.xml"
$pack icons -src build/appicon.png -out "$p/share/icons/hicolor"
tar -C build/bin/stage --sort=name --owner=0 --group=0 --numeric-owner --mtime="@$SOURCE_DATE_EPOCH" \
  -czf "$dist/$name.tar.gz" "$name"

# Windows installer
wails=$(go list -m -f '{{.Dir}}' github.com/wailsapp/wails/v2)
n=build/bin/stage/nsis
$pack nsis -wails "$wails" -version "$VERSION" -out "$n"
makensis -V2 -DARG_WAILS_AMD64_BINARY="$PWD/build/bin/juncture.exe" \
  -DOUTFILE="$PWD/$dist/juncture-$VERSION-windows-amd64-installer.exe" "$n/installer/project.nsi"

(cd "$dist" && sha256sum -- * >SHA256SUMS)
echo "build/dist:"; (cd "$dist" && ls -l --time-style=+ | tail -n +2 && cat SHA256SUMS)
