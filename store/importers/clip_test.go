package importers

import "testing"

// TestClip: clip cuts to n runes, the last one "…", and leaves a string
// of at most n runes (valid UTF-8 or not) as it is.
func TestClip(t *testing.T) {
	for _, tc := range []struct {
		s    string
		n    int
		want string
	}{
		{"", 3, ""},
		{"abc", 3, "abc"},
		{"abcd", 3, "ab…"},
		{"héllo", 5, "héllo"},
		{"héllo!", 5, "héll…"},
		{"日本語テキスト", 4, "日本語…"},
		{"ab\xff", 3, "ab\xff"},
		{"ab\xff\xfe", 3, "ab…"},
		{"a", 1, "a"},
		{"ab", 1, "…"},
	} {
		if got := clip(tc.s, tc.n); got != tc.want {
			t.Errorf("clip(%q, %d) = %q, want %q", tc.s, tc.n, got, tc.want)
		}
	}
}
