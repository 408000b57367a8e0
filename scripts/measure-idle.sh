#!/usr/bin/env bash
# Idle memory of the desktop app (the Go process plus its WebKit processes),
# measured under Xvfb 8 s after the window appears.
set -euo pipefail
bin=$(realpath "${1:-build/bin/juncture}")
if [ -z "${IN_XVFB:-}" ]; then IN_XVFB=1 exec xvfb-run -a -s '-screen 0 1280x800x24' "$0" "$@"; fi
tmp=$(mktemp -d)
export XDG_DATA_HOME=$tmp/d XDG_CONFIG_HOME=$tmp/c XDG_CACHE_HOME=$tmp/k NO_AT_BRIDGE=1 JUNCTURE_WORKSPACE=$tmp/ws
"$bin" >/dev/null 2>&1 &
app=$!
trap 'kill $app 2>/dev/null; wait $app 2>/dev/null || true; rm -rf "$tmp"' EXIT
timeout 30 xdotool search --sync --onlyvisible --name '^Juncture$' >/dev/null
sleep 8
pids="$app $(pgrep -d' ' -f WebKit || true)"
total=0
for p in $pids; do
  rss=$(awk '/VmRSS/{print $2}' /proc/$p/status 2>/dev/null || echo 0)
  printf '%-8s %-28s %8s KiB\n' "$p" "$(tr '\0' ' ' </proc/$p/cmdline | cut -c1-28)" "$rss"
  total=$((total + rss))
done
echo "total idle RSS: $((total / 1024)) MiB"
