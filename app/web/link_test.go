package web

import (
	"net/url"
	"strings"
	"testing"
)

// JUNCTURE_TOKEN is the person's own choice: the printed link must carry it
// so the page (URLSearchParams on the #fragment) reads back the same token.
func TestLinkCarriesTheTokenUnchanged(t *testing.T) {
	tests := []struct{ name, token string }{
		{"hex", "0123abcd"},
		{"plus", "a+b"},
		{"percent", "50%off"},
		{"ampersand", "a&token=evil"},
		{"hash and space", "a#b c"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			u, err := url.Parse(Link("127.0.0.1:8765", tt.token))
			if err != nil {
				t.Fatalf("parsing the link: %v", err)
			}
			q, err := url.ParseQuery(u.EscapedFragment())
			if err != nil {
				t.Fatalf("parsing the fragment %q: %v", u.Fragment, err)
			}
			if got := q["token"]; len(got) != 1 || got[0] != tt.token {
				t.Errorf("Link(%q) fragment %q reads back %q", tt.token, u.EscapedFragment(), got)
			}
		})
	}
}

// A JUNCTURE_TOKEN the page would drop (see usableToken in
// frontend/src/transport/http.ts) is refused at start; NewToken's pass.
func TestCheckTokenMatchesWhatThePageTakes(t *testing.T) {
	tests := []struct {
		name, token string
		ok          bool
	}{
		{"generated", NewToken(), true},
		{"inner space", "a b", true},
		{"at the limit", strings.Repeat("x", MaxTokenLength), true},
		{"over the limit", strings.Repeat("x", MaxTokenLength+1), false},
		{"a megabyte", strings.Repeat("x", 1<<20), false},
		{"leading space", " abc", false},
		{"trailing space", "abc ", false},
		{"line break", "a\nb", false},
		{"non-ASCII", "caf\u00e9", false},
		{"DEL", "a\x7fb", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := CheckToken(tt.token); (err == nil) != tt.ok {
				t.Errorf("CheckToken(%.40q): %v, want ok=%v", tt.token, err, tt.ok)
			}
		})
	}
	if n := len(NewToken()); n > MaxTokenLength {
		t.Errorf("NewToken is %d characters, over MaxTokenLength", n)
	}
}
