package mcphost

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/juncture-app/juncture/agent/mcp"
)

// A view is served once, with its own policy and a sandbox; a second
// load, an unknown name and another method get nothing.
func TestAppViewServedOnceWithItsCSP(t *testing.T) {
	var v Views
	h := &v
	csp := CSP(mcp.AppCSP{ConnectDomains: []string{"https://api.example.com"}})
	name := v.put(withCSPMeta("<p>hi</p>", csp), csp, time.Now())
	get := func(method, path string) *httptest.ResponseRecorder {
		w := httptest.NewRecorder()
		h.ServeHTTP(w, httptest.NewRequest(method, path, nil))
		return w
	}
	if w := get("POST", ViewPath+name); w.Code != http.StatusNotFound {
		t.Fatalf("POST: %d", w.Code)
	}
	w := get("GET", ViewPath+name)
	if w.Code != 200 {
		t.Fatalf("status %d", w.Code)
	}
	pol := w.Header().Get("Content-Security-Policy")
	for _, want := range []string{"default-src 'none'", "connect-src https://api.example.com", "frame-src 'none'", "form-action 'none'", "sandbox allow-scripts"} {
		if !strings.Contains(pol, want) {
			t.Errorf("policy %q lacks %q", pol, want)
		}
	}
	if strings.Contains(pol, "allow-same-origin") || strings.Contains(pol, "allow-popups") || strings.Contains(pol, "allow-top-navigation") {
		t.Errorf("policy %q", pol)
	}
	body := w.Body.String()
	if !strings.HasPrefix(body, `<!DOCTYPE html><meta http-equiv="Content-Security-Policy" content="`+csp+`">`) || !strings.HasSuffix(body, "<p>hi</p>") {
		t.Fatalf("body %q", body)
	}
	if w.Header().Get("Cache-Control") != "no-store" || w.Header().Get("Referrer-Policy") != "no-referrer" {
		t.Fatalf("headers %v", w.Header())
	}
	for _, p := range []string{ViewPath + name, ViewPath + "nope", ViewPath, "/appviewx"} {
		if w := get("GET", p); w.Code != http.StatusNotFound {
			t.Fatalf("%s: %d", p, w.Code)
		}
	}
}

// At most maxOpenViews wait; an expired one is gone.
func TestAppViewsBounded(t *testing.T) {
	var v Views
	now := time.Now()
	first := v.put("a", "", now)
	for i := 0; i < maxOpenViews; i++ {
		v.put("b", "", now.Add(time.Duration(i+1)*time.Millisecond))
	}
	if len(v.m) != maxOpenViews {
		t.Fatalf("%d views kept", len(v.m))
	}
	if _, ok := v.take(first, now); ok {
		t.Fatal("the oldest view was kept past the bound")
	}
	late := v.put("c", "", now)
	if _, ok := v.take(late, now.Add(appViewTTL+time.Second)); ok {
		t.Fatal("an expired view was served")
	}
}

func TestAppViewCSP(t *testing.T) {
	got := CSP(mcp.AppCSP{})
	for _, want := range []string{"script-src 'unsafe-inline'", "connect-src 'none'", "frame-src 'none'", "base-uri 'none'", "img-src data: blob:"} {
		if !strings.Contains(got, want) {
			t.Errorf("%q lacks %q", got, want)
		}
	}
	got = CSP(mcp.AppCSP{ResourceDomains: []string{"https://*.cdn.example.com"}, FrameDomains: []string{"https://www.youtube.com"}})
	for _, want := range []string{"script-src 'unsafe-inline' https://*.cdn.example.com", "frame-src https://www.youtube.com", "connect-src 'none'"} {
		if !strings.Contains(got, want) {
			t.Errorf("%q lacks %q", got, want)
		}
	}
}
