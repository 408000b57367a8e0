package importers

import "strings"

// Sources of imported threads, as SearchHit.Source names them. An imported
// thread's id starts with its source and a dash (chatgpt.go, claude.go),
// so the source is known from the id alone, with no column to migrate.
const (
	SourceChatGPT = "chatgpt"
	SourceClaude  = "claude"
)

// SourceOf returns where the thread with this id was imported from, or ""
// for a thread of Juncture's own.
func SourceOf(threadID string) string {
	for _, s := range [...]string{SourceChatGPT, SourceClaude} {
		if strings.HasPrefix(threadID, s+"-") {
			return s
		}
	}
	return ""
}
