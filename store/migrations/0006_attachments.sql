-- Schema v6: files the person attaches to a message.
--
-- attachments holds each file once, by content hash (hex SHA-256 of its
-- bytes): the bytes, their MIME type and size, the text the model reads and
-- search indexes (a text file's text, a PDF's extracted text; NULL for
-- images) and a PDF's page count. Two messages sending the same file share
-- one row.
--
-- messages.attachments is the message's list of references as JSON
-- ([{id,name,mimeType,size,pages}], NULL when none): reading a thread needs
-- no extra query. message_attachments holds the same references as rows,
-- one per (message, position), for what needs an index: which blobs are
-- still used, and search by file name and file text. Rows cascade from
-- their message (and so from its thread); a blob no row references any more
-- is deleted in the transaction that deleted the thread (store.DeleteThread,
-- DeleteAllHistory).
CREATE TABLE attachments (
    hash      TEXT    PRIMARY KEY,
    mime_type TEXT    NOT NULL,
    size      INTEGER NOT NULL,
    data      BLOB    NOT NULL,
    text      TEXT,
    pages     INTEGER NOT NULL DEFAULT 0
);

CREATE TABLE message_attachments (
    seq        INTEGER PRIMARY KEY,
    message_id TEXT    NOT NULL REFERENCES messages (id) ON DELETE CASCADE,
    thread_id  TEXT    NOT NULL REFERENCES threads (id) ON DELETE CASCADE,
    hash       TEXT    NOT NULL REFERENCES attachments (hash),
    name       TEXT    NOT NULL,
    position   INTEGER NOT NULL,
    UNIQUE (message_id, position)
);
CREATE INDEX message_attachments_hash ON message_attachments (hash);
CREATE INDEX message_attachments_thread ON message_attachments (thread_id);

ALTER TABLE messages ADD COLUMN attachments TEXT;

-- Search by file name and by a file's text: one entry per reference (the
-- name differs per message), rowid = message_attachments.seq.
CREATE VIRTUAL TABLE attachments_fts USING fts5 (
    name,
    text,
    tokenize = 'unicode61 remove_diacritics 2',
    prefix = '3'
);

CREATE TRIGGER attachments_fts_insert AFTER INSERT ON message_attachments BEGIN
    INSERT INTO attachments_fts (rowid, name, text)
        VALUES (new.seq, new.name, coalesce((SELECT a.text FROM attachments a WHERE a.hash = new.hash), ''));
END;

CREATE TRIGGER attachments_fts_delete AFTER DELETE ON message_attachments BEGIN
    DELETE FROM attachments_fts WHERE rowid = old.seq;
END;
