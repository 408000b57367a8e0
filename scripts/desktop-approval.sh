#!/usr/bin/env bash
# The real desktop window under Xvfb, approving a tool call with the
# keyboard: type "write a note", wait for the approval card, Tab from the
# card (where focus lands) to "Allow once", press space, and check that the
# file is in the workspace and the app log shows the run finished.
set -euo pipefail
. "$(dirname "$0")/desktop-lib.sh"
desktop_enter "$0" "$@"
desktop_setup approval-
rm -f "$out"/approval-*.png
# 1. The desktop window (write tools are on by default; they ask first).
open_window "$out/approval-app.log"
xdotool type --delay 25 'write a note'
xdotool key Return
# The first run ends waiting for the decision.
for i in $(seq 1 60); do grep -q 'run finished' "$out/approval-app.log" && break; sleep 0.25; done
grep 'run finished' "$out/approval-app.log" || { echo "the run never paused for approval"; cat "$out/approval-app.log"; exit 1; }
sleep 1
import -window root "$out/approval-01-card.png"
[ ! -e "$JUNCTURE_WORKSPACE/notes.txt" ] || { echo "notes.txt exists before approval"; exit 1; }

# 2. Keyboard only. Focus is on the card (<article tabindex=-1>); its focus
# order (ApprovalCard.tsx) is: the "Arguments" <summary>, then "Allow once".
xdotool key Tab
xdotool key Tab
sleep 0.3
import -window root "$out/approval-02-focus.png"
xdotool key space
# (The paused run may be logged more than once; wait for the run after Allow.)
for i in $(seq 1 60); do grep -q 'run finished.*outcome=success' "$out/approval-app.log" && break; sleep 0.25; done
sleep 1
import -window root "$out/approval-03-done.png"
grep 'run finished' "$out/approval-app.log"
grep -q 'run finished.*outcome=success' "$out/approval-app.log" || { echo "no successful run after Allow"; cat "$out/approval-app.log"; exit 1; }
[ -f "$JUNCTURE_WORKSPACE/notes.txt" ] || { echo "notes.txt was not written"; ls -la "$JUNCTURE_WORKSPACE"; exit 1; }
grep -q "offline demo" "$JUNCTURE_WORKSPACE/notes.txt" || { echo "notes.txt has the wrong content"; exit 1; }
diff=$(compare -metric AE "$out/approval-01-card.png" "$out/approval-03-done.png" null: 2>&1 || true)
echo "changed pixels after Allow: $diff"
[ "${diff%% *}" -gt 2000 ] || { echo "nothing changed on screen after Allow"; exit 1; }
echo "desktop approval ok: $out/approval-03-done.png"
