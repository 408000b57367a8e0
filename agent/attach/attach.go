// Package attach prepares the files a person sends with a message.
//
// It checks their type against their bytes and their size against the
// limits, reads the text of text files and PDFs, makes images the size the
// model receives, and turns a stored file into the part the model reads
// (ModelPart). It stores nothing; the runtime stores what Prepare
// returns.
package attach

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"unicode/utf8"

	"github.com/juncture-app/juncture/agent/history"
)

// Attachment limits. The window states them and checks them first; the
// runtime checks them again before anything is stored.
const (
	MaxFileBytes    = 20 << 20 // one file
	MaxMessageBytes = 50 << 20 // all the files of one message
	MaxFiles        = 10       // files with one message
	// MaxImageSide is the longest side, in pixels, of an image as the
	// model receives it: larger images are downscaled (the stored file
	// and what the window shows stay full size).
	MaxImageSide = 2048
	// maxImagePixels refuses images whose decoded size would be absurd
	// (a small file can claim 100,000 × 100,000 pixels).
	maxImagePixels = 100_000_000
	// MaxText caps the text kept of one text file or PDF.
	MaxText = 1 << 20
)

// Input is a file the person sends with a message.
type Input struct {
	Name     string
	MimeType string // as the window saw it; checked against the bytes
	Data     []byte
}

// File is a checked file: the reference a message keeps and the blob the
// store keeps.
type File struct {
	Ref  history.AttachmentRef
	Blob history.Attachment
}

// ErrRefused is what every *Error is (errors.Is).
var ErrRefused = errors.New("attach: attachment refused")

// Error refuses a send because of one of its files; nothing was stored.
// ImagesNotAccepted is set when the file is an image and the thread's
// model does not take images.
type Error struct {
	Name              string
	Reason            string
	ImagesNotAccepted bool
}

func (e *Error) Error() string {
	if e.Name == "" {
		return e.Reason
	}
	return e.Name + ": " + e.Reason
}

func (e *Error) Unwrap() error { return ErrRefused }

// imageTypes are the image types the model may receive.
var imageTypes = map[string]bool{"image/png": true, "image/jpeg": true, "image/webp": true, "image/gif": true}

// IsImage reports whether a stored file of this MIME type reaches the
// model as an image.
func IsImage(mime string) bool { return imageTypes[mime] }

// Prepare checks files and reads what the model will need from them (a
// PDF's text and pages), without storing anything. acceptsImages says
// whether the thread's model takes images. A PDF is parsed here, once, in
// an extractor child; an image's header is checked against DecodeBudget.
func Prepare(ctx context.Context, files []Input, acceptsImages bool) ([]File, error) {
	if len(files) > MaxFiles {
		return nil, &Error{Reason: fmt.Sprintf("%d files attached; at most %d can be sent with one message.", len(files), MaxFiles)}
	}
	total := 0
	out := make([]File, 0, len(files))
	for _, f := range files {
		name := SanitizeName(f.Name)
		if err := checkSize(name, f.Data, "sent"); err != nil {
			return nil, err
		}
		total += len(f.Data)
		if total > MaxMessageBytes {
			return nil, &Error{Reason: fmt.Sprintf("the files add up to more than %s; at most %s can be sent with one message.", sizeText(MaxMessageBytes), sizeText(MaxMessageBytes))}
		}
		p, err := prepareOne(ctx, name, f.MimeType, f.Data, acceptsImages)
		if err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, nil
}

// checkSize refuses an empty file or one over MaxFileBytes; verb says
// what was to happen to it ("sent", "kept").
func checkSize(name string, data []byte, verb string) error {
	switch {
	case len(data) == 0:
		return &Error{Name: name, Reason: "the file is empty."}
	case len(data) > MaxFileBytes:
		return &Error{Name: name, Reason: fmt.Sprintf("the file is %s; at most %s a file can be %s.", sizeText(len(data)), sizeText(MaxFileBytes), verb)}
	}
	return nil
}

// sniff is a file's type read from its bytes, without parameters.
func sniff(data []byte) string {
	t := http.DetectContentType(data)
	if i := strings.IndexByte(t, ';'); i >= 0 {
		t = t[:i]
	}
	return t
}

// isPDF: the sniffer knows a PDF only by a leading "%PDF-", as we do.
func isPDF(sniffed string, data []byte) bool {
	return sniffed == "application/pdf" || bytes.HasPrefix(data, []byte("%PDF-"))
}

func prepareOne(ctx context.Context, name, mime string, data []byte, acceptsImages bool) (File, error) {
	sniffed := sniff(data)
	sum := sha256.Sum256(data) // the store's id of the file (store.HashAttachment)
	hash := hex.EncodeToString(sum[:])
	p := File{Ref: history.AttachmentRef{ID: hash, Name: name, Size: int64(len(data))},
		Blob: history.Attachment{Hash: hash, Size: int64(len(data)), Data: data}}
	switch {
	case imageTypes[sniffed]:
		if !acceptsImages {
			return p, &Error{Name: name, Reason: "the current model does not accept images (Settings › Model accepts images). Remove the image to send the message.", ImagesNotAccepted: true}
		}
		if _, err := checkDecodable(name, data); err != nil {
			return p, err
		}
		p.Ref.MimeType = sniffed
	case isPDF(sniffed, data):
		text, pages, err := readPDF(ctx, name, data)
		if err != nil {
			return p, err
		}
		p.Ref.MimeType, p.Ref.Pages = "application/pdf", pages
		p.Blob.Text, p.Blob.Pages = text, pages
	case isText(data):
		p.Ref.MimeType = textType(mime)
		p.Blob.Text = truncateText(string(data))
	default:
		kind := mime
		if kind == "" || kind == "application/octet-stream" {
			kind = sniffed
		}
		return p, &Error{Name: name, Reason: "files of this type (" + kind + ") cannot be sent: attach images (PNG, JPEG, WebP, GIF), text or code files, or PDFs."}
	}
	p.Blob.MimeType = p.Ref.MimeType
	return p, nil
}

// isText reports whether data is UTF-8 text (a text or code file).
func isText(data []byte) bool {
	return utf8.Valid(data) && bytes.IndexByte(data, 0) < 0
}

// textType keeps a text-like MIME type the window gave, else text/plain.
func textType(mime string) string {
	mime = strings.ToLower(strings.TrimSpace(mime))
	if i := strings.IndexByte(mime, ';'); i >= 0 {
		mime = strings.TrimSpace(mime[:i])
	}
	switch {
	case strings.HasPrefix(mime, "text/"), mime == "application/json", mime == "application/xml",
		mime == "application/javascript", mime == "application/x-sh", mime == "application/yaml", mime == "application/toml":
		return mime
	}
	return "text/plain"
}

func truncateText(s string) string {
	if len(s) <= MaxText {
		return s
	}
	cut := MaxText
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "\n[… the rest of the file is left out]"
}

func sizeText(n int) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

// FileText is how a text file or a PDF reaches the model.
func FileText(ref history.AttachmentRef, text string) string {
	head := "File: " + QuoteName(ref.Name)
	if ref.MimeType == "application/pdf" {
		head += fmt.Sprintf(" (PDF, %d page%s)", ref.Pages, plural(ref.Pages))
		if text == "" {
			text = "[no text could be extracted from this PDF]"
		}
	}
	fence := "```"
	for strings.Contains(text, fence) {
		fence += "`"
	}
	return head + "\n" + fence + "\n" + text + "\n" + fence
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
