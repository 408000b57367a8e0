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
		mime, data := attach.ModelImage(ref.MimeType, blob.Data)
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
func (rt *Runtime) checkAttachments(in *Input) error {
	if len(in.Attachments) == 0 || in.files != nil {
		return nil
	}
	if _, ok := rt.st.(AttachmentStore); !ok {
		return &attach.Error{Reason: "attachments cannot be stored here."}
	}
	files, err := attach.Prepare(in.Attachments, rt.opts.ModelSeesImages != nil && rt.opts.ModelSeesImages())
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

// CheckAttachments reports whether files could be sent now (an
// *attach.Error if not), without storing anything: the app asks before
// it makes a new thread for them.
func (rt *Runtime) CheckAttachments(files []attach.Input) error {
	in := Input{Attachments: files}
	return rt.checkAttachments(&in)
}
