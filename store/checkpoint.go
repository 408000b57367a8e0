package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/juncture-app/juncture/agent/history"
)

// DefaultCheckpointInterval is how often a Checkpointer writes streaming
// snapshots: a crash loses at most this much streamed text plus one write
// (about 250 ms in all).
const DefaultCheckpointInterval = 200 * time.Millisecond

// writeTimeout bounds background and closing writes, which have no caller
// context.
const writeTimeout = 10 * time.Second

// Checkpointer persists streaming messages in the background so that a
// crash mid-answer loses at most one interval of text.
//
//   - Update records the latest snapshot of a message in memory and returns
//     at once; it never touches the database.
//   - A goroutine writes the pending snapshots, in one transaction, at most
//     one interval after the first pending Update.
//   - Commit writes a message synchronously and supersedes any pending
//     snapshot of it. A snapshot never overwrites a message whose stored
//     status is no longer streaming, so a late background write (or a late
//     Update) can never undo a committed final state.
//   - Snapshots are not search-indexed (streaming messages have no index
//     entry); the index is updated when the message is committed in a
//     non-streaming state.
//
// A Checkpointer is safe for concurrent use. DB.Close closes every
// Checkpointer still open.
type Checkpointer struct {
	db       *DB
	interval time.Duration

	mu      sync.Mutex
	pending map[string]history.Message
	order   []string // ids in first-Update order, so new messages keep thread order
	err     error    // first background failure not yet reported
	closed  bool

	wmu sync.Mutex // serialises snapshot writes so an older one never lands after a newer one

	kick chan struct{}
	stop chan struct{}
	done chan struct{}
}

// NewCheckpointer starts a Checkpointer writing every interval
// (DefaultCheckpointInterval if interval <= 0). Close it when done.
func (db *DB) NewCheckpointer(interval time.Duration) *Checkpointer {
	if interval <= 0 {
		interval = DefaultCheckpointInterval
	}
	c := &Checkpointer{
		db: db, interval: interval,
		pending: make(map[string]history.Message),
		kick:    make(chan struct{}, 1),
		stop:    make(chan struct{}),
		done:    make(chan struct{}),
	}
	db.mu.Lock()
	db.cps[c] = struct{}{}
	db.mu.Unlock()
	go c.loop()
	return c
}

// Update records m as the latest snapshot of message m.ID. It does not block
// on the database. Updates after Close are ignored.
func (c *Checkpointer) Update(m history.Message) {
	m.ToolCalls = slices.Clone(m.ToolCalls)
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return
	}
	_, known := c.pending[m.ID]
	if !known {
		c.order = append(c.order, m.ID)
	}
	c.pending[m.ID] = m
	c.mu.Unlock()
	if !known {
		select {
		case c.kick <- struct{}{}:
		default:
		}
	}
}

// Commit writes m now (see DB.PutMessage) and drops any pending snapshot of
// it.
func (c *Checkpointer) Commit(ctx context.Context, m history.Message) error {
	c.mu.Lock()
	delete(c.pending, m.ID) // its stale id in c.order is skipped by take
	c.mu.Unlock()
	return c.db.PutMessage(ctx, m)
}

// Flush writes every pending snapshot now. It also reports a background
// write failure that happened since the last Flush.
func (c *Checkpointer) Flush(ctx context.Context) error {
	err := c.writePending(ctx)
	c.mu.Lock()
	bg := c.err
	c.err = nil
	c.mu.Unlock()
	return errors.Join(bg, err)
}

// Close stops the background goroutine and flushes what is pending.
func (c *Checkpointer) Close() error {
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return nil
	}
	c.closed = true
	c.mu.Unlock()
	close(c.stop)
	<-c.done

	ctx, cancel := context.WithTimeout(context.Background(), writeTimeout)
	defer cancel()
	err := c.Flush(ctx)
	c.db.mu.Lock()
	delete(c.db.cps, c)
	c.db.mu.Unlock()
	return err
}

func (c *Checkpointer) loop() {
	defer close(c.done)
	timer := time.NewTimer(c.interval)
	timer.Stop()
	for {
		select {
		case <-c.stop:
			return
		case <-c.kick:
		}
		timer.Reset(c.interval)
		select {
		case <-c.stop:
			timer.Stop()
			return // Close flushes
		case <-timer.C:
		}
		ctx, cancel := context.WithTimeout(context.Background(), writeTimeout)
		if err := c.writePending(ctx); err != nil {
			c.mu.Lock()
			if c.err == nil {
				c.err = err
			}
			c.mu.Unlock()
		}
		cancel()
	}
}

// take removes and returns the pending snapshots in first-Update order.
func (c *Checkpointer) take() []history.Message {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.pending) == 0 {
		c.order = c.order[:0]
		return nil
	}
	batch := make([]history.Message, 0, len(c.pending))
	for _, id := range c.order {
		if m, ok := c.pending[id]; ok {
			batch = append(batch, m)
			delete(c.pending, id)
		}
	}
	c.order = c.order[:0]
	return batch
}

// writePending writes the pending snapshots in one transaction. If that
// fails it writes them one by one, so one bad snapshot (say, of a thread
// deleted meanwhile) cannot hold back the others; snapshots that still fail
// are dropped (the next Update or Commit of that message replaces them) and
// reported.
func (c *Checkpointer) writePending(ctx context.Context) error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	batch := c.take()
	if len(batch) == 0 {
		return nil
	}
	var valid []history.Message
	var errs []error
	for _, m := range batch {
		if err := checkMessage(&m); err != nil {
			errs = append(errs, fmt.Errorf("store: checkpoint message %s: %w", m.ID, err))
			continue
		}
		valid = append(valid, m)
	}
	if len(valid) == 0 {
		return errors.Join(errs...)
	}
	now := c.db.now()
	write := func(ms []history.Message) error {
		return c.db.writeTx(ctx, func(tx *sql.Tx) error {
			return putMessages(ctx, tx, ms, now, true)
		})
	}
	if err := write(valid); err != nil && len(valid) > 1 {
		for _, m := range valid {
			if err := write([]history.Message{m}); err != nil {
				errs = append(errs, fmt.Errorf("store: checkpoint message %s: %w", m.ID, err))
			}
		}
	} else if err != nil {
		errs = append(errs, fmt.Errorf("store: checkpoint message %s: %w", valid[0].ID, err))
	}
	return errors.Join(errs...)
}
