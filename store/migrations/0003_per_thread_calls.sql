-- Schema v3: tool call ids unique per thread, staged answers, a stored tool
-- state per tool message and a step count per run.
--
-- A tool call id is unique only within its thread: endpoints number calls
-- per response ("functions.read_file:0", "call_0"), so two threads, or two
-- responses, can use the same id. tool_executions and client_tool_calls are
-- rebuilt keyed on (thread_id, tool_call_id): SQLite cannot change a
-- primary key or a UNIQUE constraint in place, so each is created anew,
-- filled, and swapped in (its indexes are recreated after the swap; index
-- names are global). Nothing references these tables, so dropping the old
-- ones cascades nowhere. Rows keep their values, seq included.

ALTER TABLE messages ADD COLUMN tool_state TEXT NOT NULL DEFAULT '';

ALTER TABLE runs ADD COLUMN steps INTEGER NOT NULL DEFAULT 0;

CREATE TABLE tool_executions_v3 (
    tool_call_id TEXT    NOT NULL,
    thread_id    TEXT    NOT NULL REFERENCES threads (id) ON DELETE CASCADE,
    run_id       TEXT    NOT NULL DEFAULT '',
    tool_name    TEXT    NOT NULL,
    arguments    TEXT    NOT NULL DEFAULT '{}',
    state        TEXT    NOT NULL,
    result       TEXT    NOT NULL DEFAULT '',
    is_error     INTEGER NOT NULL DEFAULT 0,
    started_at   INTEGER NOT NULL,
    finished_at  INTEGER NOT NULL DEFAULT 0,
    -- Leads with thread_id: it also serves the thread cascade, which v1's
    -- tool_executions_thread index did.
    PRIMARY KEY (thread_id, tool_call_id)
);
INSERT INTO tool_executions_v3 (tool_call_id, thread_id, run_id, tool_name, arguments, state, result, is_error, started_at, finished_at)
    SELECT tool_call_id, thread_id, run_id, tool_name, arguments, state, result, is_error, started_at, finished_at
    FROM tool_executions;
DROP TABLE tool_executions;
ALTER TABLE tool_executions_v3 RENAME TO tool_executions;
CREATE INDEX tool_executions_started ON tool_executions (state) WHERE state = 'started';

CREATE TABLE client_tool_calls_v3 (
    seq          INTEGER PRIMARY KEY,
    tool_call_id TEXT    NOT NULL,
    thread_id    TEXT    NOT NULL REFERENCES threads (id) ON DELETE CASCADE,
    run_id       TEXT    NOT NULL DEFAULT '',
    tool_name    TEXT    NOT NULL,
    arguments    TEXT    NOT NULL DEFAULT '{}',
    state        TEXT    NOT NULL,
    result       TEXT    NOT NULL DEFAULT '',
    created_at   INTEGER NOT NULL,
    UNIQUE (thread_id, tool_call_id)
);
INSERT INTO client_tool_calls_v3 (seq, tool_call_id, thread_id, run_id, tool_name, arguments, state, result, created_at)
    SELECT seq, tool_call_id, thread_id, run_id, tool_name, arguments, state, result, created_at
    FROM client_tool_calls;
DROP TABLE client_tool_calls;
ALTER TABLE client_tool_calls_v3 RENAME TO client_tool_calls;
CREATE INDEX client_tool_calls_thread ON client_tool_calls (thread_id, state, seq);

-- Partial answers to a paused batch, kept until the batch is settled so a
-- half-answered batch survives a restart. item_id is an interrupt id or a
-- client tool call id of the thread; payload is the runtime's JSON. seq is
-- the staging order (an explicit column: VACUUM may renumber rowids).
CREATE TABLE staged_answers (
    thread_id  TEXT    NOT NULL REFERENCES threads (id) ON DELETE CASCADE,
    item_id    TEXT    NOT NULL,
    payload    TEXT    NOT NULL,
    created_at INTEGER NOT NULL,
    seq        INTEGER NOT NULL,
    PRIMARY KEY (thread_id, item_id)
) WITHOUT ROWID;
