package mcp

import (
	"context"
	"path/filepath"
	"testing"
	"time"
)

// TestWaitFirstStartEndsWhenNoServerIsStarting: the first turn's wait ends
// as soon as every server's first start is over, a failed one included
// (it does not wait out the turn's budget for a server in backoff); with
// no server it returns at once; a cancelled context ends it too.
func TestWaitFirstStartEndsWhenNoServerIsStarting(t *testing.T) {
	m := newManager(t, Options{BackoffBase: time.Hour, BackoffMax: time.Hour})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second) // a hang guard, not a timing assertion
	defer cancel()
	m.WaitFirstStart(ctx)
	m.Apply(Config{Servers: map[string]ServerConfig{"gone": {Command: filepath.Join(t.TempDir(), "no-such-server")}}})
	m.WaitFirstStart(ctx)
	if ctx.Err() != nil {
		t.Fatal("the wait ran out its budget for a server whose start failed")
	}
	if st := status(t, m, "gone"); st.Status != StatusError {
		t.Fatalf("status %+v, want error", st)
	}
	done, stop := context.WithCancel(context.Background())
	stop()
	m.Apply(Config{Servers: map[string]ServerConfig{"gone": {Command: "/bin/sleep", Args: []string{"60"}}}})
	m.WaitFirstStart(done) // a server still starting: returns with its context
}
