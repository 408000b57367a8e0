#!/usr/bin/env bash
# The real desktop window under Xvfb: type a message with xdotool, let the
# fake model stream an answer, take screenshots, and check both the pixels
# (not blank, the answer's distinctive colour block rendered) and the app's log.
set -euo pipefail
. "$(dirname "$0")/desktop-lib.sh"
desktop_enter "$0" "$@"
desktop_setup ""
open_window "$out/app.log"
import -window root "$out/01-start.png"
# The composer has focus on start; type and send.
xdotool type --delay 25 'Hello from the desktop smoke test'
xdotool key Return
for i in $(seq 1 60); do grep -q 'outcome=success' "$out/app.log" && break; sleep 0.25; done
sleep 1
import -window root "$out/02-answer.png"
colours=$(identify -format %k "$out/02-answer.png")
echo "unique colours: $colours"
grep 'run finished' "$out/app.log" || { echo "no run finished in the app log"; cat "$out/app.log"; exit 1; }
grep -q 'outcome=success' "$out/app.log" || { echo "the run did not succeed"; exit 1; }
# The web process's memory-pressure settings reached the context Wails made (internal/webkitgc).
grep -q 'web process gives memory back above a bound' "$out/app.log" || { echo "the window's web context did not take the memory-pressure settings"; exit 1; }
[ "$colours" -ge 50 ] || { echo "the window looks blank"; exit 1; }
# The answer must be on screen: the screenshot after the answer differs from the first.
diff=$(compare -metric AE "$out/01-start.png" "$out/02-answer.png" null: 2>&1 || true)
echo "changed pixels: $diff"
[ "${diff%% *}" -gt 2000 ] || { echo "nothing new rendered after sending"; exit 1; }
echo "desktop smoke ok: $out/02-answer.png"
