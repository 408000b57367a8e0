// Package frontend embeds the built web frontend (frontend/dist) so the
// desktop window and browser mode serve the same files from the binary.
package frontend

import (
	"embed"
	"io/fs"
)

//go:embed all:dist
var dist embed.FS

// Dist returns the built frontend; index.html is at its root.
func Dist() fs.FS {
	sub, err := fs.Sub(dist, "dist")
	if err != nil {
		panic(err) // "dist" is a literal embedded directory
	}
	return sub
}
