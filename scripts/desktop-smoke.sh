#!/usr/bin/env bash
# The real desktop window under Xvfb: type a message with xdotool, let the
# fake model stream an answer, take screenshots, and check both the pixels
# (not blank, the answer's distinctive colour block rendered) and the app's log.
set -euo pipefail
bin=$(realpath "${1:-build/bin/juncture}")
cd "$(dirname "$0")/.."
if [ -z "${IN_XVFB:-}" ]; then
  IN_XVFB=1 exec xvfb-run -a -s '-screen 0 1280x800x24' "$0" "$@"
fi
out=${SMOKE_OUT:-build/smoke}
mkdir -p "$out"
tmp=$(mktemp -d)
export XDG_DATA_HOME=$tmp/data XDG_CONFIG_HOME=$tmp/config XDG_CACHE_HOME=$tmp/cache NO_AT_BRIDGE=1
export JUNCTURE_WORKSPACE=$tmp/ws; mkdir -p "$JUNCTURE_WORKSPACE"
go build -o build/bin/fakellm ./agent/fakellm/cmd/fakellm
port=$((20000 + RANDOM % 20000))
build/bin/fakellm -addr 127.0.0.1:$port 2>"$out/fakellm.log" &
fake=$!
export OPENAI_BASE_URL=http://127.0.0.1:$port/v1 JUNCTURE_MODEL=fake-model OPENAI_API_KEY=smoke
"$bin" >"$out/app.log" 2>&1 &
app=$!
cleanup() { kill $app $fake 2>/dev/null || true; wait $app 2>/dev/null || true; wait $fake 2>/dev/null || true; rm -rf "$tmp"; }
trap cleanup EXIT
win=$(timeout 30 xdotool search --sync --onlyvisible --name '^Juncture$' | head -1)
echo "window $win"
for i in $(seq 1 40); do grep -q "desktop window ready" "$out/app.log" && break; sleep 0.25; done
sleep 2
import -window root "$out/01-start.png"
xdotool windowactivate --sync "$win" 2>/dev/null || xdotool windowfocus --sync "$win" || true
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
[ "$colours" -ge 50 ] || { echo "the window looks blank"; exit 1; }
# The answer must be on screen: the screenshot after the answer differs from the first.
diff=$(compare -metric AE "$out/01-start.png" "$out/02-answer.png" null: 2>&1 || true)
echo "changed pixels: $diff"
[ "${diff%% *}" -gt 2000 ] || { echo "nothing new rendered after sending"; exit 1; }
echo "desktop smoke ok: $out/02-answer.png"
