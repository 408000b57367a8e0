package attach

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime/debug"
	"strconv"
	"strings"
	"sync/atomic"
	"time"
)

// childArg is argv[1] of an extractor child: Juncture re-executes itself
// (os.Executable) to parse a PDF or decode an image under ChildMemory,
// ChildCPU and ChildWall, so a hostile file costs a bounded child, never
// the app.
const childArg = "__juncture-extract"

// MaybeRunExtractor runs the extractor and exits when this process was
// started as one; otherwise it returns at once. It is the first call of
// main, and of TestMain in every test package that parses attachments.
func MaybeRunExtractor() {
	if len(os.Args) < 4 || os.Args[1] != childArg {
		return
	}
	cpu, err := strconv.Atoi(os.Args[3])
	if err != nil || cpu <= 0 || cpu > ChildCPU*raceScale {
		cpu = ChildCPU * raceScale
	}
	os.Exit(runChild(os.Args[2], cpu, os.Stdin, os.Stdout))
}

// Budgets the parent gives a child: the constants, lowered by the tests so
// that proving a hostile file is stopped costs CI seconds, not tens.
var (
	cpuBudget  = ChildCPU * raceScale
	wallBudget = ChildWall * raceScale
)

// WallBudget is how long one extraction may take in this binary
// (ChildWall; scaled in a race-instrumented test binary).
func WallBudget() time.Duration { return wallBudget }

// runs counts the children started (ExtractorRuns).
var runs atomic.Int64

// ExtractorRuns is how many extractor children this process has started:
// a send parses its PDF once, and the tests hold it to that.
func ExtractorRuns() int64 { return runs.Load() }

// onChildDone, when set (tests), is told what every child cost.
var onChildDone func(job string, st childStats, err error)

// childReply is what a child writes on stdout.
type childReply struct {
	Text  string `json:"text,omitempty"`
	Pages int    `json:"pages,omitempty"`
	Mime  string `json:"mime,omitempty"`
	Data  []byte `json:"data,omitempty"`
	Err   string `json:"err,omitempty"`
}

// runChild limits itself, then does one job: "pdf" (text and page count)
// or "image:MIME" (the image as the model receives it).
func runChild(job string, cpu int, in io.Reader, out io.Writer) int {
	if err := limitSelf(cpu); err != nil {
		fmt.Fprintln(os.Stderr, "extractor: cannot limit itself:", err)
		return 3
	}
	debug.SetMaxStack(childStack)
	debug.SetMemoryLimit(ChildMemory * 3 / 4)
	data, err := io.ReadAll(io.LimitReader(in, MaxFileBytes+1))
	if err != nil || len(data) > MaxFileBytes {
		fmt.Fprintln(os.Stderr, "extractor: cannot read the file:", err)
		return 3
	}
	var r childReply
	switch {
	case job == "pdf":
		var err error
		r.Text, r.Pages, err = pdfTextInProcess(data)
		if err != nil {
			r.Err = err.Error()
		}
	case strings.HasPrefix(job, "image:"):
		r.Mime, r.Data = modelImageInProcess(strings.TrimPrefix(job, "image:"), data)
	default:
		fmt.Fprintln(os.Stderr, "extractor: unknown job", job)
		return 3
	}
	if err := json.NewEncoder(out).Encode(r); err != nil {
		return 3
	}
	return 0
}

// children bounds the extractor children running at once (maxChildren).
var children = make(chan struct{}, maxChildren)

// childStats is what one child cost, for the tests' figures.
type childStats struct {
	MaxRSS int64 // bytes; 0 where the platform does not say
	Wall   time.Duration
}

// errChildBudget says a child was stopped for its budget; the message
// says which one.
var errChildBudget = errors.New("over budget")

// extract runs job on data in an extractor child and returns its reply.
// An error says why there is no reply: over a budget (errChildBudget),
// the child could not run, or its reply was unreadable.
func extract(ctx context.Context, job string, data []byte) (childReply, childStats, error) {
	var st childStats
	select {
	case children <- struct{}{}:
		defer func() { <-children }()
	case <-ctx.Done():
		return childReply{}, st, ctx.Err()
	}
	exe, err := os.Executable()
	if err != nil {
		return childReply{}, st, fmt.Errorf("starting the extractor: %w", err)
	}
	ctx, cancel := context.WithTimeout(ctx, wallBudget)
	defer cancel()
	cmd := exec.CommandContext(ctx, exe, childArg, job, strconv.Itoa(cpuBudget))
	// The child gets no environment: no key or token of the app's can
	// reach a parser of hostile bytes.
	cmd.Env = []string{"GOTRACEBACK=single"}
	cmd.Stdin = bytes.NewReader(data)
	stdout := &cappedBuffer{max: childOutput}
	stderr := &cappedBuffer{max: childStderr}
	cmd.Stdout, cmd.Stderr = stdout, stderr
	cmd.WaitDelay = time.Second
	start := time.Now()
	runs.Add(1)
	err = cmd.Run()
	st.Wall = time.Since(start)
	if cmd.ProcessState != nil {
		st.MaxRSS = maxRSS(cmd.ProcessState)
	}
	r, err := childResult(ctx, err, stdout, stderr)
	if onChildDone != nil {
		onChildDone(job, st, err)
	}
	return r, st, err
}

// childResult reads a finished child's reply, or says why there is none.
func childResult(ctx context.Context, err error, stdout, stderr *cappedBuffer) (childReply, error) {
	switch {
	case ctx.Err() == context.DeadlineExceeded:
		return childReply{}, fmt.Errorf("%w: it took longer than %s", errChildBudget, wallBudget)
	case ctx.Err() != nil:
		return childReply{}, ctx.Err()
	case stdout.over:
		return childReply{}, fmt.Errorf("%w: its result passed %s", errChildBudget, sizeText(childOutput))
	case err != nil:
		return childReply{}, childFailure(err, stderr.String())
	}
	var r childReply
	if err := json.Unmarshal(stdout.Bytes(), &r); err != nil {
		return childReply{}, fmt.Errorf("the extractor's reply is unreadable: %w", err)
	}
	return r, nil
}

// childFailure says why a child ended without a reply.
func childFailure(err error, stderr string) error {
	var ee *exec.ExitError
	if !errors.As(err, &ee) {
		return fmt.Errorf("starting the extractor: %w", err)
	}
	switch {
	case strings.Contains(stderr, "out of memory"), strings.Contains(stderr, "cannot allocate memory"):
		return fmt.Errorf("%w: it needs more than %s of memory", errChildBudget, sizeText(ChildMemory))
	case strings.Contains(stderr, "stack exceeds"), strings.Contains(stderr, "stack overflow"):
		return fmt.Errorf("%w: its structure nests too deeply", errChildBudget)
	case killedByCPU(ee):
		return fmt.Errorf("%w: it needs more than %d s of CPU time", errChildBudget, cpuBudget)
	}
	return fmt.Errorf("the extractor failed (%w)", err)
}

// cappedBuffer keeps at most max bytes and remembers it was cut.
type cappedBuffer struct {
	bytes.Buffer
	max  int
	over bool
}

func (b *cappedBuffer) Write(p []byte) (int, error) {
	if room := b.max - b.Len(); len(p) > room {
		b.over = true
		b.Buffer.Write(p[:max(room, 0)])
		return len(p), nil
	}
	return b.Buffer.Write(p)
}
