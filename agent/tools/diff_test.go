package tools

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
)

func TestUnifiedDiff(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, old, new, want string
	}{
		{"equal", "a\n", "a\n", ""},
		{"new file", "", "x\ny\n", "--- a\n+++ b\n@@ -0,0 +1,2 @@\n+x\n+y\n"},
		{"emptied", "x\ny\n", "", "--- a\n+++ b\n@@ -1,2 +0,0 @@\n-x\n-y\n"},
		{"change in the middle", "1\n2\n3\n4\n5\n6\n7\n8\n9\n", "1\n2\n3\n4\nV\n6\n7\n8\n9\n",
			"--- a\n+++ b\n@@ -2,7 +2,7 @@\n 2\n 3\n 4\n-5\n+V\n 6\n 7\n 8\n"},
		{"insert at top", "a\nb\n", "z\na\nb\n", "--- a\n+++ b\n@@ -1,2 +1,3 @@\n+z\n a\n b\n"},
		{"no final newline added", "a\nb", "a\nb\n",
			"--- a\n+++ b\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+b\n"},
		{"two hunks", "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n", "X\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\nY\n",
			"--- a\n+++ b\n@@ -1,4 +1,4 @@\n-1\n+X\n 2\n 3\n 4\n@@ -9,4 +9,4 @@\n 9\n 10\n 11\n-12\n+Y\n"},
		{"close changes merge", "1\n2\n3\n4\n5\n6\n7\n8\n", "X\n2\n3\n4\n5\n6\n7\nY\n",
			"--- a\n+++ b\n@@ -1,8 +1,8 @@\n-1\n+X\n 2\n 3\n 4\n 5\n 6\n 7\n-8\n+Y\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if got := UnifiedDiff("a", "b", tc.old, tc.new); got != tc.want {
				t.Errorf("diff =\n%s\nwant\n%s", got, tc.want)
			}
		})
	}
}

// TestUnifiedDiffRoundTrip applies random diffs back to the old text and
// checks that they are minimal where the search is not cut short.
func TestUnifiedDiffRoundTrip(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(1, 2))
	gen := func() string {
		n := rng.IntN(30)
		var b strings.Builder
		for range n {
			b.WriteString(string(rune('a' + rng.IntN(4))))
			b.WriteByte('\n')
		}
		s := b.String()
		if rng.IntN(5) == 0 {
			s = strings.TrimSuffix(s, "\n")
		}
		return s
	}
	for i := range 2000 {
		a, b := gen(), gen()
		d := UnifiedDiff("a", "b", a, b)
		got, err := applyUnified(a, d)
		if err != nil || got != b {
			t.Fatalf("case %d: apply = %q, %v; want %q\nold %q\ndiff:\n%s", i, got, err, b, a, d)
		}
		al, bl := splitLines(a), splitLines(b)
		if edits, want := countEdits(d), len(al)+len(bl)-2*lcsLen(al, bl); edits != want {
			t.Fatalf("case %d: %d edits, minimal is %d\n%s", i, edits, want, d)
		}
	}
}

func TestUnifiedDiffLargeFallback(t *testing.T) {
	t.Parallel()
	var a, b strings.Builder
	for i := range 3000 {
		fmt.Fprintf(&a, "a%d\n", i)
		fmt.Fprintf(&b, "b%d\n", i)
	}
	d := UnifiedDiff("a", "b", a.String(), b.String())
	got, err := applyUnified(a.String(), d)
	if err != nil || got != b.String() {
		t.Fatalf("large diff does not apply: %v", err)
	}
}

func countEdits(d string) int {
	n := 0
	for _, l := range strings.Split(d, "\n") {
		if (strings.HasPrefix(l, "+") || strings.HasPrefix(l, "-")) && !strings.HasPrefix(l, "+++") && !strings.HasPrefix(l, "---") {
			n++
		}
	}
	return n
}

func lcsLen(a, b []string) int {
	dp := make([][]int, len(a)+1)
	for i := range dp {
		dp[i] = make([]int, len(b)+1)
	}
	for i := len(a) - 1; i >= 0; i-- {
		for j := len(b) - 1; j >= 0; j-- {
			if a[i] == b[j] {
				dp[i][j] = dp[i+1][j+1] + 1
			} else {
				dp[i][j] = max(dp[i+1][j], dp[i][j+1])
			}
		}
	}
	return dp[0][0]
}

// applyUnified is a strict patch(1) for the diffs UnifiedDiff writes.
func applyUnified(old, diff string) (string, error) {
	if diff == "" {
		return old, nil
	}
	src := splitLines(old)
	lines := strings.SplitAfter(diff, "\n")
	var out []string
	pos := 0 // next unread line of src
	for i := 2; i < len(lines) && lines[i] != ""; {
		var aStart, aCount, bStart, bCount int
		h := strings.TrimSuffix(lines[i], "\n")
		if _, err := fmt.Sscanf(h, "@@ -%d,%d +%d,%d @@", &aStart, &aCount, &bStart, &bCount); err != nil {
			return "", fmt.Errorf("bad hunk header %q: %w", h, err)
		}
		from := aStart - 1
		if aCount == 0 {
			from = aStart
		}
		if from < pos {
			return "", fmt.Errorf("hunk %q overlaps", h)
		}
		out = append(out, src[pos:from]...)
		pos = from
		i++
		for i < len(lines) && lines[i] != "" && !strings.HasPrefix(lines[i], "@@") {
			l := lines[i]
			text := l[1:]
			if i+1 < len(lines) && strings.HasPrefix(lines[i+1], `\ No newline`) {
				text = strings.TrimSuffix(text, "\n")
				i++
			}
			switch l[0] {
			case ' ', '-':
				if pos >= len(src) || src[pos] != text {
					return "", fmt.Errorf("line %d does not match %q", pos+1, text)
				}
				if l[0] == ' ' {
					out = append(out, text)
				}
				pos++
			case '+':
				out = append(out, text)
			default:
				return "", fmt.Errorf("bad line %q", l)
			}
			i++
		}
	}
	out = append(out, src[pos:]...)
	return strings.Join(out, ""), nil
}

func TestSplitLines(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]int{"": 0, "a": 1, "a\n": 1, "a\nb": 2, "\n\n": 2} {
		if got := len(splitLines(in)); got != want {
			t.Errorf("splitLines(%s) has %d lines, want %d", strconv.Quote(in), got, want)
		}
	}
}
