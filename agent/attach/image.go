package attach

import (
	"bytes"
	"fmt"
	"image"
	_ "image/gif" // image.Decode reads GIF
	"image/jpeg"
	"image/png"

	"golang.org/x/image/draw"
	_ "golang.org/x/image/webp" // image.Decode reads WebP
)

// checkImage refuses an image whose header cannot be read or whose size
// is absurd.
func checkImage(name string, data []byte) error {
	cfg, _, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		return &Error{Name: name, Reason: "the image cannot be read (" + err.Error() + ")."}
	}
	if cfg.Width*cfg.Height > maxImagePixels {
		return &Error{Name: name, Reason: fmt.Sprintf("the image is %d × %d pixels; at most %d megapixels can be sent.", cfg.Width, cfg.Height, maxImagePixels/1_000_000)}
	}
	return nil
}

// ModelImage returns the image as the model receives it: unchanged when
// its longest side is at most MaxImageSide, else downscaled and encoded as
// JPEG (opaque) or PNG (with transparency).
func ModelImage(mime string, data []byte) (string, []byte) {
	cfg, _, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil || max(cfg.Width, cfg.Height) <= MaxImageSide {
		return mime, data
	}
	src, _, err := image.Decode(bytes.NewReader(data))
	if err != nil {
		return mime, data
	}
	b := src.Bounds()
	w, h := b.Dx(), b.Dy()
	if w >= h {
		h, w = max(1, h*MaxImageSide/w), MaxImageSide
	} else {
		w, h = max(1, w*MaxImageSide/h), MaxImageSide
	}
	dst := image.NewRGBA(image.Rect(0, 0, w, h))
	draw.ApproxBiLinear.Scale(dst, dst.Bounds(), src, b, draw.Src, nil)
	var buf bytes.Buffer
	if dst.Opaque() {
		if err := jpeg.Encode(&buf, dst, &jpeg.Options{Quality: 85}); err == nil {
			return "image/jpeg", buf.Bytes()
		}
		return mime, data
	}
	if err := png.Encode(&buf, dst); err == nil {
		return "image/png", buf.Bytes()
	}
	return mime, data
}
