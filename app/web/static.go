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

// acceptsGzip reads an Accept-Encoding header: gzip (or x-gzip) listed
// without q=0, or else * listed without q=0. An explicit gzip;q=0 refuses
// it whatever * says.
func acceptsGzip(header string) bool {
	gzip, star := -1, -1 // 0: refused, 1: accepted, -1: not listed
	for _, part := range strings.Split(header, ",") {
		coding, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		coding = strings.ToLower(strings.TrimSpace(coding))
		ok := 1
		for _, p := range strings.Split(params, ";") {
			k, v, _ := strings.Cut(strings.ReplaceAll(strings.ToLower(p), " ", ""), "=")
			if k == "q" && strings.HasPrefix(v, "0") && strings.Trim(strings.TrimPrefix(v, "0"), ".0") == "" {
				ok = 0
			}
		}
		switch coding {
		case "gzip", "x-gzip":
			gzip = max(gzip, ok)
		case "*":
			star = max(star, ok)
		}
	}
	if gzip >= 0 {
		return gzip == 1
	}
	return star == 1
}
