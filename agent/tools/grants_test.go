package tools

import (
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/juncture-app/juncture/agent/history"
)

// TestArgumentRuleAllowsGitStatusAndAsksForGitPush: a rule offered from a
// `git status` call covers `git status` (and its options) and not
// `git push`, nor `git status` followed by another command.
func TestArgumentRuleAllowsGitStatusAndAsksForGitPush(t *testing.T) {
	t.Parallel()
	if runtime.GOOS == "windows" {
		t.Skip("sh syntax")
	}
	w, _ := newWorkspace(t)
	offered := SuggestRules(ToolRunCommand, cmdArgs("git status --short"), w)
	if len(offered) == 0 || offered[0].Scope != history.ScopeCommandPrefix || offered[0].Pattern != "git status" {
		t.Fatalf("offered %+v; want git status first", offered)
	}
	rule := offered[0]
	for cmd, want := range map[string]bool{
		"git status": true, "git status -s": true, "git push": false, "git push origin main": false,
		"git status && git push": false, "git statusx": false,
	} {
		if got := MatchRule(rule, ToolRunCommand, cmdArgs(cmd), w); got != want {
			t.Errorf("%q: covered = %v; want %v", cmd, got, want)
		}
	}
	if d := Describe(rule); d != `Allow run_command when the command starts with "git status"` {
		t.Errorf("Describe = %q", d)
	}
	if ex := RefusedExample(rule); !strings.HasPrefix(ex, "git status && rm -rf ~") || MatchRule(rule, ToolRunCommand, cmdArgs("git status && rm -rf ~"), w) {
		t.Errorf("refused example %q is covered or wrong", ex)
	}
}

func TestGrantScopes(t *testing.T) {
	t.Parallel()
	if runtime.GOOS == "windows" {
		t.Skip("sh syntax")
	}
	w, root := newWorkspace(t)
	if err := os.MkdirAll(filepath.Join(root, "src", "deep"), 0o755); err != nil {
		t.Fatal(err)
	}
	src := filepath.Join(root, "src")
	urlArgs := func(u string) json.RawMessage { b, _ := json.Marshal(map[string]string{"url": u}); return b }
	cases := []struct {
		name string
		rule history.PermissionRule
		tool string
		args json.RawMessage
		want bool
	}{
		{"glob", history.PermissionRule{Tool: ToolRunCommand, Scope: history.ScopeCommandGlob, Pattern: "npm run test*"}, ToolRunCommand, cmdArgs("npm run test:unit"), true},
		{"glob other", history.PermissionRule{Tool: ToolRunCommand, Scope: history.ScopeCommandGlob, Pattern: "npm run test*"}, ToolRunCommand, cmdArgs("npm run build"), false},
		{"glob never spans operators", history.PermissionRule{Tool: ToolRunCommand, Scope: history.ScopeCommandGlob, Pattern: "npm *"}, ToolRunCommand, cmdArgs("npm x; rm -rf ~"), false},
		{"glob and a quoted blank", history.PermissionRule{Tool: ToolRunCommand, Scope: history.ScopeCommandGlob, Pattern: "ls a *"}, ToolRunCommand, cmdArgs("ls 'a b'"), false},
		{"folder glob", history.PermissionRule{Tool: ToolReadFile, Scope: history.ScopeFolderGlob, Pattern: src, Glob: "*.go"}, ToolReadFile, pathArgs("src/deep/x.go"), true},
		{"folder glob other ext", history.PermissionRule{Tool: ToolReadFile, Scope: history.ScopeFolderGlob, Pattern: src, Glob: "*.go"}, ToolReadFile, pathArgs("src/x.env"), false},
		{"folder glob outside", history.PermissionRule{Tool: ToolReadFile, Scope: history.ScopeFolderGlob, Pattern: src, Glob: "*"}, ToolReadFile, pathArgs("other.go"), false},
		{"folder glob escape", history.PermissionRule{Tool: ToolReadFile, Scope: history.ScopeFolderGlob, Pattern: src, Glob: "*"}, ToolReadFile, pathArgs("src/../../etc/passwd"), false},
		{"host", history.PermissionRule{Tool: ToolOpenURL, Scope: history.ScopeHost, Pattern: "example.org"}, ToolOpenURL, urlArgs("https://EXAMPLE.org/x"), true},
		{"host subdomain", history.PermissionRule{Tool: ToolOpenURL, Scope: history.ScopeHost, Pattern: "example.org"}, ToolOpenURL, urlArgs("https://evil.example.org/"), false},
		{"host lookalike", history.PermissionRule{Tool: ToolOpenURL, Scope: history.ScopeHost, Pattern: "example.org"}, ToolOpenURL, urlArgs("https://example.org@evil.com/"), false},
		{"host scheme", history.PermissionRule{Tool: ToolOpenURL, Scope: history.ScopeHost, Pattern: "example.org"}, ToolOpenURL, urlArgs("javascript://example.org/"), false},
		// Deny rules read wider.
		{"deny in a compound", history.PermissionRule{Tool: ToolRunCommand, Scope: history.ScopeCommandPrefix, Pattern: "rm -rf", Effect: history.EffectDeny}, ToolRunCommand, cmdArgs("cd x && sudo /bin/rm -rf ~"), true},
		{"deny in a substitution", history.PermissionRule{Tool: ToolRunCommand, Scope: history.ScopeCommandPrefix, Pattern: "rm -rf", Effect: history.EffectDeny}, ToolRunCommand, cmdArgs(`echo "$(rm -rf /)"`), true},
		{"deny after env", history.PermissionRule{Tool: ToolRunCommand, Scope: history.ScopeCommandPrefix, Pattern: "rm -rf", Effect: history.EffectDeny}, ToolRunCommand, cmdArgs("A=1 rm -rf /"), true},
		{"deny not others", history.PermissionRule{Tool: ToolRunCommand, Scope: history.ScopeCommandPrefix, Pattern: "rm -rf", Effect: history.EffectDeny}, ToolRunCommand, cmdArgs("rm x"), false},
		{"deny folder", history.PermissionRule{Tool: ToolWriteFile, Scope: history.ScopeFolder, Pattern: src, Effect: history.EffectDeny}, ToolWriteFile, pathArgs("src/a"), true},
		{"deny arg", history.PermissionRule{Tool: ToolRunCommand, Scope: history.ScopeArgPrefix, Arg: "command", Pattern: "curl", Effect: history.EffectDeny}, ToolRunCommand, cmdArgs("curl x"), true},
		// Argument rules are an MCP tool's (through MatchArg): a built-in
		// allow never reads them.
		{"arg allow on a built-in", history.PermissionRule{Tool: ToolRunCommand, Scope: history.ScopeArgPrefix, Arg: "command", Pattern: "git"}, ToolRunCommand, cmdArgs("git; rm"), false},
	}
	for _, tc := range cases {
		if got := MatchRule(tc.rule, tc.tool, tc.args, w); got != tc.want {
			t.Errorf("%s: MatchRule = %v; want %v", tc.name, got, tc.want)
		}
	}
}

func TestMatchArgAndSuggestArgRules(t *testing.T) {
	t.Parallel()
	args := json.RawMessage(`{"path":"/srv/data/a.txt","n":3,"mode":"r"}`)
	rules := SuggestArgRules("fs_read", args)
	want := []history.PermissionRule{
		{Tool: "fs_read", Scope: history.ScopeArgEquals, Arg: "mode", Pattern: "r"},
		{Tool: "fs_read", Scope: history.ScopeArgEquals, Arg: "path", Pattern: "/srv/data/a.txt"},
		{Tool: "fs_read", Scope: history.ScopeArgPrefix, Arg: "path", Pattern: "/srv/data/"},
	}
	if len(rules) != len(want) {
		t.Fatalf("SuggestArgRules = %+v", rules)
	}
	for i := range want {
		if rules[i] != want[i] || !MatchArg(rules[i], args) {
			t.Errorf("rule %d = %+v; want %+v, matching its call", i, rules[i], want[i])
		}
	}
	if MatchArg(want[2], json.RawMessage(`{"path":"/srv/other"}`)) || MatchArg(want[1], json.RawMessage(`{"path":3}`)) {
		t.Error("an argument rule matched another value")
	}
}

func TestGlob(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		p, s string
		want bool
	}{{"*", "", true}, {"a*c", "abbbc", true}, {"a?c", "abc", true}, {"a?c", "ac", false}, {"delete_*", "delete_pod", true},
		{"delete_*", "get_pod", false}, {"", "", false}, {"*a*a*a*a*a*b", strings.Repeat("a", 5000), false}} {
		if got := Glob(tc.p, tc.s); got != tc.want {
			t.Errorf("Glob(%q, %q) = %v", tc.p, tc.s, got)
		}
	}
}
