package app

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/juncture-app/juncture/agent/mcp"
)

// BenchmarkStartWithMCPServers is app start-up (store open, recovery,
// settings, runtime) with 0 and with 5 MCP servers configured: Start must
// not wait for servers, so the two rows should be alike (start-ms). The
// 5-server row also reports how long until all five are ready (ready-ms),
// which happens in the background.
func BenchmarkStartWithMCPServers(b *testing.B) {
	for _, n := range []int{0, 5} {
		b.Run(fmt.Sprintf("servers=%d", n), func(b *testing.B) {
			bin := edgeServer(b)
			var servers []string
			for i := range n {
				q, _ := json.Marshal(bin)
				servers = append(servers, fmt.Sprintf(`"edge%d":{"command":%s}`, i, q))
			}
			cfg := `{"mcpServers":{` + strings.Join(servers, ",") + `}}`
			var startTotal, readyTotal time.Duration
			for b.Loop() {
				dir := b.TempDir()
				path := filepath.Join(dir, "mcp.json")
				if err := os.WriteFile(path, []byte(cfg), 0o600); err != nil {
					b.Fatal(err)
				}
				t0 := time.Now()
				svc, err := Start(context.Background(), Config{DataDir: dir, Mode: "browser", Getenv: func(string) string { return "" }, MCPConfigPath: path,
					Logger: slog.New(slog.DiscardHandler)})
				if err != nil {
					b.Fatal(err)
				}
				startTotal += time.Since(t0)
				for ready := 0; ready < n; {
					ready = 0
					for _, s := range svc.App().mcp.Servers() {
						if s.Status == mcp.StatusReady {
							ready++
						}
					}
					if time.Since(t0) > 30*time.Second {
						b.Fatal("servers never ready")
					}
					time.Sleep(time.Millisecond)
				}
				readyTotal += time.Since(t0)
				ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
				if err := svc.Shutdown(ctx); err != nil {
					b.Fatal(err)
				}
				cancel()
			}
			b.ReportMetric(float64(startTotal.Microseconds())/1000/float64(b.N), "start-ms")
			if n > 0 {
				b.ReportMetric(float64(readyTotal.Microseconds())/1000/float64(b.N), "ready-ms")
			}
		})
	}
}
