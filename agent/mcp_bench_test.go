package agent_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/juncture-app/juncture/agent"
	"github.com/juncture-app/juncture/agent/agui"
	"github.com/juncture-app/juncture/agent/mcp"
	"github.com/juncture-app/juncture/agent/tools"
)

// BenchmarkToolTurn is one turn through the runtime and a real SQLite
// store: the model calls a tool, the result goes into the next model
// request, the model answers. The tool is an MCP stdio server's echo (the
// in-repo edge server, through the official SDK and a pipe) or a Go tool
// that answers at once: the anchor measured in the same run. The model is
// scripted at the runtime's Model seam, so both rows pay the same.
func BenchmarkToolTurn(b *testing.B) {
	direct := tools.Tool{
		Name: "echo", OnStop: tools.Abortable,
		Schema: json.RawMessage(`{"type":"object","properties":{"text":{"type":"string"}},"required":["text"]}`),
		Run: func(_ context.Context, args json.RawMessage) (tools.Result, error) {
			var in struct{ Text string }
			err := json.Unmarshal(args, &in)
			return tools.Result{Content: in.Text}, err
		},
	}
	for _, tc := range []struct {
		name string
		tool func(b *testing.B) (tools.Tool, func())
	}{
		{"go-tool", func(*testing.B) (tools.Tool, func()) { return direct, func() {} }},
		{"mcp-stdio", edgeEcho},
	} {
		b.Run(tc.name, func(b *testing.B) {
			tool, done := tc.tool(b)
			defer done()
			reg, err := tools.NewRegistry(tool)
			if err != nil {
				b.Fatal(err)
			}
			m := newScriptedModel()
			m.fallback = func(n int, req modelRequest) sreply {
				if last := req.Messages[len(req.Messages)-1]; last.Role == "tool" {
					return reply(sText("It said " + last.Content + "."))
				}
				return reply(sCall(0, fmt.Sprintf("call-%d", n), tool.Name, `{"text":"ping"}`))
			}
			h := newHarness(b, func(o *agent.Options) {
				o.Model = func() (agent.Model, error) { return m, nil }
				o.Tools = func() *tools.Registry { return reg }
			})
			b.ResetTimer()
			start := time.Now()
			for i := 0; b.Loop(); i++ {
				h.send(fmt.Sprintf("t-%d", i), "echo")
				for {
					env, err := h.sub.Next(context.Background())
					if err != nil {
						b.Fatal(err)
					}
					if env.Name == agent.EnvelopeAGUI && env.Event.EventType() == agui.TypeRunFinished {
						break
					}
				}
			}
			b.ReportMetric(float64(time.Since(start).Microseconds())/float64(b.N), "µs/turn")
		})
	}
}

// edgeEcho starts the edge server under an MCP manager and returns its
// echo tool.
func edgeEcho(b *testing.B) (tools.Tool, func()) {
	dir := b.TempDir()
	bin := filepath.Join(dir, "edgeserver")
	if out, err := exec.Command("go", "build", "-o", bin, "./mcp/internal/edgeserver").CombinedOutput(); err != nil {
		b.Fatalf("building the edge server: %v\n%s", err, out)
	}
	procs := tools.NewProcesses()
	m := mcp.NewManager(mcp.Options{Processes: procs})
	m.Apply(mcp.Config{Servers: map[string]mcp.ServerConfig{"edge": {Command: bin}}})
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		for _, t := range m.Tools() {
			if t.Name == "edge__echo" {
				return t, func() { m.Close(); procs.Close(); os.RemoveAll(dir) }
			}
		}
		time.Sleep(10 * time.Millisecond)
	}
	b.Fatal("the edge server never became ready")
	return tools.Tool{}, nil
}
