package app

import (
	"context"
	"errors"
	"strconv"
	"time"

	"github.com/juncture-app/juncture/store"
	"github.com/juncture-app/juncture/store/importers"
)

// importTimeout bounds one ImportConversations (the limits allow a few
// hundred thousand messages).
const importTimeout = 5 * time.Minute

// ImportConversations imports ChatGPT's or Claude's conversations.json
// (format "chatgpt", "claude", or "auto" to tell them apart by shape): every
// conversation with its branches, titles and times, all or nothing.
// Conversations imported before are skipped. A file that does not parse
// fails with CodeInvalidArgument saying where ("conversations.json:LINE:
// COLUMN: …", with details {line, column}).
func (a *App) ImportConversations(format string, content string) (store.ConversationImport, error) {
	convs, _, err := importers.Parse(format, []byte(content))
	if err != nil {
		e := errorf(CodeInvalidArgument, err.Error())
		var pe *importers.Error
		if errors.As(err, &pe) {
			e.Details = map[string]string{"line": strconv.Itoa(pe.Line), "column": strconv.Itoa(pe.Column)}
		}
		return store.ConversationImport{}, e
	}
	// A large export takes longer than an ordinary call: about 0.5 ms
	// per message, all in one transaction.
	ctx, cancel := context.WithTimeout(a.bgCtx, importTimeout)
	defer cancel()
	sum, err := a.db.ImportConversations(ctx, convs)
	if err != nil {
		code := CodeInternal
		if errors.Is(err, store.ErrInvalidImport) {
			code = CodeInvalidArgument
		}
		return store.ConversationImport{}, errorf(code, err.Error())
	}
	if sum.Threads > 0 {
		ev := ThreadsEvent{}
		if sum.Threads == 1 {
			ev.ThreadID = sum.ThreadIDs[0]
		}
		a.emit("threads", ev)
	}
	return sum, nil
}
