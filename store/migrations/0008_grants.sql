-- Schema v8: grants with a scope and an end. A rule allows or denies
-- (effect), may name an argument (arg) and a glob below its pattern
-- (glob), lasts for a duration (expires_at in Unix ms, 0 until revoked;
-- thread_id / turn_id bind "this chat" and "this turn"), and counts the
-- calls it decided (uses, last_used_at). The table is rebuilt because its
-- uniqueness now spans the new columns: an allow and a deny of the same
-- pattern are two rules.
CREATE TABLE permission_rules_v8 (
    seq          INTEGER PRIMARY KEY,
    id           TEXT    NOT NULL UNIQUE,
    tool         TEXT    NOT NULL,
    scope        TEXT    NOT NULL,
    pattern      TEXT    NOT NULL DEFAULT '',
    created_at   INTEGER NOT NULL,
    effect       TEXT    NOT NULL DEFAULT 'allow' CHECK (effect IN ('allow', 'deny')),
    arg          TEXT    NOT NULL DEFAULT '',
    glob         TEXT    NOT NULL DEFAULT '',
    reason       TEXT    NOT NULL DEFAULT '',
    duration     TEXT    NOT NULL DEFAULT 'forever',
    expires_at   INTEGER NOT NULL DEFAULT 0,
    thread_id    TEXT    NOT NULL DEFAULT '',
    turn_id      TEXT    NOT NULL DEFAULT '',
    last_used_at INTEGER NOT NULL DEFAULT 0,
    uses         INTEGER NOT NULL DEFAULT 0,
    UNIQUE (tool, scope, pattern, arg, glob, effect, thread_id, turn_id)
);
INSERT INTO permission_rules_v8 (seq, id, tool, scope, pattern, created_at, thread_id)
SELECT seq, id, tool, scope, pattern, created_at, CASE WHEN scope = 'thread' THEN pattern ELSE '' END
FROM permission_rules ORDER BY seq;
DROP TABLE permission_rules;
ALTER TABLE permission_rules_v8 RENAME TO permission_rules;
