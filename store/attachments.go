package store

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/juncture-app/juncture/agent/history"
)

// Attachments (schema v6, migrations/0006_attachments.sql): a file is
// stored once by the hex SHA-256 of its bytes in attachments; a message
// lists its references in messages.attachments (JSON, read with the
// message: no extra query per thread) and in message_attachments (rows,
// for reference counting and search). A blob no message references is
// deleted with the thread that last used it.

// HashAttachment returns the id a file's bytes are stored under.
func HashAttachment(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// PutMessageWithAttachments stores the files (once per hash: a blob
// already stored is kept) and then the message that references them, in
// one transaction. Every reference in m.Attachments must name a blob given
// here or already stored.
func (db *DB) PutMessageWithAttachments(ctx context.Context, m history.Message, blobs []history.Attachment) error {
	if err := checkMessage(&m); err != nil {
		return fmt.Errorf("store: put message %s: %w", m.ID, err)
	}
	for _, b := range blobs {
		if HashAttachment(b.Data) != b.Hash {
			return fmt.Errorf("store: put message %s: attachment %s: the hash does not match its bytes", m.ID, b.Hash)
		}
	}
	now := db.now()
	err := db.writeTx(ctx, func(tx *sql.Tx) error {
		if err := putBlobs(ctx, tx, blobs); err != nil {
			return err
		}
		return putMessages(ctx, tx, []history.Message{m}, now, false)
	})
	if err != nil {
		return fmt.Errorf("store: put message %s: %w", m.ID, err)
	}
	return nil
}

func putBlobs(ctx context.Context, tx *sql.Tx, blobs []history.Attachment) error {
	for _, b := range blobs {
		var text any
		if b.Text != "" {
			text = b.Text
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO attachments (hash, mime_type, size, data, text, pages)
VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (hash) DO NOTHING`, b.Hash, b.MimeType, len(b.Data), b.Data, text, b.Pages); err != nil {
			return fmt.Errorf("attachment %s: %w", b.Hash, err)
		}
	}
	return nil
}

// Attachment returns a stored file by hash, or ErrNotFound.
func (db *DB) Attachment(ctx context.Context, hash string) (history.Attachment, error) {
	return db.attachment(ctx, "SELECT hash, mime_type, size, data, coalesce(text, ''), pages FROM attachments WHERE hash = ?", hash)
}

// ThreadAttachment returns a file that a message of the thread references,
// or ErrNotFound (also when the file exists but belongs to other threads
// only).
func (db *DB) ThreadAttachment(ctx context.Context, threadID, hash string) (history.Attachment, error) {
	return db.attachment(ctx, `SELECT a.hash, a.mime_type, a.size, a.data, coalesce(a.text, ''), a.pages FROM attachments a
WHERE a.hash = ?2 AND EXISTS (SELECT 1 FROM message_attachments r WHERE r.hash = a.hash AND r.thread_id = ?1)`, threadID, hash)
}

func (db *DB) attachment(ctx context.Context, q string, args ...any) (history.Attachment, error) {
	var a history.Attachment
	err := db.r.QueryRowContext(ctx, q, args...).Scan(&a.Hash, &a.MimeType, &a.Size, &a.Data, &a.Text, &a.Pages)
	if errors.Is(err, sql.ErrNoRows) {
		err = ErrNotFound
	}
	if err != nil {
		return history.Attachment{}, fmt.Errorf("store: attachment %v: %w", args[len(args)-1], err)
	}
	return a, nil
}

// threadAttachments returns the blobs the thread's messages reference, by
// hash order (export).
func threadAttachments(ctx context.Context, tx *sql.Tx, threadID string) ([]history.Attachment, error) {
	rows, err := tx.QueryContext(ctx, `SELECT a.hash, a.mime_type, a.size, a.data, coalesce(a.text, ''), a.pages FROM attachments a
WHERE a.hash IN (SELECT hash FROM message_attachments WHERE thread_id = ?) ORDER BY a.hash`, threadID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []history.Attachment
	for rows.Next() {
		var a history.Attachment
		if err := rows.Scan(&a.Hash, &a.MimeType, &a.Size, &a.Data, &a.Text, &a.Pages); err != nil {
			return nil, err
		}
		out = append(out, a)
	}
	return out, rows.Err()
}

// encodeAttachmentRefs stores a message's references as a JSON array (NULL
// when none).
func encodeAttachmentRefs(refs []history.AttachmentRef) (any, error) {
	if len(refs) == 0 {
		return nil, nil
	}
	b, err := json.Marshal(refs)
	if err != nil {
		return nil, fmt.Errorf("attachments: %w", err)
	}
	return string(b), nil
}

// linkAttachments records m's references as rows (kept as they are when
// the message is stored again).
func linkAttachments(ctx context.Context, tx *sql.Tx, m history.Message) error {
	for i, r := range m.Attachments {
		if _, err := tx.ExecContext(ctx, `INSERT INTO message_attachments (message_id, thread_id, hash, name, position)
VALUES (?, ?, ?, ?, ?) ON CONFLICT (message_id, position) DO NOTHING`, m.ID, m.ThreadID, r.ID, r.Name, i); err != nil {
			return fmt.Errorf("attachment %s (%s): %w", r.Name, r.ID, err)
		}
	}
	return nil
}

// deleteUnreferencedAttachments removes the blobs no message references.
func deleteUnreferencedAttachments(ctx context.Context, tx *sql.Tx) error {
	_, err := tx.ExecContext(ctx, `DELETE FROM attachments WHERE NOT EXISTS
(SELECT 1 FROM message_attachments r WHERE r.hash = attachments.hash)`)
	return err
}

// checkImportAttachments verifies a document's files (each hash matches
// its bytes) and that every reference names one of them.
func checkImportAttachments(blobs []history.Attachment, msgs []history.Message) error {
	have := make(map[string]bool, len(blobs))
	for i := range blobs {
		b := &blobs[i]
		if HashAttachment(b.Data) != b.Hash {
			return invalid("attachment %s: its data does not match its id", b.Hash)
		}
		b.Size = int64(len(b.Data))
		if b.MimeType == "" {
			return invalid("attachment %s has no mimeType", b.Hash)
		}
		have[b.Hash] = true
	}
	for _, m := range msgs {
		for _, r := range m.Attachments {
			if !have[r.ID] {
				return invalid("message %s: attachment %q (%s) is not in the document", m.ID, r.Name, r.ID)
			}
		}
	}
	return nil
}
