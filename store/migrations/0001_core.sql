-- Schema v1: the core records. Every table that belongs to a thread cascades
-- on thread delete, so deleting a thread really deletes everything about it.
-- Tables whose order matters carry an explicit INTEGER PRIMARY KEY ("seq"):
-- VACUUM may renumber implicit rowids, never an INTEGER PRIMARY KEY.

CREATE TABLE threads (
    seq        INTEGER PRIMARY KEY,
    id         TEXT    NOT NULL UNIQUE,
    title      TEXT    NOT NULL DEFAULT '',
    pinned     INTEGER NOT NULL DEFAULT 0,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
);
-- The thread list: pinned first, then newest activity, keyset-paginated.
CREATE INDEX threads_list ON threads (pinned DESC, updated_at DESC, id DESC);

CREATE TABLE messages (
    seq          INTEGER PRIMARY KEY, -- insertion order = thread order
    id           TEXT    NOT NULL UNIQUE,
    thread_id    TEXT    NOT NULL REFERENCES threads (id) ON DELETE CASCADE,
    run_id       TEXT    NOT NULL DEFAULT '',
    role         TEXT    NOT NULL,
    content      TEXT    NOT NULL DEFAULT '',
    reasoning    TEXT    NOT NULL DEFAULT '',
    tool_calls   TEXT,                -- JSON array of {id,name,arguments}; NULL when none
    tool_call_id TEXT    NOT NULL DEFAULT '',
    tool_name    TEXT    NOT NULL DEFAULT '',
    is_error     INTEGER NOT NULL DEFAULT 0,
    status       TEXT    NOT NULL,
    error        TEXT    NOT NULL DEFAULT '',
    created_at   INTEGER NOT NULL
);
CREATE INDEX messages_thread ON messages (thread_id, seq);
CREATE INDEX messages_tool_call ON messages (tool_call_id) WHERE tool_call_id <> '';
CREATE INDEX messages_streaming ON messages (status) WHERE status = 'streaming';

CREATE TABLE runs (
    seq           INTEGER PRIMARY KEY,
    id            TEXT    NOT NULL UNIQUE,
    thread_id     TEXT    NOT NULL REFERENCES threads (id) ON DELETE CASCADE,
    parent_run_id TEXT    NOT NULL DEFAULT '',
    generation    INTEGER NOT NULL DEFAULT 0,
    status        TEXT    NOT NULL,
    outcome       TEXT,
    started_at    INTEGER NOT NULL,
    finished_at   INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX runs_thread ON runs (thread_id, seq);
CREATE INDEX runs_running ON runs (status) WHERE status = 'running';

CREATE TABLE tool_executions (
    tool_call_id TEXT    PRIMARY KEY,
    thread_id    TEXT    NOT NULL REFERENCES threads (id) ON DELETE CASCADE,
    run_id       TEXT    NOT NULL DEFAULT '',
    tool_name    TEXT    NOT NULL,
    arguments    TEXT    NOT NULL DEFAULT '{}',
    state        TEXT    NOT NULL,
    result       TEXT    NOT NULL DEFAULT '',
    is_error     INTEGER NOT NULL DEFAULT 0,
    started_at   INTEGER NOT NULL,
    finished_at  INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX tool_executions_thread ON tool_executions (thread_id);
CREATE INDEX tool_executions_started ON tool_executions (state) WHERE state = 'started';

CREATE TABLE interrupts (
    seq          INTEGER PRIMARY KEY,
    id           TEXT    NOT NULL UNIQUE,
    thread_id    TEXT    NOT NULL REFERENCES threads (id) ON DELETE CASCADE,
    run_id       TEXT    NOT NULL DEFAULT '',
    generation   INTEGER NOT NULL DEFAULT 0,
    kind         TEXT    NOT NULL,
    tool_call_id TEXT    NOT NULL DEFAULT '',
    descriptor   TEXT    NOT NULL,
    status       TEXT    NOT NULL,
    response     TEXT,
    created_at   INTEGER NOT NULL,
    resolved_at  INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX interrupts_thread ON interrupts (thread_id, status, seq);

CREATE TABLE client_tool_calls (
    seq          INTEGER PRIMARY KEY,
    tool_call_id TEXT    NOT NULL UNIQUE,
    thread_id    TEXT    NOT NULL REFERENCES threads (id) ON DELETE CASCADE,
    run_id       TEXT    NOT NULL DEFAULT '',
    tool_name    TEXT    NOT NULL,
    arguments    TEXT    NOT NULL DEFAULT '{}',
    state        TEXT    NOT NULL,
    result       TEXT    NOT NULL DEFAULT '',
    created_at   INTEGER NOT NULL
);
CREATE INDEX client_tool_calls_thread ON client_tool_calls (thread_id, state, seq);

CREATE TABLE permission_rules (
    seq        INTEGER PRIMARY KEY,
    id         TEXT    NOT NULL UNIQUE,
    tool       TEXT    NOT NULL,
    scope      TEXT    NOT NULL,
    pattern    TEXT    NOT NULL DEFAULT '',
    created_at INTEGER NOT NULL,
    UNIQUE (tool, scope, pattern)
);

CREATE TABLE settings (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
) WITHOUT ROWID;
