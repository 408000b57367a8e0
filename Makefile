# Juncture — two commands on a fresh Debian/Ubuntu machine:
#   make run    install what is missing, build, open the app
#   make test   install test dependencies, run every test
SHELL := /bin/bash
.DEFAULT_GOAL := help

GO        ?= go
BIN       := build/bin/juncture
DESKTOP_TAGS := desktop,production,webkit2_41
APT_RUN   := libgtk-3-dev libwebkit2gtk-4.1-dev pkg-config build-essential bubblewrap
APT_DIST  := nsis p7zip-full
# bench/xstop (the Stop bench on the screen): X Damage and XTest headers.
APT_BENCH := libxtst-dev libxdamage-dev
APT_TEST  := xvfb xauth xdotool imagemagick x11-apps chromium fonts-dejavu-core fonts-noto-color-emoji dbus-daemon dbus-bin gnome-keyring xclip
# Stamped into the binary at link time (juncture --version; internal/buildinfo).
# The version is wails.json's productVersion; the update key is the release
# feed's ed25519 public key (build/update-key.pub, when a release has one).
VERSION   ?= $(shell sed -n 's/.*"productVersion": *"\([^"]*\)".*/\1/p' wails.json)
COMMIT    ?= $(shell git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)
BUILD_DATE ?= $(shell date -u -d @$${SOURCE_DATE_EPOCH:-$$(date +%s)} +%Y-%m-%dT%H:%M:%SZ)
UPDATE_KEY ?= $(shell cat build/update-key.pub 2>/dev/null)
BI        := github.com/juncture-app/juncture/internal/buildinfo
LDFLAGS   := -w -s -X $(BI).Version=$(VERSION) -X $(BI).Commit=$(COMMIT) -X $(BI).Date=$(BUILD_DATE) -X '$(BI).UpdateKey=$(UPDATE_KEY)'
export GOTOOLCHAIN ?= auto
export GOFLAGS ?= -mod=mod

.PHONY: help run serve demo build desktop web frontend dist dist-only deps deps-run deps-test deps-dist bindings contract test test-keychain test-go test-frontend test-e2e test-desktop test-windows lint conformance bench bench-search bench-transports bench-desktop screenshots clean

help:
	@echo "make run      install what is missing, build, open the desktop app"
	@echo "make serve    browser mode (no window): prints the address to open"
	@echo "make demo     the app against a built-in fake model (offline)"
	@echo "make test     install test dependencies and run every test"
	@echo "make dist     packages: .deb, portable Linux tarball, Windows installer (build/dist/)"
	@echo "make bench    benchmarks (runtime, store, frontend)"
	@echo "make lint     golangci-lint: lint findings and formatting"

## ---- dependencies ----------------------------------------------------------
deps-run:
	@scripts/apt-ensure.sh $(APT_RUN)
	@scripts/check-toolchain.sh

deps-test: deps-run
	@scripts/apt-ensure.sh $(APT_TEST) $(APT_DIST)

deps-dist: deps-run
	@scripts/apt-ensure.sh $(APT_DIST)

frontend/node_modules/.installed: frontend/package-lock.json
	cd frontend && npm ci --no-audit --no-fund
	@touch $@

tools/agui-conformance/node_modules/.installed: tools/agui-conformance/package-lock.json
	cd tools/agui-conformance && npm ci --no-audit --no-fund
	@touch $@

interop/node_modules/.installed: interop/package-lock.json
	cd interop && npm ci --no-audit --no-fund
	@touch $@

e2e/node_modules/.installed: e2e/package-lock.json
	cd e2e && npm ci --no-audit --no-fund
	@touch $@

# Real MCP servers for agent/mcp's tests (pinned in package.json).
agent/mcp/testdata/servers/node_modules/.installed: agent/mcp/testdata/servers/package-lock.json
	cd agent/mcp/testdata/servers && npm ci --no-audit --no-fund
	@touch $@

## ---- build ------------------------------------------------------------------
frontend: frontend/node_modules/.installed
	cd frontend && npm run build

build desktop: deps-run frontend
	$(GO) build -tags $(DESKTOP_TAGS) -ldflags "$(LDFLAGS)" -o $(BIN) .

# Every package this machine can build, into build/dist/ with SHA256SUMS
# (scripts/dist.sh says what and how).
dist: deps-dist frontend
	@$(MAKE) --no-print-directory dist-only

# dist without the frontend build (scripts/test-all.sh: `make test` built it).
dist-only:
	$(GO) build -tags $(DESKTOP_TAGS) -ldflags "$(LDFLAGS)" -o $(BIN) .
	GOOS=windows GOARCH=amd64 CGO_ENABLED=0 $(GO) build -tags desktop,production -ldflags "$(LDFLAGS) -H windowsgui" -o build/bin/juncture.exe .
	VERSION=$(VERSION) scripts/dist.sh

web: frontend
	CGO_ENABLED=0 $(GO) build -ldflags "$(LDFLAGS)" -o build/bin/juncture-web .

# Wails' binding generator: fails on a bound method Wails cannot bind. Its
# frontend/wailsjs/go/ is not committed (nothing imports it; `make contract`
# writes the window's types).
bindings:
	CGO_ENABLED=0 $(GO) build -tags bindings -o build/bin/wailsbindings . && build/bin/wailsbindings && rm -f build/bin/wailsbindings

# Regenerate frontend/src/transport/contract.gen.ts and parse.gen.ts (the
# TypeScript contract types, enums and parsers, from the Go types) after
# changing a bound method, a type it uses, an enum or agent/contract/.
# Committed; `go test ./internal/contractgen` checks them.
contract:
	$(GO) run ./internal/contractgen

## ---- run --------------------------------------------------------------------
run: build
	@scripts/run-desktop.sh $(BIN)

serve: web
	build/bin/juncture-web serve $(ARGS)

demo: web
	@scripts/demo.sh

## ---- tests ------------------------------------------------------------------
test: deps-test frontend conformance-deps e2e-deps interop-deps mcp-deps
	@$(MAKE) -s test-keychain
	@scripts/test-all.sh

# The keychain tests against a real Secret Service: a private D-Bus session
# with gnome-keyring (its keyring and sockets in a temporary folder, never
# the person's). JUNCTURE_REQUIRE_KEYCHAIN=1 makes a missing one fail.
test-keychain:
	@tmp=$$(mktemp -d) && trap 'rm -rf "$$tmp"' EXIT && mkdir -m 700 "$$tmp/run" && \
	XDG_DATA_HOME="$$tmp/data" XDG_RUNTIME_DIR="$$tmp/run" dbus-run-session -- sh -c \
	  'echo -n juncture-test | gnome-keyring-daemon --unlock --components=secrets --daemonize >/dev/null && JUNCTURE_REQUIRE_KEYCHAIN=1 $(GO) test -race -count=1 -run Keychain ./app/secrets/ ./app/' 2> >(grep -v "Failed to set fd limit" >&2)

conformance-deps: tools/agui-conformance/node_modules/.installed
e2e-deps: e2e/node_modules/.installed
interop-deps: interop/node_modules/.installed
mcp-deps: agent/mcp/testdata/servers/node_modules/.installed

test-go: conformance-deps mcp-deps
	$(GO) vet ./...
	JUNCTURE_CRASH_TRIALS=50 $(GO) test -race -count=1 ./...

# golangci-lint (.golangci.yml), built once from tools/lint into build/bin.
lint:
	scripts/lint.sh

test-frontend: frontend/node_modules/.installed
	cd frontend && npm test

test-e2e: web e2e-deps
	cd e2e && node --test --test-concurrency=1

test-desktop: build
	scripts/desktop-smoke.sh $(BIN)

test-windows:
	GOOS=windows GOARCH=amd64 CGO_ENABLED=0 $(GO) build -tags desktop,production -ldflags "$(LDFLAGS) -H windowsgui" -o build/bin/juncture.exe .

bench: mcp-deps
	JUNCTURE_REQUIRE_MCP=1 $(GO) test -run '^$$' -bench . -skip SearchScale -benchmem ./agent/ ./agent/mcp/ ./store/
	$(MAKE) --no-print-directory bench-search
	$(GO) test -run '^$$' -bench 'StartWithMCPServers|GetThread' ./app/
	cd frontend && npx vitest bench --run
	# The window runs React's production build: the render benches again with it.
	cd frontend && NODE_ENV=production npx vitest bench --run src/bench/render.bench.tsx src/bench/window.bench.tsx
	$(MAKE) --no-print-directory web e2e-deps && cd e2e && node bench-typing.mjs
	scripts/bench-transports.sh

# Search on generated histories of 100 k and 1 M messages (the anchors)
# and, with JUNCTURE_BENCH_SEARCH_10M=1, 10 M (generated once, about
# 6 GiB and 15-20 min of CPU; cached in build/bench/), with the ratios.
bench-search:
	$(GO) test -run '^$$' -bench SearchScale -benchtime 1x -timeout 6h ./store/

# Transports against the TanStack anchor (BENCH_QUICK=1: fewer trials), and
# the desktop window against the bare Wails floor (needs Xvfb).
bench-transports:
	scripts/bench-transports.sh

bench-desktop: deps-run frontend
	@scripts/apt-ensure.sh $(APT_BENCH)
	scripts/bench-desktop.sh

screenshots: web e2e-deps
	cd e2e && node screenshots.mjs

clean:
	rm -rf build/bin frontend/dist/assets frontend/dist/index.html
