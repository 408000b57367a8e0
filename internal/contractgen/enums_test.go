package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// The named string types and the const blocks fieldEnums names reach the
// file as unions, with Go's values in Go's order.
func TestEnumsComeFromGoConstants(t *testing.T) {
	src, err := Generate()
	if err != nil {
		t.Fatal(err)
	}
	s := string(src)
	for _, want := range []string{
		"export type Role =\n  | \"user\"\n  | \"assistant\"\n  | \"tool\"\n  | \"system\";",
		"export type MessageStatus =\n  | \"complete\"",
		"export const RULE_SCOPES = [",
		"export type McpPolicy =\n  | \"\"\n  | \"ask\"\n  | \"trust\";",
		"  role: Role;",
		"  status: MessageStatus;",
		"  toolState?: ToolState;",
		"  scope: RuleScope;",
		"  sources: Record<string, SettingSource>;",
		"export function isPartKind(v: unknown): v is PartKind {",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("contract.gen.ts lacks %q", want)
		}
	}
	if strings.Contains(s, `"text"`) {
		t.Error("PartText (never stored) reached PartKind: fieldEnums' except is not applied")
	}
}

// An anchor that names no constant fails the generation with a message that
// says where to fix it.
func TestUnknownEnumAnchorFails(t *testing.T) {
	root, err := moduleRoot()
	if err != nil {
		t.Fatal(err)
	}
	idx, err := loadConsts(root)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := idx.block("history.NoSuchConstant", nil); err == nil || !strings.Contains(err.Error(), "fieldEnums") {
		t.Fatalf("err = %v, want one that names fieldEnums", err)
	}
}

// A value added to a Go enum breaks the frontend's type check wherever the
// window switches over that enum exhaustively: the generated unions are
// what the window's code is checked against. The test writes a fixture
// that handles every value of every enum (exhaustive: `const n: never`),
// checks that it compiles against the file Go generates now, then adds a
// value to each enum (as a new Go constant would) and checks that tsc
// reports each switch. It runs the frontend's own tsc on four small files
// (a few seconds); without frontend/node_modules it is skipped, unless
// JUNCTURE_REQUIRE_TSC=1 (scripts/test-all.sh) makes that a failure.
func TestNewEnumValueBreaksTheTypeCheck(t *testing.T) {
	root, err := moduleRoot()
	if err != nil {
		t.Fatal(err)
	}
	tsc := filepath.Join(root, "frontend", "node_modules", "typescript", "bin", "tsc")
	if _, err := os.Stat(tsc); err != nil {
		if os.Getenv("JUNCTURE_REQUIRE_TSC") == "1" {
			t.Fatalf("no TypeScript compiler at %s (cd frontend && npm ci)", tsc)
		}
		t.Skipf("no TypeScript compiler at %s (cd frontend && npm ci; JUNCTURE_REQUIRE_TSC=1 makes this a failure)", tsc)
	}
	g, err := loadedGenerator()
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if err := g.renderRest(&b); err != nil { // collects every enum
		t.Fatal(err)
	}
	if len(g.enums) < 8 {
		t.Fatalf("only %d enums found", len(g.enums))
	}
	fixture := exhaustiveFixture(g.enums)
	json, err := os.ReadFile(filepath.Join(root, "frontend", "src", "transport", "json.ts"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	write := func(sub string, gen []byte) {
		t.Helper()
		d := filepath.Join(dir, sub)
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		for name, data := range map[string][]byte{"contract.gen.ts": gen, "json.ts": json, "fixture.ts": []byte(fixture)} {
			if err := os.WriteFile(filepath.Join(d, name), data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	now, err := Generate()
	if err != nil {
		t.Fatal(err)
	}
	write("now", now)
	extraEnumValues = map[string][]string{}
	for n := range g.enums {
		extraEnumValues[n] = []string{"added-in-go"}
	}
	added, err := Generate()
	extraEnumValues = nil
	if err != nil {
		t.Fatal(err)
	}
	write("added", added)

	cmd := exec.Command("node", tsc, "--noEmit", "--strict", "--target", "es2022", "--module", "esnext", "--moduleResolution", "bundler",
		"--verbatimModuleSyntax", "--lib", "es2022", filepath.Join(dir, "now", "fixture.ts"), filepath.Join(dir, "added", "fixture.ts"))
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		t.Fatalf("running tsc: %v\n%s", err, out)
	}
	errs := regexp.MustCompile(`(?m)^(\S+)\(\d+,\d+\): error`).FindAllStringSubmatch(string(out), -1)
	broken := map[string]int{}
	for _, e := range errs {
		broken[filepath.Base(filepath.Dir(e[1]))]++
	}
	if broken["now"] != 0 {
		t.Fatalf("the fixture does not compile against the file Go generates now:\n%s", out)
	}
	if broken["added"] != len(g.enums) {
		t.Fatalf("with a value added to each of the %d enums, tsc reported %d errors, want one a switch:\n%s", len(g.enums), broken["added"], out)
	}
}

// exhaustiveFixture switches over every value of every enum; the default
// branch compiles only while the switch handles them all.
func exhaustiveFixture(enums map[string]enum) string {
	var b strings.Builder
	for _, n := range sortedKeys(enums) {
		fmt.Fprintf(&b, "import type { %s } from './contract.gen';\n", n)
	}
	for _, n := range sortedKeys(enums) {
		fmt.Fprintf(&b, "\nexport function label%s(v: %s): string {\n  switch (v) {\n", n, n)
		for _, v := range enums[n].values {
			fmt.Fprintf(&b, "    case %s:\n", strconv.Quote(v))
		}
		b.WriteString("      return v;\n    default: {\n      const unhandled: never = v;\n      return unhandled;\n    }\n  }\n}\n")
	}
	return b.String()
}
