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
	"github.com/juncture-app/juncture/agent/broker"
	"github.com/juncture-app/juncture/agent/contract"
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
				o.Model = func(context.Context, string) (agent.Model, error) { return m, nil }
				o.Tools = func(context.Context, string) *tools.Registry { return reg }
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
					if env.Name == broker.EnvelopeAGUI && env.Event.EventType() == agui.TypeRunFinished {
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
func edgeEcho(b *testing.B) (tools.Tool, func()) { return edgeTool(b, "edge__echo") }

// edgeTool starts the edge server under an MCP manager and returns one of
// its tools by model name.
func edgeTool(b *testing.B, name string) (tools.Tool, func()) {
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
			if t.Name == name {
				return t, func() { m.Close(); procs.Close(); os.RemoveAll(dir) }
			}
		}
		time.Sleep(10 * time.Millisecond)
	}
	b.Fatal("the edge server never became ready")
	return tools.Tool{}, nil
}

// BenchmarkStopDuringMCPCall is Stop → RUN_FINISHED(cancelled) while an
// MCP stdio call runs that the server never answers (the edge server's
// hang: the SDK sends notifications/cancelled), next to the anchors: Stop
// while the model streams, and Stop during an Abortable Go tool (the same
// situation, the same result writes before RUN_FINISHED).
func BenchmarkStopDuringMCPCall(b *testing.B) {
	hang, done := edgeTool(b, "edge__hang")
	defer done()
	wait := tools.Tool{Name: "wait", OnStop: tools.Abortable, Run: func(ctx context.Context, _ json.RawMessage) (tools.Result, error) {
		<-ctx.Done()
		return tools.Result{Content: "stopped", IsError: true}, nil
	}}
	reg, err := tools.NewRegistry(hang, wait)
	if err != nil {
		b.Fatal(err)
	}
	for _, during := range []string{"streaming", "go-call", "mcp-call"} {
		b.Run(during, func(b *testing.B) {
			m := newScriptedModel()
			m.fallback = func(n int, req modelRequest) sreply {
				if during == "streaming" {
					return reply(sText("a"), sBlock())
				}
				tool := map[string]string{"go-call": "wait", "mcp-call": "edge__hang"}[during]
				return reply(sCall(0, fmt.Sprintf("call-%d", n), tool, `{}`))
			}
			h := newHarness(b, func(o *agent.Options) {
				o.Model = func(context.Context, string) (agent.Model, error) { return m, nil }
				o.Tools = func(context.Context, string) *tools.Registry { return reg }
			})
			var lat []time.Duration
			for i := 0; b.Loop(); i++ {
				tid := fmt.Sprintf("s-%d", i)
				h.send(tid, "go")
				for started := false; !started; {
					env, _ := h.sub.Next(context.Background())
					if env.Name != broker.EnvelopeAGUI {
						continue
					}
					if c, ok := env.Event.(*agui.Custom); ok && c.Name == contract.CustomToolState {
						var st contract.ToolStateEvent
						started = json.Unmarshal(c.Value, &st) == nil && st.State == contract.ToolRunning
					}
					started = started || (during == "streaming" && env.Event.EventType() == agui.TypeTextMessageContent)
				}
				lat = append(lat, h.timeStop(tid))
			}
			reportLatencies(b, lat)
		})
	}
}
