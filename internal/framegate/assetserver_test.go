// Wails' asset server pulls in its cgo web view package, which needs
// webkit2gtk: it runs without cgo, or with -tags webkit2_41.

//go:build !cgo || webkit2_41

package framegate

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/fstest"

	aso "github.com/wailsapp/wails/v2/pkg/options/assetserver"

	"github.com/juncture-app/juncture/internal/testkit/wailsassets"
)

// TestWailsAssetServerKeepsTheGate: through Wails' own asset server (which
// re-renders index.html to put its ipc.js and runtime.js in), the window's
// page keeps the wrapper after Wails' scripts and keeps its no-store and
// no-framing headers, for every spelling of its address the window loads;
// every other spelling that Wails treats as an index (a HEAD, a trailing
// slash elsewhere, dot segments, escapes, case) carries the secret only
// with the same headers (the page itself), or not at all.
func TestWailsAssetServerKeepsTheGate(t *testing.T) {
	g := newGate(t, nil)
	assets := fstest.MapFS{"index.html": {Data: []byte("<!doctype html><html><head><title>J</title></head><body><script type=\"module\" src=\"/assets/i.js\"></script></body></html>")}}
	mw, err := g.wrap(assets)
	if err != nil || mw == nil {
		t.Fatalf("wrap: %v", err)
	}
	srv := wailsassets.New(t, aso.Options{Assets: assets, Middleware: mw})
	for _, target := range []string{"/", "/index.html", "/?thread=x", "/index.html?v=1#h"} {
		rec := httptest.NewRecorder()
		srv.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, target, nil))
		body := rec.Body.String()
		ipc, wrapper := strings.Index(body, "/wails/ipc.js"), strings.Index(body, g.secret)
		if rec.Code != http.StatusOK || ipc < 0 || wrapper < ipc {
			t.Errorf("GET %s: %d, ipc.js at %d, wrapper at %d:\n%s", target, rec.Code, ipc, wrapper, body)
		}
		h := rec.Header()
		if h.Get("Cache-Control") != "no-store" || h.Get("Content-Security-Policy") != "frame-ancestors 'none'" || h.Get("X-Frame-Options") != "DENY" {
			t.Errorf("GET %s: headers %v", target, h)
		}
	}
	for _, tc := range []struct{ method, target string }{
		{http.MethodHead, "/"},
		{http.MethodPost, "/index.html"},
		{http.MethodGet, "//"},
		{http.MethodGet, "/x/"},
		{http.MethodGet, "/x/index.html"},
		{http.MethodGet, "/./index.html"},
		{http.MethodGet, "/x/../index.html"},
		{http.MethodGet, "/%69ndex.html"},
		{http.MethodGet, "/INDEX.HTML"},
		{http.MethodGet, "/appview/"},
	} {
		rec := httptest.NewRecorder()
		srv.ServeHTTP(rec, httptest.NewRequest(tc.method, tc.target, nil))
		h := rec.Header()
		if strings.Contains(rec.Body.String(), g.secret) && (h.Get("Cache-Control") != "no-store" || h.Get("Content-Security-Policy") != "frame-ancestors 'none'") {
			t.Errorf("%s %s carries the secret without the page's headers: %d %v", tc.method, tc.target, rec.Code, h)
		}
	}
}
