#!/usr/bin/env bash
# Go (>= 1.21: it fetches the go.mod toolchain itself) and Node >= 20.19 for Vite 7.
set -euo pipefail
here=$(dirname "$0")
if ! command -v go >/dev/null; then
  "$here/apt-ensure.sh" golang-go
fi
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
  "$here/apt-ensure.sh" nodejs npm
fi
v=$(node -p 'process.versions.node')
IFS=. read -r major minor _ <<<"$v"
if [ "$major" -lt 20 ] || { [ "$major" -eq 20 ] && [ "$minor" -lt 19 ]; }; then
  echo "Node $v is too old: the frontend (Vite 7) needs Node 20.19 or newer. Install a current Node.js (e.g. from NodeSource) and run make again." >&2
  exit 1
fi
