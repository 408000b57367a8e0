package mcp

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// The parser of mcp.json: a token walk that knows where each value is, so
// every error names its line and column.

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
		// The URL's query and the arguments hold secrets too (secrets_places.go).
		masked := strings.Contains(s.URL, Mask)
		for _, a := range s.Args {
			masked = masked || strings.Contains(a, Mask)
		}
		if s.Auth != nil && strings.Contains(s.Auth.ClientSecret, Mask) {
			line, col := lineColumn(l.data, 0)
			return &ConfigError{File: l.file, Line: line, Column: col, Message: fmt.Sprintf(
				"the client secret of server %q is still masked (%s); type its value again", name, Mask)}
		}
		if masked {
			line, col := lineColumn(l.data, 0)
			return &ConfigError{File: l.file, Line: line, Column: col, Message: fmt.Sprintf(
				"the url or an argument of server %q is still masked (%s); type its value again", name, Mask)}
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
		case "sandbox":
			s.Sandbox, err = p.sandbox(vOff, name)
		case "auth":
			s.Auth, err = p.auth(vOff, name)
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

// sandbox reads a server's "sandbox" object; null counts as absent.
func (p *parser) sandbox(off int, server string) (*ServerSandbox, error) {
	raw, err := p.raw()
	if err != nil || string(raw) == "null" {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	var sb ServerSandbox
	if err := dec.Decode(&sb); err != nil {
		return nil, p.errorAt(off, fmt.Sprintf(`"sandbox" of server %q must be an object like {"write": ["~/notes"], "network": "none"} (%s)`,
			server, strings.TrimPrefix(err.Error(), "json: ")))
	}
	return &sb, nil
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
