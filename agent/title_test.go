package agent

import (
	"testing"
	"unicode"
)

// TestTitleIsPlainText: a title is the model's text (any endpoint's):
// it names the chat in the list and the export's file; control, bidi and
// other format characters are removed, so "Notes\u202Etxt.exe" cannot
// read as another name.
func TestTitleIsPlainText(t *testing.T) {
	t.Parallel()
	cases := map[string]string{
		"Trip planning":             "Trip planning",
		"Notes\u202Etxt.exe":        "Notestxt.exe",
		"a\u200Bb\u2066c\u2069\x07": "abc",
		"\"Title: Quoted\"":         "Quoted",
		"\u202E\u200B":              "",
	}
	for in, want := range cases {
		got := cleanTitle(in)
		if got != want {
			t.Errorf("cleanTitle(%q) = %q, want %q", in, got, want)
		}
		for _, r := range got {
			if unicode.IsControl(r) || unicode.Is(unicode.Cf, r) {
				t.Errorf("cleanTitle(%q) keeps %U", in, r)
			}
		}
	}
}
