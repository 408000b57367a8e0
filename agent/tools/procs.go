package tools

import (
	"errors"
	"os/exec"
	"sync"
)

// errShuttingDown refuses a command that would start after KillAll.
var errShuttingDown = errors.New("the app is shutting down")

// running holds every command run_command has started and not yet
// finished, so that KillAll can end them when the app quits.
var running = &groups{live: map[*procGroup]struct{}{}}

// groups is a set of running process groups. Starting, finishing and
// KillAll are serialised, so a command is either refused or seen by
// KillAll, and never signalled after its resources were released.
type groups struct {
	mu     sync.Mutex
	closed bool
	live   map[*procGroup]struct{}
}

// start starts cmd and records it, unless KillAll has run. The start
// happens on a goroutine of its own: on Linux the shell's parent-death
// signal is tied to the thread that forks it, and the Go runtime only
// ever ends a thread whose goroutine exits while locked to it, which a
// caller that locked its thread (runtime.LockOSThread) might do.
func (g *groups) start(cmd *exec.Cmd) (*procGroup, error) {
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
func (g *groups) finish(pg *procGroup) {
	g.mu.Lock()
	defer g.mu.Unlock()
	pg.release()
	delete(g.live, pg)
}

// killAll kills every running group and refuses new commands from now on.
func (g *groups) killAll() {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.closed = true
	for pg := range g.live {
		pg.signal(true)
	}
}

// KillAll kills every command run_command has started that is still
// running, with everything those commands started (SIGKILL to each process
// group; on Windows, the command's Job Object is terminated), and makes
// run_command refuse to start new ones. The app calls it once, as it
// shuts down, after it has stopped its runs (which ends their commands
// politely): a command must not outlive the app. A run_command call whose
// command it kills returns as usual, with the output so far.
func KillAll() {
	running.killAll()
}
