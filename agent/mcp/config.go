package mcp

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
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
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return Config{Servers: map[string]ServerConfig{}}, nil
	}
	if err != nil {
		return Config{}, fmt.Errorf("reading the MCP configuration %s: %w", path, err)
	}
	c, _, err := parseConfig(data, filepath.Base(path))
	if err != nil {
		return Config{}, fmt.Errorf("reading the MCP configuration %s: %w: %w", path, ErrBrokenConfig, err)
	}
	return c, nil
}

// SaveConfig writes c to path atomically with mode 0600 (header values are
// secrets), creating the directory (0700). It never replaces a file that
// does not parse (ErrBrokenConfig, with the *ConfigError): that file holds
// the person's edits, and SaveConfigText is how they fix it. It refuses a
// configuration that would not load back, and one still holding masked
// secrets (ErrMaskedSecret): run RestoreConfigSecrets first.
func SaveConfig(path string, c Config) error {
	target := resolveLink(path)
	existing, err := os.ReadFile(target)
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
var knownFields = []string{"command", "args", "env", "cwd", "url", "headers", "type", "disabled", "approval"}

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

// secretPos locates a header or env entry in the parsed text.
type secretPos struct{ server, field, key string }

// layout is where things are in the parsed text, for errors found after
// parsing (masked secrets in SaveConfigText).
type layout struct {
	data   []byte // the text parsed, without a byte order mark
	file   string
	values map[secretPos]int // byte offset of each env/header value
}

// stillMasked reports the first header or env value of c that is still a
// mask, at its place in the parsed text.
func (l *layout) stillMasked(c Config) error {
	for _, name := range slices.Sorted(maps.Keys(c.Servers)) {
		s := c.Servers[name]
		for _, f := range []struct {
			field, what string
			m           map[string]string
		}{{"env", "environment variable", s.Env}, {"headers", "header", s.Headers}} {
			for _, k := range slices.Sorted(maps.Keys(f.m)) {
				if !strings.HasPrefix(f.m[k], Mask) {
					continue
				}
				line, col := lineColumn(l.data, l.values[secretPos{name, f.field, k}])
				return &ConfigError{File: l.file, Line: line, Column: col, Message: fmt.Sprintf(
					"%s %q of server %q is still masked (%s…); type its value again", f.what, k, name, Mask)}
			}
		}
	}
	return nil
}

// parser walks mcp.json with a json.Decoder, which knows the byte offset of
// every token (InputOffset), so errors can point at the key or value.
type parser struct {
	data []byte
	file string
	dec  *json.Decoder
	lay  *layout
}

// parseConfig parses a file in the mcpServers format; file labels errors.
func parseConfig(data []byte, file string) (Config, *layout, error) {
	// Notepad writes a byte order mark; editors hide it, so positions are
	// counted without it.
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	lay := &layout{data: data, file: file, values: map[secretPos]int{}}
	if len(trimSpace(data)) == 0 {
		return Config{Servers: map[string]ServerConfig{}}, lay, nil
	}
	p := &parser{data: data, file: file, lay: lay}
	// A first pass finds syntax errors, so the walk below only meets
	// well-formed JSON and reports shape and meaning.
	var whole json.RawMessage
	if err := json.Unmarshal(data, &whole); err != nil {
		return Config{}, nil, p.syntaxError(err)
	}
	p.dec = json.NewDecoder(bytes.NewReader(data))
	c, err := p.config()
	if err != nil {
		return Config{}, nil, err
	}
	return c, lay, nil
}

func (p *parser) config() (Config, error) {
	c := Config{Servers: map[string]ServerConfig{}}
	start := p.next()
	if p.data[start] != '{' {
		return Config{}, p.errorAt(start, `the configuration must be a JSON object, like {"mcpServers": {…}}`)
	}
	if _, err := p.token(); err != nil {
		return Config{}, err
	}
	seen := map[string]bool{}
	for p.dec.More() {
		keyOff, key, err := p.key()
		if err != nil {
			return Config{}, err
		}
		if seen[key] {
			return Config{}, p.errorAt(keyOff, fmt.Sprintf("%q appears twice", key))
		}
		seen[key] = true
		valOff := p.next()
		if key == "mcpServers" {
			if c.Servers, err = p.servers(valOff); err != nil {
				return Config{}, err
			}
			continue
		}
		raw, err := p.raw()
		if err != nil {
			return Config{}, err
		}
		if c.Extra == nil {
			c.Extra = map[string]json.RawMessage{}
		}
		c.Extra[key] = raw
	}
	if _, err := p.token(); err != nil { // '}'
		return Config{}, err
	}
	return c, nil
}

func (p *parser) servers(off int) (map[string]ServerConfig, error) {
	servers := map[string]ServerConfig{}
	switch p.data[off] {
	case 'n':
		return servers, p.skip()
	case '{':
	default:
		return nil, p.errorAt(off, `"mcpServers" must be an object that maps each server's name to its settings`)
	}
	if _, err := p.token(); err != nil {
		return nil, err
	}
	for p.dec.More() {
		nameOff, name, err := p.key()
		if err != nil {
			return nil, err
		}
		if msg := checkServerName(name); msg != "" {
			return nil, p.errorAt(nameOff, msg)
		}
		if _, dup := servers[name]; dup {
			return nil, p.errorAt(nameOff, fmt.Sprintf("server %q appears twice", name))
		}
		s, err := p.server(name, nameOff)
		if err != nil {
			return nil, err
		}
		servers[name] = s
	}
	if _, err := p.token(); err != nil {
		return nil, err
	}
	return servers, nil
}

func (p *parser) server(name string, nameOff int) (ServerConfig, error) {
	var s ServerConfig
	off := p.next()
	if p.data[off] != '{' {
		return s, p.errorAt(off, fmt.Sprintf(`server %q must be an object, like {"command": "…", "args": […]}`, name))
	}
	if _, err := p.token(); err != nil {
		return s, err
	}
	fieldOff := map[string]int{}
	keyOff := map[secretPos]int{}
	for p.dec.More() {
		kOff, key, err := p.key()
		if err != nil {
			return s, err
		}
		if _, dup := fieldOff[key]; dup {
			return s, p.errorAt(kOff, fmt.Sprintf("%q appears twice in server %q", key, name))
		}
		vOff := p.next()
		fieldOff[key] = vOff
		switch key {
		case "command":
			s.Command, err = p.str(vOff, name, key)
		case "cwd":
			s.Cwd, err = p.str(vOff, name, key)
		case "url":
			s.URL, err = p.str(vOff, name, key)
		case "type":
			s.Type, err = p.str(vOff, name, key)
		case "approval":
			var v string
			v, err = p.str(vOff, name, key)
			s.Approval = Policy(v)
		case "disabled":
			s.Disabled, err = p.boolean(vOff, name, key)
		case "args":
			s.Args, err = p.strList(vOff, name, key)
		case "env":
			s.Env, err = p.strMap(vOff, name, key, keyOff)
		case "headers":
			s.Headers, err = p.strMap(vOff, name, key, keyOff)
		default:
			var raw json.RawMessage
			raw, err = p.raw()
			if err == nil {
				if s.Extra == nil {
					s.Extra = map[string]json.RawMessage{}
				}
				s.Extra[key] = raw
			}
		}
		if err != nil {
			return s, err
		}
	}
	if _, err := p.token(); err != nil {
		return s, err
	}
	if bad := validateServer(name, s); bad != nil {
		at := nameOff
		switch {
		case bad.key != "" || bad.atKey:
			pos := secretPos{name, bad.field, bad.key}
			if bad.atKey {
				at = keyOff[pos]
			} else {
				at = p.lay.values[pos]
			}
		case bad.field != "":
			at = fieldOff[bad.field]
		}
		return s, p.errorAt(at, bad.msg)
	}
	return s, nil
}

// str reads a string field; null counts as absent.
func (p *parser) str(off int, server, field string) (string, error) {
	switch p.data[off] {
	case 'n':
		return "", p.skip()
	case '"':
		var v string
		return v, p.decode(&v)
	}
	return "", p.errorAt(off, fmt.Sprintf("%q of server %q must be text (in double quotes)", field, server))
}

func (p *parser) boolean(off int, server, field string) (bool, error) {
	switch p.data[off] {
	case 'n':
		return false, p.skip()
	case 't', 'f':
		var v bool
		return v, p.decode(&v)
	}
	return false, p.errorAt(off, fmt.Sprintf("%q of server %q must be true or false", field, server))
}

func (p *parser) strList(off int, server, field string) ([]string, error) {
	msg := fmt.Sprintf("%q of server %q must be a list of text", field, server)
	switch p.data[off] {
	case 'n':
		return nil, p.skip()
	case '[':
	default:
		return nil, p.errorAt(off, msg)
	}
	if _, err := p.token(); err != nil {
		return nil, err
	}
	var list []string
	for p.dec.More() {
		eOff := p.next()
		if p.data[eOff] != '"' {
			return nil, p.errorAt(eOff, msg)
		}
		var v string
		if err := p.decode(&v); err != nil {
			return nil, err
		}
		list = append(list, v)
	}
	_, err := p.token()
	return list, err
}

func (p *parser) strMap(off int, server, field string, keyOff map[secretPos]int) (map[string]string, error) {
	msg := fmt.Sprintf(`%q of server %q must be an object of text values, like {"NAME": "value"}`, field, server)
	switch p.data[off] {
	case 'n':
		return nil, p.skip()
	case '{':
	default:
		return nil, p.errorAt(off, msg)
	}
	if _, err := p.token(); err != nil {
		return nil, err
	}
	var m map[string]string
	for p.dec.More() {
		kOff, k, err := p.key()
		if err != nil {
			return nil, err
		}
		if _, dup := m[k]; dup {
			return nil, p.errorAt(kOff, fmt.Sprintf("%q appears twice in %q of server %q", k, field, server))
		}
		vOff := p.next()
		if p.data[vOff] != '"' {
			return nil, p.errorAt(vOff, msg)
		}
		var v string
		if err := p.decode(&v); err != nil {
			return nil, err
		}
		if m == nil {
			m = map[string]string{}
		}
		m[k] = v
		pos := secretPos{server, field, k}
		keyOff[pos] = kOff
		p.lay.values[pos] = vOff
	}
	_, err := p.token()
	return m, err
}

// next is the byte offset where the next token starts: the decoder's offset
// is the end of the previous token, before any space, comma or colon.
func (p *parser) next() int {
	off := int(p.dec.InputOffset())
	for off < len(p.data) {
		switch p.data[off] {
		case ' ', '\t', '\r', '\n', ',', ':':
			off++
			continue
		}
		break
	}
	if off >= len(p.data) {
		// Only reachable on input the syntax pass refused; keep indexing safe.
		return len(p.data) - 1
	}
	return off
}

func (p *parser) key() (int, string, error) {
	off := p.next()
	tok, err := p.token()
	if err != nil {
		return off, "", err
	}
	k, ok := tok.(string)
	if !ok {
		return off, "", p.errorAt(off, "expected a field name in double quotes")
	}
	return off, k, nil
}

func (p *parser) token() (json.Token, error) {
	off := p.next()
	tok, err := p.dec.Token()
	if err != nil {
		return nil, p.errorAt(off, describeSyntax(err.Error(), "", false))
	}
	return tok, nil
}

func (p *parser) decode(v any) error {
	off := p.next()
	if err := p.dec.Decode(v); err != nil {
		return p.errorAt(off, describeSyntax(err.Error(), "", false))
	}
	return nil
}

func (p *parser) skip() error {
	_, err := p.raw()
	return err
}

// raw reads a value whole. It is compacted, so a value read back from
// Marshal's indented output compares equal to the one first read.
func (p *parser) raw() (json.RawMessage, error) {
	var raw json.RawMessage
	if err := p.decode(&raw); err != nil {
		return nil, err
	}
	var b bytes.Buffer
	if err := json.Compact(&b, raw); err != nil {
		return nil, p.errorAt(p.next(), describeSyntax(err.Error(), "", false))
	}
	return json.RawMessage(b.Bytes()), nil
}

func (p *parser) errorAt(off int, msg string) *ConfigError {
	line, col := lineColumn(p.data, off)
	return &ConfigError{File: p.file, Line: line, Column: col, Message: msg}
}

// syntaxError places a json syntax error. The offset of an "invalid
// character" error counts the offending byte, so the byte is at Offset-1;
// a file that ends too early is reported just after its last character,
// where the cursor would be to type what is missing.
func (p *parser) syntaxError(err error) *ConfigError {
	var se *json.SyntaxError
	if !errors.As(err, &se) {
		return p.errorAt(0, describeSyntax(err.Error(), "", false))
	}
	msg := se.Error()
	if strings.HasPrefix(msg, "unexpected end of JSON input") {
		return p.errorAt(len(trimSpace(p.data)), describeSyntax(msg, "", false))
	}
	off := clamp(int(se.Offset)-1, len(p.data))
	if strings.HasSuffix(msg, " in string escape code") {
		// Point at the backslash, where the fix goes.
		if i := bytes.LastIndexByte(p.data[:off], '\\'); i >= 0 {
			off = i
		}
	}
	found := ""
	if off < len(p.data) {
		r, _ := utf8.DecodeRune(p.data[off:])
		found = string(r)
	}
	if strings.Contains(msg, " in literal ") || (isLetter(found) && strings.HasSuffix(msg, " looking for beginning of value")) {
		// A misspelt true/false/null, or text without quotes: point at the
		// start of the word and show all of it.
		start, end := off, off
		for start > 0 && isLetter(string(p.data[start-1])) {
			start--
		}
		for end < len(p.data) && isLetter(string(p.data[end])) {
			end++
		}
		off, found = start, string(p.data[start:end])
		return p.errorAt(off, fmt.Sprintf("%q is not a value: write text in double quotes, or true, false or null", found))
	}
	before := trimSpace(p.data[:off])
	afterComma := len(before) > 0 && before[len(before)-1] == ','
	return p.errorAt(off, describeSyntax(msg, found, afterComma))
}

func isLetter(s string) bool {
	return len(s) == 1 && (s[0] >= 'a' && s[0] <= 'z' || s[0] >= 'A' && s[0] <= 'Z')
}

func clamp(off, n int) int {
	return max(0, min(off, n))
}

// syntaxContexts are the endings of encoding/json's "invalid character"
// messages, with what a person editing the file needs to read instead.
var syntaxContexts = []struct{ ctx, text string }{
	{"looking for beginning of object key string", "expected a field name in double quotes, found %s"},
	{"looking for beginning of value", "expected a value (text in double quotes, a number, true, false, null, [...] or {...}), found %s"},
	{"after object key:value pair", "expected ',' or '}' after the value, found %s"},
	{"after object key", "expected ':' after the field name, found %s"},
	{"after array element", "expected ',' or ']' after the list item, found %s"},
	{"after top-level value", "unexpected %s after the end of the configuration"},
	{"in string literal", `control character %s inside text in double quotes; write it as an escape such as \t`},
	{"in string escape code", `invalid escape in text: write a backslash as \\ (for example "C:\\Users")`},
	{"in \\u hexadecimal character escape", `invalid \u escape in text: it needs four hexadecimal digits, found %s`},
	{"after decimal point in numeric literal", "invalid number: expected a digit after '.', found %s"},
	{"in exponent of numeric literal", "invalid number: expected a digit in the exponent, found %s"},
	{"in numeric literal", "invalid number, found %s"},
}

// describeSyntax turns encoding/json's syntax messages into words for a
// person; found is the offending character when known, afterComma whether
// a comma precedes it. Unknown messages pass through.
func describeSyntax(msg, found string, afterComma bool) string {
	if msg == "unexpected end of JSON input" || msg == io.ErrUnexpectedEOF.Error() || msg == io.EOF.Error() {
		return `the file ends too early: a closing '"', ']' or '}' is missing`
	}
	rest, ok := strings.CutPrefix(msg, "invalid character ")
	if !ok {
		return msg
	}
	shown := rest
	if i := strings.LastIndexByte(rest, '\''); i > 0 {
		shown = rest[:i+1]
	}
	if r, size := utf8.DecodeRuneInString(found); size > 0 {
		shown = strconv.QuoteRune(r)
	}
	lookingFor := strings.Contains(rest, " looking for beginning of ")
	switch {
	case lookingFor && afterComma && (found == "}" || found == "]"):
		return fmt.Sprintf("remove the comma before %s: JSON does not allow a comma after the last item", shown)
	case lookingFor && found == "'":
		return `use double quotes ("), not single quotes (')`
	case found == `"` && strings.HasSuffix(rest, " after object key:value pair"):
		return `expected ',' or '}' after the value, found '"' (a missing comma?)`
	case found == `"` && strings.HasSuffix(rest, " after array element"):
		return `expected ',' or ']' after the list item, found '"' (a missing comma?)`
	case (found == "\n" || found == "\r") && strings.HasSuffix(rest, " in string literal"):
		return `text in double quotes is not closed before the end of the line (a missing '"'?)`
	}
	for _, c := range syntaxContexts {
		if !strings.HasSuffix(rest, " "+c.ctx) {
			continue
		}
		if strings.Contains(c.text, "%s") {
			return fmt.Sprintf(c.text, shown)
		}
		return c.text
	}
	return msg
}

// trimSpace trims JSON whitespace only, so "empty" means what the JSON
// parser would also see as nothing.
func trimSpace(b []byte) []byte {
	return bytes.Trim(b, " \t\r\n")
}

// lineColumn turns a byte offset into a 1-based line and a 1-based column
// counted in characters.
func lineColumn(data []byte, off int) (int, int) {
	off = clamp(off, len(data))
	before := data[:off]
	line := 1 + bytes.Count(before, []byte("\n"))
	start := bytes.LastIndexByte(before, '\n') + 1
	return line, 1 + utf8.RuneCount(before[start:])
}

// Mask replaces a secret in what Settings shows; see ServerConfig.Masked.
const Mask = "••••••••"

// secretEnvWords mark an environment variable whose value is a secret.
var secretEnvWords = []string{"KEY", "TOKEN", "SECRET", "PASSWORD", "PASSPHRASE", "CREDENTIAL", "AUTH"}

// secretEnvName reports whether an environment variable's name says it
// holds a secret (GITHUB_PERSONAL_ACCESS_TOKEN, OPENAI_API_KEY, ...).
func secretEnvName(name string) bool {
	upper := strings.ToUpper(name)
	for _, w := range secretEnvWords {
		if strings.Contains(upper, w) {
			return true
		}
	}
	return false
}

// maskValue keeps the last 4 characters of a long secret so a person can
// tell which key is configured; short ones show nothing of themselves.
func maskValue(v string) string {
	if v == "" {
		return ""
	}
	r := []rune(v)
	if len(r) > 12 {
		return Mask + string(r[len(r)-4:])
	}
	return Mask
}

// Masked is c as Settings may show it: every header value, and the value of
// every environment variable whose name looks secret, replaced by Mask
// (plus the last 4 characters of values longer than 12). RestoreSecrets
// undoes it for values the person did not change.
func (c ServerConfig) Masked() ServerConfig {
	if len(c.Headers) > 0 {
		h := make(map[string]string, len(c.Headers))
		for k, v := range c.Headers {
			h[k] = maskValue(v)
		}
		c.Headers = h
	}
	if len(c.Env) > 0 {
		e := make(map[string]string, len(c.Env))
		for k, v := range c.Env {
			if secretEnvName(k) {
				v = maskValue(v)
			}
			e[k] = v
		}
		c.Env = e
	}
	return c
}

// Masked masks every server (ServerConfig.Masked).
func (c Config) Masked() Config {
	if c.Servers != nil {
		servers := make(map[string]ServerConfig, len(c.Servers))
		for name, s := range c.Servers {
			servers[name] = s.Masked()
		}
		c.Servers = servers
	}
	return c
}

// RestoreSecrets puts previous's values back where edited still holds the
// mask Masked made of them (same header or env name), so a form or editor
// that showed masked values saves the real ones. Anything the person
// changed is kept as edited.
func RestoreSecrets(previous, edited ServerConfig) ServerConfig {
	edited.Headers = restoreMap(previous.Headers, edited.Headers, func(string) bool { return true })
	edited.Env = restoreMap(previous.Env, edited.Env, secretEnvName)
	return edited
}

func restoreMap(previous, edited map[string]string, masked func(string) bool) map[string]string {
	if len(edited) == 0 {
		return edited
	}
	out := make(map[string]string, len(edited))
	for k, v := range edited {
		if prev, ok := previous[k]; ok && masked(k) && strings.HasPrefix(v, Mask) && v == maskValue(prev) {
			v = prev
		}
		out[k] = v
	}
	return out
}

// RestoreConfigSecrets applies RestoreSecrets to each server of edited that
// previous has under the same name.
func RestoreConfigSecrets(previous, edited Config) Config {
	if edited.Servers == nil {
		return edited
	}
	servers := make(map[string]ServerConfig, len(edited.Servers))
	for name, s := range edited.Servers {
		if prev, ok := previous.Servers[name]; ok {
			s = RestoreSecrets(prev, s)
		}
		servers[name] = s
	}
	edited.Servers = servers
	return edited
}
