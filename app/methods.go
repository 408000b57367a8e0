package app

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/juncture-app/juncture/agent"
	"github.com/juncture-app/juncture/agent/agui"
	"github.com/juncture-app/juncture/agent/attach"
	"github.com/juncture-app/juncture/agent/contract"
	"github.com/juncture-app/juncture/agent/history"
	"github.com/juncture-app/juncture/internal/benchprobe"
	"github.com/juncture-app/juncture/store"
)

// Bound methods take no context (Wails passes none); each bounds its own
// work with callTimeout where it waits on I/O.
const callTimeout = 30 * time.Second

func (a *App) ctx() (context.Context, context.CancelFunc) {
	return context.WithTimeout(a.bgCtx, callTimeout)
}

// Status says whether a model is configured, and where it came from.
type Status struct {
	Mode       string `json:"mode"`
	Configured bool   `json:"configured"`
	Endpoint   string `json:"endpoint"`
	Model      string `json:"model"`
	Detected   string `json:"detected,omitempty"`
	Problem    string `json:"problem,omitempty"`
	ReadOnly   string `json:"readOnly,omitempty"` // path of the read-only copy being browsed
	// SaveProblem says writes are failing now (the disk is full); the
	// window shows it until a write succeeds again.
	SaveProblem string `json:"saveProblem,omitempty"`
	// Bench is JUNCTURE_BENCH=1: the page shows its received-text counter
	// in the window title for scripts/bench-desktop.sh.
	Bench bool `json:"bench,omitempty"`
	// ModelAcceptsImages is the setting: the composer refuses images
	// before sending when it is off.
	ModelAcceptsImages bool `json:"modelAcceptsImages,omitempty"`
}

// Status reports the app's configuration state.
func (a *App) Status() Status {
	st, _ := a.conf.Effective()
	s := Status{Mode: a.cfg.Mode, Endpoint: st.BaseURL, Model: st.Model, ReadOnly: a.readOnly, Bench: a.cfg.Getenv("JUNCTURE_BENCH") == "1",
		ModelAcceptsImages: st.ModelAcceptsImages}
	if a.db != nil && a.db.DiskFull() { // nil: the store did not open
		s.SaveProblem = msgSavingStopped
	}
	s.Detected = a.conf.Detected()
	switch {
	case a.readOnly != "":
		s.Problem = "The history database is damaged. You are browsing a read-only copy; nothing new can be saved."
	case st.BaseURL == "":
		s.Problem = "No model endpoint is configured. Open Settings to choose OpenAI, Ollama, LM Studio, OpenRouter or a custom URL — or set OPENAI_BASE_URL / OPENAI_API_KEY and JUNCTURE_MODEL."
	case st.Model == "":
		s.Problem = "No model is chosen. Open Settings and pick one from the endpoint's list."
	default:
		s.Configured = true
	}
	return s
}

// SendResult says whether input started a turn or waits in the queue.
type SendResult struct {
	ThreadID string `json:"threadId"`
	Queued   bool   `json:"queued"`
}

// SendInput sends the person's message, with files (optional; data in
// base64, see AttachmentInput). An empty threadID starts a new thread. A
// file that cannot be sent refuses the whole message, storing nothing.
func (a *App) SendInput(threadID, text string, attachments []AttachmentInput) (SendResult, error) {
	if strings.TrimSpace(text) == "" && len(attachments) == 0 {
		return SendResult{}, errorf(CodeInvalidArgument, "The message is empty.")
	}
	files, err := decodeAttachments(attachments)
	if err != nil {
		return SendResult{}, err
	}
	if err := a.writable("SendInput"); err != nil {
		return SendResult{}, err
	}
	// The message is stored by its run, after this returns: on a full
	// disk, refuse it here, so the window keeps the text and says why.
	if err := a.checkRoomToSend(text, files); err != nil {
		return SendResult{}, err
	}
	// Files are prepared (a PDF parsed) once, before a new thread is made:
	// a refused file must not leave an empty thread behind.
	prepared, err := a.rt.PrepareAttachments(a.bgCtx, files)
	if e, ok := attachmentError(err); ok {
		return SendResult{}, e
	}
	if err != nil {
		return SendResult{}, asError(err)
	}
	if threadID == "" {
		t, err := a.NewThread("")
		if err != nil {
			return SendResult{}, err
		}
		threadID = t.ID
	}
	queued, err := a.rt.SendPrepared(a.bgCtx, threadID, text, prepared)
	if e, ok := attachmentError(err); ok {
		return SendResult{}, e
	}
	if err != nil {
		return SendResult{}, asError(err)
	}
	return SendResult{ThreadID: threadID, Queued: queued}, nil
}

// Interrupt stops the thread's current turn (no-op when idle).
func (a *App) Interrupt(threadID string) error {
	benchprobe.Interrupted(threadID) // the desktop bench's Stop timing; off unless JUNCTURE_BENCH=1
	a.rt.InterruptVia(threadID, a.transport())
	return nil
}

// RemoveQueued removes queued input i.
func (a *App) RemoveQueued(threadID string, index int) error {
	if err := a.rt.RemoveQueued(threadID, index); err != nil {
		return errorf(CodeNotFound, err.Error())
	}
	return nil
}

// NewThread (presets.go) creates a thread from a preset.

// ThreadPage is one page of ListThreads.
type ThreadPage struct {
	Threads    []ThreadListItem `json:"threads"`
	NextCursor string           `json:"nextCursor"`
}

// ThreadListItem is a thread as the sidebar lists it: the thread's own
// fields (at the top level) plus what it is doing now. Running is the
// runtime's view (a turn runs); Waiting counts what waits on the person:
// every pending interrupt (unbound ones included, see docs/contract.md)
// plus every pending client tool call.
type ThreadListItem struct {
	history.Thread
	Running bool `json:"running"`
	Waiting int  `json:"waiting"`
}

// ListThreads lists threads, pinned first then newest activity first, each
// with its running and waiting state (one extra store query per page).
func (a *App) ListThreads(cursor string, limit int) (ThreadPage, error) {
	if limit <= 0 || limit > 500 {
		limit = 100
	}
	ctx, cancel := a.ctx()
	defer cancel()
	p, err := a.db.ListThreads(ctx, cursor, limit)
	if err != nil {
		return ThreadPage{}, asError(err)
	}
	ids := make([]string, len(p.Threads))
	for i, t := range p.Threads {
		ids[i] = t.ID
	}
	waiting, err := a.db.PendingCounts(ctx, ids)
	if err != nil {
		return ThreadPage{}, asError(err)
	}
	items := make([]ThreadListItem, len(p.Threads))
	for i, t := range p.Threads {
		running, _ := a.rt.Running(t.ID)
		items[i] = ThreadListItem{Thread: t, Running: running, Waiting: waiting[t.ID]}
	}
	return ThreadPage{Threads: items, NextCursor: p.NextCursor}, nil
}

// ThreadView is a thread with everything the window shows.
type ThreadView struct {
	Thread     history.Thread    `json:"thread"`
	Messages   []history.Message `json:"messages"`
	Running    bool              `json:"running"`
	RunID      string            `json:"runId,omitempty"`
	Queued     []string          `json:"queued"`
	Interrupts []agui.Interrupt  `json:"interrupts"`
	// InterruptKinds gives each listed interrupt's kind by id:
	// "tool-approval", "generic" or "unbound" (display-only, never blocks).
	InterruptKinds map[string]string             `json:"interruptKinds"`
	ClientTools    []history.ClientToolCall      `json:"clientTools"`
	ToolStates     map[string]contract.ToolState `json:"toolStates"`
	// Answered lists the waiting items (interrupt ids, client tool call
	// ids) that already have a kept answer: the batch waits for the rest.
	Answered []string `json:"answered"`
	// EventSeq is the broker sequence number the view reflects: every
	// event up to it is in the view (the answer being streamed included,
	// as far as it got), so the window applies only the events after it
	// (deltas by their offset; the others are idempotent).
	EventSeq uint64 `json:"eventSeq"`
	// EditedArgs are the arguments calls ran with after the person edited
	// them on the approval card, by call id (the message keeps the model's).
	EditedArgs map[string]string `json:"editedArgs"`
	// Usage is the token count of the thread's answers on every branch.
	Usage history.ThreadUsage `json:"usage"`
}

// GetThread returns a thread with its messages and live state.
func (a *App) GetThread(threadID string) (ThreadView, error) {
	ctx, cancel := a.ctx()
	defer cancel()
	t, err := a.db.Thread(ctx, threadID)
	if err != nil {
		return ThreadView{}, asError(err)
	}
	// A run whose terminal event is out but whose last write is not (Stop
	// just clicked) would read as running, and the window would wait for
	// an end it already had (issue 19 #28: no Continue button).
	if err := a.rt.WaitSettled(ctx, threadID); err != nil {
		return ThreadView{}, asError(err)
	}
	snap, err := a.rt.Snapshot(ctx, threadID)
	if err != nil {
		return ThreadView{}, asError(err)
	}
	msgs := snap.Messages
	// The instructions the thread runs with: those on the path shown.
	t.Options.SystemPrompt, _ = history.Instructions(msgs)
	st, err := a.rt.State(ctx, threadID, msgs)
	if err != nil {
		return ThreadView{}, asError(err)
	}
	v := ThreadView{
		Thread: t, Messages: msgs, Running: st.Running, RunID: st.RunID, Queued: st.Queued,
		Interrupts: []agui.Interrupt{}, InterruptKinds: map[string]string{}, ClientTools: []history.ClientToolCall{},
		ToolStates: st.ToolStates, Answered: st.Answered, EventSeq: snap.Seq, EditedArgs: st.EditedArgs,
	}
	for _, it := range st.Items {
		v.Interrupts = append(v.Interrupts, it.Interrupt)
		v.InterruptKinds[it.Interrupt.ID] = it.Kind
	}
	v.ClientTools = append(v.ClientTools, st.ClientTools...)
	if v.Usage, err = a.db.ThreadUsage(ctx, threadID); err != nil {
		return ThreadView{}, asError(err)
	}
	if v.Messages == nil {
		v.Messages = []history.Message{}
	}
	return v, nil
}

// RenameThread sets a thread's title.
func (a *App) RenameThread(threadID, title string) error {
	title = strings.TrimSpace(title)
	if title == "" {
		return errorf(CodeInvalidArgument, "The title is empty.")
	}
	ctx, cancel := a.ctx()
	defer cancel()
	if err := a.db.RenameThread(ctx, threadID, agent.Clip(title, 200)); err != nil {
		return asError(err)
	}
	a.emit("threads", ThreadsEvent{ThreadID: threadID})
	return nil
}

// PinThread pins or unpins a thread.
func (a *App) PinThread(threadID string, pinned bool) error {
	ctx, cancel := a.ctx()
	defer cancel()
	if err := a.db.SetPinned(ctx, threadID, pinned); err != nil {
		return asError(err)
	}
	a.emit("threads", ThreadsEvent{ThreadID: threadID})
	return nil
}

// stopAndWait stops running turns through the runtime and waits up to 5 s
// for them to settle (a MustComplete tool finishing, a run saving).
func (a *App) stopAndWait(ctx context.Context, stop func(context.Context) error) error {
	wait, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	if err := stop(wait); err != nil {
		return errorf(CodeConflict, "A tool is still finishing; try again in a moment.")
	}
	return nil
}

// DeleteThread deletes a thread for good (search index included). A running
// turn is stopped first.
func (a *App) DeleteThread(threadID string) error {
	ctx, cancel := a.ctx()
	defer cancel()
	if err := a.stopAndWait(ctx, func(ctx context.Context) error { return a.rt.StopAndWait(ctx, threadID) }); err != nil {
		return err
	}
	if err := a.db.DeleteThread(ctx, threadID); err != nil {
		return asError(err)
	}
	a.emit("threads", ThreadsEvent{ThreadID: threadID})
	return nil
}

// SearchHistory searches every thread's messages and titles.
func (a *App) SearchHistory(query string, limit int) ([]store.SearchHit, error) {
	if limit <= 0 || limit > 200 {
		limit = 50
	}
	ctx, cancel := a.ctx()
	defer cancel()
	hits, err := a.db.SearchHistory(ctx, query, limit)
	if err != nil {
		return nil, asError(err)
	}
	if hits == nil {
		hits = []store.SearchHit{}
	}
	return hits, nil
}

// Export is an exported thread.
type Export struct {
	Filename string `json:"filename"`
	Content  string `json:"content"`
}

// ExportThread exports a thread as "markdown" or "json".
func (a *App) ExportThread(threadID, format string) (Export, error) {
	ctx, cancel := a.ctx()
	defer cancel()
	t, err := a.db.Thread(ctx, threadID)
	if err != nil {
		return Export{}, asError(err)
	}
	name := safeFilename(t.Title)
	switch format {
	case "markdown":
		s, err := a.db.ExportMarkdown(ctx, threadID)
		if err != nil {
			return Export{}, asError(err)
		}
		return Export{Filename: name + ".md", Content: s}, nil
	case "json":
		b, err := a.db.ExportJSON(ctx, threadID)
		if err != nil {
			return Export{}, asError(err)
		}
		return Export{Filename: name + ".json", Content: string(b)}, nil
	}
	return Export{}, errorf(CodeInvalidArgument, fmt.Sprintf("Unknown export format %q (use markdown or json).", format))
}

// ImportThread imports a thread exported as JSON.
func (a *App) ImportThread(content string) (history.Thread, error) {
	ctx, cancel := a.ctx()
	defer cancel()
	t, err := a.db.ImportJSON(ctx, []byte(content), attach.VetImport)
	if err != nil {
		return history.Thread{}, errorf(CodeInvalidArgument, err.Error())
	}
	a.emit("threads", ThreadsEvent{ThreadID: t.ID})
	return t, nil
}

func safeFilename(title string) string {
	if title == "" {
		title = "thread"
	}
	var b strings.Builder
	for _, r := range title {
		switch {
		case r == '/' || r == '\\' || r == ':' || r == '*' || r == '?' || r == '"' || r == '<' || r == '>' || r == '|' || unicode.IsControl(r):
			b.WriteRune('-')
		case unicode.Is(unicode.Cf, r) || r == utf8.RuneError:
			// Bidi overrides and other invisible format characters would
			// let a title disguise the name's extension.
		default:
			b.WriteRune(r)
		}
	}
	name := agent.Clip(strings.TrimSpace(b.String()), 80)
	if strings.Trim(name, ". ") == "" {
		return "thread"
	}
	return name
}

// ListPermissionRules lists the remembered "Always allow" rules.
func (a *App) ListPermissionRules() ([]history.PermissionRule, error) {
	ctx, cancel := a.ctx()
	defer cancel()
	rules, err := a.db.PermissionRules(ctx)
	if err != nil {
		return nil, asError(err)
	}
	if rules == nil {
		rules = []history.PermissionRule{}
	}
	return rules, nil
}

// RevokePermissionRule deletes a remembered rule.
func (a *App) RevokePermissionRule(id string) error {
	ctx, cancel := a.ctx()
	defer cancel()
	return asErrorOrNil(a.db.RevokePermissionRule(ctx, id, a.transport()))
}

func asErrorOrNil(err error) error {
	if err == nil {
		return nil
	}
	return asError(err)
}

// RememberScope is an "Always allow" choice (or, with Deny on a declined
// approval, a "Never" one): its scope, how long it lasts, and the
// argument and glob of the argument scopes. It is agent.Remember under the
// name the window knows, so a field added there reaches the window.
type RememberScope agent.Remember

// ToolOutput is a client tool's result.
type ToolOutput struct {
	Content string `json:"content"`
	IsError bool   `json:"isError,omitempty"`
}

// CompleteClientTool reports the result of a tool the window ran (nil =
// the person cancelled it): Answer with one client result.
func (a *App) CompleteClientTool(threadID, toolCallID string, result *ToolOutput) error {
	r := ClientToolAnswer{ToolCallID: toolCallID, Cancelled: result == nil}
	if result != nil {
		r.Content, r.IsError = result.Content, result.IsError
	}
	_, err := a.Answer(threadID, AnswerBatch{ClientResults: []ClientToolAnswer{r}})
	return err
}

// DeleteAllHistory deletes every thread, message and search entry for
// good. Running turns are stopped first; settings and permission rules stay.
func (a *App) DeleteAllHistory() error {
	if err := a.writable("DeleteAllHistory"); err != nil {
		return err
	}
	ctx, cancel := a.ctx()
	defer cancel()
	if err := a.stopAndWait(ctx, a.rt.StopAllAndWait); err != nil {
		return err
	}
	if err := a.db.DeleteAllHistory(ctx); err != nil {
		return asError(err)
	}
	a.emit("threads", ThreadsEvent{})
	return nil
}

// ContinueAnswer continues the thread's interrupted last answer in place
// (no message of yours is added; the answer grows where it stopped).
func (a *App) ContinueAnswer(threadID string) error {
	if err := a.writable("ContinueAnswer"); err != nil {
		return err
	}
	if _, err := a.rt.ContinueAnswer(a.bgCtx, threadID); err != nil {
		if errors.Is(err, agent.ErrNothingToContinue) {
			return errorf(CodeConflict, "The last answer was not stopped, so there is nothing to continue.")
		}
		return asError(err)
	}
	return nil
}
