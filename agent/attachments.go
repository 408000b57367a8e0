package agent

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"image"
	_ "image/gif" // image.Decode reads GIF
	"image/jpeg"
	"image/png"
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/ledongthuc/pdf"
	"golang.org/x/image/draw"
	_ "golang.org/x/image/webp" // image.Decode reads WebP

	"github.com/juncture-app/juncture/agent/history"
)

// Attachment limits. The window states them and checks them first; the
// runtime checks them again before anything is stored.
const (
	MaxAttachmentBytes     = 20 << 20 // one file
	MaxMessageAttachBytes  = 50 << 20 // all the files of one message
	MaxAttachmentsPerInput = 10
	// MaxImageSide is the longest side, in pixels, of an image as the
	// model receives it: larger images are downscaled (the stored file
	// and what the window shows stay full size).
	MaxImageSide = 2048
	// maxImagePixels refuses images whose decoded size would be absurd
	// (a small file can claim 100,000 × 100,000 pixels).
	maxImagePixels = 100_000_000
	// MaxAttachmentText caps the text kept of one text file or PDF.
	MaxAttachmentText = 1 << 20
)

// AttachmentInput is a file the person sends with a message.
type AttachmentInput struct {
	Name     string
	MimeType string // as the window saw it; checked against the bytes
	Data     []byte
}

// ErrAttachment is what every *AttachmentError is (errors.Is).
var ErrAttachment = errors.New("agent: attachment refused")

// AttachmentError refuses a send because of one of its files; nothing was
// stored. ImagesNotAccepted is set when the file is an image and the
// thread's model does not take images.
type AttachmentError struct {
	Name              string
	Reason            string
	ImagesNotAccepted bool
}

func (e *AttachmentError) Error() string {
	if e.Name == "" {
		return e.Reason
	}
	return e.Name + ": " + e.Reason
}

func (e *AttachmentError) Unwrap() error { return ErrAttachment }

// AttachmentStore is what a Store needs to keep attached files; the
// runtime refuses attachments when its store has no such methods.
type AttachmentStore interface {
	PutMessageWithAttachments(ctx context.Context, m history.Message, blobs []history.Attachment) error
	Attachment(ctx context.Context, hash string) (history.Attachment, error)
}

// preparedFile is a checked attachment: its reference and its blob.
type preparedFile struct {
	ref  history.AttachmentRef
	blob history.Attachment
}

// Image types the model may receive.
var imageTypes = map[string]bool{"image/png": true, "image/jpeg": true, "image/webp": true, "image/gif": true}

// ValidateAttachments reports whether files can be sent (an
// *AttachmentError if not); acceptsImages says whether the model takes
// images.
func ValidateAttachments(files []AttachmentInput, acceptsImages bool) error {
	_, err := prepareAttachments(files, acceptsImages)
	return err
}

// prepareAttachments checks files and reads what the model will need from
// them (a PDF's text and pages), without storing anything. acceptsImages
// says whether the thread's model takes images.
func prepareAttachments(files []AttachmentInput, acceptsImages bool) ([]preparedFile, error) {
	if len(files) > MaxAttachmentsPerInput {
		return nil, &AttachmentError{Reason: fmt.Sprintf("%d files attached; at most %d can be sent with one message.", len(files), MaxAttachmentsPerInput)}
	}
	total := 0
	out := make([]preparedFile, 0, len(files))
	for _, f := range files {
		name := strings.TrimSpace(filepath.Base(strings.ReplaceAll(f.Name, "\\", "/")))
		if name == "" || name == "." || name == "/" {
			name = "file"
		}
		if len(f.Data) == 0 {
			return nil, &AttachmentError{Name: name, Reason: "the file is empty."}
		}
		if len(f.Data) > MaxAttachmentBytes {
			return nil, &AttachmentError{Name: name, Reason: fmt.Sprintf("the file is %s; at most %s a file can be sent.", sizeText(len(f.Data)), sizeText(MaxAttachmentBytes))}
		}
		total += len(f.Data)
		if total > MaxMessageAttachBytes {
			return nil, &AttachmentError{Reason: fmt.Sprintf("the files add up to more than %s; at most %s can be sent with one message.", sizeText(MaxMessageAttachBytes), sizeText(MaxMessageAttachBytes))}
		}
		p, err := prepareOne(name, f.MimeType, f.Data, acceptsImages)
		if err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, nil
}

func prepareOne(name, mime string, data []byte, acceptsImages bool) (preparedFile, error) {
	sniffed := http.DetectContentType(data)
	if i := strings.IndexByte(sniffed, ';'); i >= 0 {
		sniffed = sniffed[:i]
	}
	sum := sha256.Sum256(data) // the store's id of the file (store.HashAttachment)
	hash := hex.EncodeToString(sum[:])
	p := preparedFile{ref: history.AttachmentRef{ID: hash, Name: name, Size: int64(len(data))},
		blob: history.Attachment{Hash: hash, Size: int64(len(data)), Data: data}}
	switch {
	case imageTypes[sniffed]:
		if !acceptsImages {
			return p, &AttachmentError{Name: name, Reason: "the current model does not accept images (Settings › Model accepts images). Remove the image to send the message.", ImagesNotAccepted: true}
		}
		cfg, _, err := image.DecodeConfig(bytes.NewReader(data))
		if err != nil {
			return p, &AttachmentError{Name: name, Reason: "the image cannot be read (" + err.Error() + ")."}
		}
		if cfg.Width*cfg.Height > maxImagePixels {
			return p, &AttachmentError{Name: name, Reason: fmt.Sprintf("the image is %d × %d pixels; at most %d megapixels can be sent.", cfg.Width, cfg.Height, maxImagePixels/1_000_000)}
		}
		p.ref.MimeType = sniffed
	case sniffed == "application/pdf" || bytes.HasPrefix(data, []byte("%PDF-")):
		text, pages, err := pdfText(data)
		if err != nil {
			return p, &AttachmentError{Name: name, Reason: "the PDF cannot be read (" + err.Error() + ")."}
		}
		p.ref.MimeType, p.ref.Pages = "application/pdf", pages
		p.blob.Text, p.blob.Pages = text, pages
	case isText(data):
		p.ref.MimeType = textType(mime)
		p.blob.Text = truncateText(string(data))
	default:
		kind := mime
		if kind == "" || kind == "application/octet-stream" {
			kind = sniffed
		}
		return p, &AttachmentError{Name: name, Reason: "files of this type (" + kind + ") cannot be sent: attach images (PNG, JPEG, WebP, GIF), text or code files, or PDFs."}
	}
	p.blob.MimeType = p.ref.MimeType
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
	if len(s) <= MaxAttachmentText {
		return s
	}
	cut := MaxAttachmentText
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "\n[… the rest of the file is left out]"
}

// pdfText extracts a PDF's plain text and page count. The parser is fed
// untrusted bytes: a panic in it is an unreadable PDF.
func pdfText(data []byte) (text string, pages int, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("malformed PDF: %v", r)
		}
	}()
	r, err := pdf.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return "", 0, err
	}
	pages = r.NumPage()
	tr, err := r.GetPlainText()
	if err != nil {
		return "", pages, err
	}
	b, err := io.ReadAll(io.LimitReader(tr, MaxAttachmentText+1))
	if err != nil {
		return "", pages, err
	}
	return truncateText(strings.TrimSpace(string(b))), pages, nil
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

// attachmentParts turns the attachments of the user messages in msgs into
// request-only content parts: images as image parts (downscaled, when the
// model takes images), text files and PDFs as text parts with their name.
// Nothing is stored; msgs is not modified.
func (rt *Runtime) attachmentParts(ctx context.Context, msgs []history.Message) []history.Message {
	as, ok := rt.st.(AttachmentStore)
	if !ok {
		return msgs
	}
	var out []history.Message
	images := rt.opts.ModelSeesImages != nil && rt.opts.ModelSeesImages()
	for i, m := range msgs {
		if m.Role != history.RoleUser || len(m.Attachments) == 0 {
			continue
		}
		if out == nil {
			out = append([]history.Message(nil), msgs...)
		}
		parts := append([]history.Part(nil), m.Parts...)
		for _, ref := range m.Attachments {
			parts = append(parts, rt.attachmentPart(ctx, as, ref, images))
		}
		out[i].Parts = parts
	}
	if out == nil {
		return msgs
	}
	return out
}

func (rt *Runtime) attachmentPart(ctx context.Context, as AttachmentStore, ref history.AttachmentRef, images bool) history.Part {
	isImage := imageTypes[ref.MimeType]
	if isImage && !images {
		return history.Part{Kind: history.PartText, Data: "[Image " + ref.Name + " was attached; this model does not accept images.]"}
	}
	if isImage {
		if img, ok := rt.images.get(ref.ID); ok {
			return history.Part{Kind: history.PartImage, Name: ref.Name, MimeType: img.mime, Data: img.data}
		}
	}
	blob, err := as.Attachment(ctx, ref.ID)
	if err != nil {
		rt.log.Warn("an attached file could not be read", "name", ref.Name, "id", ref.ID, "err", err)
		return history.Part{Kind: history.PartText, Data: "[File " + ref.Name + " is no longer available.]"}
	}
	if isImage {
		mime, data := modelImage(ref.MimeType, blob.Data)
		img := cachedImage{mime: mime, data: base64.StdEncoding.EncodeToString(data)}
		rt.images.put(ref.ID, img)
		return history.Part{Kind: history.PartImage, Name: ref.Name, MimeType: img.mime, Data: img.data}
	}
	return history.Part{Kind: history.PartText, Name: ref.Name, Data: FileText(ref, blob.Text)}
}

// FileText is how a text file or a PDF reaches the model.
func FileText(ref history.AttachmentRef, text string) string {
	head := "File: " + ref.Name
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

// modelImage returns the image as the model receives it: unchanged when
// its longest side is at most MaxImageSide, else downscaled and encoded as
// JPEG (opaque) or PNG (with transparency).
func modelImage(mime string, data []byte) (string, []byte) {
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

// imageCache keeps recently sent images as the model receives them
// (base64): every model call of a thread sends its images again, and
// downscaling is not free. It is emptied when it would pass
// imageCacheBytes.
type imageCache struct {
	mu   sync.Mutex
	imgs map[string]cachedImage
	size int
}

type cachedImage struct{ mime, data string }

const imageCacheBytes = 64 << 20

func (c *imageCache) get(hash string) (cachedImage, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	img, ok := c.imgs[hash]
	return img, ok
}

func (c *imageCache) put(hash string, img cachedImage) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.imgs == nil || c.size+len(img.data) > imageCacheBytes {
		c.imgs, c.size = map[string]cachedImage{}, 0
	}
	if _, ok := c.imgs[hash]; !ok {
		c.imgs[hash] = img
		c.size += len(img.data)
	}
}

// checkAttachments prepares in.Attachments (once: a queued input keeps its
// checked files).
func (rt *Runtime) checkAttachments(in *Input) error {
	if len(in.Attachments) == 0 || in.files != nil {
		return nil
	}
	if _, ok := rt.st.(AttachmentStore); !ok {
		return &AttachmentError{Reason: "attachments cannot be stored here."}
	}
	files, err := prepareAttachments(in.Attachments, rt.opts.ModelSeesImages != nil && rt.opts.ModelSeesImages())
	if err != nil {
		return err
	}
	in.files = files
	return nil
}

// putUserMessage stores the person's message with its files (one
// transaction when there are files).
func (rt *Runtime) putUserMessage(ctx context.Context, m history.Message, files []preparedFile) error {
	if len(files) == 0 {
		return rt.st.PutMessage(ctx, m)
	}
	as, ok := rt.st.(AttachmentStore)
	if !ok {
		return &AttachmentError{Reason: "attachments cannot be stored here."}
	}
	blobs := make([]history.Attachment, 0, len(files))
	seen := map[string]bool{}
	for _, f := range files {
		m.Attachments = append(m.Attachments, f.ref)
		if !seen[f.ref.ID] {
			seen[f.ref.ID] = true
			blobs = append(blobs, f.blob)
		}
	}
	return as.PutMessageWithAttachments(ctx, m, blobs)
}

// CheckAttachments reports whether files could be sent now (an
// *AttachmentError if not), without storing anything: the app asks before
// it makes a new thread for them.
func (rt *Runtime) CheckAttachments(files []AttachmentInput) error {
	in := Input{Attachments: files}
	return rt.checkAttachments(&in)
}
