#!/usr/bin/env bash
# Browser mode against the built-in fake model: try Juncture offline.
set -euo pipefail
fake_addr=${FAKE_ADDR:-127.0.0.1:11435}
addr=${ADDR:-127.0.0.1:8765}
go build -o build/bin/fakellm ./agent/fakellm/cmd/fakellm
build/bin/fakellm -addr "$fake_addr" &
fake=$!
trap 'kill $fake 2>/dev/null; wait $fake 2>/dev/null || true' EXIT
echo "Demo model at http://$fake_addr/v1 — try: \"write a long essay\", \"think about it\", \"list files\"."
# The demo keeps its history and workspace under build/demo, apart from yours.
mkdir -p build/demo/workspace
echo "Demo history and workspace: $PWD/build/demo"
XDG_DATA_HOME="$PWD/build/demo/data" JUNCTURE_WORKSPACE="$PWD/build/demo/workspace" \
OPENAI_BASE_URL="http://$fake_addr/v1" JUNCTURE_MODEL=fake-model OPENAI_API_KEY=demo \
  build/bin/juncture-web serve --addr "$addr"
