package mcp

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/juncture-app/juncture/agent/sandbox"
	"github.com/juncture-app/juncture/agent/sandbox/sandboxtest"
)

// landlockOrSkip skips where the system sandbox is not Landlock with TCP
// rules (JUNCTURE_REQUIRE_LANDLOCK=1 fails instead).
func landlockOrSkip(t *testing.T) {
	t.Helper()
	st := (*sandbox.Sandbox)(nil).Plan(sandbox.Policy{Write: []string{t.TempDir()}})
	sandboxtest.RequireLandlock(t, st.Mechanism == sandbox.Landlock && st.Network == "none", st.String())
}

// TestFilesystemServerSandboxed runs the real server-filesystem allowed
// (by its own arguments) to write both in its folder and in a stand-in
// home folder outside it: the sandbox lets it write in its folder and
// refuses ~/.ssh/x, and the tool result says the sandbox refused it.
func TestFilesystemServerSandboxed(t *testing.T) {
	t.Parallel()
	landlockOrSkip(t)
	workspace, home := t.TempDir(), t.TempDir()
	if err := os.Mkdir(filepath.Join(home, ".ssh"), 0o700); err != nil {
		t.Fatal(err)
	}
	// No client roots (server-filesystem would take them over its
	// arguments): the server allows both folders, its sandbox only the
	// workspace, listed as its own folder.
	cmd, args := filesystemCommand(t, workspace, home)
	m := newManager(t, Options{})
	m.Apply(Config{Servers: map[string]ServerConfig{"fs": {Command: cmd, Args: args, Sandbox: &ServerSandbox{Write: []string{workspace}}}}})
	ctx := context.Background()

	waitTool(t, m, "fs", "write_file")
	st := serverStatus(t, m, "fs")
	if !strings.HasPrefix(st.Sandbox, "sandbox: landlock (writes: ") || !strings.Contains(st.Sandbox, "network: any") {
		t.Errorf("server status sandbox = %q", st.Sandbox)
	}
	res := runTool(t, ctx, m, nil, "fs", "write_file", map[string]any{"path": filepath.Join(workspace, "notes.txt"), "content": "ok"})
	if res.IsError || !strings.HasPrefix(res.Sandbox, "sandbox: landlock") {
		t.Errorf("write in the workspace: %+v", res)
	}
	secret := filepath.Join(home, ".ssh", "x")
	res = runTool(t, ctx, m, nil, "fs", "write_file", map[string]any{"path": secret, "content": "key"})
	if !res.IsError {
		t.Errorf("write outside: %+v", res)
	}
	mustContain(t, res.Content, "EACCES", "The sandbox (landlock) refused")
	if _, err := os.Stat(secret); err == nil {
		t.Error("~/.ssh/x was written")
	}
	if b, err := os.ReadFile(filepath.Join(workspace, "notes.txt")); err != nil || string(b) != "ok" {
		t.Errorf("workspace file: %q, %v", b, err)
	}
}

// TestStdioServerNetworkPolicy: a stdio server with "network": "none"
// cannot reach a local port that is open; with the port listed it can.
func TestStdioServerNetworkPolicy(t *testing.T) {
	t.Parallel()
	landlockOrSkip(t)
	ln, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	sandboxtest.AcceptAll(ln)
	port := uint16(ln.Addr().(*net.TCPAddr).Port)
	cmd, args := edgeServerCommand(t)
	m := newManager(t, Options{Roots: func() []string { return []string{t.TempDir()} }})
	m.Apply(Config{Servers: map[string]ServerConfig{
		"closed": {Command: cmd, Args: args, Sandbox: &ServerSandbox{Network: sandbox.NetNone}},
		"open":   {Command: cmd, Args: args, Sandbox: &ServerSandbox{Network: sandbox.NetPorts, Ports: []uint16{port}}},
	}})
	ctx := context.Background()
	res := runTool(t, ctx, m, nil, "closed", "dial", map[string]any{"addr": ln.Addr().String()})
	if !res.IsError {
		t.Errorf("network none connected: %+v", res)
	}
	mustContain(t, res.Content, "permission denied", "The sandbox (landlock) refused")
	if st := serverStatus(t, m, "closed"); !strings.Contains(st.Sandbox, "network: none") {
		t.Errorf("status: %q", st.Sandbox)
	}
	res = runTool(t, ctx, m, nil, "open", "dial", map[string]any{"addr": ln.Addr().String()})
	if res.IsError || res.Content != "connected" {
		t.Errorf("listed port: %+v", res)
	}
}

// TestServerSandboxOff: a server whose sandbox is turned off says so.
func TestServerSandboxOff(t *testing.T) {
	t.Parallel()
	cmd, args := edgeServerCommand(t)
	m := newManager(t, Options{})
	m.Apply(Config{Servers: map[string]ServerConfig{"e": {Command: cmd, Args: args, Sandbox: &ServerSandbox{Off: true}}}})
	waitTool(t, m, "e", "echo")
	if st := serverStatus(t, m, "e"); st.Sandbox != "sandbox: none (turned off for this server in mcp.json)" {
		t.Errorf("status: %q", st.Sandbox)
	}
}

func serverStatus(t *testing.T, m *Manager, name string) ServerStatus {
	t.Helper()
	for _, s := range m.Servers() {
		if s.Name == name {
			return s
		}
	}
	t.Fatalf("no server %q", name)
	return ServerStatus{}
}

// TestFilesystemServerReadsConfined runs the real server-filesystem
// allowed (by its own arguments) to serve its workspace, a folder its
// sandbox lists under "read", and a stand-in home folder: it reads the
// first two, cannot read ~/.ssh/id_x nor write the read-only folder, and
// the tool results say the sandbox refused it.
func TestFilesystemServerReadsConfined(t *testing.T) {
	t.Parallel()
	landlockOrSkip(t)
	workspace, shared, home := t.TempDir(), t.TempDir(), t.TempDir()
	if err := os.Mkdir(filepath.Join(home, ".ssh"), 0o700); err != nil {
		t.Fatal(err)
	}
	secret := filepath.Join(home, ".ssh", "id_x")
	for f, text := range map[string]string{secret: "PRIVATE KEY", filepath.Join(shared, "notes.txt"): "shared notes"} {
		if err := os.WriteFile(f, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	cmd, args := filesystemCommand(t, workspace, shared, home)
	m := newManager(t, Options{})
	m.Apply(Config{Servers: map[string]ServerConfig{"fs": {Command: cmd, Args: args,
		Sandbox: &ServerSandbox{Write: []string{workspace}, Read: []string{shared}}}}})
	ctx := context.Background()
	waitTool(t, m, "fs", "read_text_file")
	if st := serverStatus(t, m, "fs"); !strings.Contains(st.Sandbox, "reads: the system, its own program files and the folders it writes, and "+shared) {
		t.Errorf("server status sandbox = %q", st.Sandbox)
	}
	res := runTool(t, ctx, m, nil, "fs", "read_text_file", map[string]any{"path": filepath.Join(shared, "notes.txt")})
	if res.IsError || !strings.Contains(res.Content, "shared notes") {
		t.Errorf("reading the listed folder: %+v", res)
	}
	res = runTool(t, ctx, m, nil, "fs", "read_text_file", map[string]any{"path": secret})
	if !res.IsError || strings.Contains(res.Content, "PRIVATE KEY") {
		t.Errorf("reading ~/.ssh/id_x: %+v", res)
	}
	mustContain(t, res.Content, "EACCES", "The sandbox (landlock) refused")
	res = runTool(t, ctx, m, nil, "fs", "write_file", map[string]any{"path": filepath.Join(shared, "x"), "content": "x"})
	if !res.IsError {
		t.Errorf("writing the read-only folder: %+v", res)
	}
}

// TestStdioServerHostList: a stdio server whose sandbox lists hosts
// reaches a listed host through the sandbox's proxy (a loopback server
// named by the proxy's lookup), is refused another one with a result that
// says the sandbox refused it, and cannot connect around the proxy.
func TestStdioServerHostList(t *testing.T) {
	t.Parallel()
	landlockOrSkip(t)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, "hello from "+r.Host) }))
	defer srv.Close()
	_, port, _ := net.SplitHostPort(srv.Listener.Addr().String())
	lookup := func(context.Context, string) ([]string, error) { return []string{"127.0.0.1"}, nil }
	cmd, args := edgeServerCommand(t)
	m := newManager(t, Options{Sandbox: sandbox.New(sandbox.Options{ProxyLookup: lookup})})
	m.Apply(Config{Servers: map[string]ServerConfig{
		"web": {Command: cmd, Args: args, Sandbox: &ServerSandbox{Network: sandbox.NetHosts, Hosts: []string{"allowed.test:" + port}}},
	}})
	ctx := context.Background()
	waitTool(t, m, "web", "fetch")
	if st := serverStatus(t, m, "web"); !strings.Contains(st.Sandbox, "network: only allowed.test:"+port+", through the sandbox's proxy") {
		t.Errorf("status: %q", st.Sandbox)
	}
	res := runTool(t, ctx, m, nil, "web", "fetch", map[string]any{"url": "http://allowed.test:" + port + "/"})
	if res.IsError || res.Content != "status 200: hello from allowed.test:"+port {
		t.Errorf("listed host: %+v", res)
	}
	res = runTool(t, ctx, m, nil, "web", "fetch", map[string]any{"url": "http://denied.test:" + port + "/"})
	if strings.Contains(res.Content, "hello") {
		t.Errorf("other host reached: %+v", res)
	}
	mustContain(t, res.Content, "status 403: "+sandbox.RefusedByProxy+": denied.test:"+port+" is not allowed")
	res = runTool(t, ctx, m, nil, "web", "dial", map[string]any{"addr": srv.Listener.Addr().String()})
	if !res.IsError {
		t.Errorf("connected around the proxy: %+v", res)
	}
	mustContain(t, res.Content, "permission denied", "The sandbox (landlock) refused")
}
