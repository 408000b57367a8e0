// Package gzfs serves a file tree whose large files are stored gzipped
// ("x.js.gz" instead of "x.js", written by the frontend build) as if they
// were not: the embedded frontend takes a quarter of the binary it would
// plain, and Wails' asset server and http.FileServerFS see ordinary files.
// Browser mode can hand the stored bytes to a client that accepts gzip
// (Gzipped) instead of inflating them.
package gzfs

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"strings"
	"time"
)

// Ext is the suffix of a stored compressed file.
const Ext = ".gz"

// MaxInflated bounds what one stored file may inflate to: the build's
// largest chunk is ~1.5 MB; a file past this is refused, not allocated.
const MaxInflated = 64 << 20

// FS is a file tree with some files stored gzipped.
type FS struct {
	base fs.FS
	max  int64 // MaxInflated; smaller in tests
}

// New serves base with its "*.gz" files under their plain names. A plain
// file wins over a stored one of the same name.
func New(base fs.FS) *FS { return &FS{base: base, max: MaxInflated} }

// Open opens name, inflating name+".gz" when only that exists.
func (f *FS) Open(name string) (fs.File, error) {
	pf, err := f.base.Open(name)
	if err == nil {
		if d, ok := pf.(fs.ReadDirFile); ok {
			return &dir{ReadDirFile: d}, nil
		}
		return pf, nil
	}
	if !errors.Is(err, fs.ErrNotExist) || !fs.ValidPath(name) || name == "." {
		return nil, err
	}
	raw, gzErr := fs.ReadFile(f.base, name+Ext)
	if gzErr != nil {
		return nil, err // the plain name's error: it does not exist either way
	}
	data, zErr := inflate(raw, f.max)
	if zErr != nil {
		return nil, &fs.PathError{Op: "open", Path: name, Err: zErr}
	}
	st, sErr := fs.Stat(f.base, name+Ext)
	if sErr != nil {
		return nil, &fs.PathError{Op: "open", Path: name, Err: sErr}
	}
	return &file{Reader: bytes.NewReader(data), info: info{name: path.Base(name), size: int64(len(data)), mod: st.ModTime()}}, nil
}

// Gzipped returns name's stored gzip bytes, when name is stored that way
// (ok false for a plain file, a directory, no such file, or a stored file
// without a gzip header).
func (f *FS) Gzipped(name string) (gz []byte, ok bool) {
	if !fs.ValidPath(name) || name == "." {
		return nil, false
	}
	if _, err := fs.Stat(f.base, name); err == nil {
		return nil, false
	}
	raw, err := fs.ReadFile(f.base, name+Ext)
	if err != nil {
		return nil, false
	}
	// Not gzip (Open refuses it): not handed out as gzip either. Reading
	// the header does not inflate.
	if _, err := gzip.NewReader(bytes.NewReader(raw)); err != nil {
		return nil, false
	}
	return raw, true
}

func inflate(raw []byte, limit int64) ([]byte, error) {
	zr, err := gzip.NewReader(bytes.NewReader(raw))
	if err != nil {
		return nil, fmt.Errorf("gzfs: %w", err)
	}
	var out bytes.Buffer
	n, err := io.Copy(&out, io.LimitReader(zr, limit+1))
	if err != nil {
		return nil, fmt.Errorf("gzfs: inflating: %w", err)
	}
	if n > limit {
		return nil, fmt.Errorf("gzfs: inflates past %d bytes", limit)
	}
	return out.Bytes(), nil
}

// file is an inflated file: a bytes.Reader (so http.ServeContent can seek).
type file struct {
	*bytes.Reader
	info info
}

func (f *file) Stat() (fs.FileInfo, error) { return f.info, nil }
func (f *file) Close() error               { return nil }

type info struct {
	name string
	size int64
	mod  time.Time
}

func (i info) Name() string       { return i.name }
func (i info) Size() int64        { return i.size }
func (i info) Mode() fs.FileMode  { return 0o444 }
func (i info) ModTime() time.Time { return i.mod }
func (i info) IsDir() bool        { return false }
func (i info) Sys() any           { return nil }

// dir lists stored files under their plain names.
type dir struct{ fs.ReadDirFile }

func (d *dir) ReadDir(n int) ([]fs.DirEntry, error) {
	entries, err := d.ReadDirFile.ReadDir(n)
	for i, e := range entries {
		if !e.IsDir() && strings.HasSuffix(e.Name(), Ext) {
			entries[i] = plainEntry{e}
		}
	}
	return entries, err
}

// plainEntry names a stored file by its plain name. Its Info is the
// stored file's (the compressed size): listing never inflates.
type plainEntry struct{ fs.DirEntry }

func (e plainEntry) Name() string { return strings.TrimSuffix(e.DirEntry.Name(), Ext) }
