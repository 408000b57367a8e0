package agent_test

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/juncture-app/juncture/agent"
	"github.com/juncture-app/juncture/agent/agui"
	"github.com/juncture-app/juncture/agent/history"
	"github.com/juncture-app/juncture/store"
)

// stoppedThread stores a thread whose last answer the person stopped, as
// Stop leaves it: what Continue continues.
func (h *harness) stoppedThread(threadID, half string) {
	h.t.Helper()
	ctx := context.Background()
	if err := h.db.CreateThread(ctx, history.Thread{ID: threadID, CreatedAt: 1, UpdatedAt: 1}); err != nil {
		h.t.Fatal(err)
	}
	for _, m := range []history.Message{
		{ID: threadID + "-q", ThreadID: threadID, Role: history.RoleUser, Content: "write", Status: history.StatusComplete, CreatedAt: 1},
		{ID: threadID + "-a", ThreadID: threadID, Role: history.RoleAssistant, Content: history.WithMarker(half), Status: history.StatusInterrupted, CreatedAt: 2},
	} {
		if err := h.db.PutMessage(ctx, m); err != nil {
			h.t.Fatal(err)
		}
	}
}

// Issue 19 #26: Continue clicked as another run starts either runs or
// answers busy; "busy" never leaves a continuation queued behind the
// other run (which would then end in "nothing to continue").
// Run with -count=200 -race once after a change to ContinueAnswer.
func TestContinueRacingSendInputIsBusyOrRuns(t *testing.T) {
	m := newScriptedModel()
	m.fallback = func(int, modelRequest) sreply { return reply(sText("ok")) }
	s := newScripted(t, m)
	ctx := t.Context()
	for i := range 5 {
		th := "race-" + string(rune('a'+i))
		s.stoppedThread(th, "The first half, ")
		var contErr, sendErr error
		var wg sync.WaitGroup
		start := make(chan struct{})
		wg.Add(2)
		go func() {
			defer wg.Done()
			<-start
			_, contErr = s.rt.ContinueAnswer(ctx, th)
		}()
		go func() {
			defer wg.Done()
			<-start
			_, sendErr = s.rt.SendInput(ctx, th, "something else")
		}()
		close(start)
		wg.Wait()
		if sendErr != nil {
			t.Fatalf("%s: SendInput: %v", th, sendErr)
		}
		if contErr != nil && !errors.Is(contErr, agent.ErrBusy) && !errors.Is(contErr, agent.ErrNothingToContinue) {
			t.Fatalf("%s: ContinueAnswer: %v", th, contErr)
		}
		s.idle(th) // the queue is drained before the thread is idle
		run, err := s.db.LatestRun(ctx, th)
		if err != nil {
			t.Fatal(err)
		}
		if run.Status != history.RunFinished {
			t.Fatalf("%s: Continue said %v; the last run ended %s", th, contErr, run.Status)
		}
		if q := s.rt.Queued(th); len(q) != 0 {
			t.Fatalf("%s: still queued %v", th, q)
		}
	}
}

// continueHookStore calls hook once, at the next Messages read it is armed for:
// the moment between Continue's check and its start.
type continueHookStore struct {
	agent.Store
	armed atomic.Bool
	hook  func()
}

func (s *continueHookStore) Messages(ctx context.Context, threadID string) ([]history.Message, error) {
	msgs, err := s.Store.Messages(ctx, threadID)
	if s.armed.CompareAndSwap(true, false) {
		s.hook() // after the read: the thread changes once Continue has looked
	}
	return msgs, err
}

// newContinueHooked is a harness whose model answers "ok" to anything and
// whose store runs hs.hook, once armed, at the next Messages read; thread
// "th" ends in an answer the person stopped.
func newContinueHooked(t *testing.T) (*scripted, *continueHookStore) {
	m := newScriptedModel()
	m.fallback = func(int, modelRequest) sreply { return reply(sText("ok")) }
	hs := &continueHookStore{}
	s := newScripted(t, m, func(o *agent.Options) {
		hs.Store = o.Store
		o.Store = hs
	})
	s.stoppedThread("th", "The first half, ")
	return s, hs
}

// continueWith runs ContinueAnswer on "th" with between run at the moment
// its check has read the thread, and returns what Continue said.
func continueWith(t *testing.T, s *scripted, hs *continueHookStore, between func() error) error {
	t.Helper()
	var betweenErr error
	hs.hook = func() { betweenErr = between() }
	hs.armed.Store(true)
	_, err := s.rt.ContinueAnswer(t.Context(), "th")
	if betweenErr != nil {
		t.Fatal(betweenErr)
	}
	return err
}

// lastRunFinished fails unless "th" is idle and its last run finished
// (why names what would have run otherwise).
func lastRunFinished(t *testing.T, s *scripted, why string) {
	t.Helper()
	s.idle("th")
	if run, err := s.db.LatestRun(t.Context(), "th"); err != nil || run.Status != history.RunFinished {
		t.Fatalf("the last run: %+v, %v (%s)", run, err, why)
	}
}

// Issue 19 #26, deterministically: a message sent just after Continue
// checked the thread makes Continue busy, and nothing is queued (it used
// to be queued anyway and end in "nothing to continue").
func TestContinueAsARunStartsIsBusyAndNotQueued(t *testing.T) {
	s, hs := newContinueHooked(t)
	err := continueWith(t, s, hs, func() error {
		_, err := s.rt.SendInput(t.Context(), "th", "something else")
		return err
	})
	if !errors.Is(err, agent.ErrBusy) {
		t.Fatalf("ContinueAnswer as a run starts: %v, want ErrBusy", err)
	}
	lastRunFinished(t, s, "a continuation was queued after all")
	if calls := s.m.Calls(); calls != 1 {
		t.Fatalf("%d model calls, want 1 (the message's)", calls)
	}
}

// Issue 19 #26: the text Continue streams is checkpointed like any
// streamed text: a crash while it streams keeps it (marked interrupted),
// not only the half written before the stop.
func TestContinuedTextIsCheckpointed(t *testing.T) {
	m := newScriptedModel(reply(sText("and the second half"), sBlock()))
	s := newScripted(t, m)
	s.stoppedThread("th", "The first half, ")
	if _, err := s.rt.ContinueAnswer(t.Context(), "th"); err != nil {
		t.Fatal(err)
	}
	s.untilDelta("and the second half")
	// The checkpointer writes within its interval (20 ms here, 180 ms in
	// the app); the harness's own bound is a generous 10 s.
	deadline := time.Now().Add(10 * time.Second)
	for {
		msgs := s.messages("th")
		if got := msgs[len(msgs)-1].Content; strings.Contains(got, "and the second half") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the continued text never reached the database: %q", msgs[len(msgs)-1].Content)
		}
		time.Sleep(5 * time.Millisecond)
	}
	// A crash now: the files as they are on disk, opened by a new
	// process, which recovers what was streaming.
	crashed := copyDB(t, s.db.Path())
	db, err := store.Open(context.Background(), crashed)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Recover(context.Background()); err != nil {
		t.Fatal(err)
	}
	msgs, err := db.Messages(context.Background(), "th")
	if err != nil {
		t.Fatal(err)
	}
	last := msgs[len(msgs)-1]
	want := history.WithMarker("The first half, and the second half")
	if len(msgs) != 2 || last.ID != "th-a" || last.Status != history.StatusInterrupted || last.Content != want {
		t.Fatalf("after the crash: %d messages, last %+v", len(msgs), last)
	}
	s.rt.Interrupt("th")
	finished(t, s.terminal(), agui.OutcomeCancelled)
}

// copyDB copies a live SQLite database with its WAL to a new folder, as
// a crash would leave them.
func copyDB(t *testing.T, path string) string {
	t.Helper()
	dir := t.TempDir()
	for _, suffix := range []string{"", "-wal"} {
		src, err := os.Open(path + suffix)
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		dst, err := os.Create(filepath.Join(dir, filepath.Base(path)+suffix))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := io.Copy(dst, src); err != nil {
			t.Fatal(err)
		}
		src.Close()
		if err := dst.Close(); err != nil {
			t.Fatal(err)
		}
	}
	return filepath.Join(dir, filepath.Base(path))
}

// Issue 19 #28: Continue clicked the moment Stop's terminal event shows
// (the window enables it then) continues, although the stopped answer is
// saved just after that event.
func TestContinueRightAfterStopContinues(t *testing.T) {
	m := newScriptedModel(reply(sText("The first half, "), sBlock()), reply(sText("and the second half.")))
	s := newScripted(t, m)
	for range 5 {
		s.send("th", "write")
		s.untilDelta("The first half, ")
		s.rt.Interrupt("th")
		finished(t, s.terminal(), agui.OutcomeCancelled)
		if _, err := s.rt.ContinueAnswer(t.Context(), "th"); err != nil {
			t.Fatalf("Continue right after Stop: %v", err)
		}
		finished(t, s.terminal(), agui.OutcomeSuccess)
		s.idle("th")
		msgs := s.messages("th")
		if last := msgs[len(msgs)-1]; last.Content != "The first half, and the second half." {
			t.Fatalf("continued answer %q", last.Content)
		}
		m.Enqueue(reply(sText("The first half, "), sBlock()), reply(sText("and the second half.")))
	}
}

// stopSaveHookStore calls hook when the stopped answer is saved: after
// Stop's terminal event, before the run settles.
type stopSaveHookStore struct {
	agent.Store
	hook func()
	once sync.Once
}

func (s *stopSaveHookStore) PutMessage(ctx context.Context, m history.Message) error {
	if m.Status == history.StatusInterrupted {
		s.once.Do(s.hook)
	}
	return s.Store.PutMessage(ctx, m)
}

// Issue 19 #28: after WaitSettled, the thread's state never says running
// for a run whose terminal event is out (GetThread waits so; a window
// reloading then saw "running" and never showed Continue).
func TestStateAfterWaitSettledIsNotRunning(t *testing.T) {
	m := newScriptedModel(reply(sText("The first half, "), sBlock()))
	hs := &stopSaveHookStore{}
	s := newScripted(t, m, func(o *agent.Options) {
		hs.Store = o.Store
		o.Store = hs
	})
	got := make(chan error, 1)
	hs.hook = func() {
		go func() {
			if err := s.rt.WaitSettled(context.Background(), "th"); err != nil {
				got <- err
				return
			}
			if running, _ := s.rt.Running("th"); running {
				got <- errors.New("still running after WaitSettled")
				return
			}
			got <- nil
		}()
	}
	s.send("th", "write")
	s.untilDelta("The first half, ")
	s.rt.Interrupt("th")
	finished(t, s.terminal(), agui.OutcomeCancelled)
	if err := <-got; err != nil {
		t.Fatal(err)
	}
}

// A run that starts and ends between Continue's check and its start (a
// message sent and answered in that moment, or a double click whose first
// continuation already finished) makes the check stale: Continue looks
// again and refuses, never starting a continuation that fails in its run
// with "nothing to continue".
func TestContinueAfterARunCameAndWentLooksAgain(t *testing.T) {
	s, hs := newContinueHooked(t)
	err := continueWith(t, s, hs, func() error {
		_, err := s.rt.SendInput(t.Context(), "th", "something else")
		s.idle("th") // the other run came and went before Continue starts
		return err
	})
	if !errors.Is(err, agent.ErrNothingToContinue) {
		t.Fatalf("ContinueAnswer after a run came and went: %v, want ErrNothingToContinue", err)
	}
	lastRunFinished(t, s, "a stale continuation ran")
}

// reopenHookStore calls hook once, just after the continued answer is
// stored as streaming again.
type reopenHookStore struct {
	agent.Store
	hook func()
	once sync.Once
}

func (s *reopenHookStore) PutMessage(ctx context.Context, m history.Message) error {
	err := s.Store.PutMessage(ctx, m)
	if m.Status == history.StatusStreaming {
		s.once.Do(s.hook)
	}
	return err
}

// Issue 19 #26: a window that reads the thread just as Continue reopens
// the stopped answer still sees the answer. A streaming row that is not
// the live answer reads as a stale checkpoint and is left out of a
// snapshot, so the answer must be live before it is stored as streaming.
func TestContinuedAnswerStaysInSnapshotsAsItReopens(t *testing.T) {
	m := newScriptedModel(reply(sText("and the second half")))
	hs := &reopenHookStore{}
	s := newScripted(t, m, func(o *agent.Options) {
		hs.Store = o.Store
		o.Store = hs
	})
	s.stoppedThread("th", "The first half, ")
	var seen []history.Message
	var snapErr error
	hs.hook = func() {
		snap, err := s.rt.Snapshot(context.Background(), "th")
		seen, snapErr = snap.Messages, err
	}
	if _, err := s.rt.ContinueAnswer(t.Context(), "th"); err != nil {
		t.Fatal(err)
	}
	finished(t, s.terminal(), agui.OutcomeSuccess)
	s.idle("th")
	if snapErr != nil {
		t.Fatal(snapErr)
	}
	if len(seen) != 2 || seen[1].ID != "th-a" || !strings.HasPrefix(seen[1].Content, "The first half, ") {
		t.Fatalf("the snapshot taken as the answer reopened: %+v", seen)
	}
}
