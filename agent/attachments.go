package agent

// The runtime's side of attached files: checking them when input arrives,
// storing them with the person's message, and sending them to the model
// (the file handling itself is package attach).

import (
	"context"

	"github.com/juncture-app/juncture/agent/attach"
	"github.com/juncture-app/juncture/agent/history"
)

// attachmentParts turns the attachments of the user messages in msgs into
// request-only content parts: images as image parts (downscaled, when the
// model takes images), text files and PDFs as text parts with their name.
// Nothing is stored; msgs is not modified.
func (rt *Runtime) attachmentParts(ctx context.Context, msgs []history.Message) []history.Message {
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
			parts = append(parts, attach.ModelPart(ctx, rt.st.Attachment, ref, images, &rt.images, rt.log))
		}
		out[i].Parts = parts
	}
	if out == nil {
		return msgs
	}
	return out
}

// checkAttachments prepares in.Attachments (once: a queued input keeps its
// checked files).
func (rt *Runtime) checkAttachments(ctx context.Context, in *Input) error {
	if len(in.Attachments) == 0 || in.files != nil {
		return nil
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
	blobs := make([]history.Attachment, 0, len(files))
	seen := map[string]bool{}
	for _, f := range files {
		m.Attachments = append(m.Attachments, f.Ref)
		if !seen[f.Ref.ID] {
			seen[f.Ref.ID] = true
			blobs = append(blobs, f.Blob)
		}
	}
	return rt.st.PutMessageWithAttachments(ctx, m, blobs)
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
