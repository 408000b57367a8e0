#!/usr/bin/env bash
# The real desktop window under Xvfb, approving a tool call with the
# keyboard: type "write a note", wait for the approval card, Tab from the
# card (where focus lands) to "Allow once", press space, and check that the
# file is in the workspace and the app log shows the run finished.
# Write tools are enabled by pre-seeding the same data folder through browser
# mode's SaveSettings before the window starts.
set -euo pipefail
bin=$(realpath "${1:-build/bin/juncture}")
cd "$(dirname "$0")/.."
if [ -z "${IN_XVFB:-}" ]; then
  IN_XVFB=1 exec xvfb-run -a -s '-screen 0 1280x800x24' "$0" "$@"
fi
out=${SMOKE_OUT:-build/smoke}
mkdir -p "$out"
rm -f "$out"/approval-*.png
tmp=$(mktemp -d)
export XDG_DATA_HOME=$tmp/data XDG_CONFIG_HOME=$tmp/config XDG_CACHE_HOME=$tmp/cache NO_AT_BRIDGE=1
export JUNCTURE_WORKSPACE=$tmp/ws; mkdir -p "$JUNCTURE_WORKSPACE"
go build -o build/bin/fakellm ./agent/fakellm/cmd/fakellm
[ -x build/bin/juncture-web ] || CGO_ENABLED=0 go build -o build/bin/juncture-web .
port=$((20000 + RANDOM % 20000))
build/bin/fakellm -addr 127.0.0.1:$port 2>"$out/approval-fakellm.log" &
fake=$!
export OPENAI_BASE_URL=http://127.0.0.1:$port/v1 JUNCTURE_MODEL=fake-model OPENAI_API_KEY=smoke
web= app=
cleanup() {
  for p in $app $web $fake; do kill "$p" 2>/dev/null || true; done
  for p in $app $web $fake; do wait "$p" 2>/dev/null || true; done
  rm -rf "$tmp"
}
trap cleanup EXIT

# 1. Pre-seed the settings: enableWriteTools in the shared data folder.
webport=$((20000 + RANDOM % 20000))
JUNCTURE_TOKEN=seed build/bin/juncture-web serve --addr 127.0.0.1:$webport >"$out/approval-seed.log" 2>&1 &
web=$!
for i in $(seq 1 60); do curl -fs -o /dev/null "http://127.0.0.1:$webport/" && break; sleep 0.25; done
call() { curl -fsS -X POST -H 'Authorization: Bearer seed' -H 'Content-Type: application/json' --data "$2" "http://127.0.0.1:$webport/api/call/$1"; }
settings=$(call GetSettings '[]' | jq -c '.settings | .enableWriteTools = true')
call SaveSettings "[$settings]" | jq -e '.settings.enableWriteTools == true' >/dev/null || { echo "could not enable write tools"; exit 1; }
kill $web; wait $web 2>/dev/null || true; web=
echo "write tools enabled in $XDG_CONFIG_HOME / $XDG_DATA_HOME"

# 2. The desktop window.
"$bin" >"$out/approval-app.log" 2>&1 &
app=$!
win=$(timeout 30 xdotool search --sync --onlyvisible --name '^Juncture$' | head -1)
echo "window $win"
for i in $(seq 1 40); do grep -q "desktop window ready" "$out/approval-app.log" && break; sleep 0.25; done
sleep 2
xdotool windowactivate --sync "$win" 2>/dev/null || xdotool windowfocus --sync "$win" || true
xdotool type --delay 25 'write a note'
xdotool key Return
# The first run ends waiting for the decision.
for i in $(seq 1 60); do grep -q 'run finished' "$out/approval-app.log" && break; sleep 0.25; done
grep 'run finished' "$out/approval-app.log" || { echo "the run never paused for approval"; cat "$out/approval-app.log"; exit 1; }
sleep 1
import -window root "$out/approval-01-card.png"
[ ! -e "$JUNCTURE_WORKSPACE/notes.txt" ] || { echo "notes.txt exists before approval"; exit 1; }

# 3. Keyboard only. Focus is on the card (<article tabindex=-1>); its focus
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
