package store

import (
	"context"

	"github.com/juncture-app/juncture/agent/history"
)

// RuntimeStore is the database as the agent runtime takes it (every port
// of agent.Store): streaming snapshots go through a Checkpointer, and a
// message's final write supersedes them. The facade and the runtime's
// tests use this one adapter.
type RuntimeStore struct {
	*DB
	cp *Checkpointer
}

// RuntimeStore returns c's database with c writing its streaming
// snapshots.
func (c *Checkpointer) RuntimeStore() RuntimeStore { return RuntimeStore{DB: c.db, cp: c} }

// Checkpoint hands a streaming snapshot to the checkpointer, without
// blocking.
func (s RuntimeStore) Checkpoint(m history.Message) { s.cp.Update(m) }

// PutMessage writes m now and supersedes any pending snapshot of it.
func (s RuntimeStore) PutMessage(ctx context.Context, m history.Message) error {
	return s.cp.Commit(ctx, m)
}
