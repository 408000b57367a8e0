// Package frontend embeds the built web frontend (frontend/dist) so the
// desktop window and browser mode serve the same files from the binary.
package frontend

import (
	"embed"
	"io/fs"

	"github.com/juncture-app/juncture/internal/gzfs"
)

// The build stores most files gzipped (name.gz, vite.config.ts's
// gzipEmbedded): a quarter of the bytes in the binary.
//
//go:embed all:dist
var dist embed.FS

// Dist returns the built frontend; index.html is at its root. Files stored
// gzipped open under their plain names, inflated; Dist().Gzipped hands
// their stored bytes to a client that accepts gzip.
func Dist() *gzfs.FS {
	sub, err := fs.Sub(dist, "dist")
	if err != nil {
		panic(err) // "dist" is a literal embedded directory
	}
	return gzfs.New(sub)
}
