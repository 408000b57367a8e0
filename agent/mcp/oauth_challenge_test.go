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

// TestOAuthHugeChallengeAnswersAtOnce: a server's 401 or 403 with a
// WWW-Authenticate of a mebibyte of commas (the SDK's parser looks ahead
// from every comma: quadratic) must not hold the connection: a challenge
// over its budget is not read at all. The budget is decided here: 8 KiB.
func TestOAuthHugeChallengeAnswersAtOnce(t *testing.T) {
	for _, tc := range []struct {
		name   string
		code   int
		header string
	}{
		{"commas 401", http.StatusUnauthorized, "Bearer " + strings.Repeat(",", 1<<20)},
		{"commas 403", http.StatusForbidden, `Bearer error="insufficient_scope", scope="a"` + strings.Repeat(", x", 1<<19)},
		{"many values", http.StatusUnauthorized, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := NewManager(Options{Vault: &testkit.Vault{}})
			defer m.Close()
			s := &supervisor{m: m, name: "f", cfg: ServerConfig{URL: "http://127.0.0.1:1/mcp"}}
			h := &oauthConn{s: s}
			hdr := http.Header{"Www-Authenticate": {tc.header}}
			if tc.header == "" {
				hdr["Www-Authenticate"] = make([]string, 1<<16)
				for i := range hdr["Www-Authenticate"] {
					hdr["Www-Authenticate"][i] = "Bearer " + strings.Repeat(",", 64)
				}
			}
			resp := &http.Response{StatusCode: tc.code, Header: hdr, Body: io.NopCloser(strings.NewReader(""))}
			req, _ := http.NewRequest(http.MethodPost, s.cfg.URL, nil)
			done := make(chan struct{})
			go func() {
				defer close(done)
				_ = h.Authorize(context.Background(), req, resp)
			}()
			select {
			case <-done:
			case <-time.After(10 * time.Second):
				t.Fatal("Authorize still parsing a huge WWW-Authenticate after 10 s")
			}
		})
	}
}
