-- Schema v5: a thread is a tree of messages; per-thread options; token
-- usage per answer.
--
-- messages.parent_id is the message a message follows ('' for a first
-- message). A linear thread of v4 becomes a chain in its stored order (seq),
-- which is exactly the order v4 read it in, so nothing moves.
--
-- threads.active_leaf is the last message of the path the thread shows and
-- the model reads ('' for an empty path). Every new message becomes the
-- leaf. threads.branch_clock counts the thread's leaf changes, and
-- messages.active_at holds the clock value of the last time a message was
-- the leaf: switching to a branch goes back to where the person last was in
-- it (the most recently active message of that subtree).
--
-- threads.options is the thread's endpoint, model, preset and tools as
-- JSON ('' = the defaults). messages.usage is an answer's token counts as
-- the endpoint reported them, "prompt completion total" (three decimal
-- numbers: one column to read, nothing to decode); NULL when it reported
-- none. messages.model
-- is the model that wrote an answer ('' before v5).

ALTER TABLE messages ADD COLUMN parent_id TEXT NOT NULL DEFAULT '';
ALTER TABLE messages ADD COLUMN active_at INTEGER NOT NULL DEFAULT 0;
ALTER TABLE messages ADD COLUMN usage TEXT;
ALTER TABLE messages ADD COLUMN model TEXT NOT NULL DEFAULT '';
ALTER TABLE threads ADD COLUMN active_leaf TEXT NOT NULL DEFAULT '';
ALTER TABLE threads ADD COLUMN branch_clock INTEGER NOT NULL DEFAULT 0;
ALTER TABLE threads ADD COLUMN options TEXT NOT NULL DEFAULT '';

-- Chain each thread's messages in their stored order.
UPDATE messages SET parent_id = COALESCE((
    SELECT p.id FROM messages p
    WHERE p.thread_id = messages.thread_id AND p.seq < messages.seq
    ORDER BY p.seq DESC LIMIT 1), '');

-- A message's stored position is its clock value (only the order within a
-- thread matters); the last one is the leaf, and the clock goes on from it.
UPDATE messages SET active_at = seq;

UPDATE threads SET
    active_leaf = COALESCE((SELECT m.id FROM messages m WHERE m.thread_id = threads.id ORDER BY m.seq DESC LIMIT 1), ''),
    branch_clock = COALESCE((SELECT max(m.seq) FROM messages m WHERE m.thread_id = threads.id), 0);
