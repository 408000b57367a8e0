package mcp

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// claudeFileName labels errors in an imported Claude Desktop file.
const claudeFileName = "claude_desktop_config.json"

// ImportClaudeDesktop reads the servers of a claude_desktop_config.json.
// The file's other settings ("globalShortcut", ...) are ignored. Errors are
// *ConfigError, labelled claude_desktop_config.json. The map is never nil.
func ImportClaudeDesktop(data []byte) (map[string]ServerConfig, error) {
	c, l, err := parseConfig(data, claudeFileName)
	if err != nil {
		return nil, err
	}
	// Claude Desktop has neither "sandbox" nor "approval": a shared file
	// carrying them must not turn a server's sandbox off, widen what it may
	// write or trust its tools. The person sets those in Juncture.
	for _, name := range slices.Sorted(maps.Keys(c.Servers)) {
		s := c.Servers[name]
		if field := keychainRefIn(s); field != "" {
			// A *ConfigError like every other refusal here, so the window
			// shows it as a mistake in the file, not as an internal error.
			line, col := lineColumn(l.data, max(0, bytes.Index(l.data, []byte(secretRefPrefix))))
			return nil, &ConfigError{File: claudeFileName, Line: line, Column: col, Message: fmt.Sprintf(
				"server %q: %s holds a Juncture keychain reference, which a Claude Desktop file never does; type the value instead", name, field)}
		}
		s.Sandbox, s.Approval = nil, ""
		c.Servers[name] = s
	}
	return c.Servers, nil
}

// ClaudeDesktopConfigPath is where Claude Desktop keeps its configuration
// on this system (macOS ~/Library/Application Support/Claude, Windows
// %APPDATA%\Claude, Linux $XDG_CONFIG_HOME/Claude), for the Settings file
// picker to start in; "" when there is no configuration directory. The
// file may not exist.
func ClaudeDesktopConfigPath() string {
	// os.UserConfigDir is exactly those three directories.
	dir, err := os.UserConfigDir()
	if err != nil {
		return ""
	}
	return filepath.Join(dir, "Claude", claudeFileName)
}

// ImportSummary says what MergeImported did, for Settings to show.
type ImportSummary struct {
	Added   []string        `json:"added"`   // names as configured now (maybe with a -2 suffix)
	Skipped []SkippedServer `json:"skipped"` // already there
}

// SkippedServer is an imported server that was not added, and why.
type SkippedServer struct {
	Name   string `json:"name"`
	Reason string `json:"reason"`
}

// ReasonAlreadyConfigured is the Reason of a server skipped because the same
// name already holds the same configuration.
const ReasonAlreadyConfigured = "already configured"

// MergeImported adds imported servers to a copy of c. A new name is added
// as is. A name that already holds the same server is skipped ("already
// configured"); a name that holds a different one is added as name-2 (or
// -3, ...), unless an earlier import already put the same server under
// such a name (skipped: `already configured as "name-2"`). "The same"
// ignores Juncture's own fields (disabled, approval) and spellings of the
// same transport ("type" left out or written). The result does not depend
// on map order; c is not modified.
func MergeImported(c Config, imported map[string]ServerConfig) (Config, ImportSummary) {
	out := Config{Servers: make(map[string]ServerConfig, len(c.Servers)+len(imported)), Extra: c.Extra}
	maps.Copy(out.Servers, c.Servers)
	sum := ImportSummary{Added: []string{}, Skipped: []SkippedServer{}}
	for _, name := range slices.Sorted(maps.Keys(imported)) {
		s := imported[name]
		have, taken := out.Servers[name]
		if !taken {
			out.Servers[name] = s
			sum.Added = append(sum.Added, name)
			continue
		}
		if sameServer(have, s) {
			sum.Skipped = append(sum.Skipped, SkippedServer{Name: name, Reason: ReasonAlreadyConfigured})
			continue
		}
		for n := 2; ; n++ {
			alt := suffixedName(name, n)
			if have, taken := out.Servers[alt]; taken {
				if sameServer(have, s) {
					sum.Skipped = append(sum.Skipped, SkippedServer{Name: name, Reason: fmt.Sprintf("%s as %q", ReasonAlreadyConfigured, alt)})
					break
				}
				continue
			}
			// Leave names the import itself brings to their own entries.
			if _, own := imported[alt]; own {
				continue
			}
			out.Servers[alt] = s
			sum.Added = append(sum.Added, alt)
			break
		}
	}
	slices.Sort(sum.Added)
	return out, sum
}

// suffixedName is name-n, shortened (on a character boundary) so it stays
// within MaxServerNameLen and the file still loads.
func suffixedName(name string, n int) string {
	suffix := "-" + strconv.Itoa(n)
	limit := MaxServerNameLen - len(suffix)
	for len(name) > limit {
		_, size := utf8.DecodeLastRuneInString(name)
		name = name[:len(name)-size]
	}
	return name + suffix
}

// sameServer compares what makes two entries the same server.
func sameServer(a, b ServerConfig) bool {
	return reflect.DeepEqual(identity(a), identity(b))
}

// serverIdentity is a server in the form sameServer compares.
type serverIdentity struct {
	server ServerConfig      // without Extra
	extra  map[string]string // Extra as compact JSON
}

// identity normalises a server for comparison: empty and absent are alike,
// the transport is spelled one way, Juncture's own settings are left out,
// and unknown fields are compared as compact JSON.
func identity(s ServerConfig) serverIdentity {
	s.Disabled, s.Approval = false, PolicyDefault
	switch {
	case s.Command != "" && (s.Type == "" || s.Type == "stdio"):
		s.Type = "stdio"
	case s.URL != "" && (s.Type == "" || s.Type == "http" || s.Type == "streamable-http"):
		s.Type = "http"
	}
	if len(s.Args) == 0 {
		s.Args = nil
	}
	if len(s.Env) == 0 {
		s.Env = nil
	}
	if len(s.Headers) == 0 {
		s.Headers = nil
	}
	var extra map[string]string
	for k, v := range s.Extra {
		if extra == nil {
			extra = make(map[string]string, len(s.Extra))
		}
		var b bytes.Buffer
		if err := json.Compact(&b, v); err != nil {
			extra[k] = string(v)
			continue
		}
		extra[k] = b.String()
	}
	s.Extra = nil
	return serverIdentity{server: s, extra: extra}
}

// keychainRefIn names the first field of s holding a keychain reference
// ("${keychain:"), or "". An imported reference would be handed whatever
// is still stored under that account.
func keychainRefIn(s ServerConfig) string {
	has := func(v string) bool { return strings.Contains(v, secretRefPrefix) }
	for _, k := range slices.Sorted(maps.Keys(s.Env)) {
		if has(s.Env[k]) {
			return "env " + k
		}
	}
	for _, k := range slices.Sorted(maps.Keys(s.Headers)) {
		if has(s.Headers[k]) {
			return "header " + k
		}
	}
	for _, a := range s.Args {
		if has(a) {
			return "an argument"
		}
	}
	if u, err := url.QueryUnescape(s.URL); has(s.URL) || (err == nil && has(u)) || urlHoldsRef(s.URL) {
		return "the url"
	}
	if s.Auth != nil && has(s.Auth.ClientSecret) {
		return "auth clientSecret"
	}
	return ""
}

// urlHoldsRef says whether ResolveSecrets would find a reference in raw,
// asked part by part as it does: a whole-URL unescape fails on one bad
// escape ("%zz") and would hide an escaped password reference.
func urlHoldsRef(raw string) bool {
	found := false
	_, _ = rewriteURLSecrets(raw, func(_, v string) (string, error) {
		if _, ok := ParseSecretRef(v); ok {
			found = true
		}
		return v, nil
	})
	return found
}
