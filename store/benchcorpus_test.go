package store

import (
	"context"
	"database/sql"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"time"

	"github.com/juncture-app/juncture/agent/history"
)

// benchThreadsFor is the number of threads of a generated history: 10,000
// up to 1,000,000 messages (100 a thread), then 100 messages a thread, so
// a 10,000,000-message history has 100,000 threads, not 1,000-message ones.
func benchThreadsFor(total int) int { return max(10_000, total/100) }

// corpusBatch is how many rows one write transaction of generate inserts:
// large enough that commits cost nothing, small enough that the WAL stays
// a few hundred MiB.
const corpusBatch = 200_000

// corpusChunk is how many rows one INSERT statement of generate carries:
// a statement per row costs more (database/sql, binding, the VDBE
// program) than the row itself.
const corpusChunk = 64

// corpusRow is one row generate inserts: a thread (msg == false) or a
// message.
type corpusRow struct {
	msg                  bool
	seq                  int
	id, thread, parent   string
	role, content        string
	calls, callID, tool  string
	title                string
	pinned               bool
	createdAt, updatedAt int64
}

// ftsInsertTriggers are the triggers that index a new thread or message:
// generate drops them while it loads and puts them back as they were.
var ftsInsertTriggers = []string{"messages_fts_insert", "threads_fts_insert"}

// generate fills db, opened by Open (the app's schema, triggers and
// indexes), with a realistic history of total messages: the text is drawn
// by one goroutine (deterministic: same seed, same history) while this
// one inserts it, corpusChunk rows a statement, corpusBatch rows a
// transaction. The full-text indexes are then built in one pass by FTS5's
// 'rebuild' from the content tables, which is what the insert triggers
// would have written row by row (TestGenerateIndexesAsTriggersDo): a
// trigger's INSERT makes FTS5 flush a one-row segment per statement and
// spend most of the build merging them.
func generate(db *DB, total int) error {
	load, index, err := generateCorpus(db, total, benchThreadsFor(total), benchBigSize)
	if err == nil {
		fmt.Fprintf(os.Stderr, "search corpus: %d messages loaded in %s, indexed in %s\n", total, load.Round(time.Second), index.Round(time.Second))
	}
	return err
}

// generateCorpus is generate with threads threads, big messages of them
// in the big thread; it returns how long loading the rows and indexing
// them took.
func generateCorpus(db *DB, total, threads, big int) (load, index time.Duration, err error) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	start := time.Now()
	// Bulk-load settings on the one writer connection, restored after: a
	// big page cache keeps the indexes being written in memory, FTS5's
	// larger pending-terms buffer means fewer, larger segments to merge,
	// the foreign keys generate writes in order need no lookups, and the
	// statement journal of a many-row INSERT stays in memory.
	var cacheSize string
	if err := db.w.QueryRowContext(ctx, "PRAGMA cache_size").Scan(&cacheSize); err != nil {
		return 0, 0, err
	}
	for _, p := range []string{"PRAGMA cache_size(-1000000)", "PRAGMA synchronous(OFF)", "PRAGMA foreign_keys(OFF)", "PRAGMA temp_store(MEMORY)"} {
		if _, err := db.w.ExecContext(ctx, p); err != nil {
			return 0, 0, err
		}
	}
	defer db.w.Exec("PRAGMA temp_store(DEFAULT)")
	defer db.w.Exec("PRAGMA foreign_keys(ON)")
	defer db.w.Exec("PRAGMA synchronous(FULL)")
	// The writer's own page cache again (db.go's, read here, never a copy
	// of it: the benchmarks after the load time the app's writer).
	defer db.w.Exec("PRAGMA cache_size(" + cacheSize + ")")
	// hashsize is kept in the fts tables' config: set back to FTS5's
	// default (1 MiB) once loaded, so the bench measures the writes people
	// get.
	for _, t := range []string{"messages_fts", "threads_fts"} {
		if _, err := db.w.ExecContext(ctx, "INSERT INTO "+t+" ("+t+", rank) VALUES ('hashsize', 268435456)"); err != nil {
			return 0, 0, fmt.Errorf("%s hashsize: %w", t, err)
		}
		// The default again, and no row for it, as in a store that never
		// set it.
		defer db.w.Exec("DELETE FROM " + t + "_config WHERE k = 'hashsize'")
		defer db.w.Exec("INSERT INTO " + t + " (" + t + ", rank) VALUES ('hashsize', 1048576)")
	}
	triggers := make([]string, len(ftsInsertTriggers))
	for i, name := range ftsInsertTriggers {
		if err := db.w.QueryRowContext(ctx, "SELECT sql FROM sqlite_master WHERE type = 'trigger' AND name = ?", name).Scan(&triggers[i]); err != nil {
			return 0, 0, fmt.Errorf("%s: %w", name, err)
		}
		if _, err := db.w.ExecContext(ctx, "DROP TRIGGER "+name); err != nil {
			return 0, 0, err
		}
	}
	rows := make(chan []corpusRow, 4)
	go func() {
		defer close(rows)
		produceCorpus(ctx, total, threads, big, rows)
	}()
	last := map[string][2]any{} // thread -> (leaf id, leaf seq)
	for batch := range rows {
		if err := db.writeTx(ctx, func(tx *sql.Tx) error { return insertCorpus(ctx, tx, batch, corpusChunk, last) }); err != nil {
			return 0, 0, err
		}
	}
	loaded := time.Now()
	err = db.writeTx(ctx, func(tx *sql.Tx) error {
		for _, t := range triggers {
			if _, err := tx.ExecContext(ctx, t); err != nil {
				return err
			}
		}
		for _, t := range []string{"threads_fts", "messages_fts"} {
			if _, err := tx.ExecContext(ctx, "INSERT INTO "+t+" ("+t+") VALUES ('rebuild')"); err != nil {
				return fmt.Errorf("%s rebuild: %w", t, err)
			}
		}
		return finishCorpus(ctx, tx, last)
	})
	return loaded.Sub(start), time.Since(loaded), err
}

const (
	corpusThreadSQL  = "INSERT INTO threads (id, title, pinned, created_at, updated_at) VALUES "
	corpusThreadRow  = "(?, ?, ?, ?, ?)"
	corpusMessageSQL = "INSERT INTO messages (seq, id, thread_id, run_id, role, content, reasoning, tool_calls, tool_call_id, tool_name, is_error, status, error, created_at, parent_id, active_at) VALUES "
	corpusMessageRow = "(?, ?, ?, '', ?, ?, '', ?, ?, ?, 0, 'complete', '', ?, ?, ?)"
)

// finishCorpus points each thread at its last message (its leaf, as the
// store keeps them: see branches.go) and marks the big thread as the last
// one written.
func finishCorpus(ctx context.Context, tx *sql.Tx, last map[string][2]any) error {
	up, err := tx.PrepareContext(ctx, "UPDATE threads SET active_leaf = ?, branch_clock = ? WHERE id = ?")
	if err != nil {
		return err
	}
	defer up.Close()
	for thread, leaf := range last {
		if _, err := up.ExecContext(ctx, leaf[0], leaf[1], thread); err != nil {
			return err
		}
	}
	var clock int64
	if err := tx.QueryRowContext(ctx, "SELECT max(created_at) FROM messages").Scan(&clock); err != nil {
		return err
	}
	_, err = tx.ExecContext(ctx, "UPDATE threads SET updated_at = ? WHERE id = ?", clock, benchBigThread)
	return err
}

// insertCorpus inserts one batch of rows, in their order, up to chunk
// rows a statement, and notes each thread's last message in last.
func insertCorpus(ctx context.Context, tx *sql.Tx, batch []corpusRow, chunk int, last map[string][2]any) error {
	stmts := map[string]*sql.Stmt{}
	defer func() {
		for _, s := range stmts {
			s.Close()
		}
	}()
	exec := func(head, row string, n int, args []any) error {
		q := head + row + strings.Repeat(", "+row, n-1)
		s, ok := stmts[q]
		if !ok {
			var err error
			if s, err = tx.PrepareContext(ctx, q); err != nil {
				return err
			}
			stmts[q] = s
		}
		_, err := s.ExecContext(ctx, args...)
		return err
	}
	for len(batch) > 0 {
		// A run of rows of one kind, at most chunk.
		n := 1
		for n < len(batch) && n < chunk && batch[n].msg == batch[0].msg {
			n++
		}
		var args []any
		for _, r := range batch[:n] {
			if !r.msg {
				args = append(args, r.thread, r.title, boolInt(r.pinned), r.createdAt, r.updatedAt)
				continue
			}
			var calls any
			if r.calls != "" {
				calls = r.calls
			}
			// active_at = seq: every message is on its thread's active
			// branch (see branches.go).
			args = append(args, r.seq, r.id, r.thread, r.role, r.content, calls, r.callID, r.tool, r.createdAt, r.parent, r.seq)
			last[r.thread] = [2]any{r.id, r.seq}
		}
		var err error
		if batch[0].msg {
			err = exec(corpusMessageSQL, corpusMessageRow, n, args)
		} else {
			err = exec(corpusThreadSQL, corpusThreadRow, n, args)
		}
		if err != nil {
			return err
		}
		batch = batch[n:]
	}
	return nil
}

// produceCorpus sends the rows of a history of total messages, in
// batches of corpusBatch: threads threads of user and
// assistant turns (one assistant turn in 7 calls a tool, whose result
// follows), with Zipf-distributed words, and the big thread's big
// messages spread over the whole history.
func produceCorpus(ctx context.Context, total, threads, big int, out chan<- []corpusRow) {
	vocab := vocabulary()
	r := rand.New(rand.NewPCG(1, 2))
	zipf := rand.NewZipf(r, 1.1, 2, uint64(len(vocab)-1))
	text := func(minWords, maxWords int) string {
		n := minWords + r.IntN(maxWords-minWords+1)
		var b strings.Builder
		for i := range n {
			if i > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(vocab[zipf.Uint64()])
		}
		return b.String()
	}
	batch := make([]corpusRow, 0, corpusBatch)
	send := func(row corpusRow) bool {
		batch = append(batch, row)
		if len(batch) < corpusBatch {
			return true
		}
		select {
		case out <- batch:
		case <-ctx.Done():
			return false
		}
		batch = make([]corpusRow, 0, corpusBatch)
		return true
	}
	clock := int64(1_600_000_000_000)
	msgNo := 0
	bigHave := 0
	last := map[string]string{} // each thread is a chain
	put := func(thread string, role history.Role, content, calls, callID, tool string) bool {
		msgNo++
		clock += 1000
		id := fmt.Sprintf("m%07d", msgNo)
		row := corpusRow{msg: true, seq: msgNo, id: id, thread: thread, parent: last[thread], role: string(role),
			content: content, calls: calls, callID: callID, tool: tool, createdAt: clock}
		last[thread] = id
		if thread == benchBigThread {
			bigHave++
		}
		return send(row)
	}
	if !send(corpusRow{thread: benchBigThread, title: "The big one", createdAt: clock, updatedAt: clock}) {
		return
	}
	bigEvery := total / big
	perThread := (total - big) / (threads - 1)
	for ti := 1; ti < threads; ti++ {
		id := fmt.Sprintf("t%05d", ti)
		if !send(corpusRow{thread: id, title: text(2, 6), pinned: ti%500 == 0, createdAt: clock, updatedAt: clock + int64(ti)}) {
			return
		}
		n := max(2, perThread/2+r.IntN(perThread+1))
		for i := 0; i < n && msgNo < total-big; i++ {
			role := history.RoleUser
			if i%2 == 1 {
				role = history.RoleAssistant
			}
			if role == history.RoleAssistant && r.IntN(7) == 0 {
				call := fmt.Sprintf("call%07d", msgNo)
				args := fmt.Sprintf(`{"path":"/home/me/%s.txt"}`, vocab[zipf.Uint64()])
				if !put(id, role, text(5, 30), fmt.Sprintf(`[{"id":%q,"name":"read_file","arguments":%q}]`, call, args), "", "") ||
					!put(id, history.RoleTool, text(20, 120), "", call, "read_file") {
					return
				}
				continue
			}
			if !put(id, role, text(5, 80), "", "", "") {
				return
			}
			if msgNo%bigEvery == 0 && !put(benchBigThread, history.RoleUser, text(5, 80), "", "", "") {
				return
			}
		}
	}
	// Top the big thread up to exactly big.
	for bigHave < big {
		if !put(benchBigThread, history.RoleAssistant, text(5, 80), "", "", "") {
			return
		}
	}
	if len(batch) > 0 {
		select {
		case out <- batch:
		case <-ctx.Done():
		}
	}
}
