package mcp

import (
	"slices"
	"strings"
	"testing"
)

// TestConfigSandbox reads a server's "sandbox" entry, writes it back, and
// refuses the entries that would not mean what they say.
func TestConfigSandbox(t *testing.T) {
	in := `{"mcpServers":{"fs":{"command":"npx","sandbox":{"write":["~/notes","/srv/data"],"read":["~/books"],"network":"ports","ports":[443]}}}}`
	c, err := ParseConfig([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	sb := c.Servers["fs"].Sandbox
	if sb == nil || !slices.Equal(sb.Write, []string{"~/notes", "/srv/data"}) || !slices.Equal(sb.Read, []string{"~/books"}) || sb.Network != "ports" || !slices.Equal(sb.Ports, []uint16{443}) {
		t.Fatalf("sandbox = %+v", sb)
	}
	out, err := c.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(out), `"sandbox": {`) && !strings.Contains(string(out), `"sandbox":{`) {
		t.Errorf("written back without its sandbox:\n%s", out)
	}
	back, err := ParseConfig(out)
	if err != nil || back.Servers["fs"].Sandbox == nil || back.Servers["fs"].Sandbox.Ports[0] != 443 {
		t.Errorf("round trip: %+v, %v", back.Servers["fs"].Sandbox, err)
	}

	bad := []struct{ name, server, want string }{
		{"unknown field", `{"command":"x","sandbox":{"writable":["/a"]}}`, `unknown field "writable"`},
		{"not an object", `{"command":"x","sandbox":"none"}`, `"sandbox" of server "s" must be an object`},
		{"unknown network", `{"command":"x","sandbox":{"network":"lan"}}`, `network must be`},
		{"ports without mode", `{"command":"x","sandbox":{"ports":[22]}}`, `set "network": "ports"`},
		{"relative folder", `{"command":"x","sandbox":{"write":["notes"]}}`, `must be absolute or start with ~/`},
		{"the whole disk", `{"command":"x","sandbox":{"write":["/usr/.."]}}`, `not the whole disk or home folder`},
		{"the home folder", `{"command":"x","sandbox":{"write":["~"]}}`, `not the whole disk or home folder`},
		{"above home", `{"command":"x","sandbox":{"write":["~/notes/../.."]}}`, `not the whole disk or home folder`},
		{"hosts without mode", `{"command":"x","sandbox":{"hosts":["example.com"]}}`, `set "network": "hosts"`},
		{"hosts mode without hosts", `{"command":"x","sandbox":{"network":"hosts"}}`, `needs 1 to 64 hosts`},
		{"a bad host", `{"command":"x","sandbox":{"network":"hosts","hosts":["*"]}}`, `is not a host name`},
		{"relative readable folder", `{"command":"x","sandbox":{"read":["notes"]}}`, `the readable folder "notes" must be absolute`},
		{"the home folder readable", `{"command":"x","sandbox":{"read":["~/"]}}`, `not the whole disk or home folder`},
		{"the whole disk readable", `{"command":"x","sandbox":{"read":["/"]}}`, `not the whole disk or home folder`},
		{"http server", `{"url":"https://example.com/mcp","sandbox":{"network":"none"}}`, `only programs Juncture starts`},
	}
	for _, tt := range bad {
		_, err := ParseConfig([]byte(`{"mcpServers":{"s":` + tt.server + `}}`))
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: %v, want %q", tt.name, err, tt.want)
		}
	}
}
