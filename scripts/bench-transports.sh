#!/usr/bin/env bash
# Juncture's transports (/agui, /api/events) against the TanStack AI anchor,
# measured in one invocation: throughput + server CPU per token, and Stop
# latency. Prints a table "figure | Juncture | anchor | ratio | goal met?"
# and writes build/bench/transports-<time>.json (and transports-latest.json).
#
#   scripts/bench-transports.sh             full run (~10 min on 2 busy cores)
#   BENCH_QUICK=1 scripts/bench-transports.sh   fewer runs and trials (~4 min)
#
# Environment:
#   ANCHOR_SRC        the anchor folder (default ../shared/bench/tanstack-anchor); copied, never written
#   JUNCTURE_WEB_BIN  use this juncture-web instead of building one
#   BENCH_FROM_HEAD=1 build juncture-web from `git archive HEAD` (plus the current
#                     frontend/dist), for when the working tree does not build
#   BENCH_PROFILE=1   also record `perf` over 3 extra /agui runs and print the top symbols
# Extra arguments go to bench/transports.mjs (e.g. --tp-rounds 3 --stop-per-round 20).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
anchor_src=${ANCHOR_SRC:-$root/../shared/bench/tanstack-anchor}
[ -f "$anchor_src/fake.mjs" ] || { echo "no anchor at $anchor_src (set ANCHOR_SRC)"; exit 1; }
mkdir -p build/bench
tmp=$(mktemp -d -t bench-transports.XXXXXX)
fake=
cleanup() {
  [ -n "$fake" ] && kill "$fake" 2>/dev/null && wait "$fake" 2>/dev/null
  rm -rf "$tmp"
}
trap cleanup EXIT

echo "==> anchor: copy + npm ci ($anchor_src)"
cp -r "$anchor_src" "$tmp/anchor"
(cd "$tmp/anchor" && npm ci --prefer-offline --no-audit --no-fund --loglevel=error >/dev/null)

echo "==> anchor: fake OpenAI server"
(cd "$tmp/anchor" && PORT=0 exec node fake.mjs >"$tmp/fake.log" 2>&1) &
fake=$!
for _ in $(seq 1 100); do grep -q LISTENING "$tmp/fake.log" 2>/dev/null && break; sleep 0.1; done
port=$(awk '/LISTENING/{print $2}' "$tmp/fake.log")
[ -n "$port" ] || { echo "fake.mjs did not start:"; cat "$tmp/fake.log"; exit 1; }

bin=${JUNCTURE_WEB_BIN:-}
if [ -z "$bin" ]; then
  if [ ! -f frontend/dist/index.html ]; then
    echo "==> frontend build"
    (cd frontend && { [ -d node_modules ] || npm ci --no-audit --no-fund; } && npm run build >/dev/null)
  fi
  if [ "${BENCH_FROM_HEAD:-}" = 1 ]; then
    echo "==> juncture-web from HEAD $(git rev-parse --short HEAD)"
    mkdir -p "$tmp/src" && git archive HEAD | tar -x -C "$tmp/src"
    cp -r frontend/dist/. "$tmp/src/frontend/dist/"
    (cd "$tmp/src" && CGO_ENABLED=0 go build -o "$tmp/juncture-web" .)
    bin=$tmp/juncture-web
  else
    echo "==> juncture-web (working tree)"
    CGO_ENABLED=0 go build -o build/bin/juncture-web .
    bin=build/bin/juncture-web
  fi
fi

stamp=$(date -u +%Y%m%dT%H%M%SZ)
out=build/bench/transports-$stamp.json
echo "==> measuring (fake on :$port)"
node bench/transports.mjs --bin "$bin" --anchor "$tmp/anchor" --fake "http://127.0.0.1:$port" --out "$out" "$@"
cp "$out" build/bench/transports-latest.json
