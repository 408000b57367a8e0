package threads

import (
	"strings"
	"testing"
	"unicode"
)

// TestExportFilenameIsPlain: a thread's title is written by the model or
// an import; the file name the save dialog proposes from it has no
// control, bidi or format characters (a right-to-left override made
// "x\u202Egnp.md" read as "xdm.png"), no path and is never only dots.
func TestExportFilenameIsPlain(t *testing.T) {
	t.Parallel()
	for _, title := range []string{"x\u202Egnp", "a\u200Bb\u2066c\u2069", "tab\there\x7f\u0085", "..", "../../etc/passwd", "\u202E", "ok title"} {
		name := FileName(title)
		for _, r := range name {
			if unicode.IsControl(r) || unicode.Is(unicode.Cf, r) || r == '/' || r == '\\' {
				t.Fatalf("title %q gives the file name %q, with %U", title, name, r)
			}
		}
		if strings.Trim(name, ". ") == "" {
			t.Fatalf("title %q gives the file name %q", title, name)
		}
	}
	if got := FileName("ok title"); got != "ok title" {
		t.Fatalf("a plain title became %q", got)
	}
}
