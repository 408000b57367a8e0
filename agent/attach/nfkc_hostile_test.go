package attach

import (
	"strings"
	"testing"
	"time"
)

// A PDF whose text is only U+FDFA (one rune that NFKC turns into 18) is
// normalised before it is cut: the kept text is still at most MaxText,
// and the work is quick.
func TestPresentationFormsStayWithinMaxText(t *testing.T) {
	in := strings.Repeat("\uFDFA", (MaxText+1)/3)
	start := time.Now()
	out := truncateText(strings.TrimSpace(plainLetters(in)))
	if len(out) > MaxText+64 { // the cut notice follows the text
		t.Fatalf("kept %d bytes, MaxText %d", len(out), MaxText)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Fatalf("took %v", d)
	}
}
