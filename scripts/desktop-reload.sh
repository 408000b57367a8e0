#!/usr/bin/env bash
# The real desktop window under Xvfb (WebKitGTK, Wails events): a numbered
# answer ("count": w001 … w400) is streaming while the window reloads at
# random moments (Ctrl+Shift+R in bench mode). After each reload the window title's
# view check (frontend/src/lib/benchTitle.ts, JUNCTURE_BENCH=1) must say
# the answer shows w001…wN in order, never a hole or a repeat, at every
# sample. (Chat switches mid-stream are covered in chromium by
# e2e/stream-reload.test.mjs; both go through the same snapshot and
# offset merge.)
set -euo pipefail
. "$(dirname "$0")/desktop-lib.sh"
desktop_enter "$0" "$@"
desktop_setup reload-
export JUNCTURE_BENCH=1
open_window "$out/reload-app.log"

title() { xdotool getwindowname "$win" 2>/dev/null || true; }
# view: the sixth field of "bench chars state runs stop view" ('' if none);
# runs: the fourth (runs started since the page loaded: 0 right after a reload).
view() { local t; t=$(title); set -- $t; echo "${6:-}"; }
runs() { local t; t=$(title); set -- $t; echo "${4:-}"; }

RANDOM=20261201
reloads=${RELOADS:-20}
mid=0 total=0 round=0
while [ "$total" -lt "$reloads" ]; do
  round=$((round + 1))
  # A new chat for each round: the composer has focus on start / after Ctrl+N.
  if [ "$round" -gt 1 ]; then xdotool key ctrl+n; sleep 0.5; fi
  xdotool type --delay 10 'count please'
  xdotool key Return
  for _ in $(seq 1 100); do case "$(view)" in w*) break ;; esac; sleep 0.05; done
  while :; do
    sleep "0.$((2 + RANDOM % 5))"
    v=$(view)
    case "$v" in HOLE*) echo "round $round: $v before reload $total ($(title))"; exit 1 ;; esac
    [ "$v" = w400 ] && break
    xdotool key ctrl+shift+r
    total=$((total + 1))
    # The page reloads (its counters restart: runs 0) …
    for _ in $(seq 1 250); do [ "$(runs)" = 0 ] && break; sleep 0.02; done
    [ "$(runs)" = 0 ] || { echo "round $round, reload $total: the page did not reload ($(title))"; exit 1; }
    # … comes back on the same chat (sessionStorage) and catches up.
    seen=""
    for _ in $(seq 1 200); do
      v=$(view)
      case "$v" in
        HOLE*) echo "round $round, reload $total: $v ($(title))"; import -window root "$out/reload-hole.png"; exit 1 ;;
        w*) [ -z "$seen" ] && seen=$v ;;
      esac
      [ -n "$seen" ] && break
      sleep 0.02
    done
    [ -n "$seen" ] || { echo "round $round, reload $total: the answer never came back ($(title))"; import -window root "$out/reload-lost.png"; exit 1; }
    [ "$seen" != w400 ] && mid=$((mid + 1))
    # A few more samples while it streams on.
    for _ in 1 2 3 4 5; do
      v=$(view)
      case "$v" in HOLE*) echo "round $round, reload $total: $v ($(title))"; exit 1 ;; esac
      sleep 0.05
    done
    [ "$total" -ge "$reloads" ] && break
  done
  for _ in $(seq 1 200); do [ "$(view)" = w400 ] && break; case "$(view)" in HOLE*) echo "round $round end: $(view)"; exit 1 ;; esac; sleep 0.05; done
done
import -window root "$out/reload-done.png"
echo "reloads: $total, mid-stream: $mid, rounds: $round, last view: $(view)"
[ "$mid" -ge $((reloads * 3 / 4)) ] || { echo "too few reloads landed mid-stream"; exit 1; }
echo "desktop reload ok: $out/reload-done.png"
