package threads

import (
	"context"
	"errors"

	"github.com/juncture-app/juncture/agent/history"
)

// Exporter is what ExportThread reads (*store.DB has it).
type Exporter interface {
	Thread(ctx context.Context, id string) (history.Thread, error)
	ExportMarkdown(ctx context.Context, threadID string) (string, error)
	ExportJSON(ctx context.Context, threadID string) ([]byte, error)
}

// Export is an exported thread.
type Export struct {
	Filename string `json:"filename"`
	Content  string `json:"content"`
}

// ErrUnknownFormat: an export format other than "markdown" or "json".
var ErrUnknownFormat = errors.New("threads: unknown export format")

// ExportThread exports a thread as "markdown" or "json", under a file
// name made from its title (FileName).
func ExportThread(ctx context.Context, db Exporter, threadID, format string) (Export, error) {
	t, err := db.Thread(ctx, threadID)
	if err != nil {
		return Export{}, err
	}
	name := FileName(t.Title)
	switch format {
	case "markdown":
		s, err := db.ExportMarkdown(ctx, threadID)
		if err != nil {
			return Export{}, err
		}
		return Export{Filename: name + ".md", Content: s}, nil
	case "json":
		b, err := db.ExportJSON(ctx, threadID)
		if err != nil {
			return Export{}, err
		}
		return Export{Filename: name + ".json", Content: string(b)}, nil
	}
	return Export{}, ErrUnknownFormat
}

// AttachmentName is the name a thread's messages gave a file ("" when
// none did).
func AttachmentName(msgs []history.Message, id string) string {
	for _, m := range msgs {
		for _, r := range m.Attachments {
			if r.ID == id {
				return r.Name
			}
		}
	}
	return ""
}
