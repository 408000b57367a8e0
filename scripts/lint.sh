#!/usr/bin/env bash
# golangci-lint (config: .golangci.yml). The linter is pinned in its own
# module, tools/lint, so its dependencies stay out of the app's go.mod; it is
# built once into build/bin/golangci-lint and rebuilt only when the pinned
# version changes. Checks lint findings, then formatting (gofmt, goimports).
#   scripts/lint.sh          lint (also with the desktop tags) + format check
#   scripts/lint.sh --fix    apply the automatic fixes and formatting
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
bin=$root/build/bin/golangci-lint
export GOFLAGS="${GOFLAGS:-} -mod=mod" # the tools module has its own go.sum

want=$(cd tools/lint && go list -m -f '{{.Version}}' github.com/golangci/golangci-lint/v2)
have=$([ -x "$bin" ] && "$bin" version --short 2>/dev/null || true)
if [ "v${have#v}" != "$want" ]; then
  echo "building golangci-lint $want (first time takes a few minutes)"
  mkdir -p "$(dirname "$bin")"
  (cd tools/lint && nice -n 10 go build -trimpath \
    -ldflags "-s -w -X main.version=${want#v} -X main.date=tools/lint" \
    -o "$bin" github.com/golangci/golangci-lint/v2/cmd/golangci-lint)
fi

if [ "${1:-}" = "--fix" ]; then
  "$bin" run --allow-parallel-runners --fix ./...
  "$bin" fmt ./...
  exit
fi
status=0
"$bin" run --allow-parallel-runners ./... || status=1
# The window's code (main.go's desktop half, internal/framegate's and
# internal/webkitgc's cgo) builds only with the desktop tags: lint it too.
"$bin" run --allow-parallel-runners --build-tags desktop,production,webkit2_41 . ./internal/... || status=1
# fmt --diff prints what would change and exits non-zero if anything would.
"$bin" fmt --diff ./... || status=1
exit $status
