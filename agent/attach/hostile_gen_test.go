package attach

import (
	"bytes"
	"compress/gzip"
	"compress/zlib"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The hostile corpus (testdata/hostile) is written by this generator and
// checked in: `JUNCTURE_GEN_HOSTILE=1 go test -run TestGenerateHostileCorpus
// ./agent/attach/`. Files that would be large are stored gzipped (NAME.gz)
// and read back whole by hostileCorpus: a decompression bomb compresses
// extremely well a second time.
func TestGenerateHostileCorpus(t *testing.T) {
	if os.Getenv("JUNCTURE_GEN_HOSTILE") != "1" {
		t.Skip("set JUNCTURE_GEN_HOSTILE=1 to rewrite testdata/hostile")
	}
	files := map[string][]byte{
		"pdf-pagetree-contains-itself.pdf": pdfDoc(
			"<< /Type /Catalog /Pages 2 0 R >>",
			"<< /Type /Pages /Kids [2 0 R] /Count 5 >>"),
		"pdf-count-2-62.pdf": pdfDoc(
			"<< /Type /Catalog /Pages 2 0 R >>",
			"<< /Type /Pages /Kids [3 0 R] /Count 4611686018427387904 >>",
			"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>"),
		"pdf-page-own-parent.pdf": pdfDoc(
			"<< /Type /Catalog /Pages 2 0 R >>",
			"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
			"<< /Type /Page /Parent 3 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >>",
			pdfStream("", []byte("BT /F1 12 Tf (own parent) Tj ET"))),
		"pdf-inflates-300mib.pdf": pdfDoc(
			"<< /Type /Catalog /Pages 2 0 R >>",
			"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
			"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>",
			pdfStream("/Filter /FlateDecode", deflated(bytes.Repeat([]byte("(AAAAAAAAAAAAAAAAAAAAAAAAAAAAAA) Tj\n"), 300<<20/36))),
			"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"),
		"pdf-one-page-20000-times.pdf": pdfDoc(
			"<< /Type /Catalog /Pages 2 0 R >>",
			"<< /Type /Pages /Kids ["+strings.Repeat("3 0 R ", 20000)+"] /Count 20000 >>",
			"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>",
			pdfStream("", []byte("BT /F1 12 Tf (again) Tj ET")),
			"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"),
		"webp-vp8x-4000-vp8-16383.webp":     lyingWebP(),
		"png-100mp-16bit.png":               pngImage(10000, 10000, 16, 6, true),
		"png-claims-200000.png":             pngImage(200000, 200000, 8, 6, false),
		"jpeg-claims-65500.jpg":             lyingJPEG(65500, 65500, 0xc0),
		"jpeg-progressive-claims-30000.jpg": lyingJPEG(30000, 30000, 0xc2),
		"gif-claims-65535.gif":              lyingGIF(65535, 65535, 65535, 65535),
		"gif-frame-outside-screen.gif":      lyingGIF(16, 16, 65535, 65535),
	}
	for name, data := range files {
		path := filepath.Join("testdata", "hostile", name)
		if len(data) > 64<<10 {
			var buf bytes.Buffer
			zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
			zw.Write(data)
			zw.Close()
			data, path = buf.Bytes(), path+".gz"
		}
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// pdfDoc writes objects 1..n with a correct cross-reference table.
func pdfDoc(objs ...string) []byte {
	var b bytes.Buffer
	b.WriteString("%PDF-1.4\n")
	offs := make([]int, len(objs))
	for i, o := range objs {
		offs[i] = b.Len()
		fmt.Fprintf(&b, "%d 0 obj\n%s\nendobj\n", i+1, o)
	}
	xref := b.Len()
	fmt.Fprintf(&b, "xref\n0 %d\n0000000000 65535 f \n", len(objs)+1)
	for _, o := range offs {
		fmt.Fprintf(&b, "%010d 00000 n \n", o)
	}
	fmt.Fprintf(&b, "trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n", len(objs)+1, xref)
	return b.Bytes()
}

func pdfStream(dict string, data []byte) string {
	return fmt.Sprintf("<< /Length %d %s >>\nstream\n%s\nendstream", len(data), dict, data)
}

func deflated(data []byte) []byte {
	var b bytes.Buffer
	zw, _ := zlib.NewWriterLevel(&b, zlib.BestCompression)
	zw.Write(data)
	zw.Close()
	return b.Bytes()
}

// lyingWebP is 54 bytes: a VP8X canvas of 4000 × 4000 around a VP8 frame
// whose own header says 16383 × 16383.
func lyingWebP() []byte {
	vp8x := make([]byte, 10)
	put24 := func(b []byte, v int) { b[0], b[1], b[2] = byte(v), byte(v>>8), byte(v>>16) }
	put24(vp8x[4:], 4000-1)
	put24(vp8x[7:], 4000-1)
	// VP8 key frame: tag (key frame, version 0, shown, first partition of
	// 8 bytes),
	// start code, 14-bit width and height; the partition follows.
	frame := []byte{0x10, 0x01, 0x00, 0x9d, 0x01, 0x2a, 0xff, 0x3f, 0xff, 0x3f}
	frame = append(frame, make([]byte, 8)...)
	chunk := func(id string, data []byte) []byte {
		c := append([]byte(id), 0, 0, 0, 0)
		binary.LittleEndian.PutUint32(c[4:], uint32(len(data)))
		return append(c, data...)
	}
	body := append([]byte("WEBP"), chunk("VP8X", vp8x)...)
	body = append(body, chunk("VP8 ", frame)...)
	out := append([]byte("RIFF"), 0, 0, 0, 0)
	binary.LittleEndian.PutUint32(out[4:], uint32(len(body)))
	return append(out, body...)
}

// pngImage writes a PNG of w × h (colorType 6 = RGBA): all its rows of
// zeros when full, else only a few.
func pngImage(w, h, depth int, colorType byte, full bool) []byte {
	var b bytes.Buffer
	b.Write([]byte("\x89PNG\r\n\x1a\n"))
	chunk := func(typ string, data []byte) {
		binary.Write(&b, binary.BigEndian, uint32(len(data)))
		c := append([]byte(typ), data...)
		b.Write(c)
		binary.Write(&b, binary.BigEndian, crc32.ChecksumIEEE(c))
	}
	ihdr := make([]byte, 13)
	binary.BigEndian.PutUint32(ihdr[0:], uint32(w))
	binary.BigEndian.PutUint32(ihdr[4:], uint32(h))
	ihdr[8], ihdr[9] = byte(depth), colorType
	chunk("IHDR", ihdr)
	rows := 4
	if full {
		rows = h
	}
	var z bytes.Buffer
	zw, _ := zlib.NewWriterLevel(&z, zlib.BestCompression)
	row := make([]byte, 1+w*4*depth/8)
	for range rows {
		zw.Write(row)
	}
	zw.Close()
	chunk("IDAT", z.Bytes())
	chunk("IEND", nil)
	return b.Bytes()
}

// lyingJPEG is a JPEG header whose frame (sof: 0xc0 baseline, 0xc2
// progressive) claims w × h, followed by a few bytes of scan.
func lyingJPEG(w, h int, sof byte) []byte {
	b := []byte{0xff, 0xd8}
	// One quantisation table of ones, one DC and one AC Huffman table.
	dqt := append([]byte{0xff, 0xdb, 0, 67, 0}, bytes.Repeat([]byte{1}, 64)...)
	b = append(b, dqt...)
	b = append(b, 0xff, sof, 0, 17, 8, byte(h>>8), byte(h), byte(w>>8), byte(w), 3,
		1, 0x11, 0, 2, 0x11, 0, 3, 0x11, 0)
	dht := []byte{0xff, 0xc4, 0, 20, 0x00, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}
	b = append(b, dht...)
	dht[4] = 0x10
	b = append(b, dht...)
	if sof == 0xc2 {
		b = append(b, 0xff, 0xda, 0, 12, 3, 1, 0x00, 2, 0x00, 3, 0x00, 0, 0, 0)
	} else {
		b = append(b, 0xff, 0xda, 0, 12, 3, 1, 0x00, 2, 0x00, 3, 0x00, 0, 63, 0)
	}
	b = append(b, bytes.Repeat([]byte{0}, 64)...)
	return append(b, 0xff, 0xd9)
}

// lyingGIF has a logical screen of sw × sh and one frame of fw × fh with
// a few bytes of LZW data.
func lyingGIF(sw, sh, fw, fh int) []byte {
	le := func(v int) []byte { return []byte{byte(v), byte(v >> 8)} }
	b := []byte("GIF89a")
	b = append(b, le(sw)...)
	b = append(b, le(sh)...)
	b = append(b, 0x80, 0, 0, 0, 0, 0, 0xff, 0xff, 0xff) // 2-colour global table
	b = append(b, 0x2c, 0, 0, 0, 0)
	b = append(b, le(fw)...)
	b = append(b, le(fh)...)
	b = append(b, 0, 2, 2, 0x4c, 0x01, 0) // LZW min code 2, one tiny block
	return append(b, 0x3b)
}
