package attach

import (
	"encoding/base64"
	"fmt"

	"github.com/juncture-app/juncture/agent/history"
)

// VetImport gives an imported thread's files the checks a sent
// file gets (CheckStored: size, type read from the bytes, an
// image's decode budget) and its names the sanitizing a sent name gets,
// before the store writes anything: one bad file refuses the import,
// saying which and why.
func VetImport(msgs []history.Message, files []history.Attachment) error {
	names := map[string]string{}
	for i := range msgs {
		for j := range msgs[i].Attachments {
			r := &msgs[i].Attachments[j]
			r.Name = SanitizeName(r.Name)
			if _, ok := names[r.ID]; !ok {
				names[r.ID] = r.Name
			}
		}
	}
	// A tool result's images are shown as thumbnails: the window decodes
	// them, so they get a sent image's header check.
	for _, m := range msgs {
		for _, p := range m.Parts {
			if p.Kind != history.PartImage {
				continue
			}
			data, err := base64.StdEncoding.DecodeString(p.Data)
			if err == nil {
				err = CheckImage("", data)
			}
			if err != nil {
				return fmt.Errorf("message %s: a tool result's image cannot be shown: %w", m.ID, err)
			}
		}
	}
	checked := make(map[string]history.Attachment, len(files))
	for i := range files {
		b, err := CheckStored(names[files[i].Hash], files[i])
		if err != nil {
			return err
		}
		files[i], checked[b.Hash] = b, b
	}
	// A reference says what its file is: what was just read from the bytes.
	for i := range msgs {
		for j := range msgs[i].Attachments {
			r := &msgs[i].Attachments[j]
			if b, ok := checked[r.ID]; ok {
				r.MimeType, r.Size, r.Pages = b.MimeType, b.Size, b.Pages
			}
		}
	}
	return nil
}
