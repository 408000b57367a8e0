package threads

import (
	"context"
	"errors"

	"github.com/juncture-app/juncture/agent/history"
	"github.com/juncture-app/juncture/store"
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

// Searcher is what Search reads (*store.DB has it).
type Searcher interface {
	SearchHistory(ctx context.Context, query string, limit int) ([]store.SearchHit, error)
}

// Search searches every thread's messages and titles: at most limit hits
// (50 when limit is not within 1..200), never a nil list.
func Search(ctx context.Context, db Searcher, query string, limit int) ([]store.SearchHit, error) {
	if limit <= 0 || limit > 200 {
		limit = 50
	}
	hits, err := db.SearchHistory(ctx, query, limit)
	if err != nil {
		return nil, err
	}
	if hits == nil {
		hits = []store.SearchHit{}
	}
	return hits, nil
}
