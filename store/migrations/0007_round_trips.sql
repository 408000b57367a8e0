-- Schema v7: a tool call waiting for the person between two round trips
-- (MCP 2026-07-28 multi round-trip requests: the server answered the call
-- with input_required). Nothing is open on the server: the call is
-- retried with the answers and the state kept here, so the question
-- survives a restart. The row is written in the same transaction as the
-- call's interrupts and its execution's move to 'awaiting_input'
-- (tool_executions.state is free text), and taken when the call is
-- retried.
CREATE TABLE tool_round_trips (
    thread_id    TEXT    NOT NULL REFERENCES threads (id) ON DELETE CASCADE,
    tool_call_id TEXT    NOT NULL,
    -- The tool's own state, opaque to the runtime (an MCP server's
    -- requestState and inputRequests), JSON.
    state        TEXT    NOT NULL,
    -- JSON object: interrupt id -> the tool's key of the request it asks.
    request_keys TEXT    NOT NULL,
    -- How many times the call was answered input_required in a row.
    rounds       INTEGER NOT NULL,
    created_at   INTEGER NOT NULL,
    PRIMARY KEY (thread_id, tool_call_id)
) WITHOUT ROWID;
