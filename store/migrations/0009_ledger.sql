-- Schema v9: the decision ledger. Append-only: every approval, denial,
-- answer, client action, Stop during a decision and change of a rule is
-- one row, chained by hash (hash = sha256 of prev_hash and the row's
-- canonical encoding, store/ledger.go), so `juncture ledger verify` finds
-- the first row that was changed. thread_id is not a foreign key: a
-- deleted chat's rows stay, their arguments and diff replaced by their
-- shape (redacted = 1; args_hash still names what they were).
CREATE TABLE ledger (
    seq        INTEGER PRIMARY KEY,
    at         INTEGER NOT NULL,
    kind       TEXT    NOT NULL,
    thread_id  TEXT    NOT NULL DEFAULT '',
    run_id     TEXT    NOT NULL DEFAULT '',
    call_id    TEXT    NOT NULL DEFAULT '',
    tool       TEXT    NOT NULL DEFAULT '',
    server     TEXT    NOT NULL DEFAULT '',
    transport  TEXT    NOT NULL DEFAULT '',
    rule_id    TEXT    NOT NULL DEFAULT '',
    arguments  TEXT    NOT NULL DEFAULT '',
    diff       TEXT    NOT NULL DEFAULT '',
    redacted   INTEGER NOT NULL DEFAULT 0,
    args_hash  TEXT    NOT NULL DEFAULT '',
    reason     TEXT    NOT NULL DEFAULT '',
    outcome    TEXT    NOT NULL DEFAULT '',
    prev_hash  TEXT    NOT NULL,
    hash       TEXT    NOT NULL
);
CREATE INDEX ledger_thread ON ledger (thread_id, seq);
CREATE INDEX ledger_at ON ledger (at);
-- Only redaction may change a row, and only its arguments and diff.
CREATE TRIGGER ledger_append_only BEFORE UPDATE ON ledger
WHEN NOT (OLD.redacted = 0 AND NEW.redacted = 1
    AND NEW.seq = OLD.seq AND NEW.at = OLD.at AND NEW.kind = OLD.kind
    AND NEW.thread_id = OLD.thread_id AND NEW.run_id = OLD.run_id AND NEW.call_id = OLD.call_id
    AND NEW.tool = OLD.tool AND NEW.server = OLD.server AND NEW.transport = OLD.transport
    AND NEW.rule_id = OLD.rule_id AND NEW.args_hash = OLD.args_hash AND NEW.reason = OLD.reason
    AND NEW.outcome = OLD.outcome AND NEW.prev_hash = OLD.prev_hash AND NEW.hash = OLD.hash)
BEGIN
    SELECT RAISE(ABORT, 'the ledger is append-only');
END;
