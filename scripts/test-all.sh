#!/usr/bin/env bash
# Every test: Go (vet, golangci-lint, race), frontend (Vitest), browser
# end-to-end (Playwright + Debian chromium), the real desktop window under
# Xvfb, the packages (make dist; the .deb installed and its window seen), and
# the Windows cross-build. Prints a closing "N passed, N failed" line.
set -uo pipefail
cd "$(dirname "$0")/.."
passed=0; failed=0; failures=()
step() {
  local name=$1; shift
  echo "==> $name"
  local t0=$SECONDS
  if "$@"; then passed=$((passed+1)); echo "<== $name ok ($((SECONDS-t0)) s)"
  else failed=$((failed+1)); failures+=("$name"); echo "<== $name FAILED ($((SECONDS-t0)) s)"; fi
}
export AGUI_VALIDATOR="$PWD/tools/agui-conformance/validate-sse.mjs"
step "go vet (no cgo)"          env CGO_ENABLED=0 go vet ./...
step "go vet (desktop tags)"    go vet -tags desktop,production,webkit2_41 .
step "lint (golangci-lint)"     scripts/lint.sh
step "go test -race"            env JUNCTURE_REQUIRE_MCP=1 JUNCTURE_REQUIRE_TSC=1 JUNCTURE_CRASH_TRIALS=50 go test -race -count=1 -timeout 30m ./...
step "window page gate and gzipped assets via Wails' asset server (no cgo)" env CGO_ENABLED=0 go test -count=1 ./internal/framegate/ ./internal/gzfs/
step "soak report verdict (node --test)" node --test bench/soak-report.test.mjs
step "frontend typecheck+tests" bash -c 'cd frontend && npx tsc -b && npm test --silent'
step "browser build (no cgo)"   env CGO_ENABLED=0 go build -o build/bin/juncture-web .
step "fake model build"         go build -o build/bin/fakellm ./agent/fakellm/cmd/fakellm
step "TanStack client interop"  bash -c 'cd interop && JUNCTURE_WEB_BIN=$PWD/../build/bin/juncture-web FAKELLM_BIN=$PWD/../build/bin/fakellm npm test --silent'
step "bindings up to date"      bash -c 'make -s bindings >/dev/null && git diff --exit-code --stat frontend/wailsjs'
step "end-to-end (Playwright)"  bash -c 'cd e2e && node --test --test-concurrency=1'
step "web context memory settings (Xvfb)" xvfb-run -a go test -count=1 -tags desktop,webkit2_41 ./internal/webkitgc/
step "desktop window (Xvfb)"    bash -c 'go build -tags desktop,production,webkit2_41 -o build/bin/juncture . && scripts/desktop-smoke.sh build/bin/juncture'
step "desktop approval (Xvfb)"  scripts/desktop-approval.sh build/bin/juncture
step "desktop reload (Xvfb)"    scripts/desktop-reload.sh build/bin/juncture
step "desktop round 2 (Xvfb)"   scripts/desktop-round2.sh build/bin/juncture
step "desktop views (Xvfb)"     scripts/desktop-views.sh build/bin/juncture
step "packages (dist, .deb install, 7z)" bash -c 'make -s dist-only >/dev/null && scripts/package-check.sh'
step "windows cross-build"      env GOOS=windows GOARCH=amd64 CGO_ENABLED=0 go build -tags desktop,production -ldflags "-w -s -H windowsgui" -o build/bin/juncture.exe .
echo
[ $failed -gt 0 ] && printf 'failed step: %s\n' "${failures[@]}"
echo "steps: $passed passed, $failed failed"
[ $failed -eq 0 ]
