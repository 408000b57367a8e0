package mcp

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"unicode/utf8"
)

// readFixture reads testdata/config/name.
func readFixture(t *testing.T, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "config", name))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// wantConfigError checks that err is a *ConfigError at line:col whose
// message contains msg.
func wantConfigError(t *testing.T, err error, line, col int, msg string) *ConfigError {
	t.Helper()
	var ce *ConfigError
	if !errors.As(err, &ce) {
		t.Fatalf("error = %v (%T), want a *ConfigError", err, err)
	}
	if ce.Line != line || ce.Column != col {
		t.Errorf("position = line %d, column %d, want line %d, column %d (%s)", ce.Line, ce.Column, line, col, ce.Message)
	}
	if !strings.Contains(ce.Message, msg) {
		t.Errorf("message = %q, want it to contain %q", ce.Message, msg)
	}
	return ce
}

func TestParseConfigGoodFile(t *testing.T) {
	t.Parallel()
	c, err := ParseConfig(readFixture(t, "good.json"))
	if err != nil {
		t.Fatal(err)
	}
	want := Config{
		Servers: map[string]ServerConfig{
			"filesystem": {
				Command:  "npx",
				Args:     []string{"-y", "@modelcontextprotocol/server-filesystem", "/home/me/Documents"},
				Env:      map[string]string{"LOG_LEVEL": "info", "API_KEY": "sk-test-0123456789abcdef"},
				Cwd:      "/home/me",
				Approval: PolicyAsk,
				Extra:    map[string]json.RawMessage{"autoApprove": json.RawMessage(`["read_file"]`)},
			},
			"remote": {
				Type:     "http",
				URL:      "https://mcp.example.com/mcp?team=a&b=c",
				Headers:  map[string]string{"Authorization": "Bearer 0123456789abcdef"},
				Approval: PolicyTrust,
			},
			"old": {Type: "sse", URL: "http://localhost:8080/sse", Disabled: true},
		},
		Extra: map[string]json.RawMessage{"editor": json.RawMessage(`{"theme":"dark","fontSize":13}`)},
	}
	if !reflect.DeepEqual(c, want) {
		t.Errorf("ParseConfig =\n%#v\nwant\n%#v", c, want)
	}
}

func TestParseConfigAccepts(t *testing.T) {
	t.Parallel()
	stdio := map[string]ServerConfig{"x": {Command: "npx"}}
	tests := []struct {
		name string
		in   string
		want Config
	}{
		{"empty", "", Config{Servers: map[string]ServerConfig{}}},
		{"whitespace", " \n\t\r\n", Config{Servers: map[string]ServerConfig{}}},
		{"empty object", "{}", Config{Servers: map[string]ServerConfig{}}},
		{"no servers key", `{"other": 1}`, Config{Servers: map[string]ServerConfig{}, Extra: map[string]json.RawMessage{"other": json.RawMessage("1")}}},
		{"null servers", `{"mcpServers": null}`, Config{Servers: map[string]ServerConfig{}}},
		{"byte order mark", "\xef\xbb\xbf{\"mcpServers\": {\"x\": {\"command\": \"npx\"}}}", Config{Servers: stdio}},
		{"null fields", `{"mcpServers": {"x": {"command": "npx", "args": null, "env": null, "cwd": null, "disabled": null, "type": null}}}`, Config{Servers: stdio}},
		{"empty fields", `{"mcpServers": {"x": {"command": "npx", "args": [], "env": {}, "headers": {}, "url": ""}}}`, Config{Servers: stdio}},
		{"stdio type", `{"mcpServers": {"x": {"type": "stdio", "command": "npx"}}}`, Config{Servers: map[string]ServerConfig{"x": {Type: "stdio", Command: "npx"}}}},
		{"streamable-http type", `{"mcpServers": {"x": {"type": "streamable-http", "url": "http://127.0.0.1:3000/mcp"}}}`,
			Config{Servers: map[string]ServerConfig{"x": {Type: "streamable-http", URL: "http://127.0.0.1:3000/mcp"}}}},
		{"field names are case-sensitive", `{"mcpServers": {"x": {"command": "npx", "Command": "other"}}}`,
			Config{Servers: map[string]ServerConfig{"x": {Command: "npx", Extra: map[string]json.RawMessage{"Command": json.RawMessage(`"other"`)}}}}},
		{"escaped strings", `{"mcpServers": {"caf\u00e9": {"command": "C:\\Tools\\a.exe", "args": ["\"q\"", "\u003c"]}}}`,
			Config{Servers: map[string]ServerConfig{"café": {Command: `C:\Tools\a.exe`, Args: []string{`"q"`, "<"}}}}},
		{"unicode name", `{"mcpServers": {"日本語 サーバー": {"url": "https://example.com"}}}`,
			Config{Servers: map[string]ServerConfig{"日本語 サーバー": {URL: "https://example.com"}}}},
		{"crlf", "{\r\n  \"mcpServers\": {\r\n    \"x\": {\"command\": \"npx\"}\r\n  }\r\n}\r\n", Config{Servers: stdio}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := ParseConfig([]byte(tt.in))
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("ParseConfig =\n%#v\nwant\n%#v", got, tt.want)
			}
		})
	}
}

// TestParseConfigFixtureErrors pins the exact place and wording of the
// errors people meet most.
func TestParseConfigFixtureErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		file      string
		line, col int
		msg       string
	}{
		{"broken_missing_comma.json", 5, 7, `expected ',' or '}' after the value, found '"' (a missing comma?)`},
		{"broken_truncated.json", 4, 24, `the file ends too early: a closing '"', ']' or '}' is missing`},
		{"broken_args_string.json", 5, 15, `"args" of server "files" must be a list of text`},
		{"broken_both.json", 3, 5, `server "both" has both "command" and "url"; a server is either a program to run or an address, keep one`},
		{"broken_bad_url.json", 4, 14, `"url" of server "remote" must be an http:// or https:// address with a host name`},
		{"broken_approval.json", 5, 19, `"approval" of server "files" must be "ask" or "trust", or left out`},
		{"broken_servers_list.json", 2, 17, `"mcpServers" must be an object that maps each server's name to its settings`},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			t.Parallel()
			_, err := ParseConfig(readFixture(t, tt.file))
			ce := wantConfigError(t, err, tt.line, tt.col, tt.msg)
			if ce.Message != tt.msg {
				t.Errorf("message = %q, want exactly %q", ce.Message, tt.msg)
			}
			wantText := fmt.Sprintf("mcp.json line %d, column %d: %s", tt.line, tt.col, tt.msg)
			if err.Error() != wantText {
				t.Errorf("Error() = %q, want %q", err.Error(), wantText)
			}
		})
	}
}

// here marks, in the inputs below, where the error must point.
const here = "‸"

// markedPosition strips the marker and returns the input and the line and
// column (in characters) of the marker.
func markedPosition(t *testing.T, marked string) ([]byte, int, int) {
	t.Helper()
	i := strings.Index(marked, here)
	if i < 0 || strings.Count(marked, here) != 1 {
		t.Fatalf("input needs exactly one %s marker: %q", here, marked)
	}
	before := marked[:i]
	line := 1 + strings.Count(before, "\n")
	col := 1 + utf8.RuneCountInString(before[strings.LastIndexByte(before, '\n')+1:])
	return []byte(before + marked[i+len(here):]), line, col
}

func TestParseConfigErrors(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("n", MaxServerNameLen+1)
	tests := []struct {
		name   string
		marked string // the input, with ‸ where the error points
		msg    string
	}{
		{"trailing comma in object", `{"mcpServers": {"x": {"command": "a",` + here + `}}}`, "remove the comma before '}'"},
		{"trailing comma in list", `{"mcpServers": {"x": {"command": "a", "args": ["a",` + here + `]}}}`, "remove the comma before ']'"},
		{"empty value", `{"mcpServers": {"x": {"command": ` + here + `}}}`, "expected a value"},
		{"single quotes", `{` + here + `'mcpServers': {}}`, "use double quotes"},
		{"missing colon", `{"mcpServers" ` + here + `{}}`, "expected ':' after the field name"},
		{"missing comma in list", `{"mcpServers": {"x": {"command": "a", "args": ["a" ` + here + `"b"]}}}`, "a missing comma?"},
		{"windows path", `{"mcpServers": {"x": {"command": "C:` + here + `\Tools\a.exe"}}}`, `write a backslash as \\`},
		{"unclosed text", "{\"mcpServers\": {\"x\": {\"command\": \"npx" + here + "\n}}}", "not closed before the end of the line"},
		{"tab in text", "{\"mcpServers\": {\"x\": {\"command\": \"n" + here + "\tpx\"}}}", `control character '\t'`},
		{"misspelt word", `{"mcpServers": {"x": {"command": "a", "disabled": ` + here + `tru}}}`, `"tru" is not a value`},
		{"text without quotes", `{"mcpServers": {"x": {"command": ` + here + `npx}}}`, `"npx" is not a value: write text in double quotes`},
		{"word without quotes", `{"mcpServers": {"x": {"command": ` + here + `uvx, "args": []}}}`, `"uvx" is not a value`},
		{"bad number", `{"a": -` + here + `}`, "invalid number"},
		{"text after the end", `{}` + here + `x`, "after the end of the configuration"},
		{"truncated after a key", "{\"mcpServers\":" + here + " \n\n", "the file ends too early"},
		{"top level list", here + `[]`, "must be a JSON object"},
		{"top level null", here + `null`, "must be a JSON object"},
		{"servers as text", `{"mcpServers": ` + here + `"npx"}`, `"mcpServers" must be an object`},
		{"server as text", `{"mcpServers": {"x": ` + here + `"npx"}}`, `server "x" must be an object`},
		{"command as number", `{"mcpServers": {"x": {"command": ` + here + `1}}}`, `"command" of server "x" must be text`},
		{"args item as number", `{"mcpServers": {"x": {"command": "a", "args": ["a", ` + here + `1]}}}`, `"args" of server "x" must be a list of text`},
		{"env as list", `{"mcpServers": {"x": {"command": "a", "env": ` + here + `["A=1"]}}}`, `"env" of server "x" must be an object of text values`},
		{"env value as number", `{"mcpServers": {"x": {"command": "a", "env": {"A": ` + here + `1}}}}`, `"env" of server "x" must be an object of text values`},
		{"header value as bool", `{"mcpServers": {"x": {"url": "https://h", "headers": {"A": ` + here + `true}}}}`, `"headers" of server "x" must be an object of text values`},
		{"disabled as text", `{"mcpServers": {"x": {"command": "a", "disabled": ` + here + `"yes"}}}`, `"disabled" of server "x" must be true or false`},
		{"neither command nor url", `{"mcpServers": {` + here + `"x": {"args": ["a"]}}}`, `server "x" needs a "command"`},
		{"empty server name", `{"mcpServers": {` + here + `"": {"command": "a"}}}`, "a server name must not be empty"},
		{"long server name", `{"mcpServers": {` + here + `"` + long + `": {"command": "a"}}}`, "longer than 64 bytes"},
		{"control character in name", `{"mcpServers": {` + here + `"a\u0007b": {"command": "a"}}}`, "must not contain control characters"},
		{"duplicate server", `{"mcpServers": {"x": {"command": "a"}, ` + here + `"x": {"command": "b"}}}`, `server "x" appears twice`},
		{"duplicate escaped server", `{"mcpServers": {"x": {"command": "a"}, ` + here + `"\u0078": {"command": "b"}}}`, `server "x" appears twice`},
		{"duplicate field", `{"mcpServers": {"x": {"command": "a", ` + here + `"command": "b"}}}`, `"command" appears twice in server "x"`},
		{"duplicate env", `{"mcpServers": {"x": {"command": "a", "env": {"A": "1", ` + here + `"A": "2"}}}}`, `"A" appears twice in "env"`},
		{"duplicate top-level key", `{"mcpServers": {}, ` + here + `"mcpServers": {}}`, `"mcpServers" appears twice`},
		{"url without scheme", `{"mcpServers": {"x": {"url": ` + here + `"mcp.example.com/mcp"}}}`, `"url" of server "x" must be an http:// or https://`},
		{"url without host", `{"mcpServers": {"x": {"url": ` + here + `"https:///mcp"}}}`, `with a host name`},
		{"url with spaces", `{"mcpServers": {"x": {"url": ` + here + `"http://a b"}}}`, `"url" of server "x"`},
		{"unknown type", `{"mcpServers": {"x": {"type": ` + here + `"websocket", "url": "https://h"}}}`, `"type" of server "x" must be "stdio", "http", "streamable-http" or "sse"`},
		{"sse without url", `{"mcpServers": {"x": {"type": ` + here + `"sse", "command": "npx"}}}`, `has "type": "sse" but no "url"`},
		{"http without url", `{"mcpServers": {"x": {"command": "npx", "type": ` + here + `"http"}}}`, `has "type": "http" but no "url"`},
		{"stdio without command", `{"mcpServers": {"x": {"type": ` + here + `"stdio", "url": "https://h"}}}`, `has "type": "stdio" but no "command"`},
		{"approval in capitals", `{"mcpServers": {"x": {"command": "a", "approval": ` + here + `"Ask"}}}`, `"approval" of server "x" must be "ask" or "trust"`},
		{"env name with equals", `{"mcpServers": {"x": {"command": "a", "env": {"B": "2", ` + here + `"A=1": "1"}}}}`, `must not contain "=" or a NUL`},
		{"env name empty", `{"mcpServers": {"x": {"command": "a", "env": {` + here + `"": "1"}}}}`, "empty name"},
		{"env name with NUL", `{"mcpServers": {"x": {"command": "a", "env": {` + here + `"A\u0000": "1"}}}}`, `must not contain "=" or a NUL`},
		{"env value with NUL", `{"mcpServers": {"x": {"command": "a", "env": {"A": ` + here + `"1\u0000"}}}}`, "must not contain a NUL character"},
		{"header name with space", `{"mcpServers": {"x": {"url": "https://h", "headers": {` + here + `"X Key": "1"}}}}`, "not a valid HTTP header name"},
		{"header value with newline", `{"mcpServers": {"x": {"url": "https://h", "headers": {"A": ` + here + `"1\nInjected: 2"}}}}`, "must not contain line breaks"},
		{"crlf lines", "{\r\n  \"mcpServers\": {\r\n    " + here + "\"x\": {}\r\n  }\r\n}\r\n", `server "x" needs a "command"`},
		{"columns count characters", `{"mcpServers": {"é日本": {"command": "a", "approval": ` + here + `"x"}}}`, `"approval" of server "é日本"`},
		{"byte order mark is not a column", "\xef\xbb\xbf" + `{"mcpServers": ` + here + `[]}`, `"mcpServers" must be an object`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			in, line, col := markedPosition(t, tt.marked)
			if strings.HasPrefix(tt.marked, "\xef\xbb\xbf") {
				// The marker position counted the mark as a character.
				col--
			}
			_, err := ParseConfig(in)
			wantConfigError(t, err, line, col, tt.msg)
		})
	}
}

func TestParseConfigErrorDoesNotShowSecrets(t *testing.T) {
	t.Parallel()
	tests := []struct{ name, in string }{
		{"bad url with token", `{"mcpServers": {"x": {"url": "ftp://h/?token=hunter2-secret"}}}`},
		{"bad header value", `{"mcpServers": {"x": {"url": "https://h", "headers": {"Authorization": "hunter2-secret\n"}}}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := ParseConfig([]byte(tt.in))
			if err == nil {
				t.Fatal("no error")
			}
			if strings.Contains(err.Error(), "hunter2") {
				t.Errorf("error shows the secret: %v", err)
			}
		})
	}
}

func TestConfigErrorText(t *testing.T) {
	t.Parallel()
	tests := []struct {
		err  ConfigError
		want string
	}{
		{ConfigError{Line: 3, Column: 14, Message: "m"}, "mcp.json line 3, column 14: m"},
		{ConfigError{File: "claude_desktop_config.json", Line: 1, Column: 1, Message: "m"}, "claude_desktop_config.json line 1, column 1: m"},
	}
	for _, tt := range tests {
		if got := tt.err.Error(); got != tt.want {
			t.Errorf("Error() = %q, want %q", got, tt.want)
		}
	}
}

func TestConfigLineColumn(t *testing.T) {
	t.Parallel()
	data := []byte("ab\ncé日d\n\nx")
	tests := []struct {
		off, line, col int
	}{
		{0, 1, 1}, {2, 1, 3}, {3, 2, 1}, {4, 2, 2}, {5, 2, 3}, {7, 2, 4}, {10, 2, 5}, {11, 3, 1}, {12, 4, 1}, {13, 4, 2}, {99, 4, 2},
	}
	for _, tt := range tests {
		if line, col := lineColumn(data, tt.off); line != tt.line || col != tt.col {
			t.Errorf("lineColumn(%d) = %d:%d, want %d:%d", tt.off, line, col, tt.line, tt.col)
		}
	}
}

func TestConfigMarshalLayout(t *testing.T) {
	t.Parallel()
	c := Config{
		Servers: map[string]ServerConfig{
			"b": {URL: "https://h/mcp?a=1&b=<2>", Headers: map[string]string{"X-B": "2", "Authorization": "t"}, Type: "http", Approval: PolicyTrust},
			"a": {
				Command: "npx", Args: []string{"-y", "pkg"}, Env: map[string]string{"Z": "1", "A": "2"}, Cwd: "/w",
				Disabled: true, Extra: map[string]json.RawMessage{"zeta": json.RawMessage(`{"k":[1,2]}`), "alpha": json.RawMessage(`true`)},
			},
			"c": {Command: "x", Args: []string{}, Env: map[string]string{}},
		},
		Extra: map[string]json.RawMessage{"globalShortcut": json.RawMessage(`"Ctrl+Space"`)},
	}
	got, err := c.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	want := `{
  "mcpServers": {
    "a": {
      "command": "npx",
      "args": [
        "-y",
        "pkg"
      ],
      "env": {
        "A": "2",
        "Z": "1"
      },
      "cwd": "/w",
      "disabled": true,
      "alpha": true,
      "zeta": {
        "k": [
          1,
          2
        ]
      }
    },
    "b": {
      "url": "https://h/mcp?a=1&b=<2>",
      "headers": {
        "Authorization": "t",
        "X-B": "2"
      },
      "type": "http",
      "approval": "trust"
    },
    "c": {
      "command": "x"
    }
  },
  "globalShortcut": "Ctrl+Space"
}
`
	if string(got) != want {
		t.Errorf("Marshal =\n%s\nwant\n%s", got, want)
	}
}

func TestConfigMarshalEdgeCases(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		c       Config
		want    string
		wantErr bool
	}{
		{"zero config keeps the servers key", Config{}, "{\n  \"mcpServers\": {}\n}\n", false},
		{"known names in Extra are not written twice", Config{
			Servers: map[string]ServerConfig{"x": {Command: "a", Extra: map[string]json.RawMessage{"command": json.RawMessage(`"b"`)}}},
			Extra:   map[string]json.RawMessage{"mcpServers": json.RawMessage(`{}`)},
		}, "{\n  \"mcpServers\": {\n    \"x\": {\n      \"command\": \"a\"\n    }\n  }\n}\n", false},
		{"only Extra fields", Config{Servers: map[string]ServerConfig{"x": {Extra: map[string]json.RawMessage{"k": json.RawMessage(`1`)}}}},
			"{\n  \"mcpServers\": {\n    \"x\": {\n      \"k\": 1\n    }\n  }\n}\n", false},
		{"invalid server Extra", Config{Servers: map[string]ServerConfig{"x": {Command: "a", Extra: map[string]json.RawMessage{"k": json.RawMessage(`{`)}}}}, "", true},
		{"invalid top-level Extra", Config{Extra: map[string]json.RawMessage{"k": nil}}, "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := tt.c.Marshal()
			if (err != nil) != tt.wantErr {
				t.Fatalf("Marshal error = %v, want error %v", err, tt.wantErr)
			}
			if string(got) != tt.want {
				t.Errorf("Marshal =\n%s\nwant\n%s", got, tt.want)
			}
		})
	}
}

// checkRoundTrip asserts ParseConfig(Marshal(c)) == c and that Marshal is
// stable from there on.
func checkRoundTrip(t *testing.T, c Config) {
	t.Helper()
	data, err := c.Marshal()
	if err != nil {
		t.Fatalf("Marshal: %v", err)
	}
	back, err := ParseConfig(data)
	if err != nil {
		t.Fatalf("ParseConfig(Marshal(c)): %v\n%s", err, data)
	}
	if !reflect.DeepEqual(back, c) {
		t.Fatalf("round trip changed the configuration:\n%#v\nwant\n%#v\nfile:\n%s", back, c, data)
	}
	again, err := back.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	if string(again) != string(data) {
		t.Fatalf("Marshal is not stable:\n%s\nthen\n%s", data, again)
	}
}

func TestConfigRoundTrip(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		in   string
	}{
		{"good file", string(readFixture(t, "good.json"))},
		{"claude file", string(readFixture(t, "claude_desktop_config.json"))},
		{"empty", ""},
		{"odd strings", `{"mcpServers": {"a <b> & \"c\"": {"command": "\u2028\t\\", "args": ["", "\ud83d\ude00", "\u0000"], "env": {"K": "\u00e9"}}}}`},
		{"invalid utf-8", "{\"mcpServers\": {\"\xff\": {\"command\": \"a\xfeb\", \"x\xfd\": \"\xfc\"}}}"},
		{"numbers kept as written", `{"mcpServers": {"x": {"command": "a", "n": 1.50e+10, "big": 123456789012345678901234567890}}, "z": -0}`},
		{"nested Extra", `{"mcpServers": {"x": {"url": "http://h", "o": {"a": [ {"b": null} , [] , {} ]}}}, "top": [1, {"c": "d"}]}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			c, err := ParseConfig([]byte(tt.in))
			if err != nil {
				t.Fatal(err)
			}
			checkRoundTrip(t, c)
		})
	}
}

func TestConfigRoundTripBuilt(t *testing.T) {
	t.Parallel()
	c := Config{
		Servers: map[string]ServerConfig{
			"stdio": {Command: "uvx", Args: []string{"mcp-server-git", "--repository", "."}, Env: map[string]string{"A": "b"}, Cwd: "~", Type: "stdio", Approval: PolicyAsk},
			"http":  {URL: "https://example.com/mcp", Headers: map[string]string{"Authorization": "Bearer x"}, Disabled: true, Extra: map[string]json.RawMessage{"note": json.RawMessage(`"hi"`)}},
		},
		Extra: map[string]json.RawMessage{"x": json.RawMessage(`[1,2]`)},
	}
	checkRoundTrip(t, c)
}

func TestLoadConfig(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	good := filepath.Join(dir, "good.json")
	broken := filepath.Join(dir, "mcp.json")
	os.WriteFile(good, readFixture(t, "good.json"), 0o600)
	os.WriteFile(broken, readFixture(t, "broken_missing_comma.json"), 0o600)

	t.Run("missing file", func(t *testing.T) {
		t.Parallel()
		c, err := LoadConfig(filepath.Join(dir, "nope", "mcp.json"))
		if err != nil {
			t.Fatal(err)
		}
		if c.Servers == nil || len(c.Servers) != 0 || c.Extra != nil {
			t.Errorf("LoadConfig(missing) = %#v, want an empty configuration", c)
		}
	})
	t.Run("good file", func(t *testing.T) {
		t.Parallel()
		c, err := LoadConfig(good)
		if err != nil {
			t.Fatal(err)
		}
		if len(c.Servers) != 3 {
			t.Errorf("servers = %v, want 3", c.Servers)
		}
	})
	t.Run("broken file", func(t *testing.T) {
		t.Parallel()
		_, err := LoadConfig(broken)
		wantConfigError(t, err, 5, 7, "a missing comma?")
		if !errors.Is(err, ErrBrokenConfig) {
			t.Errorf("error %v does not wrap ErrBrokenConfig", err)
		}
		if !strings.Contains(err.Error(), broken) {
			t.Errorf("error %q does not name the file", err)
		}
	})
	t.Run("directory", func(t *testing.T) {
		t.Parallel()
		_, err := LoadConfig(dir)
		if err == nil || !strings.Contains(err.Error(), "reading the MCP configuration") {
			t.Errorf("LoadConfig(dir) error = %v", err)
		}
	})
}

func TestSaveConfig(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "new", "juncture")
	path := filepath.Join(dir, "mcp.json")
	c, err := ParseConfig(readFixture(t, "good.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := SaveConfig(path, c); err != nil {
		t.Fatal(err)
	}
	back, err := LoadConfig(path)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back, c) {
		t.Errorf("loaded %#v, want %#v", back, c)
	}
	// Saving again over a good file works, and leaves no temporary files.
	c.Servers["new"] = ServerConfig{Command: "x"}
	if err := SaveConfig(path, c); err != nil {
		t.Fatal(err)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("directory holds %v, want only mcp.json", entries)
	}
	if runtime.GOOS != "windows" {
		if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o600 {
			t.Errorf("file mode = %v, want 0600", fi.Mode().Perm())
		}
		if fi, _ := os.Stat(dir); fi.Mode().Perm() != 0o700 {
			t.Errorf("directory mode = %v, want 0700", fi.Mode().Perm())
		}
	}
}

func TestSaveConfigRefusesBrokenFile(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "mcp.json")
	broken := readFixture(t, "broken_truncated.json")
	os.WriteFile(path, broken, 0o600)
	err := SaveConfig(path, Config{Servers: map[string]ServerConfig{"x": {Command: "a"}}})
	if !errors.Is(err, ErrBrokenConfig) {
		t.Fatalf("SaveConfig over a broken file = %v, want ErrBrokenConfig", err)
	}
	wantConfigError(t, err, 4, 24, "ends too early")
	if got, _ := os.ReadFile(path); string(got) != string(broken) {
		t.Errorf("the broken file was changed:\n%s", got)
	}
}

func TestSaveConfigRefusesInvalidConfig(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		c    Config
		is   error
		msg  string
	}{
		{"both command and url", Config{Servers: map[string]ServerConfig{"x": {Command: "a", URL: "https://h"}}}, nil, `has both "command" and "url"`},
		{"bad name", Config{Servers: map[string]ServerConfig{"": {Command: "a"}}}, nil, "must not be empty"},
		{"masked header", Config{Servers: map[string]ServerConfig{"x": {URL: "https://h", Headers: map[string]string{"Authorization": Mask + "abcd"}}}},
			ErrMaskedSecret, `header "Authorization" of server "x" is still masked`},
		{"masked env", Config{Servers: map[string]ServerConfig{"x": {Command: "a", Env: map[string]string{"API_KEY": Mask}}}},
			ErrMaskedSecret, `environment variable "API_KEY" of server "x" is still masked`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			path := filepath.Join(t.TempDir(), "mcp.json")
			err := SaveConfig(path, tt.c)
			var ce *ConfigError
			if !errors.As(err, &ce) || !strings.Contains(ce.Message, tt.msg) {
				t.Fatalf("SaveConfig = %v, want a ConfigError saying %q", err, tt.msg)
			}
			if tt.is != nil && !errors.Is(err, tt.is) {
				t.Errorf("SaveConfig = %v, want it to wrap %v", err, tt.is)
			}
			if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("a file was written: %v", err)
			}
		})
	}
}

func TestSaveConfigFollowsSymlink(t *testing.T) {
	t.Parallel()
	if runtime.GOOS == "windows" {
		t.Skip("symlinks need privileges on Windows")
	}
	dir := t.TempDir()
	real := filepath.Join(dir, "dotfiles", "mcp.json")
	os.MkdirAll(filepath.Dir(real), 0o700)
	os.WriteFile(real, []byte("{}"), 0o600)
	link := filepath.Join(dir, "mcp.json")
	if err := os.Symlink(real, link); err != nil {
		t.Skip(err)
	}
	if err := SaveConfig(link, Config{Servers: map[string]ServerConfig{"x": {Command: "a"}}}); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link was replaced: %v %v", fi, err)
	}
	if c, err := LoadConfig(real); err != nil || len(c.Servers) != 1 {
		t.Errorf("LoadConfig(target) = %v, %v", c, err)
	}
}

func TestSaveConfigText(t *testing.T) {
	t.Parallel()
	previous := Config{Servers: map[string]ServerConfig{
		"remote": {URL: "https://h/mcp", Headers: map[string]string{"Authorization": "Bearer 0123456789abcdef", "X-Short": "abc"}},
		"local":  {Command: "npx", Env: map[string]string{"API_KEY": "sk-0123456789abcdef", "LOG": "debug"}},
	}}
	shown, err := previous.Masked().Marshal()
	if err != nil {
		t.Fatal(err)
	}

	t.Run("restores masked secrets and replaces a broken file", func(t *testing.T) {
		t.Parallel()
		path := filepath.Join(t.TempDir(), "mcp.json")
		os.WriteFile(path, readFixture(t, "broken_missing_comma.json"), 0o600)
		// The person edits one header and leaves the rest masked.
		edited := strings.Replace(string(shown), `"X-Short": "`+Mask+`"`, `"X-Short": "new"`, 1)
		got, err := SaveConfigText(path, []byte(edited), previous)
		if err != nil {
			t.Fatal(err)
		}
		want := Config{Servers: map[string]ServerConfig{
			"remote": {URL: "https://h/mcp", Headers: map[string]string{"Authorization": "Bearer 0123456789abcdef", "X-Short": "new"}},
			"local":  {Command: "npx", Env: map[string]string{"API_KEY": "sk-0123456789abcdef", "LOG": "debug"}},
		}}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("SaveConfigText = %#v, want %#v", got, want)
		}
		loaded, err := LoadConfig(path)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(loaded, want) {
			t.Errorf("file holds %#v, want %#v", loaded, want)
		}
		if runtime.GOOS != "windows" {
			if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o600 {
				t.Errorf("file mode = %v, want 0600", fi.Mode().Perm())
			}
		}
	})
	t.Run("a parse error writes nothing", func(t *testing.T) {
		t.Parallel()
		path := filepath.Join(t.TempDir(), "mcp.json")
		os.WriteFile(path, []byte("{}\n"), 0o600)
		_, err := SaveConfigText(path, readFixture(t, "broken_args_string.json"), previous)
		wantConfigError(t, err, 5, 15, `"args" of server "files" must be a list of text`)
		if got, _ := os.ReadFile(path); string(got) != "{}\n" {
			t.Errorf("file changed to %q", got)
		}
	})
	t.Run("a mask that cannot be restored is refused where it is", func(t *testing.T) {
		t.Parallel()
		path := filepath.Join(t.TempDir(), "mcp.json")
		// Renaming the server loses the link to its previous secrets.
		text := "{\"mcpServers\": {\"renamed\": {\"url\": \"https://h\",\n  \"headers\": {\"Authorization\": \"" + Mask + "cdef\"}}}}"
		_, err := SaveConfigText(path, []byte(text), previous)
		wantConfigError(t, err, 2, 32, `header "Authorization" of server "renamed" is still masked`)
		if !errors.Is(err, ErrMaskedSecret) {
			t.Errorf("error %v does not wrap ErrMaskedSecret", err)
		}
		if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("a file was written: %v", err)
		}
	})
}

func TestMaskedServer(t *testing.T) {
	t.Parallel()
	s := ServerConfig{
		Command: "npx",
		Env: map[string]string{
			"OPENAI_API_KEY": "sk-proj-0123456789wxyz", "github_token": "short", "DB_PASSWORD": "p", "MY_SECRET": "",
			"LOG_LEVEL": "debug", "PATH": "/usr/bin",
		},
		Headers: map[string]string{"Authorization": "Bearer 0123456789abcd", "X-Team": "twelve chars", "X-Empty": "", "X-Unicode": "ключ-секрет-éé日本"},
	}
	got := s.Masked()
	want := map[string]string{
		"OPENAI_API_KEY": Mask + "wxyz", "github_token": Mask, "DB_PASSWORD": Mask, "MY_SECRET": "",
		"LOG_LEVEL": "debug", "PATH": "/usr/bin",
	}
	if !reflect.DeepEqual(got.Env, want) {
		t.Errorf("Masked env = %v, want %v", got.Env, want)
	}
	wantH := map[string]string{"Authorization": Mask + "abcd", "X-Team": Mask, "X-Empty": "", "X-Unicode": Mask + "éé日本"}
	if !reflect.DeepEqual(got.Headers, wantH) {
		t.Errorf("Masked headers = %v, want %v", got.Headers, wantH)
	}
	if s.Headers["Authorization"] != "Bearer 0123456789abcd" || s.Env["OPENAI_API_KEY"] != "sk-proj-0123456789wxyz" {
		t.Error("Masked changed the original")
	}
	c := Config{Servers: map[string]ServerConfig{"x": s}}
	if m := c.Masked(); m.Servers["x"].Headers["Authorization"] != Mask+"abcd" || c.Servers["x"].Headers["Authorization"] == Mask+"abcd" {
		t.Errorf("Config.Masked = %v", m)
	}
}

func TestRestoreSecrets(t *testing.T) {
	t.Parallel()
	prev := ServerConfig{
		URL:     "https://h",
		Headers: map[string]string{"Authorization": "Bearer 0123456789abcd", "X-Short": "abc"},
		Env:     map[string]string{"API_KEY": "sk-0123456789abcd", "MODE": Mask},
	}
	tests := []struct {
		name          string
		edited        ServerConfig
		headers, envs map[string]string
	}{
		{"untouched masks", prev.Masked(), prev.Headers, prev.Env},
		{"changed values kept", ServerConfig{
			Headers: map[string]string{"Authorization": "Bearer new", "X-Short": Mask},
			Env:     map[string]string{"API_KEY": "sk-new", "MODE": Mask},
		}, map[string]string{"Authorization": "Bearer new", "X-Short": "abc"}, map[string]string{"API_KEY": "sk-new", "MODE": Mask}},
		{"a mask of another value is not restored", ServerConfig{
			Headers: map[string]string{"Authorization": Mask + "zzzz", "X-Short": Mask + "abcd"},
		}, map[string]string{"Authorization": Mask + "zzzz", "X-Short": Mask + "abcd"}, nil},
		{"a mask under a new name is not restored", ServerConfig{
			Headers: map[string]string{"X-New": Mask},
		}, map[string]string{"X-New": Mask}, nil},
		{"nothing to restore", ServerConfig{}, nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got := RestoreSecrets(prev, tt.edited)
			if !reflect.DeepEqual(got.Headers, tt.headers) || !reflect.DeepEqual(got.Env, tt.envs) {
				t.Errorf("RestoreSecrets = headers %v env %v, want %v %v", got.Headers, got.Env, tt.headers, tt.envs)
			}
		})
	}
	edited := prev.Masked()
	RestoreSecrets(prev, edited)
	if edited.Headers["Authorization"] != Mask+"abcd" {
		t.Error("RestoreSecrets changed its argument")
	}
}

func TestRestoreConfigSecrets(t *testing.T) {
	t.Parallel()
	prev := Config{Servers: map[string]ServerConfig{
		"a": {URL: "https://h", Headers: map[string]string{"Authorization": "Bearer 0123456789abcd"}},
		"b": {Command: "x", Env: map[string]string{"TOKEN": "t0k"}},
	}}
	edited := prev.Masked()
	edited.Servers["c"] = ServerConfig{Command: "y", Env: map[string]string{"TOKEN": Mask}}
	got := RestoreConfigSecrets(prev, edited)
	want := Config{Servers: map[string]ServerConfig{
		"a": prev.Servers["a"], "b": prev.Servers["b"],
		"c": {Command: "y", Env: map[string]string{"TOKEN": Mask}},
	}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("RestoreConfigSecrets = %#v, want %#v", got, want)
	}
	if got := RestoreConfigSecrets(prev, Config{}); got.Servers != nil {
		t.Errorf("RestoreConfigSecrets(empty) = %#v", got)
	}
}

func TestValidateServerConfig(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		server string
		s      ServerConfig
		msg    string // "" = valid
	}{
		{"stdio", "x", ServerConfig{Command: "npx"}, ""},
		{"http", "x", ServerConfig{URL: "http://127.0.0.1:8080/mcp", Type: "sse"}, ""},
		{"no name", "", ServerConfig{Command: "npx"}, "mcp: a server name must not be empty"},
		{"nothing", "x", ServerConfig{}, `needs a "command"`},
		{"bad approval", "x", ServerConfig{Command: "a", Approval: "never"}, `"approval" of server "x"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			err := ValidateServer(tt.server, tt.s)
			if tt.msg == "" {
				if err != nil {
					t.Errorf("ValidateServer = %v, want nil", err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.msg) || !strings.HasPrefix(err.Error(), "mcp: ") {
				t.Errorf("ValidateServer = %v, want an error saying %q", err, tt.msg)
			}
		})
	}
}

// TestDefaultConfigPath sets XDG_CONFIG_HOME, so it cannot run in parallel.
func TestDefaultConfigPath(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("XDG_CONFIG_HOME is honoured on Linux only")
	}
	dir := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", dir)
	got, err := DefaultConfigPath()
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(dir, "juncture", "mcp.json"); got != want {
		t.Errorf("DefaultConfigPath = %q, want %q", got, want)
	}
}

// TestRestoreSecretsKeepsHeadersToTheirOrigin: a server's masked header
// saved back with a URL of another origin (host, scheme or port) stays
// masked, so the save asks for it again instead of sending the saved
// token to the new host; another path on the same origin keeps it.
func TestRestoreSecretsKeepsHeadersToTheirOrigin(t *testing.T) {
	t.Parallel()
	prev := ServerConfig{URL: "https://api.example.com/mcp", Headers: map[string]string{"Authorization": "Bearer 0123456789abcd"}}
	for _, tt := range []struct {
		url      string
		restored bool
	}{
		{"https://api.example.com/mcp", true},
		{"https://API.example.com:443/other", true},
		{"https://evil.example/mcp", false},
		{"http://api.example.com/mcp", false},
		{"https://api.example.com:8443/mcp", false},
		{"https://api.example.com.evil.example/mcp", false},
		{"https://api.example.com@evil.example/mcp", false},
	} {
		edited := prev.Masked()
		edited.URL = tt.url
		got := RestoreSecrets(prev, edited).Headers["Authorization"]
		if restored := got == prev.Headers["Authorization"]; restored != tt.restored {
			t.Errorf("%s: header %q (restored %v, want %v)", tt.url, got, restored, tt.restored)
		}
	}
}
