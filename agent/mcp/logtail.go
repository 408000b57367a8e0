package mcp

import (
	"bytes"
	"strings"
	"sync"
	"unicode/utf8"
)

// The log tail keeps what a person needs to see why a server misbehaves,
// and no more: a chatty server must not grow the app's memory.
const (
	logTailMaxBytes = 64 << 10
	logTailMaxLines = 500
	// logLineMax cuts a single line (a server that prints a megabyte
	// without a newline still costs at most this much).
	logLineMax = 4 << 10
)

// logTail is the recent output of one server: its stderr, its logging
// notifications and Juncture's own notes about it. It is an io.Writer (a
// server's Stderr) and safe for concurrent use: os/exec copies stderr on a
// goroutine of its own while the supervisor and the SDK add notes.
type logTail struct {
	mu      sync.Mutex
	lines   []string // oldest first
	size    int      // bytes in lines, newlines included
	partial []byte   // stderr text after the last newline
}

func newLogTail() *logTail { return &logTail{} }

// Write appends stderr output; complete lines enter the tail at once, the
// rest when its newline arrives (or when it grows past logLineMax).
func (l *logTail) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	n := len(p)
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		if i < 0 {
			l.partial = append(l.partial, p...)
			if len(l.partial) >= logLineMax {
				l.addLocked(string(l.partial))
				l.partial = l.partial[:0]
			}
			break
		}
		l.partial = append(l.partial, p[:i]...)
		l.addLocked(strings.TrimSuffix(string(l.partial), "\r"))
		l.partial = l.partial[:0]
		p = p[i+1:]
	}
	return n, nil
}

// Note appends one line of Juncture's own (or a logging notification).
func (l *logTail) Note(line string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	line = strings.TrimRight(line, "\n")
	// Only the last logTailMaxLines lines of a note can stay: the rest
	// is skipped here rather than added and dropped line by line.
	start := len(line)
	for range logTailMaxLines {
		i := strings.LastIndexByte(line[:start], '\n')
		if i < 0 {
			start = 0
			break
		}
		start = i
	}
	if start > 0 {
		line = line[start+1:]
	}
	for s := range strings.SplitSeq(line, "\n") {
		l.addLocked(s)
	}
}

func (l *logTail) addLocked(s string) {
	if len(s) > logLineMax {
		i := logLineMax
		for i > 0 && !utf8.RuneStart(s[i]) {
			i--
		}
		s = s[:i] + " …"
	}
	l.lines = append(l.lines, s)
	l.size += len(s) + 1
	drop := 0
	for len(l.lines)-drop > logTailMaxLines || (l.size > logTailMaxBytes && len(l.lines)-drop > 1) {
		l.size -= len(l.lines[drop]) + 1
		drop++
	}
	if drop > 0 {
		// Clear what is dropped so it can be collected, then reslice:
		// the next append that needs room copies only the kept lines,
		// so a flood of short lines costs a constant per line, not the
		// whole tail's copy each.
		clear(l.lines[:drop])
		l.lines = l.lines[drop:]
	}
}

// String returns the tail, oldest line first, with any unterminated
// stderr text last.
func (l *logTail) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	var b strings.Builder
	b.Grow(l.size + len(l.partial))
	for _, s := range l.lines {
		b.WriteString(s)
		b.WriteByte('\n')
	}
	b.Write(l.partial)
	return b.String()
}

// lastLine returns the last non-empty line the server wrote since
// Juncture's last note (the supervisor notes every start): what a failed
// start says about itself ("exited with status 1: <this>").
func (l *logTail) lastLine() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	if s := strings.TrimSpace(string(l.partial)); s != "" {
		return s
	}
	for i := len(l.lines) - 1; i >= 0; i-- {
		s := strings.TrimSpace(l.lines[i])
		if strings.HasPrefix(s, notePrefix) {
			break
		}
		if s != "" {
			return s
		}
	}
	return ""
}

// notePrefix marks Juncture's own lines in a server's log, so the person
// tells them from the server's output and lastLine skips them.
const notePrefix = "[juncture] "
