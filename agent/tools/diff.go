package tools

import (
	"fmt"
	"strings"
)

// diffContext is the number of unchanged lines around each hunk.
const diffContext = 3

// maxDiffEdits bounds the Myers search (its memory grows with the square of
// the edit distance). Past it the diff replaces the whole changed middle,
// which is still a correct diff, just not a minimal one.
const maxDiffEdits = 1000

type opKind byte

const (
	opEqual opKind = ' '
	opDel   opKind = '-'
	opIns   opKind = '+'
)

type diffOp struct {
	kind opKind
	a, b int // line index in old (a) and new (b) the op refers to
}

// UnifiedDiff returns a unified diff from oldText to newText with three
// lines of context, or "" when they are equal. oldName "/dev/null" marks a
// new file. Lines missing a final newline get the usual
// "\ No newline at end of file" marker.
func UnifiedDiff(oldName, newName, oldText, newText string) string {
	if oldText == newText {
		return ""
	}
	a, b := splitLines(oldText), splitLines(newText)
	ops := diffLines(a, b)
	var sb strings.Builder
	fmt.Fprintf(&sb, "--- %s\n+++ %s\n", oldName, newName)
	for _, h := range hunks(ops) {
		writeHunk(&sb, ops[h[0]:h[1]], a, b)
	}
	return sb.String()
}

// splitLines splits s into lines that keep their "\n", so a last line
// without one differs from the same line with one.
func splitLines(s string) []string {
	if s == "" {
		return nil
	}
	lines := strings.SplitAfter(s, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

// diffLines returns the edit script turning a into b.
func diffLines(a, b []string) []diffOp {
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	ops := make([]diffOp, 0, len(a)+len(b))
	for i := 0; i < pre; i++ {
		ops = append(ops, diffOp{opEqual, i, i})
	}
	ops = append(ops, myers(a[pre:len(a)-suf], b[pre:len(b)-suf], pre, pre)...)
	for i := 0; i < suf; i++ {
		ops = append(ops, diffOp{opEqual, len(a) - suf + i, len(b) - suf + i})
	}
	return ops
}

// myers is Myers' O(ND) greedy algorithm; offA and offB shift the indexes
// it reports. Beyond maxDiffEdits it falls back to delete-all, insert-all.
func myers(a, b []string, offA, offB int) []diffOp {
	n, m := len(a), len(b)
	maxD := n + m
	if maxD > maxDiffEdits {
		maxD = maxDiffEdits
	}
	off := maxD + 1
	v := make([]int, 2*maxD+3)
	var trace [][]int
	found := -1
	for d := 0; d <= maxD && found < 0; d++ {
		trace = append(trace, append([]int(nil), v...))
		for k := -d; k <= d; k += 2 {
			var x int
			if k == -d || (k != d && v[off+k-1] < v[off+k+1]) {
				x = v[off+k+1] // down: an insertion
			} else {
				x = v[off+k-1] + 1 // right: a deletion
			}
			y := x - k
			for x < n && y < m && a[x] == b[y] {
				x++
				y++
			}
			v[off+k] = x
			if x >= n && y >= m {
				found = d
				break
			}
		}
	}
	if found < 0 {
		ops := make([]diffOp, 0, n+m)
		for i := 0; i < n; i++ {
			ops = append(ops, diffOp{opDel, offA + i, offB})
		}
		for j := 0; j < m; j++ {
			ops = append(ops, diffOp{opIns, offA + n, offB + j})
		}
		return ops
	}
	// Walk back through the saved frontiers (trace[d] is the frontier
	// before step d) to recover the path, last edit first.
	var rev []diffOp
	x, y := n, m
	for d := found; d >= 0; d-- {
		pv := trace[d]
		k := x - y
		pk := k - 1
		if k == -d || (k != d && pv[off+k-1] < pv[off+k+1]) {
			pk = k + 1
		}
		px := pv[off+pk]
		py := px - pk
		for x > px && y > py {
			x--
			y--
			rev = append(rev, diffOp{opEqual, offA + x, offB + y})
		}
		if d == 0 {
			break
		}
		if x == px {
			y--
			rev = append(rev, diffOp{opIns, offA + x, offB + y})
		} else {
			x--
			rev = append(rev, diffOp{opDel, offA + x, offB + y})
		}
	}
	ops := make([]diffOp, len(rev))
	for i, op := range rev {
		ops[len(rev)-1-i] = op
	}
	return ops
}

// hunks groups ops into [start, end) ranges: each change with up to
// diffContext equal lines on either side, merging changes that are close.
func hunks(ops []diffOp) [][2]int {
	var hs [][2]int
	for i := 0; i < len(ops); {
		if ops[i].kind == opEqual {
			i++
			continue
		}
		start := max(i-diffContext, 0)
		end := i
		for end < len(ops) {
			if ops[end].kind != opEqual {
				end++
				continue
			}
			run := end
			for run < len(ops) && ops[run].kind == opEqual {
				run++
			}
			if run == len(ops) || run-end > 2*diffContext {
				end = min(end+diffContext, len(ops))
				break
			}
			end = run
		}
		if n := len(hs); n > 0 && hs[n-1][1] >= start {
			hs[n-1][1] = end
		} else {
			hs = append(hs, [2]int{start, end})
		}
		i = end
	}
	return hs
}

func writeHunk(sb *strings.Builder, ops []diffOp, a, b []string) {
	aStart, bStart, aCount, bCount := -1, -1, 0, 0
	for _, op := range ops {
		if op.kind != opIns {
			if aStart < 0 {
				aStart = op.a
			}
			aCount++
		}
		if op.kind != opDel {
			if bStart < 0 {
				bStart = op.b
			}
			bCount++
		}
	}
	// An empty range names the line before it (0 at the top of the file).
	if aStart < 0 {
		aStart = ops[0].a - 1
	}
	if bStart < 0 {
		bStart = ops[0].b - 1
	}
	fmt.Fprintf(sb, "@@ -%d,%d +%d,%d @@\n", aStart+1, aCount, bStart+1, bCount)
	for _, op := range ops {
		line := ""
		if op.kind == opIns {
			line = b[op.b]
		} else {
			line = a[op.a]
		}
		sb.WriteByte(byte(op.kind))
		sb.WriteString(line)
		if !strings.HasSuffix(line, "\n") {
			sb.WriteString("\n\\ No newline at end of file\n")
		}
	}
}
