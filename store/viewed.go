package store

import (
	"context"
	"database/sql"
	"fmt"
)

// A read-only copy of a damaged database writes nothing, yet its version
// arrows still switch what is shown: the version chosen in a copy is held
// in the copy's memory (DB.viewed, thread id → leaf) and read in place of
// the stored active leaf (shownTree). It goes with the copy; the damaged
// database's own app still opens where the person last was in it.

// shownTree is readTree with the leaf the window shows: the stored active
// leaf, or in a read-only copy the version chosen in it.
func (db *DB) shownTree(ctx context.Context, tx *sql.Tx, threadID string, withClock bool) (*tree, error) {
	t, err := readTree(ctx, tx, threadID, withClock)
	if err != nil || !db.readOnly {
		return t, err
	}
	if leaf, ok := db.viewed.Load(threadID); ok {
		t.leaf = leaf.(string)
	}
	return t, nil
}

// viewBranch is SelectBranch in a read-only copy: the same leaf, kept in
// memory instead of the file. A message on the path shown keeps it, as in
// the live database; there the leaf is always the latest by the stored
// clock, but a copy's clock does not know the version viewed.
func (db *DB) viewBranch(ctx context.Context, threadID, messageID string) (leaf string, err error) {
	err = db.readTx(ctx, func(tx *sql.Tx) error {
		t, err := db.shownTree(ctx, tx, threadID, true)
		if err != nil {
			return err
		}
		i, ok := t.index(messageID)
		if !ok {
			return fmt.Errorf("message %s: %w", messageID, ErrNotFound)
		}
		leaf = t.rows[t.latestIn(i)].m.ID
		if shown := t.leafIndex(); t.onPathTo(shown, i) {
			leaf = t.rows[shown].m.ID
		}
		return nil
	})
	if err != nil {
		return "", fmt.Errorf("store: show the branch of %s in thread %s of a read-only copy: %w", messageID, threadID, err)
	}
	db.viewed.Store(threadID, leaf)
	return leaf, nil
}

// onPathTo reports whether row i is on the path from a first message to
// row leaf (-1: the empty path).
func (t *tree) onPathTo(leaf, i int) bool {
	for steps := 0; leaf >= 0 && steps <= len(t.rows); steps++ {
		if leaf == i {
			return true
		}
		leaf = int(t.parent[leaf])
	}
	return false
}
