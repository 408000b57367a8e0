package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"

	"github.com/juncture-app/juncture/store/importers"
)

// ConversationImport says what ImportConversations did, for Settings to
// show.
type ConversationImport struct {
	// Threads and Messages count what was added.
	Threads  int `json:"threads"`
	Messages int `json:"messages"`
	// AlreadyImported counts the conversations already here (the same
	// file, or one that overlaps, imported before): they are left as they
	// are.
	AlreadyImported int `json:"alreadyImported"`
	// SkippedMessages counts the export's messages that are not text
	// between the person and the assistant (system, hidden, tool calls and
	// their output), in the conversations added.
	SkippedMessages int `json:"skippedMessages"`
	// EmptyConversations counts the conversations left out for having no
	// text of the person or the assistant (a file of nothing else is
	// refused).
	EmptyConversations int `json:"emptyConversations"`
	// ThreadIDs are the threads added, in the file's order.
	ThreadIDs []string `json:"threadIds"`
}

// ImportConversations stores conversations read by package importers, all
// in one transaction: if anything fails, nothing is stored. Conversations
// without a message are left out and counted. A
// conversation whose thread id is already used is skipped (its ids come
// from the export, so importing a file again adds nothing twice); the
// others keep their tree, their times and their active leaf. Search finds
// their text as soon as it returns.
func (db *DB) ImportConversations(ctx context.Context, convs []importers.Conversation) (ConversationImport, error) {
	sum := ConversationImport{ThreadIDs: []string{}}
	err := db.writeTx(ctx, func(tx *sql.Tx) error {
		sum = ConversationImport{ThreadIDs: []string{}}
		for i, c := range convs {
			if c.Thread.ID == "" {
				return fmt.Errorf("%w: conversation %d has no thread id", ErrInvalidImport, i+1)
			}
			if len(c.Messages) == 0 {
				// An empty thread is no conversation (issue 19: a file of
				// 300,000 of them).
				sum.EmptyConversations++
				continue
			}
			taken, err := exists(ctx, tx, "SELECT 1 FROM threads WHERE id = ?", c.Thread.ID)
			if err != nil {
				return err
			}
			if taken {
				sum.AlreadyImported++
				continue
			}
			for j := range c.Messages {
				m := &c.Messages[j]
				if err := checkMessage(m); err != nil {
					return fmt.Errorf("%w: conversation %d (%s), message %d: %w", ErrInvalidImport, i+1, c.Thread.ID, j+1, err)
				}
				if !strings.HasPrefix(m.ID, c.Thread.ID+"-") {
					return fmt.Errorf("%w: conversation %d (%s): message id %s does not start with its thread's", ErrInvalidImport, i+1, c.Thread.ID, m.ID)
				}
			}
			// A message id used elsewhere would not be stored (a message
			// never moves), leaving its children without their parent. Every
			// id starts with the thread's: one look at that range is enough.
			prefix := c.Thread.ID + "-"
			var used string
			err = tx.QueryRowContext(ctx, "SELECT id FROM messages WHERE id >= ? AND id < ? LIMIT 1", prefix, prefix+"\U0010FFFF").Scan(&used)
			switch {
			case err == nil:
				return fmt.Errorf("%w: conversation %d (%s): message id %s is already used by another thread", ErrInvalidImport, i+1, c.Thread.ID, used)
			case !errors.Is(err, sql.ErrNoRows):
				return err
			}
			if err := insertThread(ctx, tx, c.Thread, false); err != nil {
				return fmt.Errorf("conversation %d (%s): %w", i+1, c.Thread.ID, err)
			}
			if err := importTree(ctx, tx, c.Thread.ID, c.Messages, c.ActiveLeaf); err != nil {
				return fmt.Errorf("conversation %d (%s): %w", i+1, c.Thread.ID, err)
			}
			sum.Threads++
			sum.Messages += len(c.Messages)
			sum.SkippedMessages += c.Skipped
			sum.ThreadIDs = append(sum.ThreadIDs, c.Thread.ID)
		}
		if sum.EmptyConversations > 0 && sum.EmptyConversations == len(convs) {
			return fmt.Errorf("%w: none of the %d conversations has a message of the person or the assistant: nothing to import", ErrInvalidImport, len(convs))
		}
		return nil
	})
	if err != nil {
		return ConversationImport{}, fmt.Errorf("store: import conversations: %w", err)
	}
	return sum, nil
}
