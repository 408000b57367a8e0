package tools

import (
	"errors"
	"os/exec"
	"sync"
)

// errShuttingDown refuses a command that would start after KillAll.
var errShuttingDown = errors.New("the app is shutting down")

// running holds the commands started by tools whose options name no
// Processes of their own (KillAll ends them).
var running = NewProcesses()

// Processes is a set of running commands (process groups) with one
// owner: the app creates one, hands it to its tools (BuiltinOptions), and
// closes it as it shuts down, so no command outlives it. Starting,
// finishing and Close are serialised, so a command is either refused or
// seen by Close, and never signalled after its resources were released.
type Processes struct {
	mu     sync.Mutex
	closed bool
	live   map[*procGroup]struct{}
}

// NewProcesses returns an empty, open set.
func NewProcesses() *Processes { return &Processes{live: map[*procGroup]struct{}{}} }

// Close kills every command still running in the set, with everything
// those commands started (SIGKILL to each process group; on Windows the
// command's Job Object is terminated), and refuses new ones from then on.
// A run_command call whose command it kills returns as usual, with the
// output so far.
func (g *Processes) Close() { g.killAll() }

// start starts cmd and records it, unless KillAll has run. The start
// happens on a goroutine of its own: on Linux the shell's parent-death
// signal is tied to the thread that forks it, and the Go runtime only
// ever ends a thread whose goroutine exits while locked to it, which a
// caller that locked its thread (runtime.LockOSThread) might do.
func (g *Processes) start(cmd *exec.Cmd) (*procGroup, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.closed {
		return nil, errShuttingDown
	}
	type started struct {
		pg  *procGroup
		err error
	}
	ch := make(chan started, 1)
	go func() {
		pg, err := startGroup(cmd)
		ch <- started{pg, err}
	}()
	s := <-ch
	if s.err != nil {
		return nil, s.err
	}
	g.live[s.pg] = struct{}{}
	return s.pg, nil
}

// finish ends what is left of a command whose shell has been reaped and
// forgets it.
func (g *Processes) finish(pg *procGroup) {
	g.mu.Lock()
	defer g.mu.Unlock()
	pg.release()
	delete(g.live, pg)
}

// killAll kills every running group and refuses new commands from now on.
func (g *Processes) killAll() {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.closed = true
	for pg := range g.live {
		pg.signal(true)
	}
}

// KillAll closes the default set: the commands of tools built without
// their own Processes (BuiltinOptions.Processes).
func KillAll() {
	running.killAll()
}
