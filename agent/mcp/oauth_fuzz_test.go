package mcp

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/juncture-app/juncture/internal/testkit"
)

// FuzzOAuthChallenge feeds hostile WWW-Authenticate headers to the
// connection's OAuth handler: it must answer at once, and what the
// challenge puts in the status stays within its budgets (32 scopes of
// 128 bytes, printable; a message of a few KiB).
func FuzzOAuthChallenge(f *testing.F) {
	for _, seed := range []string{
		`Bearer resource_metadata="https://a.example/.well-known/oauth-protected-resource", scope="a b"`,
		`Bearer error="insufficient_scope", scope="` + strings.Repeat("x ", 5000) + `"`,
		`Bearer error="insufficient_scope", scope="` + strings.Repeat("é", 300) + `"`,
		`Basic realm="x", Bearer scope="\u0000\u202e"`,
		`Bearer ,,,,===`,
		"Bearer " + strings.Repeat(",", 1<<16), // quadratic in the SDK's parser: over the budget, not read
	} {
		f.Add(seed, true)
		f.Add(seed, false)
	}
	f.Fuzz(func(t *testing.T, header string, forbidden bool) {
		m := NewManager(Options{Vault: &testkit.Vault{}})
		defer m.Close()
		s := &supervisor{m: m, name: "f", cfg: ServerConfig{URL: "http://127.0.0.1:1/mcp"}}
		h := &oauthConn{s: s}
		code := http.StatusUnauthorized
		if forbidden {
			code = http.StatusForbidden
		}
		resp := &http.Response{StatusCode: code, Header: http.Header{"Www-Authenticate": {header}}, Body: io.NopCloser(strings.NewReader(""))}
		req, _ := http.NewRequest(http.MethodPost, s.cfg.URL, nil)
		start := time.Now()
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		_ = h.Authorize(ctx, req, resp)
		if d := time.Since(start); d > time.Second {
			t.Fatalf("Authorize took %s", d)
		}
		st := m.auth.status("f")
		if st == nil {
			return
		}
		if len(st.Scopes) > maxChallengeScopes || len(st.Message) > 8<<10 {
			t.Fatalf("status over budget: %d scopes, message of %d bytes", len(st.Scopes), len(st.Message))
		}
		for _, sc := range st.Scopes {
			if len(sc) > maxScopeLen || strings.ContainsAny(sc, "\x00\"\\ ") {
				t.Fatalf("scope %q kept", sc)
			}
		}
	})
}
