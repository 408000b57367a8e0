// Wails' asset server pulls in its cgo web view package, which needs
// webkit2gtk: it runs without cgo, or with -tags webkit2_41.

//go:build !cgo || webkit2_41

package gzfs

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	aso "github.com/wailsapp/wails/v2/pkg/options/assetserver"

	"github.com/juncture-app/juncture/internal/testkit/wailsassets"
)

// TestWailsAssetServerInflates: the window's asset server (WebKitGTK's
// custom scheme is handed the body as it is, so nothing may stay
// gzipped) answers a stored file with its plain bytes, its type and no
// Content-Encoding, whatever the request accepts.
func TestWailsAssetServerInflates(t *testing.T) {
	srv := wailsassets.New(t, aso.Options{Assets: New(tree(t))})
	r := httptest.NewRequest(http.MethodGet, "/assets/app.js", nil)
	r.Header.Set("Accept-Encoding", "gzip")
	rec := httptest.NewRecorder()
	srv.ServeHTTP(rec, r)
	h := rec.Header()
	if rec.Code != http.StatusOK || rec.Body.String() != "console.log('app')" || h.Get("Content-Encoding") != "" || !strings.HasPrefix(h.Get("Content-Type"), "text/javascript") {
		t.Errorf("GET /assets/app.js: %d %q %v", rec.Code, rec.Body.String(), h)
	}
}
