package attach

import (
	"bytes"
	"context"
	"image"
	_ "image/gif" // image.Decode reads GIF
	"image/jpeg"
	"image/png"

	"golang.org/x/image/draw"
	_ "golang.org/x/image/webp" // image.Decode reads WebP
)

// ModelImage returns an image as the model receives it: unchanged when its
// longest side is at most MaxImageSide, else downscaled (in an extractor
// child) and encoded as JPEG (opaque) or PNG (with transparency). ok is
// false, with a reason the model may read, when the image must not be
// decoded: its header says a decode passes DecodeBudget (a file stored by
// an older version or imported), or the child went over its budget.
func ModelImage(ctx context.Context, mime string, data []byte) (outMime string, out []byte, ok bool, why string) {
	h, err := checkDecodable("", data)
	if err != nil {
		return "", nil, false, err.Error()
	}
	if max(h.Width, h.Height) <= MaxImageSide {
		return mime, data, true, ""
	}
	r, _, err := extract(ctx, "image:"+mime, data)
	if err != nil {
		return "", nil, false, "it could not be downscaled (" + err.Error() + ")"
	}
	return r.Mime, r.Data, true, ""
}

// modelImageInProcess is ModelImage's decode, run in the extractor child
// on an image whose header passed checkDecodable.
func modelImageInProcess(mime string, data []byte) (string, []byte) {
	src, _, err := image.Decode(bytes.NewReader(data))
	if err != nil {
		return mime, data
	}
	b := src.Bounds()
	w, h := b.Dx(), b.Dy()
	if max(w, h) <= MaxImageSide {
		return mime, data
	}
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
