package app

import (
	"encoding/base64"
	"fmt"

	"github.com/juncture-app/juncture/agent/attach"
	"github.com/juncture-app/juncture/app/errmap"
	"github.com/juncture-app/juncture/app/threads"
)

// AttachmentInput is a file sent with a message: data is base64.
type AttachmentInput struct {
	Name     string `json:"name"`
	MimeType string `json:"mimeType"`
	Data     string `json:"data"`
}

// AttachmentData is a stored file for the window: data is base64.
type AttachmentData struct {
	ID       string `json:"id"`
	Name     string `json:"name"`
	MimeType string `json:"mimeType"`
	Size     int64  `json:"size"`
	Pages    int    `json:"pages,omitempty"`
	Data     string `json:"data"`
}

// decodeAttachments turns the window's files into the runtime's.
func decodeAttachments(in []AttachmentInput) ([]attach.Input, error) {
	if len(in) == 0 {
		return nil, nil
	}
	out := make([]attach.Input, 0, len(in))
	for i, f := range in {
		data, err := base64.StdEncoding.DecodeString(f.Data)
		if err != nil {
			return nil, &Error{Code: CodeInvalidArgument, Message: fmt.Sprintf("%s: the file's data is not base64 (%v).", attachmentName(f.Name, i), err),
				Details: map[string]string{"code": "attachment-refused", "name": f.Name}}
		}
		out = append(out, attach.Input{Name: f.Name, MimeType: f.MimeType, Data: data})
	}
	return out, nil
}

func attachmentName(name string, i int) string {
	if name == "" {
		return fmt.Sprintf("file %d", i+1)
	}
	return name
}

// GetAttachment returns a file a message of the thread carries, for the
// window to show full size or save.
func (a *App) GetAttachment(threadID, id string) (AttachmentData, error) {
	ctx, cancel := a.ctx()
	defer cancel()
	blob, err := a.db.ThreadAttachment(ctx, threadID, id)
	if err != nil {
		return AttachmentData{}, asError(err)
	}
	name := a.attachmentName(threadID, id) // reads the thread's messages: once
	// The window decodes what it is given: an image over the decode
	// budget (stored by an older version) is refused, never served.
	if attach.IsImage(blob.MimeType) {
		if err := attach.CheckImage(name, blob.Data); err != nil {
			return AttachmentData{}, &Error{Code: CodeInvalidArgument, Message: err.Error(), Details: map[string]string{"code": "image-too-large"}}
		}
	}
	return AttachmentData{ID: blob.Hash, Name: name, MimeType: blob.MimeType, Size: blob.Size, Pages: blob.Pages,
		Data: base64.StdEncoding.EncodeToString(blob.Data)}, nil
}

// attachmentName is a name the thread gave the file ("" when unknown).
func (a *App) attachmentName(threadID, id string) string {
	ctx, cancel := a.ctx()
	defer cancel()
	msgs, err := a.db.Messages(ctx, threadID)
	if err != nil {
		return ""
	}
	return threads.AttachmentName(msgs, id)
}

// PDFInfo is what the model will get of an attached PDF: its pages, and
// whether any text was found (a scanned page has none).
type PDFInfo struct {
	Pages   int  `json:"pages"`
	HasText bool `json:"hasText"`
}

// InspectPDF reads a PDF the person attached, before it is sent, so the
// composer can say when the model will not be able to read it. It parses
// as a send does (the same limits, extractor child and budgets) and
// refuses what a send would refuse, with the same words; nothing is
// stored, so it needs no read-only guard.
func (a *App) InspectPDF(file AttachmentInput) (PDFInfo, error) {
	in, err := decodeAttachments([]AttachmentInput{file})
	if err != nil {
		return PDFInfo{}, err
	}
	ctx, cancel := a.ctx()
	defer cancel()
	info, err := attach.InspectPDF(ctx, in[0].Name, in[0].Data)
	if err != nil {
		if e, ok := errmap.Attachment(err); ok {
			return PDFInfo{}, e
		}
		return PDFInfo{}, asError(err)
	}
	return PDFInfo{Pages: info.Pages, HasText: info.HasText}, nil
}
