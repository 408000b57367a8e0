#!/usr/bin/env bash
# The desktop window against the dependency floor (a bare Wails v2 app with
# the same libraries, ../shared/bench/floor), measured in one run under Xvfb:
#   - binary size, both built with -tags desktop,production,webkit2_41 -ldflags "-w -s";
#   - idle memory: PSS (and RSS) of the app and its WebKit processes 8 s after
#     the window appears, with floor's own measure-idle.sh, rounds interleaved;
#   - Juncture with a 2,000-message thread open (seeded before start with
#     bench/seedthread, then selected in the sidebar with xdotool).
# Prints "figure | Juncture | floor | ratio | goal met?" and writes
# build/bench/desktop-<time>.json (and desktop-latest.json).
#
#   scripts/bench-desktop.sh            3 idle rounds
#   BENCH_QUICK=1 scripts/bench-desktop.sh   1 round
# Environment: FLOOR_SRC (default ../shared/bench/floor), JUNCTURE_DESKTOP_BIN
# (skip the build), BENCH_FROM_HEAD=1 (build from `git archive HEAD` plus the
# current frontend/dist and bench/, when the working tree does not build),
# BENCH_THREAD_XY (sidebar point to click, default "130 118").
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
if [ -z "${IN_XVFB:-}" ]; then
  command -v xvfb-run >/dev/null && command -v xdotool >/dev/null || { echo "needs xvfb-run and xdotool (make deps-test)"; exit 1; }
  IN_XVFB=1 exec xvfb-run -a -s '-screen 0 1280x800x24' "$0" "$@"
fi
export IN_XVFB NO_AT_BRIDGE=1
unset OPENAI_BASE_URL OPENAI_API_KEY JUNCTURE_MODEL
floor_src=${FLOOR_SRC:-$root/../shared/bench/floor}
rounds=${BENCH_ROUNDS:-3}; [ "${BENCH_QUICK:-}" = 1 ] && rounds=1
read -r click_x click_y <<<"${BENCH_THREAD_XY:-130 118}"
tags=desktop,production,webkit2_41
tmp=$(mktemp -d -t bench-desktop.XXXXXX)
app=
cleanup() { [ -n "$app" ] && stop_app "$app"; rm -rf "$tmp"; }
trap cleanup EXIT
mkdir -p build/bench

echo "==> floor build ($floor_src)"
(cd "$floor_src" && go build -tags $tags -ldflags "-w -s" -o "$tmp/floor" .)
src=$root
if [ "${BENCH_FROM_HEAD:-}" = 1 ]; then
  src=$tmp/src; mkdir -p "$src" && git archive HEAD | tar -x -C "$src"
  cp -r frontend/dist/. "$src/frontend/dist/"; cp -r bench/. "$src/bench/"
fi
bin=${JUNCTURE_DESKTOP_BIN:-}
if [ -z "$bin" ]; then
  [ -f frontend/dist/index.html ] || (cd frontend && npm run build >/dev/null)
  echo "==> Juncture desktop build"
  (cd "$src" && go build -tags $tags -ldflags "-w -s" -o "$tmp/juncture" .)
  bin=$tmp/juncture
fi
(cd "$src" && CGO_ENABLED=0 go build -o "$tmp/seedthread" ./bench/seedthread)

size_j=$(stat -c %s "$bin"); size_f=$(stat -c %s "$tmp/floor")

# stop_app PID: SIGTERM, then SIGKILL after 5 s (a window can hang on its way out).
stop_app() {
  kill "$1" 2>/dev/null || return 0
  for _ in $(seq 1 50); do kill -0 "$1" 2>/dev/null || break; sleep 0.1; done
  kill -9 "$1" 2>/dev/null || true
  wait "$1" 2>/dev/null || true
}

# pss_of PID: "pss_kib rss_kib" of PID and its children (as measure-idle.sh sums them).
pss_of() {
  local pss=0 rss=0 s r
  for p in $1 $(pgrep -P "$1" -d' ' || true); do
    [ -r /proc/$p/smaps_rollup ] || continue
    s=$(awk '/^Pss:/{print $2}' /proc/$p/smaps_rollup); r=$(awk '/^Rss:/{print $2}' /proc/$p/smaps_rollup)
    pss=$((pss + s)); rss=$((rss + r))
  done
  echo "$pss $rss"
}

idle_f=(); idle_j=()
for r in $(seq 1 "$rounds"); do
  # alternate the order so a slow period hits both
  if [ $((r % 2)) = 1 ]; then order="floor juncture"; else order="juncture floor"; fi
  for k in $order; do
    if [ $k = floor ]; then line=$("$floor_src/measure-idle.sh" "$tmp/floor" floor | tail -1); idle_f+=("$line")
    else line=$("$floor_src/measure-idle.sh" "$bin" Juncture | tail -1); idle_j+=("$line"); fi
    echo "  idle round $r $k: PSS/RSS MiB $line"
  done
done

echo "==> Juncture with a 2,000-message thread open"
d=$tmp/long; mkdir -p "$d/ws"
export XDG_DATA_HOME=$d/d XDG_CONFIG_HOME=$d/c XDG_CACHE_HOME=$d/k JUNCTURE_WORKSPACE=$d/ws
tid=$("$tmp/seedthread" -db "$XDG_DATA_HOME/juncture/juncture.db" -messages 2000)
"$bin" >"$tmp/long.log" 2>&1 &
app=$!
win=$(timeout 30 xdotool search --sync --onlyvisible --name '^Juncture$' | head -1)
sleep 3
before=$(pss_of $app)
xdotool mousemove --window "$win" "$click_x" "$click_y" click 1 || true
sleep 8
after=$(pss_of $app)
stop_app $app; app=
unset XDG_DATA_HOME XDG_CONFIG_HOME XDG_CACHE_HOME JUNCTURE_WORKSPACE
echo "  thread $tid: PSS/RSS KiB before click $before, 8 s after $after"

stamp=$(date -u +%Y%m%dT%H%M%SZ)
out=build/bench/desktop-$stamp.json
node - "$out" "$size_j" "$size_f" "$before" "$after" "${idle_j[@]/#/J:}" "${idle_f[@]/#/F:}" <<'EOF'
const [out, sj, sf, before, after, ...idle] = process.argv.slice(2);
const med = (xs) => { const s = [...xs].sort((a, b) => a - b); return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2; };
const parse = (p) => idle.filter((x) => x.startsWith(p)).map((x) => x.slice(2).trim().split(/\s+/).map(Number));
const j = parse('J:'); const f = parse('F:');
const pssJ = med(j.map((x) => x[0])); const pssF = med(f.map((x) => x[0]));
const rssJ = med(j.map((x) => x[1])); const rssF = med(f.map((x) => x[1]));
const [b0, b1] = before.split(' ').map(Number); const [a0, a1] = after.split(' ').map(Number);
const mb = (x) => (x / 1e6).toFixed(1);
const rows = [
  ['binary size MB (stripped, desktop tags)', mb(+sj), mb(+sf), +sj / +sf, '≤ 1.10×', +sj / +sf <= 1.1],
  ['idle PSS MiB (app + WebKit, 8 s)', pssJ, pssF, pssJ / pssF, '≤ 1.15×', pssJ / pssF <= 1.15],
  ['idle RSS MiB', rssJ, rssF, rssJ / rssF, '-', null],
  ['2,000-message thread open: PSS MiB', (a0 / 1024).toFixed(0), pssF, a0 / 1024 / pssF, '-', null],
];
const W = [42, 10, 8, 7, 9, 9];
const line = (c) => `| ${c.map((x, i) => String(x).padEnd(W[i])).join(' | ')} |`;
console.log('\n' + line(['figure', 'Juncture', 'floor', 'ratio', 'goal', 'goal met?']));
console.log(line(W.map((w) => '-'.repeat(w))));
for (const r of rows) console.log(line([r[0], r[1], r[2], r[3].toFixed(2) + '×', r[4], r[5] === null ? '' : r[5] ? 'yes' : 'NO']));
console.log(`long thread: PSS ${(b0 / 1024).toFixed(0)} MiB before selecting it, ${(a0 / 1024).toFixed(0)} MiB 8 s after (RSS ${(b1 / 1024).toFixed(0)} → ${(a1 / 1024).toFixed(0)} MiB)`);
require('node:fs').mkdirSync(require('node:path').dirname(out), { recursive: true });
require('node:fs').writeFileSync(out, JSON.stringify({ date: new Date().toISOString(), rows: rows.map(([figure, juncture, floor, ratio, goal, met]) => ({ figure, juncture, floor, ratio, goal, met })),
  idle: { juncture: j, floor: f }, longThread: { beforeKiB: [b0, b1], afterKiB: [a0, a1] } }, null, 2));
console.log(`wrote ${out}`);
EOF
cp "$out" build/bench/desktop-latest.json
