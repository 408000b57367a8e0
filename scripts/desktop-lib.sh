# Shared by the desktop window scripts (desktop-smoke.sh, desktop-approval.sh,
# desktop-reload.sh, desktop-round2.sh); source it first, then call
# desktop_enter "$0" "$@".
#
#   desktop_enter SCRIPT [BIN]  sets bin (default build/bin/juncture), moves
#                          to the repository root and runs SCRIPT again
#                          inside Xvfb unless it already is.
#   desktop_setup PREFIX   private XDG dirs and workspace, the fake model
#                          running, OPENAI_* pointing at it; logs go to
#                          $out/PREFIXfakellm.log. Sets out, tmp, fake.
#   find_window REGEX      the first visible window so named, polled for 30 s.
#   open_window LOG        starts "$bin", waits for the window and for the
#                          app's "desktop window ready", focuses it. Sets app, win.
# The EXIT trap stops every process started here (and $web if set).

desktop_enter() {
  local script=$1
  shift
  bin=$(realpath "${1:-build/bin/juncture}")
  cd "$(dirname "$script")/.."
  if [ -z "${IN_XVFB:-}" ]; then
    IN_XVFB=1 exec xvfb-run -a -s '-screen 0 1280x800x24' "$script" "$@"
  fi
}

desktop_setup() {
  out=${SMOKE_OUT:-build/smoke}
  mkdir -p "$out"
  tmp=$(mktemp -d)
  # Keep Go's build cache where it is: it lives under XDG_CACHE_HOME, and a
  # fresh one makes building the fake model recompile the standard library.
  export GOCACHE="${GOCACHE:-$(go env GOCACHE)}"
  export XDG_DATA_HOME=$tmp/data XDG_CONFIG_HOME=$tmp/config XDG_CACHE_HOME=$tmp/cache NO_AT_BRIDGE=1
  export JUNCTURE_WORKSPACE=$tmp/ws
  mkdir -p "$JUNCTURE_WORKSPACE"
  go build -o build/bin/fakellm ./agent/fakellm/cmd/fakellm
  local port=$((20000 + RANDOM % 20000))
  build/bin/fakellm -addr "127.0.0.1:$port" 2>"$out/${1}fakellm.log" &
  fake=$!
  export OPENAI_BASE_URL=http://127.0.0.1:$port/v1 JUNCTURE_MODEL=fake-model OPENAI_API_KEY=smoke
  app= web=
  trap desktop_cleanup EXIT
}

desktop_cleanup() {
  for p in $app $web $fake; do kill "$p" 2>/dev/null || true; done
  for p in $app $web $fake; do wait "$p" 2>/dev/null || true; done
  rm -rf "$tmp"
}

# find_window REGEX: prints the id of the first visible window whose name
# matches, polling for up to 30 s; fails when none appears. Polled rather
# than `search --sync`: a window that appears and goes away while xdotool
# walks the tree (WebKit's helpers do) is an X error (BadWindow) that ends
# that search; the next one does not see it.
find_window() {
  local w
  for _ in $(seq 1 60); do
    w=$(xdotool search --onlyvisible --name "$1" 2>/dev/null | head -1) || true
    [ -n "$w" ] && { echo "$w"; return 0; }
    sleep 0.5
  done
  return 1
}

open_window() {
  "$bin" >"$1" 2>&1 &
  app=$!
  win=$(find_window '^Juncture$') || { echo "no Juncture window appeared in 30 s"; exit 1; }
  echo "window $win"
  for _ in $(seq 1 40); do grep -q "desktop window ready" "$1" && break; sleep 0.25; done
  sleep 2
  xdotool windowactivate --sync "$win" 2>/dev/null || xdotool windowfocus --sync "$win" || true
  # The window opens its session through the desktop gate before the
  # composer takes keys; a key typed at once was sometimes lost ("rite a note").
  sleep 1
}
