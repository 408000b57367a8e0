package openai

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestEnvironmentCredentialsStayHome: openai-go's NewClient reads
// OPENAI_ADMIN_KEY, OPENAI_ORG_ID, OPENAI_PROJECT_ID, OPENAI_WEBHOOK_SECRET
// and OPENAI_CUSTOM_HEADERS from the process environment and sends them
// with every request of every client. A Juncture client talks to the
// endpoint it was given (a local Ollama probe, another saved endpoint)
// with only the key it was given: nothing of the environment rides along.
func TestEnvironmentCredentialsStayHome(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "sk-env-api-key-secret")
	t.Setenv("OPENAI_ADMIN_KEY", "sk-admin-env-secret")
	t.Setenv("OPENAI_ORG_ID", "org-env-secret")
	t.Setenv("OPENAI_PROJECT_ID", "proj-env-secret")
	t.Setenv("OPENAI_WEBHOOK_SECRET", "whsec-env-secret")
	t.Setenv("OPENAI_CUSTOM_HEADERS", "X-Env-Secret: custom-env-secret\nAuthorization: Bearer custom-auth-secret")
	for _, key := range []string{"", "sk-endpoint-key"} {
		var got http.Header
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			got = r.Header.Clone()
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write([]byte(`{"object":"list","data":[{"id":"m","object":"model"}]}`))
		}))
		t.Cleanup(srv.Close)
		tr := http.DefaultTransport.(*http.Transport).Clone()
		t.Cleanup(tr.CloseIdleConnections)
		c := New(Config{BaseURL: srv.URL + "/v1", APIKey: key, HTTPClient: &http.Client{Transport: tr}})
		if _, err := c.Models(context.Background()); err != nil {
			t.Fatalf("key %q: Models: %v", key, err)
		}
		for name, vals := range got {
			for _, v := range vals {
				if strings.Contains(v, "env") || strings.Contains(v, "custom") {
					t.Errorf("key %q: the request carried %s: %s from the environment", key, name, v)
				}
			}
		}
		want := "Bearer " + key
		if key == "" {
			want = "Bearer none"
		}
		if a := got.Get("Authorization"); a != want {
			t.Errorf("key %q: Authorization = %q, want %q", key, a, want)
		}
	}
}
