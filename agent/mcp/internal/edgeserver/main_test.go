//nolint:staticcheck // SA1019: the client side of the deprecated roots and sampling features, on purpose.
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestMain lets the test binary be the server: with EDGESERVER_MAIN=1 it
// runs main, so the tests below can start real processes without go build.
func TestMain(m *testing.M) {
	if os.Getenv("EDGESERVER_MAIN") == "1" {
		main()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

const legacy = "2025-11-25" // the last protocol with server-to-client requests

// connect serves a fresh edge server in-process and returns a client
// session on it (protocol "" = the SDK's latest).
func connect(t *testing.T, protocol string, opts *mcp.ClientOptions) *mcp.ClientSession {
	t.Helper()
	ctx := context.Background()
	e := &edge{cancels: newCancelLog()}
	st, ct := mcp.NewInMemoryTransports()
	ss, err := e.server().Connect(ctx, e.cancels.observe(st), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, opts).Connect(ctx, ct, &mcp.ClientSessionOptions{ProtocolVersion: protocol})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// call calls a tool and returns its text blocks joined by "|".
func call(t *testing.T, cs *mcp.ClientSession, name string, args any) (string, *mcp.CallToolResult) {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	var texts []string
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			texts = append(texts, tc.Text)
		}
	}
	return strings.Join(texts, "|"), res
}

func TestTools(t *testing.T) {
	t.Setenv("EDGE_FLIP_READONLY", "1")
	t.Setenv("EDGE_OWN", "mine")
	t.Setenv("OPENAI_API_KEY", "")
	os.Unsetenv("OPENAI_API_KEY")
	cs := connect(t, "", nil)

	tools, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range tools.Tools {
		names = append(names, tool.Name)
		if tool.Title == "" || tool.Annotations == nil {
			t.Errorf("%s: no title or annotations", tool.Name)
		}
		if ro := tool.Name != "note"; tool.Annotations.ReadOnlyHint != ro {
			t.Errorf("%s: readOnlyHint %v, want %v", tool.Name, tool.Annotations.ReadOnlyHint, ro)
		}
	}
	if got, want := strings.Join(names, " "), "bigprogress bigresource bigtext crash dial echo elicit env fails fetch flip flood garbage hang image links note roots sample slow structured"; got != want {
		t.Errorf("tools %q, want %q", got, want)
	}

	for _, c := range []struct {
		name string
		args any
		want string
	}{
		{"echo", map[string]any{"text": "hi"}, "hi"},
		{"note", map[string]any{"text": "milk"}, "noted: milk"},
		{"flip", nil, "flipped"},
		{"image", nil, "a 1x1 red pixel"},
		{"structured", nil, "21 C"},
		{"links", nil, "see the linked document"},
		{"fails", nil, "the edge server failed on purpose"},
		{"slow", map[string]any{"steps": 2, "stepMs": 1}, "done"},
		{"garbage", nil, "garbage works on stdio only"},
	} {
		if got, _ := call(t, cs, c.name, c.args); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
	if got, _ := call(t, cs, "env", nil); !strings.Contains(got, `"EDGE_OWN":"mine"`) || strings.Contains(got, "OPENAI") {
		t.Errorf("env: %s", got)
	}
	_, res := call(t, cs, "fails", nil)
	if !res.IsError {
		t.Error("fails: isError false")
	}
	_, res = call(t, cs, "image", nil)
	if img, ok := res.Content[0].(*mcp.ImageContent); !ok || img.MIMEType != "image/png" || !strings.HasPrefix(string(img.Data), "\x89PNG") {
		t.Errorf("image: %#v", res.Content[0])
	}
	_, res = call(t, cs, "structured", nil)
	if b, _ := json.Marshal(res.StructuredContent); string(b) != `{"temperature":21,"unit":"C"}` {
		t.Errorf("structured: %s", b)
	}
	_, res = call(t, cs, "links", nil)
	if l, ok := res.Content[0].(*mcp.ResourceLink); !ok || l.URI != "https://example.com/doc" {
		t.Errorf("links: %#v", res.Content[0])
	}
}

func TestProgress(t *testing.T) {
	var mu sync.Mutex
	var msgs []string
	cs := connect(t, "", &mcp.ClientOptions{ProgressNotificationHandler: func(_ context.Context, r *mcp.ProgressNotificationClientRequest) {
		mu.Lock()
		msgs = append(msgs, r.Params.Message)
		mu.Unlock()
	}})
	count := func() int { mu.Lock(); defer mu.Unlock(); return len(msgs) }

	p := &mcp.CallToolParams{Name: "flood", Arguments: map[string]any{"count": 500}}
	p.SetProgressToken("f")
	res, err := cs.CallTool(context.Background(), p)
	if err != nil || res.Content[0].(*mcp.TextContent).Text != "flooded 500" {
		t.Fatalf("flood: %v %v", res, err)
	}
	for deadline := time.Now().Add(5 * time.Second); count() < 500 && time.Now().Before(deadline); {
		time.Sleep(5 * time.Millisecond)
	}
	if n := count(); n != 500 {
		t.Errorf("%d progress notifications, want 500", n)
	}

	mu.Lock()
	msgs = nil
	mu.Unlock()
	p = &mcp.CallToolParams{Name: "slow", Arguments: map[string]any{"steps": 2, "stepMs": 1}}
	p.SetProgressToken(7)
	if _, err := cs.CallTool(context.Background(), p); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(5 * time.Second); count() < 2 && time.Now().Before(deadline); {
		time.Sleep(5 * time.Millisecond)
	}
	mu.Lock()
	defer mu.Unlock()
	if got := strings.Join(msgs, ","); got != "step 1 of 2,step 2 of 2" {
		t.Errorf("slow progress %q", got)
	}
}

func TestHangCancelled(t *testing.T) {
	logPath := filepath.Join(t.TempDir(), "cancel.log")
	t.Setenv("EDGE_CANCEL_LOG", logPath)
	cs := connect(t, "", nil)
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	if _, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "hang"}); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("hang: %v", err)
	}
	if b := waitFile(logPath); !strings.HasPrefix(string(b), "cancelled ") || strings.Count(string(b), "\n") != 1 {
		t.Errorf("cancel log %q", b)
	}
}

// TestAsk covers the tools that need the client's answer, on a protocol with
// multi round-trips and on one with server-to-client requests.
func TestAsk(t *testing.T) {
	accept := &mcp.ClientOptions{
		ElicitationHandler: func(_ context.Context, r *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"name": "Ada", "age": 36}}, nil
		},
		CreateMessageHandler: func(_ context.Context, r *mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
			return &mcp.CreateMessageResult{Role: "assistant", Model: "m", Content: &mcp.TextContent{Text: "re: " + r.Params.Messages[0].Content.(*mcp.TextContent).Text}}, nil
		},
	}
	for _, protocol := range []string{"", legacy} {
		t.Run("protocol="+protocol, func(t *testing.T) {
			c := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, accept)
			c.AddRoots(&mcp.Root{URI: "file:///a"}, &mcp.Root{URI: "file:///b"})
			e := &edge{cancels: newCancelLog()}
			st, ct := mcp.NewInMemoryTransports()
			if _, err := e.server().Connect(context.Background(), st, nil); err != nil {
				t.Fatal(err)
			}
			cs, err := c.Connect(context.Background(), ct, &mcp.ClientSessionOptions{ProtocolVersion: protocol})
			if err != nil {
				t.Fatal(err)
			}
			defer cs.Close()
			for _, k := range []struct {
				name string
				args any
				want string
			}{
				{"elicit", map[string]any{"message": "who?"}, `action=accept content={"age":36,"name":"Ada"}`},
				{"sample", map[string]any{"prompt": "hi"}, "sampled: re: hi"},
				{"roots", nil, "file:///a\nfile:///b"},
			} {
				if got, _ := call(t, cs, k.name, k.args); got != k.want {
					t.Errorf("%s: %q, want %q", k.name, got, k.want)
				}
			}
		})
	}

	t.Run("refused", func(t *testing.T) {
		cs := connect(t, legacy, &mcp.ClientOptions{
			ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
				return &mcp.ElicitResult{Action: "decline"}, nil
			},
			CreateMessageHandler: func(context.Context, *mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
				return nil, errors.New("sampling is off")
			},
		})
		if got, _ := call(t, cs, "elicit", nil); got != "action=decline content=null" {
			t.Errorf("elicit declined: %q", got)
		}
		got, res := call(t, cs, "sample", map[string]any{"prompt": "hi"})
		if !res.IsError || !strings.Contains(got, "sampling is off") {
			t.Errorf("sample refused: %q isError=%v", got, res.IsError)
		}
	})
}

// waitFile returns the file's content once it has some (5 s at most).
func waitFile(path string) []byte {
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if b, _ := os.ReadFile(path); len(b) > 0 {
			return b
		}
	}
	return nil
}

// server starts the test binary as the edge server with args.
func server(t *testing.T, args ...string) *exec.Cmd {
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), "EDGESERVER_MAIN=1")
	return cmd
}

func TestProcess(t *testing.T) {
	if testing.Short() {
		t.Skip("starts processes")
	}
	ctx := context.Background()

	t.Run("fail-start", func(t *testing.T) {
		out, err := server(t, "-stderr-lines", "3", "-fail-start", "no config").CombinedOutput()
		var exit *exec.ExitError
		if !errors.As(err, &exit) || exit.ExitCode() != 1 {
			t.Fatalf("err %v", err)
		}
		want := "edgeserver stderr line 1 of 3\nedgeserver stderr line 2 of 3\nedgeserver stderr line 3 of 3\nno config\n"
		if string(out) != want {
			t.Errorf("output %q, want %q", out, want)
		}
	})

	connectCmd := func(t *testing.T, cmd *exec.Cmd) *mcp.ClientSession {
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { cs.Close() })
		return cs
	}

	t.Run("crash", func(t *testing.T) {
		cmd := server(t)
		cs := connectCmd(t, cmd)
		if _, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "crash", Arguments: map[string]any{"afterMs": 10}}); err == nil {
			t.Fatal("crash answered")
		}
		cs.Wait()
		if cmd.ProcessState == nil || cmd.ProcessState.ExitCode() != 3 {
			t.Errorf("exit %v, want status 3", cmd.ProcessState)
		}
	})

	t.Run("garbage", func(t *testing.T) {
		cs := connectCmd(t, server(t))
		_, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "garbage"})
		if err == nil {
			t.Fatal("the client took the garbage")
		}
		t.Logf("client: %v", err)
	})

	t.Run("http", func(t *testing.T) {
		logPath := filepath.Join(t.TempDir(), "cancel.log")
		cmd := server(t, "-http", "127.0.0.1:0", "-slow-start", "10ms")
		cmd.Env = append(cmd.Env, "EDGE_CANCEL_LOG="+logPath)
		stderr, _ := cmd.StderrPipe()
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
		line, _ := bufio.NewReader(stderr).ReadString('\n')
		url, ok := strings.CutPrefix(strings.TrimSpace(line), "listening on ")
		if !ok || !strings.HasSuffix(url, "/mcp") {
			t.Fatalf("stderr %q", line)
		}
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(ctx, &mcp.StreamableClientTransport{Endpoint: url}, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer cs.Close()
		if got, _ := call(t, cs, "echo", map[string]any{"text": "over http"}); got != "over http" {
			t.Errorf("echo %q", got)
		}
		hctx, cancel := context.WithTimeout(ctx, 200*time.Millisecond)
		defer cancel()
		if _, err := cs.CallTool(hctx, &mcp.CallToolParams{Name: "hang"}); err == nil {
			t.Fatal("hang answered")
		}
		if b := waitFile(logPath); !strings.HasPrefix(string(b), "cancelled ") {
			t.Errorf("cancel log %q", b)
		}
	})
}
