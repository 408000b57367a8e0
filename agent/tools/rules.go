package tools

import (
	"encoding/json"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"

	"github.com/juncture-app/juncture/agent/history"
)

// fileTools are the tools whose "path" argument a folder rule applies to.
var fileTools = map[string]bool{ToolListFiles: true, ToolReadFile: true, ToolWriteFile: true}

// multiCommandTools take a subcommand as their second word, so "Always
// allow" offers "git status" rather than all of git.
var multiCommandTools = map[string]bool{
	"apt": true, "brew": true, "bun": true, "cargo": true, "conda": true, "deno": true,
	"docker": true, "dotnet": true, "gh": true, "git": true, "go": true, "gradle": true,
	"helm": true, "kubectl": true, "make": true, "mvn": true, "npm": true, "pip": true,
	"pip3": true, "pnpm": true, "poetry": true, "systemctl": true, "terraform": true,
	"uv": true, "yarn": true,
}

var subcommandRE = regexp.MustCompile(`^[a-z][a-z0-9_:-]*$`)

// MatchRule reports whether a remembered "Always allow" rule covers a call.
// It matches the parsed arguments, never their JSON text:
//   - the tool name must be equal (a rule for run_command never covers
//     run_command2);
//   - ScopeTool covers every call of the tool;
//   - ScopeCommandPrefix covers a run_command whose command splits into
//     plain words that start with the pattern's words. A command with any
//     shell control operator, substitution, expansion or redirection
//     (; && || | & newline $ backtick < > parentheses) never matches;
//   - ScopeFolder covers a file tool whose path, resolved in the workspace
//     with symlinks followed, lies inside the pattern folder (itself
//     canonicalised). A path that escapes the workspace never matches.
//
// Unknown scopes and unparsable arguments never match.
//
// The scopes added with grants (command glob, folder glob, host) are in
// grants.go. A deny rule (history.EffectDeny) is read wider: matchDeny.
func MatchRule(rule history.PermissionRule, toolName string, args json.RawMessage, w Workspace) bool {
	if rule.Tool == "" || rule.Tool != toolName {
		return false
	}
	if rule.IsDeny() {
		return matchDeny(rule, toolName, args, w)
	}
	switch rule.Scope {
	case history.ScopeTool:
		return true
	case history.ScopeCommandPrefix:
		if toolName != ToolRunCommand {
			return false
		}
		var a commandArgs
		if json.Unmarshal(args, &a) != nil {
			return false
		}
		return commandHasPrefix(a.Command, rule.Pattern)
	case history.ScopeFolder:
		if !fileTools[toolName] {
			return false
		}
		target, ok := filePathArg(toolName, args, w)
		if !ok {
			return false
		}
		folder, ok := canonicalFolder(rule.Pattern, w)
		return ok && within(folder, target)
	case history.ScopeFile:
		if !fileTools[toolName] {
			return false
		}
		target, ok := filePathArg(toolName, args, w)
		if !ok {
			return false
		}
		file, ok := canonicalFolder(rule.Pattern, w) // the same resolution, for a file
		return ok && file == target
	}
	return matchGrant(rule, toolName, args, w)
}

// Covers reports whether a remembered rule covers a call of t: the tool's
// own RuleSet when it has one (MCP tools), MatchRule otherwise.
func Covers(t Tool, rule history.PermissionRule, args json.RawMessage, w Workspace) bool {
	if t.Rules != nil {
		return t.Rules.Match != nil && t.Rules.Match(rule, args)
	}
	return MatchRule(rule, t.Name, args, w)
}

// Suggest returns what "Always allow" can offer for a call of t: the
// tool's own RuleSet when it has one, SuggestRules otherwise.
func Suggest(t Tool, args json.RawMessage, w Workspace) []history.PermissionRule {
	if t.Rules != nil {
		if t.Rules.Suggest == nil {
			return nil
		}
		return t.Rules.Suggest(args)
	}
	return SuggestRules(t.Name, args, w)
}

// SuggestRules returns what "Always allow" can offer for a call, narrowest
// first: the command prefix for run_command (when the command is plain
// words); for file tools (when the path is in the workspace) the file and
// its folder (unless that is the workspace root, which is the whole tool
// for a file tool); and always the whole tool. The runtime adds "this
// chat" (history.ScopeThread). ID and CreatedAt are left for the caller.
func SuggestRules(toolName string, args json.RawMessage, w Workspace) []history.PermissionRule {
	var rules []history.PermissionRule
	switch {
	case toolName == ToolRunCommand:
		var a commandArgs
		if json.Unmarshal(args, &a) != nil {
			break
		}
		rules = append(rules, suggestGrants(toolName, args, w)...) // the command with its last word open
		if words, ok := shellWords(a.Command, runtime.GOOS == "windows"); ok {
			if pattern, ok := joinWords(commandPrefix(words), runtime.GOOS == "windows"); ok {
				rules = append(rules, history.PermissionRule{Tool: toolName, Scope: history.ScopeCommandPrefix, Pattern: pattern})
			}
		}
	case toolName == ToolOpenURL:
		rules = append(rules, suggestGrants(toolName, args, w)...)
	case fileTools[toolName]:
		target, ok := filePathArg(toolName, args, w)
		if !ok {
			break
		}
		folder := filepath.Dir(target)
		if toolName == ToolListFiles {
			folder = target
		} else {
			rules = append(rules, history.PermissionRule{Tool: toolName, Scope: history.ScopeFile, Pattern: target})
			rules = append(rules, suggestGrants(toolName, args, w)...)
		}
		// The workspace root as "folder" would be the whole tool again
		// (file tools reach nothing else): offered as the tool only.
		if root, err := w.root(); err != nil || folder != root {
			rules = append(rules, history.PermissionRule{Tool: toolName, Scope: history.ScopeFolder, Pattern: folder})
		}
	}
	return append(rules, history.PermissionRule{Tool: toolName, Scope: history.ScopeTool})
}

// commandHasPrefix reports whether command is plain words starting with the
// words of prefix, compared whole.
func commandHasPrefix(command, prefix string) bool {
	win := runtime.GOOS == "windows"
	want, ok := shellWords(prefix, win)
	if !ok || len(want) == 0 {
		return false
	}
	got, ok := shellWords(command, win)
	if !ok || len(got) < len(want) {
		return false
	}
	for i := range want {
		if got[i] != want[i] {
			return false
		}
	}
	return true
}

// commandPrefix picks the words "Always allow" offers: the program, plus
// its subcommand for tools like git. A leading VAR=value offers nothing.
func commandPrefix(words []string) []string {
	if len(words) == 0 || strings.Contains(words[0], "=") {
		return nil
	}
	if len(words) > 1 && multiCommandTools[filepath.Base(words[0])] && subcommandRE.MatchString(words[1]) {
		return words[:2]
	}
	return words[:1]
}

// filePathArg resolves a file tool's path argument in the workspace.
func filePathArg(toolName string, args json.RawMessage, w Workspace) (string, bool) {
	var a struct {
		Path *string `json:"path"`
	}
	if json.Unmarshal(args, &a) != nil {
		return "", false
	}
	p := ""
	switch {
	case a.Path != nil:
		p = *a.Path
	case toolName != ToolListFiles:
		return "", false // read_file and write_file need a path
	}
	target, err := w.Resolve(p)
	return target, err == nil
}

// canonicalFolder resolves a folder rule's pattern: relative patterns are
// relative to the workspace root; symlinks and ".." are resolved.
func canonicalFolder(pattern string, w Workspace) (string, bool) {
	if pattern == "" {
		return "", false
	}
	if !filepath.IsAbs(pattern) {
		root, err := w.root()
		if err != nil {
			return "", false
		}
		pattern = filepath.Join(root, pattern)
	}
	real, err := evalExisting(filepath.Clean(pattern))
	return real, err == nil
}

// shellWords splits a command line into words the way the shell would,
// but only for plain commands: ok is false if anything in it could run
// something else, redirect, or expand to an unknown value. With windows
// set it follows cmd.exe, which has no backslash or single-quote escapes.
func shellWords(s string, windows bool) (words []string, ok bool) {
	if windows {
		return cmdWords(s)
	}
	var cur strings.Builder
	inWord := false
	flush := func() {
		if inWord {
			words = append(words, cur.String())
			cur.Reset()
			inWord = false
		}
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 && c != '\t' || c == 0x7f {
			return nil, false // newline, carriage return, NUL and friends
		}
		switch c {
		case ' ', '\t':
			flush()
		case ';', '&', '|', '<', '>', '(', ')', '`', '$':
			return nil, false
		case '#':
			if !inWord {
				return nil, false // a comment
			}
			cur.WriteByte(c)
		case '\\':
			if i+1 >= len(s) || s[i+1] < 0x20 || s[i+1] == 0x7f {
				return nil, false // a trailing backslash, or a line continuation
			}
			i++
			cur.WriteByte(s[i])
			inWord = true
		case '\'':
			end := strings.IndexByte(s[i+1:], '\'')
			if end < 0 {
				return nil, false
			}
			quoted := s[i+1 : i+1+end]
			if strings.ContainsAny(quoted, "\n\r\x00") {
				return nil, false
			}
			cur.WriteString(quoted)
			inWord = true
			i += end + 1
		case '"':
			i++
			for ; i < len(s) && s[i] != '"'; i++ {
				switch s[i] {
				case '$', '`', '\n', '\r', 0:
					return nil, false
				case '\\':
					if i+1 < len(s) && strings.IndexByte("$`\"\\", s[i+1]) >= 0 {
						i++
					}
				}
				cur.WriteByte(s[i])
			}
			if i >= len(s) {
				return nil, false
			}
			inWord = true
		default:
			cur.WriteByte(c)
			inWord = true
		}
	}
	flush()
	return words, true
}

// cmdWords is shellWords for cmd.exe. It refuses every character cmd gives
// a meaning to (operators, escapes, variable expansion), even inside
// quotes, and uses double quotes only to group words.
func cmdWords(s string) (words []string, ok bool) {
	if strings.ContainsAny(s, "&|<>()^%!;,\n\r\x00`") {
		return nil, false
	}
	var cur strings.Builder
	inWord, quoted := false, false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '"':
			quoted = !quoted
			inWord = true
		case (c == ' ' || c == '\t') && !quoted:
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		case c < 0x20 && c != '\t':
			return nil, false
		default:
			cur.WriteByte(c)
			inWord = true
		}
	}
	if quoted {
		return nil, false
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words, true
}

var plainWordRE = regexp.MustCompile(`^[A-Za-z0-9_@%+=:,./-]+$`)

// joinWords writes words back as a pattern that shellWords splits into the
// same words.
func joinWords(words []string, windows bool) (string, bool) {
	if len(words) == 0 {
		return "", false
	}
	parts := make([]string, len(words))
	for i, w := range words {
		switch {
		case plainWordRE.MatchString(w) && (!windows || !strings.ContainsAny(w, "%,")):
			parts[i] = w
		case windows:
			if strings.ContainsAny(w, `"`) {
				return "", false
			}
			parts[i] = `"` + w + `"`
		default:
			parts[i] = "'" + strings.ReplaceAll(w, "'", `'\''`) + "'"
		}
	}
	out := strings.Join(parts, " ")
	if back, ok := shellWords(out, windows); !ok || strings.Join(back, "\x00") != strings.Join(words, "\x00") {
		return "", false
	}
	return out, true
}
