package web

import (
	"bytes"
	"io/fs"
	"mime"
	"net/http"
	"path"
	"strings"
	"time"
)

// gzipped is a file tree that stores some files gzipped and hands out
// their stored bytes (internal/gzfs; the embedded frontend).
type gzipped interface {
	Gzipped(name string) ([]byte, bool)
}

// static serves the frontend's files. A file the tree stores gzipped goes
// to a client that accepts gzip as stored (Content-Encoding: gzip, no
// inflating per request); every other answer is http.FileServerFS's.
func static(assets fs.FS) http.Handler {
	files := http.FileServerFS(assets)
	gz, ok := assets.(gzipped)
	if !ok {
		return files
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Add("Vary", "Accept-Encoding")
		p := r.URL.Path
		ctype := mime.TypeByExtension(path.Ext(p))
		if ctype == "" || !acceptsGzip(r.Header.Get("Accept-Encoding")) || p != path.Clean(p) {
			files.ServeHTTP(w, r)
			return
		}
		b, ok := gz.Gzipped(strings.TrimPrefix(p, "/"))
		if !ok {
			files.ServeHTTP(w, r)
			return
		}
		w.Header().Set("Content-Type", ctype)
		w.Header().Set("Content-Encoding", "gzip")
		r.Header.Del("Range") // a range of the plain file is not one of the stored bytes
		http.ServeContent(w, r, p, time.Time{}, bytes.NewReader(b))
	})
}

// acceptsGzip reads an Accept-Encoding header: gzip (or *) listed without
// q=0.
func acceptsGzip(header string) bool {
	for _, part := range strings.Split(header, ",") {
		coding, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		coding = strings.ToLower(strings.TrimSpace(coding))
		if coding != "gzip" && coding != "x-gzip" && coding != "*" {
			continue
		}
		q := strings.ReplaceAll(strings.ToLower(params), " ", "")
		if strings.HasPrefix(q, "q=0") && strings.Trim(strings.TrimPrefix(q, "q=0"), ".0") == "" {
			return false
		}
		return true
	}
	return false
}
