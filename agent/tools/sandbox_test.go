package tools

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/juncture-app/juncture/agent/sandbox"
	"github.com/juncture-app/juncture/agent/sandbox/sandboxtest"
)

// dialEnv makes this test binary a tiny TCP client (sandboxtest.MaybeDial
// in TestMain), which a confined command runs to show what the sandbox
// lets through.
const dialEnv = "TOOLS_TEST_DIAL"

// landlockOrSkip skips where the system sandbox is not Landlock with TCP
// rules (JUNCTURE_REQUIRE_LANDLOCK=1 fails instead).
func landlockOrSkip(t *testing.T) {
	t.Helper()
	st := (*sandbox.Sandbox)(nil).Plan(sandbox.Policy{Write: []string{t.TempDir()}})
	sandboxtest.RequireLandlock(t, st.Mechanism == sandbox.Landlock && st.Network == "none", st.String())
}

// TestRunCommandSandboxed: an approved run_command writes in the
// workspace, cannot write ~/.ssh/x (a stand-in home outside the
// workspace), cannot reach a local port that is open unless its network
// policy lists it, and the result says the sandbox refused it.
func TestRunCommandSandboxed(t *testing.T) {
	landlockOrSkip(t)
	w, root := newWorkspace(t)
	home := t.TempDir()
	if err := os.Mkdir(filepath.Join(home, ".ssh"), 0o700); err != nil {
		t.Fatal(err)
	}
	t.Setenv("HOME", home)
	r := builtinRegistry(t, w, BuiltinOptions{})
	ctx := context.Background()

	res := call(t, ctx, r, ToolRunCommand, map[string]any{"command": `echo ok > inside.txt && echo key > "$HOME/.ssh/x"`})
	if !res.IsError {
		t.Errorf("the write outside succeeded: %s", res.Content)
	}
	mustContain(t, res.Content, "sandbox: landlock (writes: "+root, "network: none", "Permission denied", "The sandbox (landlock) refused")
	if !strings.HasPrefix(res.Sandbox, "sandbox: landlock") {
		t.Errorf("Result.Sandbox = %q", res.Sandbox)
	}
	if b, err := os.ReadFile(filepath.Join(root, "inside.txt")); err != nil || string(b) != "ok\n" {
		t.Errorf("workspace write: %q, %v", b, err)
	}
	if _, err := os.Stat(filepath.Join(home, ".ssh", "x")); err == nil {
		t.Error("~/.ssh/x was written")
	}

	addr := sandboxtest.Listen(t)
	_, portText, _ := net.SplitHostPort(addr)
	port, _ := strconv.Atoi(portText)
	// The client is this test binary, linked into the workspace: a
	// confined command runs only programs it may read.
	exe := linkSelf(t, root)
	dial := dialEnv + "=" + addr + " " + strconv.Quote(exe)
	tests := []struct {
		name string
		args map[string]any
		ok   bool
	}{
		{"default: none", map[string]any{"command": dial}, false},
		{"another port", map[string]any{"command": dial, "network": "ports", "ports": []int{port + 1}}, false},
		{"its port", map[string]any{"command": dial, "network": "ports", "ports": []int{port}}, true},
		{"any", map[string]any{"command": dial, "network": "any"}, true},
	}
	for _, tt := range tests {
		res := call(t, ctx, r, ToolRunCommand, tt.args)
		if got := !res.IsError && strings.Contains(res.Content, "connected"); got != tt.ok {
			t.Errorf("%s: connected=%v, want %v:\n%s", tt.name, got, tt.ok, res.Content)
		}
		if !tt.ok {
			mustContain(t, res.Content, "permission denied", "The sandbox (landlock) refused")
		}
	}
}

// linkSelf hard-links (or copies) this test binary into dir.
func linkSelf(t *testing.T, dir string) string {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dst := filepath.Join(dir, "dialer")
	if os.Link(exe, dst) == nil {
		return dst
	}
	b, err := os.ReadFile(exe)
	if err == nil {
		err = os.WriteFile(dst, b, 0o700)
	}
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

// TestRunCommandCannotReadOutside: a sandboxed command reads the
// workspace and the system, and cannot read ~/.ssh/id_x (a stand-in home
// outside the workspace); the result says the sandbox refused it.
func TestRunCommandCannotReadOutside(t *testing.T) {
	landlockOrSkip(t)
	w, root := newWorkspace(t)
	home := t.TempDir()
	if err := os.Mkdir(filepath.Join(home, ".ssh"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(home, ".ssh", "id_x"), []byte("PRIVATE KEY"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "notes.txt"), []byte("notes"), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("HOME", home)
	r := builtinRegistry(t, w, BuiltinOptions{})
	ctx := context.Background()
	res := call(t, ctx, r, ToolRunCommand, map[string]any{"command": `cat notes.txt /etc/hostname >/dev/null && echo read-ok`})
	if res.IsError || !strings.Contains(res.Content, "read-ok") {
		t.Fatalf("reading the workspace and the system: %s", res.Content)
	}
	res = call(t, ctx, r, ToolRunCommand, map[string]any{"command": `cat "$HOME/.ssh/id_x"`})
	if !res.IsError || strings.Contains(res.Content, "PRIVATE KEY") {
		t.Errorf("the secret outside was read: %s", res.Content)
	}
	mustContain(t, res.Content, "reads: the system", "Permission denied", "The sandbox (landlock) refused", "may read only")
}

// TestRunCommandPreviewSaysSandbox: the approval card says what the
// command can write and reach.
func TestRunCommandPreviewSaysSandbox(t *testing.T) {
	landlockOrSkip(t)
	w, root := newWorkspace(t)
	tool := runCommandTool(w, BuiltinOptions{})
	pv, err := tool.Preview(context.Background(), []byte(`{"command":"curl example.org","network":"ports","ports":[443]}`))
	if err != nil {
		t.Fatal(err)
	}
	if want := "sandbox: landlock (writes: " + root + ", a private temporary folder; network: TCP ports 443; reads: the system, its own program files and the folders it writes"; !strings.HasPrefix(pv.Sandbox, want) {
		t.Errorf("preview sandbox = %q, want prefix %q", pv.Sandbox, want)
	}
}

// TestRunCommandSandboxOff: with the sandbox off the result says so.
func TestRunCommandSandboxOff(t *testing.T) {
	w, _ := newWorkspace(t)
	r := builtinRegistry(t, w, BuiltinOptions{Sandbox: sandbox.New(sandbox.Options{Off: true, OffReason: "turned off for this test"})})
	res := call(t, context.Background(), r, ToolRunCommand, map[string]any{"command": "echo hi"})
	if res.IsError || res.Content != "Exit code: 0\nsandbox: none (turned off for this test)\n\nhi\n" {
		t.Errorf("result %q", res.Content)
	}
}

// TestRunCommandHostList: with network "hosts" a command reaches a
// listed host through the sandbox's proxy (curl, which honours
// HTTP_PROXY; a loopback server named by the proxy's lookup), another
// host is refused, and the result says the sandbox refused it.
func TestRunCommandHostList(t *testing.T) {
	landlockOrSkip(t)
	curl, err := exec.LookPath("curl")
	if err != nil {
		t.Skip("curl is not installed")
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, "hello from "+r.Host) }))
	defer srv.Close()
	_, port, _ := net.SplitHostPort(srv.Listener.Addr().String())
	lookup := func(context.Context, string) ([]string, error) { return []string{"127.0.0.1"}, nil }
	w, _ := newWorkspace(t)
	r := builtinRegistry(t, w, BuiltinOptions{Sandbox: sandbox.New(sandbox.Options{ProxyLookup: lookup})})
	ctx := context.Background()
	hosts := []string{"allowed.test:" + port}

	res := call(t, ctx, r, ToolRunCommand, map[string]any{"command": curl + " -sS http://allowed.test:" + port + "/", "network": "hosts", "hosts": hosts})
	if res.IsError || !strings.Contains(res.Content, "hello from allowed.test") {
		t.Errorf("listed host: %s", res.Content)
	}
	mustContain(t, res.Content, "network: only allowed.test:"+port+", through the sandbox's proxy")
	res = call(t, ctx, r, ToolRunCommand, map[string]any{"command": curl + " -sSf http://denied.test:" + port + "/", "network": "hosts", "hosts": hosts})
	if !res.IsError || strings.Contains(res.Content, "hello") {
		t.Errorf("other host: %s", res.Content)
	}
	mustContain(t, res.Content, sandbox.RefusedByProxy+": connections to denied.test:"+port, "The sandbox (landlock) refused")
	res = call(t, ctx, r, ToolRunCommand, map[string]any{"command": curl + " -sS --noproxy '*' http://127.0.0.1:" + port + "/", "network": "hosts", "hosts": hosts})
	if !res.IsError || strings.Contains(res.Content, "hello") {
		t.Errorf("around the proxy: %s", res.Content)
	}
}
