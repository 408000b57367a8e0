package mcp

import (
	"runtime"
	"strings"
	"testing"
	"unicode/utf8"
)

// allocated is what f allocates, in bytes.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// TestLogTailFloodCostsLinear: a server's output enters the log tail at
// a cost linear in its size: one logging notification of 16 MiB made of
// short lines took 107 s and allocated 64 GiB (every line copied the
// whole tail), and stderr of a million short lines 8 GB.
func TestLogTailFloodCostsLinear(t *testing.T) {
	lines := strings.Repeat("a\n", 8<<20) // 16 MiB: the largest message a server may send
	t.Run("one logging notification", func(t *testing.T) {
		l := newLogTail()
		if got := allocated(func() { l.Note(lines) }); got > 64<<20 {
			t.Fatalf("a 16 MiB notification allocated %d MiB, budget 64", got>>20)
		}
		if n := strings.Count(l.String(), "\n"); n != logTailMaxLines {
			t.Fatalf("the tail keeps %d lines, want %d", n, logTailMaxLines)
		}
	})
	t.Run("stderr", func(t *testing.T) {
		l := newLogTail()
		b := []byte(lines[:2<<20]) // a million lines, written as os/exec copies: 32 KiB at a time
		got := allocated(func() {
			for p := b; len(p) > 0; p = p[min(len(p), 32<<10):] {
				_, _ = l.Write(p[:min(len(p), 32<<10)])
			}
		})
		if got > 64<<20 {
			t.Fatalf("a million stderr lines allocated %d MiB, budget 64", got>>20)
		}
	})
	t.Run("a long line is cut on a character", func(t *testing.T) {
		l := newLogTail()
		l.Note("a" + strings.Repeat("é", logLineMax))
		if s := l.String(); !utf8.ValidString(s) || len(s) > logLineMax+8 {
			t.Fatalf("a long line became %d bytes, valid UTF-8: %v", len(s), utf8.ValidString(s))
		}
	})
}
