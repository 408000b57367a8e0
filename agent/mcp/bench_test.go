package mcp

import (
	"context"
	"encoding/json"
	"strconv"
	"testing"
	"time"

	"github.com/juncture-app/juncture/agent/tools"
)

// prepared returns a registry and a prepared call of one tool.
func prepared(b *testing.B, all []tools.Tool, name, args string) (*tools.Registry, tools.Call) {
	b.Helper()
	reg, err := tools.NewRegistry(all...)
	if err != nil {
		b.Fatal(err)
	}
	c, res := reg.Prepare(name, args)
	if res != nil {
		b.Fatalf("prepare: %+v", res)
	}
	return reg, c
}

// benchPing times the prepared call c, which must answer "ping".
func benchPing(b *testing.B, reg *tools.Registry, c tools.Call) {
	ctx := context.Background()
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if res := reg.Execute(ctx, c); res.Content != "ping" {
			b.Fatalf("echo: %+v", res)
		}
	}
}

// BenchmarkStdioToolCall is one call of the edge server's echo through
// the registry, the adapter, the SDK and the process's pipes and back.
func BenchmarkStdioToolCall(b *testing.B) {
	m := startEdge(b, Options{}, nil)
	name := waitTool(b, m, "edge", "echo").ModelName
	reg, c := prepared(b, m.Tools(), name, `{"text":"ping"}`)
	benchPing(b, reg, c)
}

// BenchmarkDirectGoTool is the same call to a Go tool that answers at
// once: the registry's own cost, the baseline of the one above.
func BenchmarkDirectGoTool(b *testing.B) {
	echo := tools.Tool{
		Name:   "echo",
		Schema: json.RawMessage(`{"type":"object","properties":{"text":{"type":"string"}},"required":["text"]}`),
		OnStop: tools.Abortable,
		Run: func(_ context.Context, args json.RawMessage) (tools.Result, error) {
			var in struct{ Text string }
			if err := json.Unmarshal(args, &in); err != nil {
				return tools.Result{}, err
			}
			return tools.Result{Content: in.Text}, nil
		},
	}
	reg, c := prepared(b, []tools.Tool{echo}, "echo", `{"text":"ping"}`)
	benchPing(b, reg, c)
}

// BenchmarkStartFiveServers is Apply of five edge servers until all are
// ready (process start, initialize, tools/list, pins). Closing them is not
// timed.
func BenchmarkStartFiveServers(b *testing.B) {
	cmd, args := edgeServerCommand(b)
	cfg := Config{Servers: map[string]ServerConfig{}}
	for i := range 5 {
		cfg.Servers["edge"+strconv.Itoa(i)] = ServerConfig{Command: cmd, Args: args}
	}
	var total time.Duration
	for b.Loop() {
		b.StopTimer()
		changed := make(chan struct{}, 1)
		procs := tools.NewProcesses()
		m := NewManager(Options{Processes: procs, OnChange: func() { signal(changed) }})
		b.StartTimer()
		start := time.Now()
		m.Apply(cfg)
		for !allReady(m) {
			select {
			case <-changed:
			case <-time.After(30 * time.Second):
				b.Fatalf("not ready: %+v", m.Servers())
			}
		}
		total += time.Since(start)
		b.StopTimer()
		m.Close()
		procs.Close()
		b.StartTimer()
	}
	b.ReportMetric(float64(total.Microseconds())/1000/float64(b.N), "ms/op")
}

func allReady(m *Manager) bool {
	for _, s := range m.Servers() {
		if s.Status != StatusReady {
			return false
		}
	}
	return true
}
