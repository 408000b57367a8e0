// Package store is Juncture's history database, in one SQLite file.
//
// It keeps threads, messages, runs, tool executions, interrupts, client
// tool calls, permission rules and settings (modernc.org/sqlite, pure Go),
// with full-text search and export/import. It imports neither Wails nor any
// agent/ package but agent/history, whose record types it stores as they
// are.
//
// # Durability
//
// The database runs in WAL mode with foreign keys on, busy_timeout 5 s and
// synchronous=FULL: a change is on disk when its call returns, even across
// a power cut. FULL costs one fsync per commit; measured here (ext4, 2
// vCPUs) appending one committed message takes 0.6 ms median, 3.8 ms p95
// (NORMAL: 0.28 / 0.42 ms, but the last commits may be lost on power
// loss). Streaming text does not pay it per token: a Checkpointer batches
// snapshots every 200 ms.
//
// All changes go through one writer connection (a pool of exactly one, so
// writes never contend for SQLite's lock and BEGIN IMMEDIATE never waits
// on ourselves); reads use a separate pool of read-only connections, which
// WAL lets run beside the writer, so a search or a long thread never holds
// up a write. Every multi-row change is one transaction.
//
// Open checks before it writes anything: a database whose schema version
// (PRAGMA user_version) is newer than this build's is refused with a
// *NewerSchemaError, one failing PRAGMA quick_check with a *CorruptError;
// neither file is modified. (quick_check reads the whole file: about
// 15 ms per MB here, 9 s for a 600 MB history of a million messages.)
// OpenReadOnlyCopy opens a copy of such a file for browsing (a copy of an
// older schema is migrated first, one migration at a time, as far as the
// damage lets it: only the copy is written); SelectBranch on a copy keeps
// the version chosen in memory instead (viewed.go). Before
// migrating an existing database Open copies it to <path>.pre-vN.bak with
// VACUUM INTO; migrations (migrations/NNNN_*.sql, embedded, forward-only,
// never deleting data) then run in one transaction, so a failed upgrade
// leaves the database as it was.
//
// Schema v1 holds the records; v2 adds search (messages.search_text, a
// generated column, and FTS5 external-content tables fed by triggers); v3
// makes tool call ids unique per thread only (tool_executions and
// client_tool_calls rebuilt keyed on thread and call id: endpoints number
// calls per response, so two threads can both have "call_0"), adds
// staged_answers, messages.tool_state and runs.steps; v4 adds messages.parts
// (what a tool result holds besides text) and mcp_tool_pins; v5 makes a
// thread a tree of messages; v6 adds attachments.
//
// # Attachments
//
// Files sent with a message are stored in this database, once per content
// hash (hex SHA-256): attachments holds the bytes, MIME type, size, the
// text the model reads and search indexes (a text file's, a PDF's
// extracted text) and a PDF's page count. A message lists its references
// in messages.attachments (JSON, read with the message, so loading a
// thread costs no extra query) and in message_attachments rows, which
// cascade from the message and feed attachments_fts (search by file name
// and text) and reference counting. PutMessageWithAttachments writes the
// files and the message in one transaction; DeleteThread and
// DeleteAllHistory delete, in their transaction, every file no message
// references any more. JSON export version 3 carries the files (base64);
// ImportJSON checks each file's hash against its bytes.
//
// # Answering paused runs
//
// Settle writes one accepted answer batch (history.Settlement: interrupts,
// client tool calls, "Always allow" rules) in one transaction, all or
// nothing: if any listed item is no longer pending in the thread nothing
// changes and a *ConflictError (history.ConflictError) names the late
// items, so of two concurrent answers the first wins. StageAnswers keeps
// partial answers of a batch on disk until then; a staged answer goes in
// the same transaction that makes its item stop being pending.
//
// # Streaming and recovery
//
// See Checkpointer for how streamed text is persisted and why a late
// snapshot can never overwrite a committed message, and Recover for what
// the app repairs at start after a crash.
//
// # Search
//
// SearchHistory searches user, assistant and tool-result text and thread
// titles with FTS5 (unicode61, diacritics removed), ranks with bm25 and
// highlights with snippet(), returning plain-text parts. Streaming
// snapshots, system messages, reasoning and the interrupt marker are not
// indexed. The person's text is never passed to FTS5 as syntax (see
// parseQuery). Costs are bounded for large histories: bm25 ranks only the
// newest 1,000 matches; words too common for bm25 to be worth its cost,
// and words still being typed (a prefix of more than 3 letters), give
// newest-first hits; a 3-letter prefix index serves short prefixes; a
// prefix search that overruns 60 ms settles for the word's first 3
// letters. Over a million messages every measured search takes 1–10 ms
// median, at most 11 ms p95 (bench_test.go).
package store
