package web

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/juncture-app/juncture/internal/gzfs"
)

// TestStaticServesStoredGzip: browser mode hands a file stored gzipped to
// a client that accepts gzip as stored, with its own type; a client that
// does not (or refuses it with q=0) gets the plain bytes; index.html and
// other plain files are served as before; a path that is not clean is
// http.FileServerFS's to answer.
func TestStaticServesStoredGzip(t *testing.T) {
	const js = "console.log('juncture')"
	var z bytes.Buffer
	zw := gzip.NewWriter(&z)
	_, _ = io.WriteString(zw, js)
	_ = zw.Close()
	h := static(gzfs.New(fstest.MapFS{
		"index.html":          {Data: []byte("<!doctype html>")},
		"assets/app.js.gz":    {Data: z.Bytes()},
		"assets/f.woff2":      {Data: []byte("wOF2")},
		"assets/broken.js.gz": {Data: []byte("not gzip")},
	}))
	get := func(target, accept string) *httptest.ResponseRecorder {
		r := httptest.NewRequest(http.MethodGet, target, nil)
		if accept != "" {
			r.Header.Set("Accept-Encoding", accept)
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, r)
		return rec
	}
	for _, tc := range []struct {
		target, accept, body, encoding, ctype string
	}{
		{"/assets/app.js", "gzip, deflate, br", z.String(), "gzip", "text/javascript"},
		{"/assets/app.js", "br;q=1.0, gzip;q=0.8", z.String(), "gzip", "text/javascript"},
		{"/assets/app.js", "", js, "", "text/javascript"},
		{"/assets/app.js", "br", js, "", "text/javascript"},
		{"/assets/app.js", "gzip;q=0", js, "", "text/javascript"},
		{"/assets/app.js", "gzip; q=0.000", js, "", "text/javascript"},
		{"/", "gzip", "<!doctype html>", "", "text/html"},
		{"/assets/f.woff2", "gzip", "wOF2", "", "font/woff2"},
	} {
		rec := get(tc.target, tc.accept)
		hd := rec.Header()
		if rec.Code != http.StatusOK || rec.Body.String() != tc.body || hd.Get("Content-Encoding") != tc.encoding ||
			!strings.HasPrefix(hd.Get("Content-Type"), tc.ctype) || !strings.Contains(hd.Get("Vary"), "Accept-Encoding") {
			t.Errorf("GET %s (Accept-Encoding %q): %d %q %v", tc.target, tc.accept, rec.Code, rec.Body.String(), hd)
		}
	}
	if rec := get("/assets/broken.js", ""); rec.Code == http.StatusOK {
		t.Errorf("a stored file that is not gzip, inflated: %d %q", rec.Code, rec.Body.String())
	}
	if rec := get("/assets/broken.js", "gzip"); rec.Code == http.StatusOK {
		t.Errorf("a stored file that is not gzip, sent as gzip: %d %v", rec.Code, rec.Header())
	}
	if rec := get("/assets/../assets/app.js", "gzip"); rec.Header().Get("Content-Encoding") != "" {
		t.Errorf("an unclean path got the stored bytes: %v", rec.Header())
	}
}

func TestAcceptsGzip(t *testing.T) {
	for h, want := range map[string]bool{
		"": false, "gzip": true, "GZIP": true, "x-gzip": true, "*": true, "br, gzip;q=0.5": true,
		"gzip;q=0": false, "gzip;q=0.0": false, "deflate": false, "gzipx": false, "identity": false,
	} {
		if got := acceptsGzip(h); got != want {
			t.Errorf("acceptsGzip(%q) = %v, want %v", h, got, want)
		}
	}
}

// TestAcceptsGzipExplicitRefusalWins: a client that lists gzip with q=0
// refuses it whatever its "*" says, in either order (RFC 9110 12.5.3), and
// parameters other than q do not hide a q=0.
func TestAcceptsGzipExplicitRefusalWins(t *testing.T) {
	for h, want := range map[string]bool{
		"*, gzip;q=0": false, "*;q=0.5, gzip;q=0": false, "*, x-gzip;q=0": false,
		"gzip;q=0, *": false, "gzip;q=0.5, *;q=0": true, "*;q=0, gzip": true,
		"gzip;level=1;q=0": false, "gzip;q=0;level=1": false, "gzip;q=0.001": true,
	} {
		if got := acceptsGzip(h); got != want {
			t.Errorf("acceptsGzip(%q) = %v, want %v", h, got, want)
		}
	}
}
