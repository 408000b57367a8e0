package main

import (
	"fmt"
	"image"
	"image/png"
	"os"
	"path/filepath"

	"golang.org/x/image/draw"
)

// iconSizes are the hicolor theme's usual application sizes.
var iconSizes = []int{16, 24, 32, 48, 64, 128, 256, 512}

// writeIcons scales the app icon down to every size, as
// out/<N>x<N>/apps/juncture.png.
func writeIcons(src, out string) error {
	if out == "" {
		return fmt.Errorf("icons: -out is required")
	}
	f, err := os.Open(src)
	if err != nil {
		return fmt.Errorf("reading the app icon: %w", err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		return fmt.Errorf("decoding %s: %w", src, err)
	}
	for _, n := range iconSizes {
		dst := image.NewNRGBA(image.Rect(0, 0, n, n))
		// Catmull-Rom keeps small sizes sharp where bilinear blurs them.
		draw.CatmullRom.Scale(dst, dst.Bounds(), img, img.Bounds(), draw.Src, nil)
		path := filepath.Join(out, fmt.Sprintf("%dx%d", n, n), "apps", "juncture.png")
		if err := writePNG(path, dst); err != nil {
			return err
		}
	}
	return nil
}

func writePNG(path string, img image.Image) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := png.Encode(f, img); err != nil {
		f.Close()
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return f.Close()
}
