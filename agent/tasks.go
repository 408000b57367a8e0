package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/juncture-app/juncture/agent/agui"
	"github.com/juncture-app/juncture/agent/contract"
	"github.com/juncture-app/juncture/agent/history"
	"github.com/juncture-app/juncture/agent/tools"
)

// Tool calls that run as tasks (an MCP task). The tool keeps the task's
// handle with the call (tools.RecordTask → TaskStore.RecordToolTask)
// before it goes on, so the call survives the app:
//
//   - Stop cancels the call's context: the tool cancels the task.
//   - Quit leaves the task running: the tool sees tools.Closing, the
//     call's execution stays started with its handle, and no result is
//     written (as a crash would leave it).
//   - At the next start, ResumeTasks starts one continuation run per
//     thread; the run follows each task (Options.ResumeTask), records its
//     result once, and the model goes on. Nobody answers anything.

// TaskStore keeps task handles with running calls (store.DB implements
// it). Optional: without it, task calls run but cannot be resumed.
type TaskStore interface {
	RecordToolTask(ctx context.Context, threadID, toolCallID string, handle json.RawMessage) error
}

// TaskResumer follows a kept task after a restart until it ends and
// returns the call's result ("the task's outcome is unknown" when its
// source lost it). ctx carries the call's CallEnv and ends on Stop.
type TaskResumer func(ctx context.Context, handle json.RawMessage) tools.Result

// RecordTask implements tools.TaskRecorder.
func (lc *liveCall) RecordTask(ctx context.Context, handle json.RawMessage) error {
	ts, ok := lc.rt.st.(TaskStore)
	if !ok {
		return tools.ErrNoTaskStore
	}
	if err := ts.RecordToolTask(context.WithoutCancel(ctx), lc.threadID, lc.call.ID, handle); err != nil {
		return fmt.Errorf("keeping the task's handle: %w", err)
	}
	lc.task.Store(true)
	return nil
}

// DetachTask tells a task call whose context ended whether the app quits
// (leave the task running) rather than the person stopping it. A call
// that kept a task and sees the app close is marked closing: its
// execution stays started and no result is written, so the next start
// resumes it.
func (lc *liveCall) DetachTask() bool {
	lc.rt.mu.Lock()
	closed := lc.rt.closed
	lc.rt.mu.Unlock()
	if closed && lc.task.Load() {
		lc.closing.Store(true)
	}
	return closed
}

// ResumeTasks resumes the task calls a previous run of the app left
// running (store: StartedToolTasks, after Recover): one continuation run
// per thread follows its tasks and goes on with the model. It returns the
// number of threads it started runs in.
func (rt *Runtime) ResumeTasks(ctx context.Context, execs []history.ToolExecution) (int, error) {
	byThread := map[string][]history.ToolExecution{}
	var order []string
	for _, e := range execs {
		if _, ok := byThread[e.ThreadID]; !ok {
			order = append(order, e.ThreadID)
		}
		byThread[e.ThreadID] = append(byThread[e.ThreadID], e)
	}
	started := 0
	var errs []error
	for _, tid := range order {
		if err := rt.resumeThreadTasks(ctx, tid, byThread[tid]); err != nil {
			errs = append(errs, fmt.Errorf("thread %s: %w", tid, err))
			continue
		}
		started++
	}
	return started, errors.Join(errs...)
}

func (rt *Runtime) resumeThreadTasks(ctx context.Context, threadID string, execs []history.ToolExecution) error {
	msgs, err := rt.st.Messages(ctx, threadID)
	if err != nil {
		return fmt.Errorf("loading the thread: %w", err)
	}
	calls, _ := callsByID(msgs)
	ds := map[string]decision{}
	for _, e := range execs {
		call, ok := calls[e.ToolCallID]
		if !ok {
			// Not on the thread's path any more: finished as unknown.
			e.State, e.Result, e.IsError, e.FinishedAt = history.ToolFinished, "The task's outcome is unknown: its call is not on the conversation's path.", true, rt.now()
			if err := rt.st.FinishToolExecution(ctx, e); err != nil {
				return err
			}
			continue
		}
		exec := e
		ds[call.ID] = decision{call: call, approved: true, task: &exec}
	}
	if len(ds) == 0 {
		return nil
	}
	runID := NewID("run")
	rt.mu.Lock()
	if rt.closed {
		rt.mu.Unlock()
		return ErrClosed
	}
	t := rt.handle(threadID)
	if t.running {
		rt.mu.Unlock()
		return ErrBusy
	}
	rt.launch(t, Input{ThreadID: threadID, RunID: runID, ParentRunID: execs[0].RunID, kind: kindResume, decisions: ds})
	rt.mu.Unlock()
	return nil
}

// resumeTask follows a kept task in a continuation: the call runs live
// (Stop cancels the task, its questions pause the run) and its result is
// recorded once, on its original execution record.
func (tr *turn) resumeTask(msg history.Message, call history.ToolCall, d decision) (ending, bool) {
	rt := tr.rt
	exec := *d.task
	handle := json.RawMessage(exec.Result)
	resume := rt.opts.ResumeTask
	run := func(ctx context.Context) tools.Result {
		if resume == nil {
			return tools.Result{IsError: true, Content: "The task's outcome is unknown: this build cannot follow it after a restart."}
		}
		return resume(ctx, handle)
	}
	lc := tr.startRun(call, exec, true, run)
	lc.task.Store(true)
	rt.emit(tr.run.ThreadID, agui.NewCustom(contract.CustomToolState, contract.ToolStateEvent{ToolCallID: call.ID, State: contract.ToolRunning, ToolName: call.Name}))
	return tr.parkOrGoOn(msg, call, tr.runLive(lc, call, ""), "")
}
