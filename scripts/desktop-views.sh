#!/usr/bin/env bash
# The real desktop window under Xvfb, issue 25: an MCP App view in the
# window's tool block posts Wails' own runtime messages through the
# WebKit message handler every frame gets (quit, hide, minimise, a title,
# a URL opened in the browser, the clipboard, an event, a log line, a
# notification, a bound method) and tries the frame escapes (top.location,
# parent.document, window.open, a fetch and an image from another origin).
# Checked: the app still runs, its window is still shown under its own
# title, nothing was handed to the browser (a recording xdg-open first in
# PATH), nothing reached the other origin (a loopback listener), the
# clipboard is what it was, the view's log line is not in the app's log,
# the guard logged what it dropped, and the window still sends and answers
# a message afterwards. The view: agent/mcp/internal/appserver/views/wails.html.
set -euo pipefail
bin=$(realpath "${1:-build/bin/juncture}")
cd "$(dirname "$0")/.."
if [ -z "${IN_XVFB:-}" ]; then
  IN_XVFB=1 exec xvfb-run -a -s '-screen 0 1280x800x24' "$0" "$@"
fi
for t in xclip python3; do
  command -v "$t" >/dev/null || { echo "desktop-views needs $t (make deps-test)"; exit 1; }
done
. scripts/desktop-lib.sh
desktop_setup views-
rm -f "$out"/views-*.png "$out/views-opened.txt" "$out/views-probe.log"
log=$out/views-app.log
CGO_ENABLED=0 go build -o build/bin/e2e-appserver ./agent/mcp/internal/appserver

# The other origin: a loopback listener that records every request.
pport=$((20000 + RANDOM % 20000))
python3 -u -m http.server --bind 127.0.0.1 "$pport" --directory "$tmp" 2>"$out/views-probe.log" >/dev/null &
probe=$!
probeURL=http://127.0.0.1:$pport
# The browser: whatever Wails (github.com/pkg/browser) would start is recorded.
mkdir -p "$tmp/bin"
for b in xdg-open x-www-browser www-browser; do
  printf '#!/bin/sh\necho "$*" >>"%s"\n' "$(realpath "$out")/views-opened.txt" >"$tmp/bin/$b"
  chmod +x "$tmp/bin/$b"
done
export PATH=$tmp/bin:$PATH
# The clipboard, owned by xclip (in the foreground, so its pid is known).
printf 'juncture-clipboard-before' | xclip -quiet -selection clipboard -i >/dev/null 2>&1 &
clip=$!
views_cleanup() {
  kill "$probe" "$clip" 2>/dev/null || true
  desktop_cleanup
}
trap views_cleanup EXIT

mkdir -p "$XDG_CONFIG_HOME/juncture"
cat >"$XDG_CONFIG_HOME/juncture/mcp.json" <<EOF
{"mcpServers": {"apps": {"command": "$(realpath build/bin/e2e-appserver)", "env": {"APPSERVER_PROBE": "$probeURL"}}}}
EOF
open_window "$log"
shot() { import -window root "$out/views-$1.png"; }
shot 00-start
# The server is connected when its tools are offered: give it its start.
for _ in $(seq 1 40); do pgrep -f -x "$(realpath build/bin/e2e-appserver)" >/dev/null && break; sleep 0.25; done
sleep 2

xdotool type --delay 20 '/tool apps__wails {}'
xdotool key Return
for _ in $(seq 1 80); do grep -q 'run finished' "$log" && break; sleep 0.25; done
# The view loads after the tool block shows; its messages go at once. The
# gate logs ten drops: the tenth is the last of those the checks look at.
for _ in $(seq 1 60); do grep -q 'frame message dropped.*dropped=10' "$log" && break; kill -0 "$app" 2>/dev/null || break; sleep 0.25; done
sleep 2
fail=0
bad() { echo "FAIL: $*"; fail=1; }
if kill -0 "$app" 2>/dev/null; then
  shot 01-view
  w=$(xdotool search --onlyvisible --name '^Juncture$' 2>/dev/null | head -1) || true
  [ -n "$w" ] || bad "the window is not shown any more (hidden or minimised by the view)"
  name=$(xdotool getwindowname "$win" 2>/dev/null || true)
  [ "$name" = Juncture ] || bad "the window's title is now '$name'"
else
  bad "the app quit (the view's \"Q\")"
fi
[ ! -s "$out/views-opened.txt" ] || bad "a URL was handed to the browser: $(cat "$out/views-opened.txt")"
if grep -q '"GET /\|"POST /' "$out/views-probe.log"; then bad "the other origin was reached: $(grep -o '"[A-Z]* /[^ ]*' "$out/views-probe.log" | tr '\n' ' ')"; fi
clipnow=$(timeout 5 xclip -o -selection clipboard 2>/dev/null || true)
[ "$clipnow" = juncture-clipboard-before ] || bad "the clipboard is now '$clipnow'"
if grep -q 'juncture-view-log-marker' "$log"; then bad "the view wrote to the app's log"; fi
grep -q 'frame message dropped.*dropped=10' "$log" || bad "the gate did not log ten dropped frame messages (did the view load?)"
[ "$fail" = 0 ] || { echo "--- app log"; tail -30 "$log"; exit 1; }

# The window still works: a message is sent and answered.
runs=$(grep -c 'run finished.*outcome=success' "$log" || true)
xdotool windowactivate --sync "$win" 2>/dev/null || true
xdotool key ctrl+n
sleep 0.5
xdotool type --delay 20 'hello after the view'
xdotool key Return
for _ in $(seq 1 80); do [ "$(grep -c 'run finished.*outcome=success' "$log" || true)" -gt "$runs" ] && break; sleep 0.25; done
[ "$(grep -c 'run finished.*outcome=success' "$log" || true)" -gt "$runs" ] || { echo "FAIL: the window no longer sends a message"; tail -30 "$log"; exit 1; }
sleep 1
shot 02-after
echo "desktop views ok: $out/views-01-view.png"
