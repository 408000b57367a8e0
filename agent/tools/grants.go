package tools

import (
	"encoding/json"
	"fmt"
	"net/url"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/juncture-app/juncture/agent/history"
)

// Argument-scoped rules and deny rules: the scopes beyond MatchRule's
// original four, and the wider reading a deny rule gets (a deny rule
// errs towards refusing, an allow rule towards asking).

// matchGrant matches the scopes added with grants (command glob, folder
// glob, host, argument equals / starts with) for an allow rule.
func matchGrant(rule history.PermissionRule, toolName string, args json.RawMessage, w Workspace) bool {
	switch rule.Scope {
	case history.ScopeCommandGlob:
		if toolName != ToolRunCommand {
			return false
		}
		var a commandArgs
		if json.Unmarshal(args, &a) != nil {
			return false
		}
		words, ok := shellWords(a.Command, runtime.GOOS == "windows")
		return ok && len(words) > 0 && !wordsWithBlanks(words) && Glob(rule.Pattern, strings.Join(words, " "))
	case history.ScopeFolderGlob:
		if !fileTools[toolName] || rule.Glob == "" {
			return false
		}
		target, ok := filePathArg(toolName, args, w)
		if !ok {
			return false
		}
		folder, ok := canonicalFolder(rule.Pattern, w)
		if !ok || !within(folder, target) || folder == target {
			return false
		}
		rel, err := filepath.Rel(folder, target)
		return err == nil && Glob(rule.Glob, filepath.ToSlash(rel))
	case history.ScopeHost:
		host, ok := urlHost(toolName, args)
		return ok && rule.Pattern != "" && host == strings.ToLower(rule.Pattern)
	}
	return false
}

// MatchArg reports whether an argument rule (ScopeArgEquals,
// ScopeArgPrefix) covers args: its argument is a string that equals /
// starts with the pattern. Other scopes never match here.
func MatchArg(rule history.PermissionRule, args json.RawMessage) bool {
	if rule.Arg == "" || rule.Pattern == "" {
		return false
	}
	var obj map[string]json.RawMessage
	if json.Unmarshal(args, &obj) != nil {
		return false
	}
	var v string
	if json.Unmarshal(obj[rule.Arg], &v) != nil {
		return false
	}
	switch rule.Scope {
	case history.ScopeArgEquals:
		return v == rule.Pattern
	case history.ScopeArgPrefix:
		return strings.HasPrefix(v, rule.Pattern)
	}
	return false
}

// urlHost is open_url's host, lower case, for an http(s) address.
func urlHost(toolName string, args json.RawMessage) (string, bool) {
	if toolName != ToolOpenURL {
		return "", false
	}
	var a struct {
		URL string `json:"url"`
	}
	if json.Unmarshal(args, &a) != nil {
		return "", false
	}
	u, err := url.Parse(a.URL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Hostname() == "" || u.User != nil {
		return "", false
	}
	return strings.ToLower(u.Hostname()), true
}

// matchDeny reports whether a deny rule covers a call. It reads the call
// wider than an allow rule would: a command rule looks at every simple
// command of the line (split at ; & | newlines, parentheses and
// backticks), after leading VAR=value words and the wrappers sudo, env,
// nohup, exec, command, time and xargs, with the program's path dropped;
// a part it cannot split into words is matched on its raw words.
func matchDeny(rule history.PermissionRule, toolName string, args json.RawMessage, w Workspace) bool {
	if rule.Tool != toolName {
		return false
	}
	switch rule.Scope {
	case history.ScopeCommandPrefix, history.ScopeCommandGlob:
		if toolName != ToolRunCommand {
			return false
		}
		var a commandArgs
		if json.Unmarshal(args, &a) != nil {
			return false
		}
		for _, words := range commandSegments(a.Command) {
			if rule.Scope == history.ScopeCommandGlob {
				if Glob(rule.Pattern, strings.Join(words, " ")) {
					return true
				}
				continue
			}
			want, ok := shellWords(rule.Pattern, runtime.GOOS == "windows")
			if ok && len(want) > 0 && len(words) >= len(want) && slicesEqual(words[:len(want)], want) {
				return true
			}
		}
		return false
	case history.ScopeArgEquals, history.ScopeArgPrefix:
		return MatchArg(rule, args)
	}
	return MatchRule(allowForm(rule), toolName, args, w)
}

// allowForm is a deny rule read as the allow rule of the same scope.
func allowForm(r history.PermissionRule) history.PermissionRule {
	r.Effect = history.EffectAllow
	return r
}

var commandWrappers = map[string]bool{"sudo": true, "env": true, "nohup": true, "exec": true, "command": true, "time": true, "xargs": true, "doas": true}

// commandSegments splits a command line into its simple commands' words,
// for deny rules: leading assignments and wrappers dropped, the program
// named by its base name.
func commandSegments(s string) [][]string {
	cut := strings.NewReplacer(";", "\n", "&", "\n", "|", "\n", "(", "\n", ")", "\n", "`", "\n", "$(", "\n", "\r", "\n", "{", "\n", "}", "\n")
	var out [][]string
	for _, part := range strings.Split(cut.Replace(s), "\n") {
		words, ok := shellWords(part, false)
		if !ok {
			words = strings.Fields(strings.NewReplacer(`"`, "", "'", "", `\`, "").Replace(part))
		}
		for len(words) > 0 && (strings.Contains(words[0], "=") || commandWrappers[filepath.Base(words[0])]) {
			words = words[1:]
		}
		if len(words) == 0 {
			continue
		}
		words = append([]string{filepath.Base(words[0])}, words[1:]...)
		out = append(out, words)
	}
	return out
}

// wordsWithBlanks: a word with a space in it would read as two words
// once joined for a glob, so an allow glob never matches such a command.
func wordsWithBlanks(words []string) bool {
	for _, w := range words {
		if strings.ContainsAny(w, " \t") {
			return true
		}
	}
	return false
}

func slicesEqual(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// Glob reports whether name matches pattern, where * matches any run of
// characters (slashes and spaces included) and ? any one character;
// everything else is literal.
func Glob(pattern, name string) bool {
	if pattern == "" {
		return false
	}
	p, n := []rune(pattern), []rune(name)
	// The classic two-pointer match with one backtrack point: linear in
	// practice, never exponential.
	pi, ni, star, mark := 0, 0, -1, 0
	for ni < len(n) {
		switch {
		case pi < len(p) && (p[pi] == '?' || p[pi] == n[ni]) && p[pi] != '*':
			pi++
			ni++
		case pi < len(p) && p[pi] == '*':
			star, mark = pi, ni
			pi++
		case star >= 0:
			pi = star + 1
			mark++
			ni = mark
		default:
			return false
		}
	}
	for pi < len(p) && p[pi] == '*' {
		pi++
	}
	return pi == len(p)
}

// suggestGrants adds the argument-scoped rules a call can offer: the
// command with its last word left open, the folder with the file's
// extension, the page's host.
func suggestGrants(toolName string, args json.RawMessage, w Workspace) []history.PermissionRule {
	switch toolName {
	case ToolRunCommand:
		var a commandArgs
		if json.Unmarshal(args, &a) != nil {
			return nil
		}
		win := runtime.GOOS == "windows"
		words, ok := shellWords(a.Command, win)
		if !ok || len(words) < 3 || wordsWithBlanks(words) || strings.ContainsAny(strings.Join(words, ""), "*?") {
			return nil
		}
		prefix := commandPrefix(words)
		if len(words) <= len(prefix)+1 {
			return nil // the prefix rule says the same
		}
		if multiCommandTools[filepath.Base(words[0])] && len(prefix) < 2 {
			return nil // "git -C x *" would leave the subcommand open
		}
		return []history.PermissionRule{{Tool: toolName, Scope: history.ScopeCommandGlob, Pattern: strings.Join(words[:len(words)-1], " ") + " *"}}
	case ToolReadFile, ToolWriteFile:
		target, ok := filePathArg(toolName, args, w)
		if !ok {
			return nil
		}
		ext := filepath.Ext(target)
		if ext == "" || strings.ContainsAny(ext, "*?") {
			return nil
		}
		return []history.PermissionRule{{Tool: toolName, Scope: history.ScopeFolderGlob, Pattern: filepath.Dir(target), Glob: "*" + ext}}
	case ToolOpenURL:
		if host, ok := urlHost(toolName, args); ok {
			return []history.PermissionRule{{Tool: toolName, Scope: history.ScopeHost, Pattern: host}}
		}
	}
	return nil
}

// SuggestArgRules offers argument rules for a call of a tool with its own
// rules (an MCP tool): "when <arg> is <value>" for its first short string
// arguments, and "starts with" the value up to its last slash when it
// looks like a path or an address.
func SuggestArgRules(toolName string, args json.RawMessage) []history.PermissionRule {
	var obj map[string]json.RawMessage
	if json.Unmarshal(args, &obj) != nil {
		return nil
	}
	keys := make([]string, 0, len(obj))
	for k := range obj {
		keys = append(keys, k)
	}
	sortStrings(keys)
	var out []history.PermissionRule
	for _, k := range keys {
		var v string
		if json.Unmarshal(obj[k], &v) != nil || v == "" || len(v) > 200 || strings.ContainsAny(v, "\n\r\x00") {
			continue
		}
		out = append(out, history.PermissionRule{Tool: toolName, Scope: history.ScopeArgEquals, Arg: k, Pattern: v})
		if i := strings.LastIndex(v, "/"); i > 0 && i < len(v)-1 {
			out = append(out, history.PermissionRule{Tool: toolName, Scope: history.ScopeArgPrefix, Arg: k, Pattern: v[:i+1]})
		}
		if len(out) >= 4 {
			break
		}
	}
	return out
}

func sortStrings(s []string) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}

// Describe says in words what a rule covers, for the card and Settings.
func Describe(r history.PermissionRule) string {
	verb := "Allow"
	if r.IsDeny() {
		verb = "Never allow"
	}
	var what string
	switch r.Scope {
	case history.ScopeTool:
		what = fmt.Sprintf("every %s call", r.Tool)
	case history.ScopeCommandPrefix:
		what = fmt.Sprintf("%s when the command starts with %q", r.Tool, r.Pattern)
	case history.ScopeCommandGlob:
		what = fmt.Sprintf("%s when the command matches %q", r.Tool, r.Pattern)
	case history.ScopeFolder:
		what = fmt.Sprintf("%s in the folder %s", r.Tool, r.Pattern)
	case history.ScopeFile:
		what = fmt.Sprintf("%s of the file %s", r.Tool, r.Pattern)
	case history.ScopeFolderGlob:
		what = fmt.Sprintf("%s of files matching %q under %s", r.Tool, r.Glob, r.Pattern)
	case history.ScopeHost:
		what = fmt.Sprintf("%s to %s", r.Tool, r.Pattern)
	case history.ScopeArgEquals:
		what = fmt.Sprintf("%s when %s is %q", r.Tool, r.Arg, r.Pattern)
	case history.ScopeArgPrefix:
		what = fmt.Sprintf("%s when %s starts with %q", r.Tool, r.Arg, r.Pattern)
	case history.ScopeThread:
		what = fmt.Sprintf("every %s call in this chat", r.Tool)
	case history.ScopeToolIdentity:
		what = fmt.Sprintf("%s while the server does not change it", r.Tool)
	case history.ScopeServer:
		what = fmt.Sprintf("every tool of the server %s", r.Pattern)
	case history.ScopeServerTools:
		what = fmt.Sprintf("the tools of the server %s named %q", r.Pattern, r.Glob)
	default:
		what = fmt.Sprintf("%s (%s)", r.Tool, r.Scope)
	}
	return verb + " " + what
}

// RefusedExample is one call of the same tool that the rule would not
// cover (for an allow rule: the card's "will not cover" line), or "".
func RefusedExample(r history.PermissionRule) string {
	switch r.Scope {
	case history.ScopeCommandPrefix, history.ScopeCommandGlob:
		p := strings.TrimSuffix(r.Pattern, " *")
		return p + " && rm -rf ~ (a second command is never covered)"
	case history.ScopeFolder, history.ScopeFolderGlob, history.ScopeFile:
		return filepath.Join(r.Pattern, "..", "other", "secret.txt")
	case history.ScopeHost:
		return "https://sub." + r.Pattern + "/ (another host)"
	case history.ScopeArgEquals:
		return fmt.Sprintf("%s = %q", r.Arg, r.Pattern+"x")
	case history.ScopeArgPrefix:
		return fmt.Sprintf("%s = %q", r.Arg, "x"+r.Pattern)
	case history.ScopeThread:
		return r.Tool + " in another chat"
	}
	return ""
}
