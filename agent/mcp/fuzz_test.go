package mcp

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// addConfigSeeds seeds a fuzz target with every file in testdata/config,
// good and broken, plus a few shapes the files do not cover.
func addConfigSeeds(f *testing.F) {
	f.Helper()
	files, err := filepath.Glob(filepath.Join("testdata", "config", "*.json"))
	if err != nil || len(files) == 0 {
		f.Fatalf("no seed files in testdata/config: %v", err)
	}
	for _, name := range files {
		data, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	for _, s := range []string{
		"", " ", "{}", "[]", "null", `{"mcpServers": null}`, "\xef\xbb\xbf{}", `{"mcpServers": {"a": {"command": "x", "k": [1, {"z": null}]}}}`,
		`{"mcpServers": {"a\u0000": {}}}`, `{"mcpServers": {"a": {"url": "http://h", "headers": {"A": "\u2028"}}}}`, "{\"a\":\"\xff\"}",
	} {
		f.Add([]byte(s))
	}
}

// checkFuzzResult asserts the contract of a parse: an error is a placed
// *ConfigError; a success survives Marshal and parses back the same.
func checkFuzzResult(t *testing.T, c Config, err error, file string) {
	t.Helper()
	if err != nil {
		var ce *ConfigError
		if !errors.As(err, &ce) {
			t.Fatalf("error %v is a %T, not a *ConfigError", err, err)
		}
		if ce.Line < 1 || ce.Column < 1 || ce.Message == "" {
			t.Fatalf("error not placed: %+v", ce)
		}
		if ce.File != file {
			t.Fatalf("error labels %q, want %q", ce.File, file)
		}
		return
	}
	data, err := c.Marshal()
	if err != nil {
		t.Fatalf("Marshal of a parsed configuration: %v", err)
	}
	back, err := ParseConfig(data)
	if err != nil {
		t.Fatalf("ParseConfig(Marshal(c)): %v\n%s", err, data)
	}
	if !reflect.DeepEqual(back, c) {
		t.Fatalf("round trip changed the configuration:\n%#v\nwant\n%#v\nfile:\n%s", back, c, data)
	}
}

func FuzzParseConfig(f *testing.F) {
	addConfigSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := ParseConfig(data)
		checkFuzzResult(t, c, err, configFileName)
	})
}

func FuzzImportClaudeDesktop(f *testing.F) {
	addConfigSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		servers, err := ImportClaudeDesktop(data)
		if err == nil && servers == nil {
			t.Fatal("nil servers without an error")
		}
		checkFuzzResult(t, Config{Servers: servers}, err, claudeFileName)
	})
}

func FuzzToolName(f *testing.F) {
	for _, s := range [][2]string{{"github", "create_issue"}, {"a__b", "c"}, {"", ""}, {"café", "naïve tool"}, {"a.b", "c_0123456789"}} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, server, tool string) {
		name := ToolName(server, tool)
		if !modelToolName.MatchString(name) {
			t.Fatalf("ToolName(%q, %q) = %q is not a valid model tool name", server, tool, name)
		}
		if name != ToolName(server, tool) {
			t.Fatal("ToolName is not stable")
		}
	})
}
