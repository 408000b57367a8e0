package attach

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"image"
	"image/color"
	"math"
)

// imageHeader is what an image's header says about its decode.
type imageHeader struct {
	Width, Height int
	// Cost is the bytes a decode allocates (width × height × bytes per
	// pixel, more for progressive JPEG and interlaced PNG).
	Cost int64
}

// readImageHeader reads the header of a PNG, JPEG, GIF or WebP and what
// its decode would cost, without decoding pixels: linear in the file's
// size. For WebP the frame's own dimensions count, not only the VP8X
// canvas (a canvas of 4000 × 4000 may wrap a 16383 × 16383 frame, which
// is what the decoder allocates).
func readImageHeader(data []byte) (imageHeader, error) {
	cfg, format, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		return imageHeader{}, err
	}
	h := imageHeader{Width: cfg.Width, Height: cfg.Height}
	if h.Width <= 0 || h.Height <= 0 {
		return h, errors.New("the image has no pixels")
	}
	bpp := bytesPerPixel(cfg.ColorModel)
	switch format {
	case "webp":
		w, hh, err := webpFrameSize(data)
		if err != nil {
			return h, err
		}
		h.Width, h.Height = max(h.Width, w), max(h.Height, hh)
		bpp = 4 // YCbCr with alpha or NRGBA
	case "png":
		if len(data) > 28 && data[28] == 1 { // interlaced: a pass image per pass, then the whole
			bpp *= 2
		}
	case "jpeg":
		bpp = jpegBytesPerPixel(data)
	}
	h.Cost = math.MaxInt64
	if px := int64(h.Width) * int64(h.Height); px < 1<<40 {
		h.Cost = px * int64(bpp)
	}
	return h, nil
}

// bytesPerPixel is what the decoder allocates per pixel for a color model.
func bytesPerPixel(m color.Model) int {
	switch m {
	case color.GrayModel, color.AlphaModel:
		return 1
	case color.Gray16Model, color.Alpha16Model:
		return 2
	case color.RGBA64Model, color.NRGBA64Model:
		return 8
	case color.RGBAModel, color.NRGBAModel, color.CMYKModel:
		return 4
	}
	if _, ok := m.(color.Palette); ok {
		return 1
	}
	return 4
}

// jpegBytesPerPixel is a JPEG decode's cost per pixel from its SOF: the
// YCbCr (or gray, CMYK) planes, and for a progressive JPEG the
// coefficient blocks it keeps for every component (4 bytes a sample).
func jpegBytesPerPixel(data []byte) int {
	for i := 2; i+9 < len(data); {
		if data[i] != 0xff {
			return 15 // unreadable: assume the worst (progressive 4:4:4)
		}
		m := data[i+1]
		if m == 0xd8 || (m >= 0xd0 && m <= 0xd7) || m == 0x01 || m == 0xff {
			i += 2
			continue
		}
		n := int(binary.BigEndian.Uint16(data[i+2:]))
		if m >= 0xc0 && m <= 0xcf && m != 0xc4 && m != 0xc8 && m != 0xcc {
			comps := int(data[i+9])
			per := max(comps, 1)
			if m == 0xc2 || m == 0xc6 || m == 0xca || m == 0xce {
				per += 4 * max(comps, 1)
			}
			return per
		}
		i += 2 + n
	}
	return 15
}

// webpFrameSize returns the largest frame a WebP's VP8, VP8L or ANMF
// chunks declare (0 × 0 when it has none).
func webpFrameSize(data []byte) (w, h int, err error) {
	if len(data) < 12 || string(data[:4]) != "RIFF" || string(data[8:12]) != "WEBP" {
		return 0, 0, errors.New("not a WebP file")
	}
	for p := 12; p+8 <= len(data); {
		id, n := string(data[p:p+4]), int(binary.LittleEndian.Uint32(data[p+4:]))
		body := data[p+8 : min(len(data), p+8+n)]
		fw, fh := 0, 0
		switch id {
		case "VP8 ":
			if len(body) < 10 || body[3] != 0x9d || body[4] != 0x01 || body[5] != 0x2a {
				return 0, 0, errors.New("the WebP's VP8 frame header is unreadable")
			}
			fw = int(binary.LittleEndian.Uint16(body[6:]) & 0x3fff)
			fh = int(binary.LittleEndian.Uint16(body[8:]) & 0x3fff)
		case "VP8L":
			if len(body) < 5 || body[0] != 0x2f {
				return 0, 0, errors.New("the WebP's VP8L frame header is unreadable")
			}
			bits := binary.LittleEndian.Uint32(body[1:])
			fw, fh = int(bits&0x3fff)+1, int(bits>>14&0x3fff)+1
		case "ANMF":
			if len(body) < 12 {
				return 0, 0, errors.New("the WebP's animation frame is unreadable")
			}
			fw = int(uint32(body[6])|uint32(body[7])<<8|uint32(body[8])<<16) + 1
			fh = int(uint32(body[9])|uint32(body[10])<<8|uint32(body[11])<<16) + 1
		}
		w, h = max(w, fw), max(h, fh)
		p += 8 + n + n&1
		if n < 0 || p < 0 {
			break
		}
	}
	return w, h, nil
}

// checkDecodable refuses an image whose header cannot be read, whose size
// is absurd, or whose decode would pass DecodeBudget. It decodes nothing.
func checkDecodable(name string, data []byte) (imageHeader, error) {
	h, err := readImageHeader(data)
	if err != nil {
		return h, &Error{Name: name, Reason: "the image cannot be read (" + err.Error() + ")."}
	}
	if int64(h.Width)*int64(h.Height) > maxImagePixels || h.Cost > DecodeBudget {
		return h, &Error{Name: name, Reason: fmt.Sprintf("image too large to decode: %d × %d pixels would take %s; at most %d megapixels and %s can be decoded.",
			h.Width, h.Height, sizeText64(h.Cost), maxImagePixels/1_000_000, sizeText(DecodeBudget))}
	}
	return h, nil
}

func sizeText64(n int64) string {
	if n == math.MaxInt64 {
		return "more memory than exists"
	}
	if n >= 1<<30 {
		return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
	}
	return sizeText(int(n))
}

// CheckImage refuses an image whose decode would pass DecodeBudget (an
// *Error saying its size), reading only its header: what the window is
// given to show passes it, as what the model is given does.
func CheckImage(name string, data []byte) error {
	_, err := checkDecodable(name, data)
	return err
}
