package mcp

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"unicode"

	"github.com/juncture-app/juncture/agent/sandbox"
	"github.com/juncture-app/juncture/internal/plainfile"
)

// ErrBrokenConfig means mcp.json exists but does not parse. SaveConfig
// refuses to replace such a file: the person's hand edits would be lost.
var ErrBrokenConfig = errors.New("mcp: the configuration file does not parse; fix it first")

// ErrMaskedSecret means a header or environment value is still the mask
// Settings showed (Mask…) and no previous value could be put back, for
// example because the server was renamed. Saving it would replace a secret
// by bullets.
var ErrMaskedSecret = errors.New("mcp: a secret is still masked; type its value again")

// MaxServerNameLen is the longest server name mcp.json may hold, in bytes.
const MaxServerNameLen = 64

// configFileName labels errors in mcp.json.
const configFileName = "mcp.json"

// ConfigError is a problem in a configuration file, at a place a person can
// find in an editor.
type ConfigError struct {
	// File labels the file in Error(); empty means mcp.json.
	File string `json:"file,omitempty"`
	// Line and Column are 1-based. Column counts characters (runes), not
	// bytes, as editors do.
	Line    int    `json:"line"`
	Column  int    `json:"column"`
	Message string `json:"message"`
}

func (e *ConfigError) Error() string {
	file := e.File
	if file == "" {
		file = configFileName
	}
	return fmt.Sprintf("%s line %d, column %d: %s", file, e.Line, e.Column, e.Message)
}

// DefaultConfigPath is $XDG_CONFIG_HOME/juncture/mcp.json (or the platform's
// configuration directory: os.UserConfigDir).
func DefaultConfigPath() (string, error) {
	dir, err := os.UserConfigDir()
	if err != nil {
		return "", fmt.Errorf("finding the configuration directory: %w", err)
	}
	return filepath.Join(dir, "juncture", configFileName), nil
}

// ParseConfig parses mcp.json. Empty input is an empty configuration.
// Errors are *ConfigError. Servers is never nil in the result.
func ParseConfig(data []byte) (Config, error) {
	c, _, err := parseConfig(data, configFileName)
	return c, err
}

// LoadConfig reads and parses the file at path. A missing file is an empty
// configuration. A file that does not parse gives an error wrapping both
// ErrBrokenConfig and the *ConfigError.
func LoadConfig(path string) (Config, error) {
	c, _, err := ReadConfig(path)
	return c, err
}

// ReadConfig is LoadConfig that also returns the file's text (what the raw
// editor shows, broken or not); a missing file is empty text.
func ReadConfig(path string) (Config, []byte, error) {
	data, err := readConfigFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return Config{Servers: map[string]ServerConfig{}}, nil, nil
	}
	if err != nil {
		return Config{}, nil, fmt.Errorf("reading the MCP configuration %s: %w", path, err)
	}
	c, _, err := parseConfig(data, filepath.Base(path))
	if err != nil {
		return Config{}, data, fmt.Errorf("reading the MCP configuration %s: %w: %w", path, ErrBrokenConfig, err)
	}
	return c, data, nil
}

// maxConfigFile is the most an MCP configuration file may hold (a server
// takes a few hundred bytes).
const maxConfigFile = 1 << 20

// readConfigFile reads the configuration file, refusing at once what is
// not one: the app reads it while it starts, where a named pipe (or a
// link to one) would hold the start forever, a terminal could become its
// controlling terminal, and a huge file would be read whole into memory.
// plainfile judges the file it opened, so nothing swapped in between a
// check and the open gets through.
func readConfigFile(path string) ([]byte, error) {
	data, err := plainfile.ReadFile(path, maxConfigFile)
	if errors.Is(err, plainfile.ErrNotRegular) || errors.Is(err, plainfile.ErrTooLarge) {
		return nil, notAConfigFile(err)
	}
	return data, err
}

func notAConfigFile(err error) error {
	return fmt.Errorf("not a configuration file: %w", err)
}

// SaveConfig writes c to path atomically with mode 0600 (header values are
// secrets), creating the directory (0700). It never replaces a file that
// does not parse (ErrBrokenConfig, with the *ConfigError): that file holds
// the person's edits, and SaveConfigText is how they fix it. It refuses a
// configuration that would not load back, and one still holding masked
// secrets (ErrMaskedSecret): run RestoreConfigSecrets first.
func SaveConfig(path string, c Config) error {
	target := resolveLink(path)
	existing, err := readConfigFile(target)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return fmt.Errorf("saving the MCP configuration %s: reading the current file: %w", path, err)
	default:
		if _, _, perr := parseConfig(existing, filepath.Base(path)); perr != nil {
			return fmt.Errorf("saving the MCP configuration %s: %w: %w", path, ErrBrokenConfig, perr)
		}
	}
	data, err := c.Marshal()
	if err != nil {
		return fmt.Errorf("saving the MCP configuration %s: %w", path, err)
	}
	// Check what is written as LoadConfig will read it, so a bad entry
	// from a form cannot produce a file that then blocks every later save.
	written, lay, err := parseConfig(data, filepath.Base(path))
	if err != nil {
		return fmt.Errorf("saving the MCP configuration %s: the new configuration is not valid: %w", path, err)
	}
	if err := lay.stillMasked(written); err != nil {
		return fmt.Errorf("saving the MCP configuration %s: %w: %w", path, ErrMaskedSecret, err)
	}
	if err := writeFileAtomic(target, data); err != nil {
		return fmt.Errorf("saving the MCP configuration %s: %w", path, err)
	}
	return nil
}

// SaveConfigText is the raw editor's save: it parses text (nothing is
// written when it does not parse), puts back the secrets the editor showed
// masked (RestoreConfigSecrets with previous), and writes the result
// atomically in Marshal's layout. Unlike SaveConfig it may replace a file
// that does not parse: that is how the person fixes it. It returns the
// configuration as written.
func SaveConfigText(path string, text []byte, previous Config) (Config, error) {
	label := filepath.Base(path)
	parsed, lay, err := parseConfig(text, label)
	if err != nil {
		return Config{}, fmt.Errorf("saving the MCP configuration %s: %w", path, err)
	}
	restored := RestoreConfigSecrets(previous, parsed)
	if err := lay.stillMasked(restored); err != nil {
		return Config{}, fmt.Errorf("saving the MCP configuration %s: %w: %w", path, ErrMaskedSecret, err)
	}
	data, err := restored.Marshal()
	if err != nil {
		return Config{}, fmt.Errorf("saving the MCP configuration %s: %w", path, err)
	}
	if err := writeFileAtomic(resolveLink(path), data); err != nil {
		return Config{}, fmt.Errorf("saving the MCP configuration %s: %w", path, err)
	}
	return restored, nil
}

// resolveLink follows a symlinked mcp.json (dotfile managers) so the
// rename replaces the file it points at, not the link.
func resolveLink(path string) string {
	if resolved, err := filepath.EvalSymlinks(path); err == nil {
		return resolved
	}
	return path
}

// writeFileAtomic writes a temporary file next to path, syncs it and renames
// it over path, so a crash leaves either the old file or the new one.
func writeFileAtomic(path string, data []byte) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("creating the directory %s: %w", dir, err)
	}
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return fmt.Errorf("creating a temporary file: %w", err)
	}
	name := tmp.Name()
	ok := false
	defer func() {
		if !ok {
			tmp.Close()
			os.Remove(name)
		}
	}()
	// CreateTemp already uses 0600; Chmod states it for umask-free clarity.
	if err := tmp.Chmod(0o600); err != nil {
		return fmt.Errorf("setting the file mode: %w", err)
	}
	if _, err := tmp.Write(data); err != nil {
		return fmt.Errorf("writing %s: %w", name, err)
	}
	if err := tmp.Sync(); err != nil {
		return fmt.Errorf("syncing %s: %w", name, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("closing %s: %w", name, err)
	}
	if err := os.Rename(name, path); err != nil {
		return fmt.Errorf("replacing %s: %w", path, err)
	}
	ok = true
	// Persist the rename itself; directories cannot be opened for sync on
	// every platform, and the data is already safe, so this is best effort.
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync() // best effort, see above
		d.Close()
	}
	return nil
}

// Marshal writes c as mcp.json: 2-space indentation, servers sorted by name,
// each server's known fields (in ServerConfig's order) then its Extra fields
// sorted, then the top-level Extra fields sorted, and a final newline.
// "mcpServers" is always written, empty or not, so a new file shows where
// servers go; empty fields of a server are left out.
func (c Config) Marshal() ([]byte, error) {
	var b bytes.Buffer
	b.WriteString(`{"mcpServers":{`)
	for i, name := range slices.Sorted(maps.Keys(c.Servers)) {
		if i > 0 {
			b.WriteByte(',')
		}
		appendString(&b, name)
		b.WriteByte(':')
		if err := c.Servers[name].appendJSON(&b); err != nil {
			return nil, fmt.Errorf("writing server %q: %w", name, err)
		}
	}
	b.WriteByte('}')
	for _, k := range slices.Sorted(maps.Keys(c.Extra)) {
		if k == "mcpServers" {
			continue
		}
		if !json.Valid(c.Extra[k]) {
			return nil, fmt.Errorf("writing the MCP configuration: field %q is not valid JSON", k)
		}
		b.WriteByte(',')
		appendString(&b, k)
		b.WriteByte(':')
		b.Write(c.Extra[k])
	}
	b.WriteByte('}')
	var out bytes.Buffer
	if err := json.Indent(&out, b.Bytes(), "", "  "); err != nil {
		return nil, fmt.Errorf("indenting the MCP configuration: %w", err)
	}
	out.WriteByte('\n')
	return out.Bytes(), nil
}

// knownFields are ServerConfig's JSON names, in the order Marshal writes
// them; an Extra entry with one of these names is not written.
var knownFields = []string{"command", "args", "env", "cwd", "url", "headers", "type", "disabled", "approval", "sandbox", "auth"}

func (s ServerConfig) appendJSON(b *bytes.Buffer) error {
	b.WriteByte('{')
	n := 0
	sep := func(key string) {
		if n > 0 {
			b.WriteByte(',')
		}
		n++
		appendString(b, key)
		b.WriteByte(':')
	}
	str := func(key, v string) {
		if v != "" {
			sep(key)
			appendString(b, v)
		}
	}
	strMap := func(key string, m map[string]string) {
		if len(m) == 0 {
			return
		}
		sep(key)
		b.WriteByte('{')
		for i, k := range slices.Sorted(maps.Keys(m)) {
			if i > 0 {
				b.WriteByte(',')
			}
			appendString(b, k)
			b.WriteByte(':')
			appendString(b, m[k])
		}
		b.WriteByte('}')
	}
	str("command", s.Command)
	if len(s.Args) > 0 {
		sep("args")
		b.WriteByte('[')
		for i, a := range s.Args {
			if i > 0 {
				b.WriteByte(',')
			}
			appendString(b, a)
		}
		b.WriteByte(']')
	}
	strMap("env", s.Env)
	str("cwd", s.Cwd)
	str("url", s.URL)
	strMap("headers", s.Headers)
	str("type", s.Type)
	if s.Disabled {
		sep("disabled")
		b.WriteString("true")
	}
	str("approval", string(s.Approval))
	if s.Sandbox != nil {
		sb, err := json.Marshal(s.Sandbox)
		if err != nil {
			return fmt.Errorf("field \"sandbox\": %w", err)
		}
		sep("sandbox")
		b.Write(sb)
	}
	if s.Auth != nil {
		sep("auth")
		if err := appendAuth(b, s.Auth); err != nil {
			return err
		}
	}
	for _, k := range slices.Sorted(maps.Keys(s.Extra)) {
		if slices.Contains(knownFields, k) {
			continue
		}
		if !json.Valid(s.Extra[k]) {
			return fmt.Errorf("field %q is not valid JSON", k)
		}
		sep(k)
		b.Write(s.Extra[k])
	}
	b.WriteByte('}')
	return nil
}

// appendString writes s as a JSON string without HTML escaping: URLs with
// & in their query stay readable in a file people edit by hand.
func appendString(b *bytes.Buffer, s string) {
	enc := json.NewEncoder(b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)       // a string always encodes
	b.Truncate(b.Len() - 1) // Encode's newline
}

// ValidateServer checks one server entry as ParseConfig would (for a
// Settings form, before it is saved). The error names the field.
func ValidateServer(name string, s ServerConfig) error {
	if msg := checkServerName(name); msg != "" {
		return fmt.Errorf("mcp: %s", msg)
	}
	if bad := validateServer(name, s); bad != nil {
		return fmt.Errorf("mcp: %s", bad.msg)
	}
	return nil
}

// checkServerName returns what is wrong with a server name, or "".
func checkServerName(name string) string {
	switch {
	case name == "":
		return "a server name must not be empty"
	case len(name) > MaxServerNameLen:
		return fmt.Sprintf("server name %q is longer than %d bytes", name, MaxServerNameLen)
	case strings.IndexFunc(name, unicode.IsControl) >= 0:
		return fmt.Sprintf("server name %q must not contain control characters", name)
	}
	return ""
}

// invalid is a validation failure: the field it is about (empty: the
// server as a whole), the env or header name when it is about one, whether
// it points at that name rather than its value, and the message.
type invalid struct {
	field, key string
	atKey      bool
	msg        string
}

// validTypes are the "type" values other assistants write.
var validTypes = []string{"stdio", "http", "streamable-http", "sse"}

func validateServer(name string, s ServerConfig) *invalid {
	switch {
	case s.Command != "" && s.URL != "":
		return &invalid{msg: fmt.Sprintf(`server %q has both "command" and "url"; a server is either a program to run or an address, keep one`, name)}
	case s.Command == "" && s.URL == "":
		return &invalid{msg: fmt.Sprintf(`server %q needs a "command" (a program to run) or a "url" (an http or https address)`, name)}
	}
	if s.URL != "" {
		// The URL is not quoted back: its query may hold a token.
		u, err := url.Parse(s.URL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return &invalid{field: "url", msg: fmt.Sprintf(`"url" of server %q must be an http:// or https:// address with a host name`, name)}
		}
	}
	if s.Type != "" {
		if !slices.Contains(validTypes, s.Type) {
			return &invalid{field: "type", msg: fmt.Sprintf(`"type" of server %q must be "stdio", "http", "streamable-http" or "sse"`, name)}
		}
		if s.Type == "stdio" && s.Command == "" {
			return &invalid{field: "type", msg: fmt.Sprintf(`server %q has "type": "stdio" but no "command"`, name)}
		}
		if s.Type != "stdio" && s.URL == "" {
			return &invalid{field: "type", msg: fmt.Sprintf(`server %q has "type": %q but no "url"`, name, s.Type)}
		}
	}
	switch s.Approval {
	case PolicyDefault, PolicyAsk, PolicyTrust:
	default:
		return &invalid{field: "approval", msg: fmt.Sprintf(`"approval" of server %q must be "ask" or "trust", or left out`, name)}
	}
	if bad := validateSandbox(name, s); bad != nil {
		return bad
	}
	if bad := validateAuth(name, s); bad != nil {
		return bad
	}
	for _, k := range slices.Sorted(maps.Keys(s.Env)) {
		switch {
		case k == "":
			return &invalid{field: "env", key: k, atKey: true, msg: fmt.Sprintf(`server %q has an environment variable with an empty name`, name)}
		case strings.ContainsAny(k, "=\x00"):
			return &invalid{field: "env", key: k, atKey: true, msg: fmt.Sprintf(`environment variable name %q of server %q must not contain "=" or a NUL character`, k, name)}
		case strings.ContainsRune(s.Env[k], 0):
			return &invalid{field: "env", key: k, msg: fmt.Sprintf(`environment variable %q of server %q must not contain a NUL character`, k, name)}
		}
	}
	for _, k := range slices.Sorted(maps.Keys(s.Headers)) {
		if !validHeaderName(k) {
			return &invalid{field: "headers", key: k, atKey: true, msg: fmt.Sprintf(`header name %q of server %q is not a valid HTTP header name`, k, name)}
		}
		if !validHeaderValue(s.Headers[k]) {
			// The value is a secret: name the header only.
			return &invalid{field: "headers", key: k, msg: fmt.Sprintf(`header %q of server %q must not contain line breaks or control characters`, k, name)}
		}
	}
	return nil
}

// validateSandbox checks a server's "sandbox": only for a program, a known
// network mode, ports only with "ports", folders absolute or under ~/.
func validateSandbox(name string, s ServerConfig) *invalid {
	sb := s.Sandbox
	if sb == nil {
		return nil
	}
	if s.Command == "" {
		return &invalid{field: "sandbox", msg: fmt.Sprintf(`server %q has a "sandbox" but no "command": only programs Juncture starts are confined`, name)}
	}
	if sb.Network == "" && len(sb.Ports) > 0 {
		return &invalid{field: "sandbox", msg: fmt.Sprintf(`"sandbox" of server %q lists ports: set "network": "ports" too`, name)}
	}
	if sb.Network == "" && len(sb.Hosts) > 0 {
		return &invalid{field: "sandbox", msg: fmt.Sprintf(`"sandbox" of server %q lists hosts: set "network": "hosts" too`, name)}
	}
	p := sandbox.Policy{Network: sb.Network, Ports: sb.Ports, Hosts: sb.Hosts}
	if p.Network == "" {
		p.Network = sandbox.NetAny
	}
	if err := p.Check(); err != nil {
		return &invalid{field: "sandbox", msg: fmt.Sprintf(`"sandbox" of server %q: %s`, name, strings.TrimPrefix(err.Error(), "sandbox: "))}
	}
	for _, list := range []struct {
		what  string
		paths []string
	}{{"writable", sb.Write}, {"readable", sb.Read}} {
		for _, w := range list.paths {
			if !filepath.IsAbs(w) && !strings.HasPrefix(w, "~/") && w != "~" {
				return &invalid{field: "sandbox", msg: fmt.Sprintf(`"sandbox" of server %q: the %s folder %q must be absolute or start with ~/`, name, list.what, w)}
			}
			// A grant of everything is no sandbox, yet the status would say
			// "confined": the whole disk, the home folder or above it.
			if grantsEverything(w) {
				return &invalid{field: "sandbox", msg: fmt.Sprintf(`"sandbox" of server %q: the %s folder %q must be a folder, not the whole disk or home folder`, name, list.what, w)}
			}
		}
	}
	return nil
}

// grantsEverything: a writable folder that is the whole disk (a root),
// the home folder, or above it, however it is written ("~", "/home/me",
// "/home", a link that leads there).
func grantsEverything(w string) bool {
	if rest, home := strings.CutPrefix(w, "~"); home {
		r := filepath.Clean(strings.TrimPrefix(rest, "/"))
		if r == "." || r == ".." || strings.HasPrefix(r, "../") {
			return true
		}
	}
	dir, err := expandHome(w)
	if err != nil {
		return false
	}
	return coversHome(dir)
}

// coversHome says whether dir, followed through links where it exists, is
// a root, the home folder or a folder above it. It is asked again when a
// server starts (confine), since a link may be pointed elsewhere after
// mcp.json was read.
func coversHome(dir string) bool {
	d := resolvedDir(dir)
	if d == filepath.Dir(d) {
		return true
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return false
	}
	rel, err := filepath.Rel(d, resolvedDir(home))
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

func resolvedDir(dir string) string {
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		return real
	}
	return filepath.Clean(dir)
}

// validHeaderName: an RFC 9110 token, which is what net/http sends.
func validHeaderName(k string) bool {
	if k == "" {
		return false
	}
	for i := 0; i < len(k); i++ {
		c := k[i]
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0 {
			continue
		}
		return false
	}
	return true
}

// validHeaderValue: no control characters other than tab (net/http would
// refuse the request with a less helpful message).
func validHeaderValue(v string) bool {
	for i := 0; i < len(v); i++ {
		if c := v[i]; c < 0x20 && c != '\t' || c == 0x7f {
			return false
		}
	}
	return true
}
