package attach

import (
	"strings"
	"testing"
)

// A PDF whose text is only U+FDFA (one rune that NFKC turns into 18) is
// normalised before it is cut: the kept text is still at most MaxText,
// and the work is quick.
func TestPresentationFormsStayWithinMaxText(t *testing.T) {
	in := strings.Repeat("\uFDFA", (MaxText+1)/3)
	out := truncateText(strings.TrimSpace(plainLetters(in)))
	if len(out) > MaxText+64 { // the cut notice follows the text
		t.Fatalf("kept %d bytes, MaxText %d", len(out), MaxText)
	}
}

// BenchmarkPlainLettersHostile: the cost of the test's text above (speed is
// measured here, never timed in a test).
func BenchmarkPlainLettersHostile(b *testing.B) {
	in := strings.Repeat("\uFDFA", (MaxText+1)/3)
	b.SetBytes(int64(len(in)))
	for range b.N {
		_ = truncateText(plainLetters(in))
	}
}
