#!/usr/bin/env bash
# The desktop window against the dependency floor (a bare Wails v2 app with
# the same libraries, ../shared/bench/floor), measured in one run under Xvfb:
#   - binary size, both built with -tags desktop,production,webkit2_41 -ldflags "-w -s",
#     and where the difference goes (bench/binsize.mjs on unstripped builds);
#   - idle memory: PSS (and RSS) of the app and its WebKit processes 8 s after
#     the window appears, with floor's own measure-idle.sh, rounds interleaved,
#     also per process (app, WebKitWebProcess, WebKitNetworkProcess);
#   - desktop streaming (Juncture only; the floor has no chat): tokens/s from
#     the Go side through Wails events into the page, and CPU µs per token of
#     the app process and of its WebKit processes, against the TanStack
#     anchor's fake.mjs: (a) unthrottled N=20,000 (/n=20000/d=0/v1), (b) the
#     1,000 tokens/s firehose (/n=5000/d=1/v1). The app runs with
#     JUNCTURE_BENCH=1, so the page shows "bench <chars> <state> <runs>" in the
#     window title (frontend/src/lib/benchTitle.ts); the message is typed into
#     the composer with xdotool and the title is polled with
#     `xdotool getwindowname`. A run is timed from the Return key to the title
#     showing that run's terminal state; the characters received are checked
#     against fake.mjs's expectedText(N). One warm-up run per app start (it also
#     names the thread, so no title call overlaps a measured run).
#   - Markdown streaming against a floor page: bench/mdfake.mjs streams
#     Markdown with code blocks at 1,000 tokens/s (/n=5000/d=1/v1) to
#     Juncture and to bench/floorstream (a bare Wails window whose Go side
#     emits one event per token and whose page appends it to one text node),
#     one after the other in the same run: app and WebKit CPU µs per token
#     of each and their ratios; then against the same floor page following
#     its text (BENCH_FLOOR_FOLLOW=box), the fair anchor for a list that
#     follows the answer.
#   - Juncture with a 2,000-message thread open: seeded before start with
#     bench/seedthread, selected with the keyboard (Ctrl+K, Tab to the thread,
#     Enter), checked on screenshots (build/bench/desktop-thread-*.png).
# Prints "figure | Juncture | floor | ratio | goal met?" tables and writes
# build/bench/desktop-<time>.json (and desktop-latest.json).
#
#   scripts/bench-desktop.sh                 3 idle rounds, 5 + 3 streaming runs
#   BENCH_QUICK=1 scripts/bench-desktop.sh   1 idle round, 2 + 1 streaming runs
# Environment: FLOOR_SRC (default ../shared/bench/floor), ANCHOR_SRC (default
# ../shared/bench/tanstack-anchor; only fake.mjs is used, copied),
# JUNCTURE_DESKTOP_BIN (skip the build; no size breakdown then),
# BENCH_FROM_HEAD=1 (build from `git archive HEAD` plus the current
# frontend/dist and bench/, when the working tree does not build),
# BENCH_BINSIZE=0 (skip the per-package size breakdown), BENCH_STREAM=0 (skip
# the streaming figures), BENCH_TP_RUNS / BENCH_FH_RUNS (measured runs),
# BENCH_ONLY=idle (binary sizes and idle memory only: no size breakdown unless
# BENCH_BINSIZE=1, no
# streaming, no long thread; the JSON goes to desktop-idle-<time>.json and
# desktop-idle-latest.json, desktop-latest.json is left alone),
# BENCH_ONLY=stream (the streaming figures and Stop only: no idle rounds, no
# size breakdown, no long thread; JSON to desktop-stream-<time>.json),
# BENCH_ONLY=soak (scripts/bench-soak.sh: 500 turns of a day's use, memory,
# goroutines, fds and child processes every 10 turns, its own verdict),
# BENCH_MD_RUNS (measured Markdown runs per app, 3), BENCH_PLAIN=0 (skip the
# anchor's plain-word streams), BENCH_FOLLOW_FLOOR=0 (skip the floor page that
# follows its text, the second anchor of the Markdown runs), BENCH_PROFILE=1 (perf record -g of the app
# process over the Markdown runs; the top symbols by self time).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/desktop-lib.sh # find_window
root=$PWD
if [ -z "${IN_XVFB:-}" ]; then
  command -v xvfb-run >/dev/null && command -v xdotool >/dev/null && command -v import >/dev/null || { echo "needs xvfb-run, xdotool and imagemagick (make deps-test)"; exit 1; }
  IN_XVFB=1 exec xvfb-run -a -s '-screen 0 1280x800x24' "$0" "$@"
fi
export IN_XVFB NO_AT_BRIDGE=1
unset OPENAI_BASE_URL OPENAI_API_KEY JUNCTURE_MODEL JUNCTURE_BENCH
floor_src=${FLOOR_SRC:-$root/../shared/bench/floor}
anchor_src=${ANCHOR_SRC:-$root/../shared/bench/tanstack-anchor}
rounds=${BENCH_ROUNDS:-3}; tp_runs=${BENCH_TP_RUNS:-5}; fh_runs=${BENCH_FH_RUNS:-3}; stop_trials=${BENCH_STOP_TRIALS:-100}
md_runs=${BENCH_MD_RUNS:-3}; startup_rounds=${BENCH_STARTUP_ROUNDS:-3}
if [ "${BENCH_QUICK:-}" = 1 ]; then rounds=1; tp_runs=${BENCH_TP_RUNS:-2}; fh_runs=${BENCH_FH_RUNS:-1}; stop_trials=${BENCH_STOP_TRIALS:-10}; startup_rounds=${BENCH_STARTUP_ROUNDS:-1}; fi
only=${BENCH_ONLY:-}
case "$only" in '' | idle | stream | stop | startup | soak) ;; *) echo "BENCH_ONLY: 'idle', 'stream', 'stop', 'startup' or 'soak' (got '$only')"; exit 1 ;; esac
[ "$only" = soak ] && exec scripts/bench-soak.sh # a day's use: its own script and verdict (BENCH_SOAK_TURNS, 500)
binsize=${BENCH_BINSIZE:-1}; [ -n "$only" ] && binsize=${BENCH_BINSIZE:-0} # BENCH_ONLY=idle BENCH_BINSIZE=1: with the breakdown
tags=desktop,production,webkit2_41
tmp=$(mktemp -d -t bench-desktop.XXXXXX)
raw=$tmp/raw.txt; : >"$raw"
app= fake= mdfake=
cleanup() {
  [ -n "$app" ] && stop_app "$app"
  [ -n "$fake" ] && kill "$fake" 2>/dev/null && wait "$fake" 2>/dev/null
  [ -n "$mdfake" ] && kill "$mdfake" 2>/dev/null && wait "$mdfake" 2>/dev/null
  rm -rf "$tmp"
}
trap cleanup EXIT
mkdir -p build/bench
stamp=$(date -u +%Y%m%dT%H%M%SZ)

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
  if [ "$binsize" = 1 ]; then
    echo "==> size breakdown (unstripped builds)"
    (cd "$floor_src" && go build -tags $tags -o "$tmp/floor-sym" .)
    (cd "$src" && go build -tags $tags -o "$tmp/juncture-sym" .)
    node bench/binsize.mjs "$tmp/juncture-sym" "$tmp/floor-sym" --top 25 --json "$tmp/binsize.json" | tee "$tmp/binsize.txt"
    echo "frontend/dist (embedded): $(du -sb "$src/frontend/dist" | cut -f1) bytes, $(find "$src/frontend/dist" -type f | wc -l) files"
    echo "dist $(du -sb "$src/frontend/dist" | cut -f1)" >>"$raw"
    rm -f "$tmp/floor-sym" "$tmp/juncture-sym"
  fi
fi
case "$only" in idle | stop) ;; *) (cd "$src" && CGO_ENABLED=0 go build -o "$tmp/seedthread" ./bench/seedthread) ;; esac
case "$only" in idle | startup) ;; *) [ "${BENCH_STREAM:-1}" = 0 ] || (cd "$src" && go build -tags $tags -ldflags "-w -s" -o "$tmp/floorstream" ./bench/floorstream) ;; esac
case "$only" in idle | startup) ;; *) [ "${BENCH_STREAM:-1}" = 0 ] || (cd "$src" && go build -tags desktop -o "$tmp/xstop" ./bench/xstop) || echo "bench/xstop did not build (X11, Xdamage, Xtst headers): Stop is timed by the page only" ;; esac
# The fair floor: the same bare window linking Juncture's libraries
# (bench/floorfair, built from Juncture's go.mod).
fair=${BENCH_FAIR:-1}; case "$only" in stop | startup | stream) fair=0 ;; esac
if [ "$fair" = 1 ]; then
  echo "==> fair floor build (bench/floorfair)"
  (cd "$src" && go build -tags $tags -ldflags "-w -s" -o "$tmp/floorfair" ./bench/floorfair)
  echo "size floorfair $(stat -c %s "$tmp/floorfair")" >>"$raw"
  if [ "$binsize" = 1 ]; then
    echo "==> size breakdown against the fair floor (unstripped builds)"
    (cd "$src" && go build -tags $tags -o "$tmp/floorfair-sym" ./bench/floorfair && go build -tags $tags -o "$tmp/juncture-sym" .)
    node bench/binsize.mjs "$tmp/juncture-sym" "$tmp/floorfair-sym" --top 25 --json "$tmp/binsize-fair.json" | tee "$tmp/binsize-fair.txt"
    cp "$tmp/binsize-fair.txt" "build/bench/desktop-binsize-fair-$stamp.txt"
    rm -f "$tmp/floorfair-sym" "$tmp/juncture-sym"
  fi
fi
echo "size juncture $(stat -c %s "$bin")" >>"$raw"
echo "size floor $(stat -c %s "$tmp/floor")" >>"$raw"
echo "clk $(getconf CLK_TCK)" >>"$raw"

# stop_app PID: SIGTERM, then SIGKILL after 5 s (a window can hang on its way out).
stop_app() {
  kill "$1" 2>/dev/null || return 0
  for _ in $(seq 1 50); do kill -0 "$1" 2>/dev/null || break; sleep 0.1; done
  kill -9 "$1" 2>/dev/null || true
  wait "$1" 2>/dev/null || true
}

# kind_of PID: app, web (WebKitWebProcess), net (WebKitNetworkProcess) or other.
kind_of() {
  case "$(tr '\0' ' ' </proc/$1/cmdline 2>/dev/null)" in
    *WebKitWebProcess*) echo web ;; *WebKitNetworkProcess*) echo net ;; *) [ "$1" = "$2" ] && echo app || echo other ;;
  esac
}

# pss_rows TAG PID: one "TAG kind pss_kib rss_kib" line per process (PID and its children) into $raw.
pss_rows() {
  local s r p
  for p in $2 $(pgrep -P "$2" -d' ' || true); do
    [ -r /proc/$p/smaps_rollup ] || continue
    s=$(awk '/^Pss:/{print $2}' /proc/$p/smaps_rollup); r=$(awk '/^Rss:/{print $2}' /proc/$p/smaps_rollup)
    echo "$1 $(kind_of "$p" "$2") $s $r" >>"$raw"
  done
}

# cpu_ticks PID: "app_ticks kids_ticks" (utime+stime of PID, and summed over its children).
cpu_ticks() {
  local a k=0 p
  a=$(awk '{print $14 + $15}' /proc/$1/stat)
  for p in $(pgrep -P "$1" -d' ' || true); do
    [ -r /proc/$p/stat ] && k=$((k + $(awk '{print $14 + $15}' /proc/$p/stat)))
  done
  echo "$a $k"
}

# Per process from measure-idle.sh's lines "<pid> <cmdline…> pss N KiB rss N KiB".
# floor's measure-idle.sh, copied with a wider command-line column (it cuts
# it to 40 characters, before "WebKitWebProcess"); the measurement is its own.
# Its `xdotool search --sync` is polled instead: a WebKit helper's window
# going away while it walks the tree is a BadWindow that ended the run.
sed -e 's/cut -c1-40/cut -c1-100/; s/%-40s/%-100s/' \
  -e 's/^timeout 30 xdotool search --sync --onlyvisible --name "\(.*\)" >\/dev\/null$/for _ in $(seq 1 60); do xdotool search --onlyvisible --name "\1" >\/dev\/null 2>\&1 \&\& break; sleep 0.5; done/' \
  "$floor_src/measure-idle.sh" >"$tmp/measure-idle.sh"
chmod +x "$tmp/measure-idle.sh"
case "$only" in stream | stop | startup) rounds=0 ;; esac
for r in $(seq 1 "$rounds"); do
  # alternate the order so a slow period hits both
  if [ $((r % 2)) = 1 ]; then order="floor juncture"; else order="juncture floor"; fi
  [ "$fair" = 1 ] && order="$order floorfair"
  for k in $order; do
    if [ $k = floor ]; then "$tmp/measure-idle.sh" "$tmp/floor" floor >"$tmp/idle.txt"
    elif [ $k = floorfair ]; then "$tmp/measure-idle.sh" "$tmp/floorfair" floor >"$tmp/idle.txt"
    else "$tmp/measure-idle.sh" "$bin" Juncture >"$tmp/idle.txt"; fi
    line=$(tail -1 "$tmp/idle.txt")
    echo "idletotal $k $r $line" >>"$raw"
    first=1
    while read -r pid rest; do
      case "$rest" in *" pss "*) ;; *) continue ;; esac
      case "$rest" in *WebKitWebProcess*) kind=web ;; *WebKitNetworkProcess*) kind=net ;; *) [ $first = 1 ] && kind=app || kind=other ;; esac
      first=0
      pss=$(sed -E 's/.* pss +([0-9]+) KiB.*/\1/' <<<"$rest"); rss=$(sed -E 's/.* rss +([0-9]+) KiB.*/\1/' <<<"$rest")
      echo "idle $k $r $kind $pss $rss" >>"$raw"
    done <"$tmp/idle.txt"
    echo "  idle round $r $k: PSS/RSS MiB $line"
  done
done

if [ "$only" = idle ]; then
  out=build/bench/desktop-idle-$stamp.json
  cp "$raw" "build/bench/desktop-idle-$stamp.raw.txt"
  # the report's long-thread figures have nothing to say here
  node bench/desktop-report.mjs "$raw" "$out" | grep -v -e '^long thread:' -e '2,000-message thread open'
  cp "$out" build/bench/desktop-idle-latest.json
  exit 0
fi

# open_app LOG: start "$bin" with the current environment, wait for its window
# (titled "Juncture", or "bench …" once the bench counter runs) and for
# "desktop window ready"; focus it. Sets app, win.
open_app() {
  "${run_bin:-$bin}" >"$1" 2>&1 &
  app=$!
  win=$(find_window '^(Juncture$|bench )') || { echo "no Juncture window appeared in 30 s"; return 1; }
  for _ in $(seq 1 40); do grep -q "desktop window ready" "$1" && break; sleep 0.25; done
  sleep 2
  xdotool windowactivate --sync "$win" 2>/dev/null || xdotool windowfocus --sync "$win" || true
}

# bench_title: "chars state runs stop" from the window title
# "bench <chars> <state> <runs> <stop ms>".
bench_title() {
  local t
  t=$(xdotool getwindowname "$win" 2>/dev/null || true)
  case "$t" in "bench "*) echo "${t#bench }" ;; *) echo "- - - -" ;; esac
}

# send_and_wait: press Return on the typed message and poll the title until
# the run that starts ends. Prints "secs chars_delta state cpu0(2) cpu1(2)".
send_and_wait() {
  local c0 s0 n0 c1 s1 n1 t0 t1 cpu0 cpu1 deadline
  read -r c0 s0 n0 _ < <(bench_title)
  xdotool type --delay 15 'go'
  cpu0=$(cpu_ticks "$app")
  t0=$(date +%s%N)
  xdotool key Return
  deadline=$((t0 + 120000000000))
  while :; do
    read -r c1 s1 n1 _ < <(bench_title)
    if [ "$n1" != - ] && [ "$n1" -gt "$n0" ] && [ "$s1" != running ]; then break; fi
    [ "$(date +%s%N)" -lt $deadline ] || { echo "timeout 0 timeout $cpu0 $cpu0"; return; }
    sleep 0.01
  done
  t1=$(date +%s%N)
  cpu1=$(cpu_ticks "$app")
  echo "$(( (t1 - t0) / 1000 )) $((c1 - c0)) $s1 $cpu0 $cpu1"
}

# stream_bench MODE PATH N RUNS [BIN]: one app start (BIN, default Juncture)
# against the fake at PATH (http://127.0.0.1:$port, or $mdport for md-* modes), a
# warm-up run, then RUNS measured runs into $raw:
#   "stream MODE run n micros chars state app0 kids0 app1 kids1 app2 kids2" (…2: 1 s after the end).
stream_bench() {
  local mode=$1 path=$2 n=$3 runs=$4 d r res cpu2 p=$port
  run_bin=${5:-}
  case "$mode" in md-*) p=$mdport ;; esac
  d=$tmp/stream-$mode; mkdir -p "$d/ws"
  export XDG_DATA_HOME=$d/d XDG_CONFIG_HOME=$d/c XDG_CACHE_HOME=$d/k JUNCTURE_WORKSPACE=$d/ws
  export OPENAI_BASE_URL=http://127.0.0.1:$p$path JUNCTURE_MODEL=fake-model OPENAI_API_KEY=bench JUNCTURE_BENCH=1
  open_app "$tmp/stream-$mode.log"
  unset XDG_DATA_HOME XDG_CONFIG_HOME XDG_CACHE_HOME JUNCTURE_WORKSPACE OPENAI_BASE_URL JUNCTURE_MODEL OPENAI_API_KEY JUNCTURE_BENCH
  # a loaded machine can take a while to show the page (and its counter)
  for _ in $(seq 1 60); do [ "$(bench_title)" != "- - - -" ] && break; sleep 0.5; done
  case "$(bench_title)" in "- - - -") echo "  $mode: the window title shows no bench counter: $(xdotool getwindowname "$win")"; return 1 ;; esac
  res=$(send_and_wait); echo "  $mode warm-up: $res"
  sleep 2 # the thread's title call
  local perf=
  if [ "${BENCH_PROFILE:-}" = 1 ] && [ "$mode" = md-juncture ]; then
    perf record -F 999 -g -o "$tmp/perf-$mode.data" -p "$app" 2>/dev/null &
    perf=$!
  fi
  for r in $(seq 1 "$runs"); do
    # The Markdown runs: what the window redraws on the screen over the
    # first 4 s of the answer (bench/xstop -area; X Damage rectangles).
    local area=
    case "$mode" in md-*) [ -x "$tmp/xstop" ] && { "$tmp/xstop" -window "$win" -area 4s >"$d/area-$r" 2>/dev/null & area=$!; } ;; esac
    res=$(send_and_wait)
    sleep 1
    cpu2=$(cpu_ticks "$app")
    echo "stream $mode $r $n $res $cpu2" >>"$raw"
    echo "  $mode run $r: µs chars state ticks(app kids) at send, at end, 1 s later = $res $cpu2"
    if [ -n "$area" ]; then
      wait "$area" 2>/dev/null || true
      read -r a_rects a_px a_largest < <(sed -E 's/[a-z]+=//g' "$d/area-$r" 2>/dev/null || echo - - -)
      echo "area $mode $r ${a_rects:--} ${a_px:--} ${a_largest:--}" >>"$raw"
      echo "  $mode run $r: redrawn in the first 4 s: ${a_rects:--} rectangles, ${a_px:--} px (largest ${a_largest:--})"
    fi
    sleep 0.5
  done
  if [ -n "$perf" ]; then
    kill -INT "$perf"; wait "$perf" 2>/dev/null || true
    echo "  perf (app process, $mode runs, self time by symbol; build/bench/desktop-perf-$stamp.txt has the call graphs):"
    perf report -i "$tmp/perf-$mode.data" --no-children --sort dso,sym --stdio --percent-limit 1.5 -g none 2>/dev/null | grep -E '^ +[0-9]' | head -30 || true
    perf report -i "$tmp/perf-$mode.data" --children --sort sym --stdio --percent-limit 3 -g caller,0.5,callee,function,percent 2>/dev/null >"build/bench/desktop-perf-$stamp.txt" || true
  fi
  import -window root "build/bench/desktop-$mode.png"
  stop_app "$app"; app= run_bin=
}

# wait_run_start N0: polls the title (30 s at most) until a run after the
# N0th is running; fails if none started.
wait_run_start() {
  local c s n deadline=$(($(date +%s) + 30))
  while read -r c s n _ < <(bench_title) && { [ "$n" = - ] || [ "$n" -le "$1" ] || [ "$s" != running ]; }; do
    [ "$(date +%s)" -lt $deadline ] || return 1
    sleep 0.02
  done
}

# stop_bench TRIALS: one app start against the paced stream (200 tokens/s);
# each trial sends a message, presses Esc 1 s into the answer, and reads
# the page's own measure from the title (benchTitle.ts: Esc → the cancelled
# state painted / the cancelled RUN_FINISHED received / the DOM showing it)
# and the runtime's share from the app's log ("bench stop runtime_us=…":
# the Interrupt call reaching Go → the cancelled RUN_FINISHED handed to
# Wails), and Esc → the Interrupt call reaching Go (the page's Esc on the
# wall clock against the app's log). Raw: "stop TRIAL painted_ms
# received_ms shown_ms runtime_us esc_to_go_ms frame_ms task_ms screen_ms key_ms"
# (screen: the X server's Esc → the Stop button's pixels changed, bench/xstop;
# key: the X server's Esc → the page's keydown).
stop_bench() {
  local trials=$1 d r c s n ms n0 ms0 deadline rt ego line logs=0 l btn scr xkey key
  d=$tmp/stop; mkdir -p "$d/ws"
  export XDG_DATA_HOME=$d/d XDG_CONFIG_HOME=$d/c XDG_CACHE_HOME=$d/k JUNCTURE_WORKSPACE=$d/ws
  export OPENAI_BASE_URL=http://127.0.0.1:$port/n=100000/d=5/v1 JUNCTURE_MODEL=fake-model OPENAI_API_KEY=bench JUNCTURE_BENCH=1
  open_app "$tmp/stop.log"
  unset XDG_DATA_HOME XDG_CONFIG_HOME XDG_CACHE_HOME JUNCTURE_WORKSPACE OPENAI_BASE_URL JUNCTURE_MODEL OPENAI_API_KEY JUNCTURE_BENCH
  for _ in $(seq 1 60); do [ "$(bench_title)" != "- - - -" ] && break; sleep 0.5; done
  for r in $(seq 0 "$trials"); do # trial 0 is a warm-up
    read -r _ _ n0 ms0 _ < <(bench_title)
    xdotool type --delay 15 'go'
    xdotool key Return
    wait_run_start "$n0" || echo "  stop trial $r: the run never started"
    sleep 1
    # Esc from the X server (bench/xstop presses it) to the Stop button's
    # pixels changing on the screen (the page gives the button's rectangle
    # in its title, btn=x,y,w,h); without xstop, the key alone.
    btn=$(xdotool getwindowname "$win" 2>/dev/null | grep -o 'btn=[0-9,]*' | cut -d= -f2 || true)
    if [ -n "$btn" ] && [ -x "$tmp/xstop" ]; then
      read -r scr xkey < <("$tmp/xstop" -window "$win" -rect "$btn" -timeout 3s 2>>"$tmp/xstop.err" || echo - -)
    else
      xdotool key Escape
      scr=- xkey=-
    fi
    # the title's stop field changes once the cancelled state painted
    deadline=$(($(date +%s) + 30))
    while read -r c s n ms _ < <(bench_title) && { [ "$s" = running ] || [ "$ms" = "$ms0" ]; }; do
      [ "$(date +%s)" -lt $deadline ] || break
      sleep 0.02
    done
    l=$(grep -c 'bench stop' "$tmp/stop.log" || true)
    rt=- ego=-
    if [ "$l" -gt "$logs" ]; then
      line=$(grep 'bench stop' "$tmp/stop.log" | tail -1)
      rt=$(sed -E 's/.*runtime_us=([0-9]+).*/\1/' <<<"$line")
      # Esc in the page (epoch ms, the title's last stop field) → the Interrupt call in Go (epoch µs, the log)
      ego=$(awk -v go="$(sed -E 's/.*interrupt_epoch_us=([0-9]+).*/\1/' <<<"$line")" -v esc="${ms##*/}" 'BEGIN { if (esc ~ /^[0-9.]+$/) printf "%.2f", go / 1000 - esc; else print "-" }')
    fi
    logs=$l
    # The key in the X server (xstop's moment) → the page's keydown (the title's esc, epoch ms)
    key=$(awk -v x="$xkey" -v esc="${ms##*/}" 'BEGIN { if (x ~ /^[0-9.]+$/ && esc ~ /^[0-9.]+$/) printf "%.2f", esc - x; else print "-" }')
    # Only a new figure of all six fields: a title still showing '-' (or the
    # last trial's figure) when the wait ran out made a row whose columns
    # shifted (runtime_us read as received_ms) or counted a trial twice.
    [ "$r" -gt 0 ] && [ "$s" = cancelled ] && [ "$ms" != "$ms0" ] && [[ $ms =~ ^[^/]+(/[^/]+){5}$ ]] && echo "stop $r $(cut -d/ -f1-3 <<<"$ms" | tr / ' ') $rt $ego $(cut -d/ -f4-5 <<<"$ms" | tr / ' ') $scr $key" >>"$raw"
    echo "  stop trial $r: $s after Esc, painted/received/shown/frame/task/esc $ms ms in the page, runtime $rt µs, Esc → Interrupt in Go $ego ms, on the screen $scr ms (key X → page $key ms)"
    sleep 0.5
  done
  stop_app "$app"; app=
}

# floor_stop_bench TRIALS: the floor of Stop on the screen. The floor page
# following its text (BENCH_FLOOR_FOLLOW=box) has a bar with a Stop button
# that its keydown handler turns into Send; against the same paced stream as
# stop_bench, each trial starts a run, waits 1 s, and bench/xstop presses Esc
# in the X server and times the button's pixels changing. Raw: "floorstop
# TRIAL screen_ms".
floor_stop_bench() {
  local trials=$1 r c s n n0 deadline btn scr xkey t
  [ -x "$tmp/xstop" ] || { echo "  (no bench/xstop: no floor for Stop on the screen)"; return 0; }
  export OPENAI_BASE_URL=http://127.0.0.1:$port/n=100000/d=5/v1 BENCH_FLOOR_FOLLOW=box
  run_bin=$tmp/floorstream open_app "$tmp/floorstop.log"
  unset OPENAI_BASE_URL BENCH_FLOOR_FOLLOW
  for _ in $(seq 1 60); do [ "$(bench_title)" != "- - - -" ] && break; sleep 0.5; done
  for r in $(seq 0 "$trials"); do # trial 0 is a warm-up
    read -r _ _ n0 _ < <(bench_title)
    xdotool key Return
    wait_run_start "$n0" || echo "  floor stop trial $r: the run never started"
    sleep 1
    t=$(xdotool getwindowname "$win" 2>/dev/null || true)
    btn=$(grep -o 'btn=[0-9,]*' <<<"$t" | cut -d= -f2 || true)
    [ -n "$btn" ] || { echo "  floor stop: the page gives no button rectangle: $t"; break; }
    read -r scr xkey < <("$tmp/xstop" -window "$win" -rect "$btn" -timeout 3s 2>>"$tmp/xstop.err" || echo - -)
    deadline=$(($(date +%s) + 30))
    while read -r c s n _ < <(bench_title) && [ "$s" = running ]; do
      [ "$(date +%s)" -lt $deadline ] || break
      sleep 0.02
    done
    [ "$r" -gt 0 ] && [ "$s" = cancelled ] && [[ $scr =~ ^[0-9.]+$ ]] && echo "floorstop $r $scr" >>"$raw"
    echo "  floor stop trial $r: $s after Esc, on the screen $scr ms"
    sleep 0.5
  done
  stop_app "$app"; app= run_bin=
}

if [ "${BENCH_STREAM:-1}" = 1 ] && [ "$only" != startup ]; then
  [ -f "$anchor_src/fake.mjs" ] || { echo "no fake.mjs at $anchor_src (set ANCHOR_SRC)"; exit 1; }
  mkdir -p "$tmp/anchor" && cp "$anchor_src/fake.mjs" "$tmp/anchor/"
  (cd "$tmp/anchor" && PORT=0 exec node fake.mjs >"$tmp/fake.log" 2>&1) &
  fake=$!
  for _ in $(seq 1 100); do grep -q LISTENING "$tmp/fake.log" 2>/dev/null && break; sleep 0.1; done
  port=$(awk '/LISTENING/{print $2}' "$tmp/fake.log")
  [ -n "$port" ] || { echo "fake.mjs did not start:"; cat "$tmp/fake.log"; exit 1; }
  for n in 20000 5000; do
    echo "expect $n $(node -e "import('$tmp/anchor/fake.mjs').then(m => console.log(m.expectedText($n).length))")" >>"$raw"
  done
  if [ "${BENCH_PLAIN:-1}" = 1 ] && [ "$only" != stop ]; then
    echo "==> desktop streaming: unthrottled, N=20,000 ($tp_runs runs)"
    stream_bench unthrottled /n=20000/d=0/v1 20000 "$tp_runs"
    echo "==> desktop streaming: 1,000 tokens/s firehose, N=5,000 ($fh_runs runs)"
    stream_bench firehose /n=5000/d=1/v1 5000 "$fh_runs"
  fi
  if [ "$only" != stop ]; then
  (PORT=0 exec node bench/mdfake.mjs >"$tmp/mdfake.log" 2>&1) &
  mdfake=$!
  for _ in $(seq 1 100); do grep -q LISTENING "$tmp/mdfake.log" 2>/dev/null && break; sleep 0.1; done
  mdport=$(awk '/LISTENING/{print $2}' "$tmp/mdfake.log")
  [ -n "$mdport" ] || { echo "mdfake.mjs did not start:"; cat "$tmp/mdfake.log"; exit 1; }
  echo "expectmd 5000 $(node bench/mdfake.mjs --expect 5000)" >>"$raw"
  echo "==> Markdown at 1,000 tokens/s, N=5,000: the floor page, the floor page following its text, then Juncture ($md_runs runs each)"
  stream_bench md-floor /n=5000/d=1/v1 5000 "$md_runs" "$tmp/floorstream"
  # The same page in a scrolled box that it scrolls to the end in every
  # frame, as Juncture's list follows an answer (bench/floorstream/main.go).
  if [ "${BENCH_FOLLOW_FLOOR:-1}" = 1 ]; then
    export BENCH_FLOOR_FOLLOW=box
    stream_bench md-floor-follow /n=5000/d=1/v1 5000 "$md_runs" "$tmp/floorstream"
    unset BENCH_FLOOR_FOLLOW
  fi
  stream_bench md-juncture /n=5000/d=1/v1 5000 "$md_runs"
  fi
  echo "==> desktop Stop: Esc → cancelled state painted in the page ($stop_trials trials)"
  stop_bench "$stop_trials"
  if [ "${BENCH_FOLLOW_FLOOR:-1}" = 1 ]; then
    echo "==> the floor of Stop on the screen: the following floor page's Stop button ($stop_trials trials)"
    floor_stop_bench "$stop_trials"
  fi
fi

case "$only" in stream | stop)
  out=build/bench/desktop-$only-$stamp.json
  cp "$raw" "build/bench/desktop-$only-$stamp.raw.txt"
  node bench/desktop-report.mjs "$raw" "$out" | grep -v -e '^long thread:' -e '2,000-message thread open' -e '^| idle' -e 'binary size'
  cp "$out" "build/bench/desktop-$only-latest.json"
  exit 0 ;;
esac
# evict FILE…: drop the files' pages from the page cache (posix_fadvise
# DONTNEED: no root, nothing else on the machine loses its cache; pages a
# running process maps stay), for a cold start. Each file is synced first:
# DONTNEED leaves dirty pages cached, and the floor is built seconds before
# its first cold launch (a copy just written kept 28.6 of its 44.6 MiB).
evict() {
  command -v python3 >/dev/null || return 0
  python3 - "$@" <<'PY' || true
import os, sys
for p in sys.argv[1:]:
    try:
        fd = os.open(p, os.O_RDONLY)
        os.fsync(fd)
        os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
        os.close(fd)
    except OSError:
        pass
PY
}

# startup_one LOG CMD…: launch CMD, find its window, press x in it every
# 20 ms until its page says it took a key (the floor page: "typed <epoch
# ms>"; Juncture's bench counter: the seventh field), and print "MS WIN_MS":
# the ms from launch to that key ("-" after 60 s) and to the window showing.
startup_one() {
  local log=$1 t0 w="" wms=- typed="" t f1 f2 f4 f7 deadline rb
  shift
  t0=$(date +%s%3N)
  "$@" >"$log" 2>&1 &
  app=$!
  deadline=$((t0 + 60000))
  while [ -z "$typed" ] && [ "$(date +%s%3N)" -lt $deadline ]; do
    if [ -z "$w" ]; then
      w=$(xdotool search --onlyvisible --name '^(Juncture|bench |floor|typed )' 2>/dev/null | head -1) || true
      [ -z "$w" ] || { wms=$(($(date +%s%3N) - t0)); xdotool windowactivate "$w" 2>/dev/null || xdotool windowfocus "$w" 2>/dev/null || true; }
    else
      xdotool windowfocus "$w" key x 2>/dev/null || true
      t=$(xdotool getwindowname "$w" 2>/dev/null || true)
      read -r f1 f2 _ f4 _ _ f7 _ <<<"$t"
      case "$f1" in typed) typed=${f2:-} ;; bench) typed=${f7:-} ;; esac
    fi
    sleep 0.02
  done
  # the bytes the app process had read from disk by its first key (the binary's and libraries' pages a cold launch faults in)
  rb=$(awk '/^read_bytes/{print $2}' "/proc/$app/io" 2>/dev/null || true)
  # the page's start-up marks (Juncture's eighth title field) may still come: read it once more
  if [ -n "$typed" ] && [ "$f1" = bench ]; then sleep 1; echo "bench startup title launch_ms=$t0 read_bytes=${rb:--} $(xdotool getwindowname "$w" 2>/dev/null || true)" >"$log.title"; fi
  # the floor page's navigation ("typed <ms> nav <ms>"), beside Juncture's timeline
  if [ -n "$typed" ] && [ "$f1" = typed ] && [ -n "${f4:-}" ]; then echo "    timeline (ms from launch): page:nav $((f4 - t0)) · page:input $((typed - t0))" >&2; fi
  stop_app "$app"; app=
  if [ -n "$typed" ]; then echo "$((typed - t0)) $wms"; else echo "- $wms"; fi
}

# startup_bench ROUNDS: launch → the first key taken, cold (fresh data and
# cache folders; the binary and the WebKit/GTK libraries evicted from the
# page cache) then warm (the same folders again), the floor app (its own
# main.go, bench/startup-floor.html as its page) and Juncture (5 MCP
# servers in mcp.json, the 2,000-message thread seeded and opened by its
# juncture:// link, as the last chat is), rounds interleaved.
# Raw: "startup floor|juncture cold|warm ROUND MS WINDOW_MS".
startup_bench() {
  local rounds=$1 r k order ms d tid mcp i webkit
  mkdir -p "$tmp/floorstart"
  cp -r "$floor_src/." "$tmp/floorstart/"
  cp bench/startup-floor.html "$tmp/floorstart/index.html"
  (cd "$tmp/floorstart" && go build -tags $tags -ldflags "-w -s" -o "$tmp/floor-startup" .)
  (cd "$src" && CGO_ENABLED=0 go build -o "$tmp/edgeserver" ./agent/mcp/internal/edgeserver)
  echo "  load before start-up: $(cut -d' ' -f1-3 /proc/loadavg)"
  webkit=$(ls /usr/lib/*/libwebkit2gtk-4.1.so.0* /usr/lib/*/libjavascriptcoregtk-4.1.so.0* /usr/lib/*/webkit2gtk-4.1/* /usr/lib/*/libgtk-3.so.0* 2>/dev/null || true)
  mcp='{"mcpServers":{'
  for i in 1 2 3 4 5; do mcp+="\"edge$i\":{\"command\":\"$tmp/edgeserver\"}"; [ $i = 5 ] || mcp+=','; done
  mcp+='}}'
  for r in $(seq 1 "$rounds"); do
    if [ $((r % 2)) = 1 ]; then order="floor juncture"; else order="juncture floor"; fi
    for k in $order; do
      d=$tmp/startup-$k-$r; rm -rf "$d"; mkdir -p "$d/ws" "$d/c/juncture"
      export XDG_DATA_HOME=$d/d XDG_CONFIG_HOME=$d/c XDG_CACHE_HOME=$d/k JUNCTURE_WORKSPACE=$d/ws
      export OPENAI_BASE_URL=http://127.0.0.1:9/v1 JUNCTURE_MODEL=fake-model OPENAI_API_KEY=bench JUNCTURE_BENCH=1
      if [ $k = juncture ]; then
        printf '%s' "$mcp" >"$d/c/juncture/mcp.json"
        tid=$("$tmp/seedthread" -db "$XDG_DATA_HOME/juncture/juncture.db" -messages 2000)
        # shellcheck disable=SC2086
        evict "$bin" $webkit
        ms=$(startup_one "$tmp/startup-$k-$r-cold.log" "$bin" "juncture://thread/$tid")
        echo "startup juncture cold $r $ms" >>"$raw"; echo "  startup round $r juncture cold: $ms ms"
        node bench/startup-timeline.mjs "$tmp/startup-$k-$r-cold.log" || true
        ms=$(startup_one "$tmp/startup-$k-$r-warm.log" "$bin" "juncture://thread/$tid")
        echo "startup juncture warm $r $ms" >>"$raw"; echo "  startup round $r juncture warm: $ms ms"
        node bench/startup-timeline.mjs "$tmp/startup-$k-$r-warm.log" || true
      else
        # shellcheck disable=SC2086
        evict "$tmp/floor-startup" $webkit
        ms=$(startup_one "$tmp/startup-$k-$r-cold.log" "$tmp/floor-startup")
        echo "startup floor cold $r $ms" >>"$raw"; echo "  startup round $r floor cold: $ms ms"
        ms=$(startup_one "$tmp/startup-$k-$r-warm.log" "$tmp/floor-startup")
        echo "startup floor warm $r $ms" >>"$raw"; echo "  startup round $r floor warm: $ms ms"
      fi
      unset XDG_DATA_HOME XDG_CONFIG_HOME XDG_CACHE_HOME JUNCTURE_WORKSPACE OPENAI_BASE_URL JUNCTURE_MODEL OPENAI_API_KEY JUNCTURE_BENCH
    done
  done
}

if [ "$only" = startup ] || { [ -z "$only" ] && [ "${BENCH_STARTUP:-1}" = 1 ]; }; then
  echo "==> start-up: launch → the first key taken, cold and warm, against the floor app ($startup_rounds rounds)"
  startup_bench "$startup_rounds"
fi
if [ "$only" = startup ]; then
  out=build/bench/desktop-startup-$stamp.json
  cp "$raw" "build/bench/desktop-startup-$stamp.raw.txt"
  node bench/desktop-report.mjs "$raw" "$out" | grep -v -e '^long thread:' -e '2,000-message thread open' -e '^| idle' -e 'binary size' -e '^Idle PSS' -e '^| process' -e '^| -'
  cp "$out" build/bench/desktop-startup-latest.json
  exit 0
fi
echo "==> Juncture with a 2,000-message thread open"
d=$tmp/long; mkdir -p "$d/ws"
export XDG_DATA_HOME=$d/d XDG_CONFIG_HOME=$d/c XDG_CACHE_HOME=$d/k JUNCTURE_WORKSPACE=$d/ws
tid=$("$tmp/seedthread" -db "$XDG_DATA_HOME/juncture/juncture.db" -messages 2000)
open_app "$tmp/long.log"
sleep 1
shot_b=build/bench/desktop-thread-before.png shot_a=build/bench/desktop-thread-after.png
import -window "$win" "$shot_b"
pss_rows "thread before" $app
# Keyboard: Ctrl+K focuses the sidebar search; Tab goes to the first (only)
# conversation's button; Enter opens it.
xdotool key ctrl+k; sleep 0.3; xdotool key Tab; sleep 0.2; xdotool key Return
sleep 8
import -window "$win" "$shot_a"
pss_rows "thread after" $app
stop_app $app; app=
unset XDG_DATA_HOME XDG_CONFIG_HOME XDG_CACHE_HOME JUNCTURE_WORKSPACE
# The thread is open when the conversation pane (right of the sidebar) changed
# a lot: the empty "How can I help?" page became a list of messages.
w=$(identify -format %w "$shot_a"); h=$(identify -format %h "$shot_a")
changed=$(compare -metric AE -crop "$((w - 300))x$((h - 80))+290+70" "$shot_b" "$shot_a" null: 2>&1 || true)
changed=${changed%% *}; changed=${changed%%.*}
echo "thread opened ${changed:-0}" >>"$raw"
echo "  thread $tid: conversation pane pixels changed after selecting it: $changed ($shot_b → $shot_a)"

out=build/bench/desktop-$stamp.json
cp "$raw" "build/bench/desktop-$stamp.raw.txt"
node bench/desktop-report.mjs "$raw" "$out"
cp "$out" build/bench/desktop-latest.json
