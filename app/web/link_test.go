package web

import (
	"net/url"
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
