#!/usr/bin/env bash
# A day's use of the desktop window (issue 26): BENCH_SOAK_TURNS (500) turns
# on the fake model (agent/fakellm's demo) with tools behind approval cards,
# an MCP server's tool (@modelcontextprotocol/server-everything, configured
# in mcp.json), attached files, questions, new chats, chat switches and a
# page reload every 25 turns, in the real window under Xvfb. The turns are
# played from inside the page by a bench-only driver that clicks the real UI
# (frontend/src/lib/benchSoak.ts, bound to main.BenchSoak only when
# JUNCTURE_BENCH=1 and JUNCTURE_BENCH_SOAK are set); every 10 turns the app
# logs a sample ("bench soak sample", internal/benchprobe/soak.go): PSS of
# the app and of its WebKit processes and other children from
# /proc/*/smaps_rollup (after a Go collection), goroutines, open fds and
# child processes; every turn it logs WebKit's PSS, memory not of files and
# CPU time alone ("bench soak web"), to show the sawtooth between collections.
# bench/soak-report.mjs prints every sample and the
# verdict, on levels (medians of a few samples) so one GC spike or a ±1
# wobble decides nothing: app and WebKit PSS at the end against turn 50
# (≤ 1.10 each); goroutines, fds and child processes at most +2 above
# turn 50 at the end and along their trend (bench/soak-report.test.mjs).
#
#   scripts/bench-soak.sh                         500 turns
#   BENCH_SOAK_TURNS=60 scripts/bench-soak.sh     a short run (development)
#   BENCH_SOAK_HEAP_RATE=4096 scripts/bench-soak.sh   finer heap profiles (a
#                                                 diagnosis: their records add to the app's memory)
#   BENCH_SOAK_RELOAD=0 scripts/bench-soak.sh     never reload the page (every 25 turns unless
#                                                 told): what a person who never reloads sees
#   BENCH_SOAK_KINDS=3 scripts/bench-soak.sh      play only these kinds of turn ("3", "0,7": indexes
#                                                 into PLAN in frontend/src/lib/benchSoak.ts), to find
#                                                 which one makes memory grow
#   BENCH_ONLY=soak scripts/bench-desktop.sh      the same, from make bench-desktop
# JUNCTURE_DESKTOP_BIN: a desktop binary to use (default: built here with
# -tags desktop,production,webkit2_41,soakheap: the shipped build links no
# profiler, so soakheap adds runtime/pprof for the heap profiles; a binary
# without it runs the same soak and writes no profiles). Writes build/bench/soak-<time>.json
# and .log (the app's log), soak-<time>-heap/ (the Go heap's profiles) and
# soak-latest.json.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/desktop-lib.sh # find_window
root=$PWD
if [ -z "${IN_XVFB:-}" ]; then
  command -v xvfb-run >/dev/null && command -v xdotool >/dev/null || { echo "needs xvfb-run and xdotool (make deps-test)"; exit 1; }
  IN_XVFB=1 exec xvfb-run -a -s '-screen 0 1280x800x24' "$0" "$@"
fi
export IN_XVFB NO_AT_BRIDGE=1
unset OPENAI_BASE_URL OPENAI_API_KEY JUNCTURE_MODEL JUNCTURE_BENCH JUNCTURE_BENCH_SOAK JUNCTURE_BENCH_SOAK_HEAP JUNCTURE_BENCH_SOAK_HEAP_RATE JUNCTURE_BENCH_SOAK_RELOAD JUNCTURE_BENCH_SOAK_KINDS
turns=${BENCH_SOAK_TURNS:-500}
everything=$root/agent/mcp/testdata/servers/node_modules/@modelcontextprotocol/server-everything/dist/index.js
[ -f "$everything" ] || { echo "missing $everything: make mcp-deps (npm ci in agent/mcp/testdata/servers)"; exit 1; }
tmp=$(mktemp -d -t bench-soak.XXXXXX)
app= fake=
cleanup() {
  if [ -n "$app" ]; then
    kill "$app" 2>/dev/null || true
    for _ in $(seq 1 50); do kill -0 "$app" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$app" 2>/dev/null || true
    wait "$app" 2>/dev/null || true
  fi
  [ -n "$fake" ] && kill "$fake" 2>/dev/null && wait "$fake" 2>/dev/null
  rm -rf "$tmp"
}
trap cleanup EXIT
mkdir -p build/bench build/bin
stamp=$(date -u +%Y%m%dT%H%M%SZ)

bin=${JUNCTURE_DESKTOP_BIN:-}
if [ -z "$bin" ]; then
  [ -f frontend/dist/index.html ] || (cd frontend && npm run build >/dev/null)
  echo "==> Juncture desktop build"
  go build -tags desktop,production,webkit2_41,soakheap -ldflags "-w -s" -o "$tmp/juncture" .
  bin=$tmp/juncture
fi
go build -o "$tmp/fakellm" ./agent/fakellm/cmd/fakellm
port=$((20000 + RANDOM % 20000))
"$tmp/fakellm" -addr "127.0.0.1:$port" 2>"$tmp/fakellm.log" &
fake=$!

d=$tmp/home; mkdir -p "$d/ws" "$d/c/juncture"
printf '{"mcpServers":{"everything":{"command":"%s","args":["%s","stdio"]}}}' "$(command -v node)" "$everything" >"$d/c/juncture/mcp.json"
log=build/bench/soak-$stamp.log
heap=$root/build/bench/soak-$stamp-heap # the Go heap's profile at each sample: go tool pprof -base heap-0050.pb.gz heap-0500.pb.gz
mkdir -p "$heap"
load0=$(cut -d' ' -f1-3 /proc/loadavg)
echo "==> soak: $turns turns (load $load0)"
t0=$(date +%s)
XDG_DATA_HOME=$d/d XDG_CONFIG_HOME=$d/c XDG_CACHE_HOME=$d/k JUNCTURE_WORKSPACE=$d/ws \
  OPENAI_BASE_URL=http://127.0.0.1:$port/v1 JUNCTURE_MODEL=fake-model OPENAI_API_KEY=bench \
  JUNCTURE_BENCH=1 JUNCTURE_BENCH_SOAK=$turns JUNCTURE_BENCH_SOAK_HEAP=$heap JUNCTURE_BENCH_SOAK_HEAP_RATE=${BENCH_SOAK_HEAP_RATE:-} JUNCTURE_BENCH_SOAK_RELOAD=${BENCH_SOAK_RELOAD:-25} JUNCTURE_BENCH_SOAK_KINDS=${BENCH_SOAK_KINDS:-} "$bin" >"$log" 2>&1 &
app=$!
find_window '^(Juncture$|bench )' >/dev/null || { echo "no Juncture window appeared in 30 s"; tail -20 "$log"; exit 1; }
# A turn takes a few seconds; a stuck one gives up after 60 s inside the page.
deadline=$((t0 + 120 + turns * 70))
seen=0
while :; do
  grep -q 'bench soak done' "$log" && break
  kill -0 "$app" 2>/dev/null || { echo "the app exited during the soak:"; tail -30 "$log"; exit 1; }
  [ "$(date +%s)" -lt $deadline ] || { echo "the soak did not finish in time:"; tail -30 "$log"; exit 1; }
  n=$(grep -c 'bench soak sample' "$log" || true)
  if [ "$n" -gt "$seen" ]; then
    grep 'bench soak sample' "$log" | sed -n "$((seen + 1)),${n}p" |
      sed -E 's/.* turn=([0-9]+) secs=([0-9]+) .*goroutines=([0-9]+).*app_pss=([0-9]+) web_pss=([0-9]+).*app_fds=([0-9]+).*kids=([0-9]+).*/  turn \1 (\2 s): app \4 KiB, WebKit \5 KiB PSS, \3 goroutines, \6 fds, \7 child processes/'
    seen=$n
  fi
  sleep 5
done
secs=$(($(date +%s) - t0))
load1=$(cut -d' ' -f1-3 /proc/loadavg)
out=build/bench/soak-$stamp.json
node bench/soak-report.mjs "$log" "$out" --secs "$secs" --load "$load0 → $load1 ($(uptime | sed 's/.*load/load/'))"
cp "$out" build/bench/soak-latest.json
