package mcp

// Test-only helpers that provide the MCP servers the tests run against: two
// real ones nobody here wrote, pinned in testdata/servers/package.json and
// installed there by `make test` (server-everything, server-filesystem), and
// internal/edgeserver, ours, for the edge cases no real server shows on
// demand. When a Node server or node itself is missing, a test skips, or
// fails with JUNCTURE_REQUIRE_MCP=1 (scripts/test-all.sh sets it, so CI
// cannot pass by skipping).

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/juncture-app/juncture/internal/testkit"
)

// nodeServers is where npm ci installs the Node servers (relative to this
// package's directory, the tests' working directory).
const nodeServers = "testdata/servers/node_modules/@modelcontextprotocol"

// missing skips the test, or fails it when JUNCTURE_REQUIRE_MCP=1.
func missing(t testing.TB, format string, args ...any) {
	t.Helper()
	msg := fmt.Sprintf(format, args...)
	if os.Getenv("JUNCTURE_REQUIRE_MCP") == "1" {
		t.Fatal(msg + " (required: JUNCTURE_REQUIRE_MCP=1)")
	}
	t.Skip(msg)
}

// nodeScript returns node's absolute path and that of pkg's dist/index.js.
func nodeScript(t testing.TB, pkg string) (node, script string) {
	t.Helper()
	script, err := filepath.Abs(filepath.Join(nodeServers, pkg, "dist", "index.js"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(script); err != nil {
		missing(t, "@modelcontextprotocol/%s is not installed: run make test (npm ci in agent/mcp/testdata/servers)", pkg)
	}
	node, err = exec.LookPath("node")
	if err != nil {
		missing(t, "node is not on PATH: install Node.js, then run make test (npm ci in agent/mcp/testdata/servers)")
	}
	return node, script
}

// everythingCommand returns the command line of server-everything over
// stdio: node's absolute path, then [.../server-everything/dist/index.js, "stdio"].
func everythingCommand(t testing.TB) (command string, args []string) {
	t.Helper()
	node, script := nodeScript(t, "server-everything")
	return node, []string{script, "stdio"}
}

// filesystemCommand returns the command line of server-filesystem serving
// the given directories: node, then [.../server-filesystem/dist/index.js, roots...].
func filesystemCommand(t testing.TB, roots ...string) (command string, args []string) {
	t.Helper()
	node, script := nodeScript(t, "server-filesystem")
	return node, append([]string{script}, roots...)
}

// everythingHTTP starts server-everything in its Streamable HTTP mode for
// the test and returns its endpoint, http://127.0.0.1:PORT/mcp. The server
// is stateful (Mcp-Session-Id), one session per initialize; it is killed,
// with its process group, when the test ends.
func everythingHTTP(t testing.TB) (url string) {
	t.Helper()
	return startEverything(t, "streamableHttp", "/mcp")
}

// everythingSSE is everythingHTTP for the legacy HTTP+SSE mode: it returns
// the SSE endpoint, http://127.0.0.1:PORT/sse (messages go to /message).
func everythingSSE(t testing.TB) (url string) {
	t.Helper()
	return startEverything(t, "sse", "/sse")
}

// startEverything runs `node dist/index.js MODE` with PORT set to a free
// port (the server listens on every interface, default port 3001) and waits
// until it has said "... on port PORT" and accepts connections.
func startEverything(t testing.TB, mode, path string) string {
	t.Helper()
	node, script := nodeScript(t, "server-everything")
	var err error
	for range 3 { // a port found free can be taken before node binds it
		var port int
		if port, err = freePort(); err != nil {
			break
		}
		cmd := exec.Command(node, script, mode)
		cmd.Env = append(os.Environ(), "PORT="+strconv.Itoa(port))
		var url string
		url, err = startServer(t, cmd, func(out string) (string, bool) {
			return fmt.Sprintf("http://127.0.0.1:%d%s", port, path), strings.Contains(out, fmt.Sprintf("on port %d\n", port))
		})
		if err == nil {
			return url
		}
		if !strings.Contains(err.Error(), "EADDRINUSE") && !strings.Contains(err.Error(), "already in use") {
			break
		}
	}
	t.Fatalf("server-everything %s: %v", mode, err)
	return ""
}

// edgeServerHTTP starts the edge server in Streamable HTTP mode on a free
// port, with env ("NAME=value") added to the test's environment, and returns
// its endpoint, http://127.0.0.1:PORT/mcp. It is killed when the test ends.
func edgeServerHTTP(t testing.TB, env ...string) (url string) {
	t.Helper()
	bin, _ := edgeServerCommand(t)
	cmd := exec.Command(bin, "-http", "127.0.0.1:0")
	cmd.Env = append(os.Environ(), env...)
	url, err := startServer(t, cmd, func(out string) (string, bool) {
		for line := range strings.Lines(out) {
			if u, ok := strings.CutPrefix(line, "listening on "); ok && strings.HasSuffix(u, "\n") {
				return strings.TrimSpace(u), true
			}
		}
		return "", false
	})
	if err != nil {
		t.Fatalf("edge server: %v", err)
	}
	return url
}

// startServer starts cmd in a process group of its own, killed when the
// test ends, and polls (30 s at most) until ready finds the URL in the
// process's output and something accepts connections there. When the test
// has failed, the cleanup logs the output.
func startServer(t testing.TB, cmd *exec.Cmd, ready func(output string) (url string, ok bool)) (string, error) {
	t.Helper()
	out := &testkit.SyncBuffer{}
	cmd.Stdout, cmd.Stderr = out, out
	ownGroup(cmd)
	if err := cmd.Start(); err != nil {
		return "", err
	}
	exited := make(chan struct{})
	go func() { cmd.Wait(); close(exited) }()
	t.Cleanup(func() {
		killGroup(cmd)
		<-exited
		if t.Failed() {
			t.Logf("output of %s:\n%s", strings.Join(cmd.Args, " "), out.String())
		}
	})

	deadline := time.Now().Add(30 * time.Second)
	for {
		if url, ok := ready(out.String()); ok {
			if host := hostOf(url); host != "" {
				if c, err := net.DialTimeout("tcp", host, time.Second); err == nil {
					c.Close()
					return url, nil
				}
			}
		}
		select {
		case <-exited:
			return "", fmt.Errorf("exited (%v) before serving:\n%s", cmd.ProcessState, out.String())
		case <-time.After(20 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			return "", fmt.Errorf("not serving after 30 s:\n%s", out.String())
		}
	}
}

// hostOf returns the host:port of an http:// URL.
func hostOf(url string) string {
	rest, ok := strings.CutPrefix(url, "http://")
	if !ok {
		return ""
	}
	host, _, _ := strings.Cut(rest, "/")
	return host
}

func freePort() (int, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port, nil
}

var edgeBuild struct {
	once sync.Once
	path string
	err  error
}

// edgeServerCommand returns the command of the edge server over stdio (no
// args: add flags such as -fail-start as needed). It is built once per
// test binary into os.TempDir()/juncture-edgeserver-<hash of its source,
// go.mod, go.sum and the Go version>, so later runs reuse it.
func edgeServerCommand(t testing.TB) (command string, args []string) {
	t.Helper()
	edgeBuild.once.Do(func() { edgeBuild.path, edgeBuild.err = buildEdgeServer() })
	if edgeBuild.err != nil {
		t.Fatal(edgeBuild.err)
	}
	return edgeBuild.path, nil
}

func buildEdgeServer() (string, error) { return buildTestServer("internal/edgeserver", "edgeserver") }

// buildTestServer builds one of internal/'s servers (see edgeServerCommand).
func buildTestServer(dir, name string) (string, error) {
	files, _ := filepath.Glob(filepath.Join(dir, "*.go")) // the pattern is valid
	if len(files) == 0 {
		return "", fmt.Errorf("no %s source in %s", name, dir)
	}
	embedded, _ := filepath.Glob(filepath.Join(dir, "views", "*")) // what the appserver embeds
	files = append(files, embedded...)
	h := sha256.New()
	io.WriteString(h, runtime.Version())
	for _, f := range append(files, "../../go.mod", "../../go.sum") {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			return "", err
		}
		fmt.Fprintf(h, "%s %d\n", f, len(b))
		h.Write(b)
	}
	bin := filepath.Join(os.TempDir(), fmt.Sprintf("juncture-%s-%x", name, h.Sum(nil)[:8]))
	if runtime.GOOS == "windows" {
		bin += ".exe"
	}
	if _, err := os.Stat(bin); err == nil {
		return bin, nil
	}
	// Build beside it and rename: test binaries of other packages may be
	// building the same file at the same moment.
	tmp := fmt.Sprintf("%s.%d.tmp", bin, os.Getpid())
	cmd := exec.Command("go", "build", "-o", tmp, "./"+dir)
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		os.Remove(tmp)
		return "", fmt.Errorf("building %s: %w\n%s", name, err, out)
	}
	if err := os.Rename(tmp, bin); err != nil {
		os.Remove(tmp)
		return "", err
	}
	return bin, nil
}

// TestTestBinaries checks the helpers above: each server starts, answers
// the handshake and lists its tools.
func TestTestBinaries(t *testing.T) {
	connect := func(t *testing.T, transport sdk.Transport) *sdk.ClientSession {
		t.Helper()
		// The context must outlive Connect: the SSE transport's stream
		// (its GET) is bound to it.
		ctx, cancel := context.WithCancel(context.Background())
		t.Cleanup(cancel)
		cs, err := sdk.NewClient(&sdk.Implementation{Name: "juncture-test", Version: "0"}, nil).Connect(ctx, transport, nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { cs.Close() })
		return cs
	}
	tools := func(t *testing.T, cs *sdk.ClientSession, want ...string) {
		t.Helper()
		var names []string
		for tool, err := range cs.Tools(context.Background(), nil) {
			if err != nil {
				t.Fatal(err)
			}
			names = append(names, tool.Name)
		}
		for _, w := range want {
			if !slices.Contains(names, w) {
				t.Errorf("tools %v: no %q", names, w)
			}
		}
	}
	// echo calls echo with {arg: "hi"} (server-everything's is "message").
	echo := func(t *testing.T, cs *sdk.ClientSession, arg string) {
		t.Helper()
		res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "echo", Arguments: map[string]any{arg: "hi"}})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Content) == 0 || !strings.Contains(res.Content[0].(*sdk.TextContent).Text, "hi") {
			t.Errorf("echo: %+v", res.Content)
		}
	}

	t.Run("everything/stdio", func(t *testing.T) {
		cmd, args := everythingCommand(t)
		// After a session server-everything does not exit when its stdin
		// closes: Close waits TerminateDuration (default 5 s), then SIGTERM.
		cs := connect(t, &sdk.CommandTransport{Command: exec.Command(cmd, args...), TerminateDuration: 200 * time.Millisecond})
		tools(t, cs, "echo")
		echo(t, cs, "message")
	})
	t.Run("everything/http", func(t *testing.T) {
		cs := connect(t, &sdk.StreamableClientTransport{Endpoint: everythingHTTP(t)})
		tools(t, cs, "echo")
		echo(t, cs, "message")
	})
	t.Run("everything/sse", func(t *testing.T) {
		cs := connect(t, &sdk.SSEClientTransport{Endpoint: everythingSSE(t)})
		tools(t, cs, "echo")
	})
	t.Run("filesystem", func(t *testing.T) {
		cmd, args := filesystemCommand(t, t.TempDir())
		cs := connect(t, &sdk.CommandTransport{Command: exec.Command(cmd, args...)})
		tools(t, cs, "list_directory", "read_text_file")
	})
	t.Run("edge/stdio", func(t *testing.T) {
		cmd, args := edgeServerCommand(t)
		cs := connect(t, &sdk.CommandTransport{Command: exec.Command(cmd, args...)})
		tools(t, cs, "echo", "note", "flip", "crash", "hang", "flood", "slow", "image", "structured",
			"links", "fails", "elicit", "sample", "roots", "env", "garbage")
		echo(t, cs, "text")
	})
	t.Run("edge/http", func(t *testing.T) {
		cs := connect(t, &sdk.StreamableClientTransport{Endpoint: edgeServerHTTP(t)})
		tools(t, cs, "echo")
		echo(t, cs, "text")
	})
	t.Run("edge/fail-start", func(t *testing.T) {
		cmd, _ := edgeServerCommand(t)
		out, err := exec.Command(cmd, "-fail-start", "no luck").CombinedOutput()
		var exit *exec.ExitError
		if !errors.As(err, &exit) || exit.ExitCode() != 1 || string(out) != "no luck\n" {
			t.Errorf("fail-start: %v %q", err, out)
		}
	})
}
