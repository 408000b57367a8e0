package agent

import (
	"context"
	"encoding/base64"
	"sync"

	"github.com/juncture-app/juncture/agent/attach"
	"github.com/juncture-app/juncture/agent/history"
)

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
	isImage := attach.IsImage(ref.MimeType)
	if isImage && !images {
		return history.Part{Kind: history.PartText, Data: "[Image " + attach.QuoteName(ref.Name) + " was attached; this model does not accept images.]"}
	}
	if isImage {
		if img, ok := rt.images.get(ref.ID); ok {
			return history.Part{Kind: history.PartImage, Name: ref.Name, MimeType: img.mime, Data: img.data}
		}
	}
	blob, err := as.Attachment(ctx, ref.ID)
	if err != nil {
		rt.log.Warn("an attached file could not be read", "name", ref.Name, "id", ref.ID, "err", err)
		return history.Part{Kind: history.PartText, Data: "[File " + attach.QuoteName(ref.Name) + " is no longer available.]"}
	}
	if isImage {
		// A file stored by an older version, or imported, may claim any
		// size: it is checked against the decode budget before any decode.
		mime, data, ok, why := attach.ModelImage(ctx, ref.MimeType, blob.Data)
		if !ok {
			rt.log.Warn("an attached image was not sent", "name", ref.Name, "id", ref.ID, "why", why)
			return history.Part{Kind: history.PartText, Data: "[Image " + attach.QuoteName(ref.Name) + " was attached but cannot be shown to the model: " + why + "]"}
		}
		img := cachedImage{mime: mime, data: base64.StdEncoding.EncodeToString(data)}
		rt.images.put(ref.ID, img)
		return history.Part{Kind: history.PartImage, Name: ref.Name, MimeType: img.mime, Data: img.data}
	}
	return history.Part{Kind: history.PartText, Name: ref.Name, Data: attach.FileText(ref, blob.Text)}
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
func (rt *Runtime) checkAttachments(ctx context.Context, in *Input) error {
	if len(in.Attachments) == 0 || in.files != nil {
		return nil
	}
	if _, ok := rt.st.(AttachmentStore); !ok {
		return &attach.Error{Reason: "attachments cannot be stored here."}
	}
	files, err := attach.Prepare(ctx, in.Attachments, rt.opts.ModelSeesImages != nil && rt.opts.ModelSeesImages())
	if err != nil {
		return err
	}
	in.files = files
	return nil
}

// putUserMessage stores the person's message with its files (one
// transaction when there are files).
func (rt *Runtime) putUserMessage(ctx context.Context, m history.Message, files []attach.File) error {
	if len(files) == 0 {
		return rt.st.PutMessage(ctx, m)
	}
	as, ok := rt.st.(AttachmentStore)
	if !ok {
		return &attach.Error{Reason: "attachments cannot be stored here."}
	}
	blobs := make([]history.Attachment, 0, len(files))
	seen := map[string]bool{}
	for _, f := range files {
		m.Attachments = append(m.Attachments, f.Ref)
		if !seen[f.Ref.ID] {
			seen[f.Ref.ID] = true
			blobs = append(blobs, f.Blob)
		}
	}
	return as.PutMessageWithAttachments(ctx, m, blobs)
}

// PrepareAttachments checks files and reads them (a PDF's text, in an
// extractor child) without storing anything: an *attach.Error if one
// cannot be sent now. The app prepares a new thread's files before it
// makes the thread and sends them with SendPrepared, so a PDF is parsed
// once per send.
func (rt *Runtime) PrepareAttachments(ctx context.Context, files []attach.Input) ([]attach.File, error) {
	in := Input{Attachments: files}
	if err := rt.checkAttachments(ctx, &in); err != nil {
		return nil, err
	}
	return in.files, nil
}

// SendPrepared is SendInputWith with files PrepareAttachments returned.
func (rt *Runtime) SendPrepared(ctx context.Context, threadID, text string, files []attach.File) (queued bool, err error) {
	if text == "" && len(files) == 0 {
		return false, ErrEmptyInput
	}
	_, queued, err = rt.Start(ctx, Input{ThreadID: threadID, Text: text, files: files})
	return queued, err
}
