#!/usr/bin/env bash
# Opens the desktop window; without a display (a server, CI) it runs under Xvfb.
set -euo pipefail
bin=${1:-build/bin/juncture}
if [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ]; then
  exec "$bin"
fi
echo "No display found: running Juncture under Xvfb (screen :99-style virtual display)."
echo "Stop it with Ctrl+C."
exec xvfb-run -a -s '-screen 0 1280x800x24' "$bin"
