package gzfs

import (
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/fstest"
)

func gz(t *testing.T, s string) []byte {
	t.Helper()
	var b bytes.Buffer
	w := gzip.NewWriter(&b)
	if _, err := io.WriteString(w, s); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func tree(t *testing.T) fstest.MapFS {
	return fstest.MapFS{
		"index.html":          {Data: []byte("<!doctype html>")},
		"assets/app.js.gz":    {Data: gz(t, "console.log('app')")},
		"assets/both.css":     {Data: []byte("plain")},
		"assets/both.css.gz":  {Data: gz(t, "stored")},
		"assets/font.woff2":   {Data: []byte("wOF2")},
		"assets/broken.js.gz": {Data: []byte("not gzip")},
	}
}

// TestOpenInflatesStoredFiles: a file stored as name.gz opens under name
// with its plain content and size; plain files open as they are (a plain
// file wins over a stored one); a directory lists plain names; a stored
// file that is not gzip is an error, never garbage.
func TestOpenInflatesStoredFiles(t *testing.T) {
	f := New(tree(t))
	for _, tc := range []struct{ name, want string }{
		{"index.html", "<!doctype html>"},
		{"assets/app.js", "console.log('app')"},
		{"assets/both.css", "plain"},
		{"assets/font.woff2", "wOF2"},
	} {
		got, err := fs.ReadFile(f, tc.name)
		if err != nil || string(got) != tc.want {
			t.Errorf("ReadFile(%q) = %q, %v; want %q", tc.name, got, err, tc.want)
		}
		st, err := fs.Stat(f, tc.name)
		if err != nil || st.Size() != int64(len(tc.want)) || st.Name() != tc.name[strings.LastIndex(tc.name, "/")+1:] {
			t.Errorf("Stat(%q) = %v, %v", tc.name, st, err)
		}
	}
	if _, err := f.Open("assets/missing.js"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing file: %v, want ErrNotExist", err)
	}
	if _, err := fs.ReadFile(f, "assets/broken.js"); err == nil {
		t.Error("a stored file that is not gzip opened")
	}
	entries, err := fs.ReadDir(f, "assets")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if got := strings.Join(names, " "); !strings.Contains(got, "app.js") || strings.Contains(got, ".gz") {
		t.Errorf("ReadDir(assets) = %s", got)
	}
}

// TestGzippedOnlyForStoredFiles: the stored bytes are handed out for a
// stored file only.
func TestGzippedOnlyForStoredFiles(t *testing.T) {
	f := New(tree(t))
	if b, ok := f.Gzipped("assets/app.js"); !ok || !bytes.HasPrefix(b, []byte{0x1f, 0x8b}) {
		t.Errorf("Gzipped(app.js) = %d bytes, %v", len(b), ok)
	}
	for _, name := range []string{"index.html", "assets/both.css", "assets/missing.js", "assets", ".", "../x", "/assets/app.js"} {
		if _, ok := f.Gzipped(name); ok {
			t.Errorf("Gzipped(%q) = ok", name)
		}
	}
}

// TestInflateBudget: a stored file that inflates past the budget (a gzip
// bomb; MaxInflated, 1 MiB here) is refused without allocating it.
func TestInflateBudget(t *testing.T) {
	var b bytes.Buffer
	w, _ := gzip.NewWriterLevel(&b, gzip.BestCompression)
	zeros := make([]byte, 1<<20)
	for range 2 {
		_, _ = w.Write(zeros)
	}
	_ = w.Close()
	f := New(fstest.MapFS{"bomb.js.gz": {Data: b.Bytes()}})
	f.max = 1 << 20
	if _, err := f.Open("bomb.js"); err == nil || !strings.Contains(err.Error(), "inflates past") {
		t.Errorf("Open(bomb.js) = %v, want the budget's error", err)
	}
}

// TestFileServerServesInflated: http.FileServerFS over the tree answers a
// stored file with its plain bytes, type and length.
func TestFileServerServesInflated(t *testing.T) {
	srv := http.FileServerFS(New(tree(t)))
	rec := httptest.NewRecorder()
	srv.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/assets/app.js", nil))
	if rec.Code != http.StatusOK || rec.Body.String() != "console.log('app')" || !strings.HasPrefix(rec.Header().Get("Content-Type"), "text/javascript") {
		t.Errorf("GET /assets/app.js: %d %q %v", rec.Code, rec.Body.String(), rec.Header())
	}
}

// TestGzippedRefusesWhatOpenRefuses: a stored file that is not gzip (Open
// refuses it) is not handed out as gzip either: browser mode would send
// it with Content-Encoding: gzip and the browser would show a broken
// page where a client without gzip gets an error.
func TestGzippedRefusesWhatOpenRefuses(t *testing.T) {
	f := New(tree(t))
	if _, err := f.Open("assets/broken.js"); err == nil {
		t.Fatal("Open(broken.js) succeeded")
	}
	if b, ok := f.Gzipped("assets/broken.js"); ok {
		t.Errorf("Gzipped(broken.js) = %q, ok", b)
	}
}
