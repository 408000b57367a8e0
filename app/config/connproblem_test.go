package config

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestConnectionProblemsInWords: Test connection says what went wrong in
// words (issue 22 item 25): a name that does not resolve, nothing
// listening, a URL that is not http(s), never Go's raw error text.
func TestConnectionProblemsInWords(t *testing.T) {
	closed := httptest.NewServer(http.NotFoundHandler())
	refused := closed.URL
	closed.Close()
	cases := []struct {
		name, url string
		want      []string
		not       []string
	}{
		{"dns", "http://no-such-host.invalid/v1", []string{"no-such-host.invalid", "could not be found"}, []string{"dial tcp", "lookup"}},
		{"refused", refused + "/v1", []string{"Nothing answers at", strings.TrimPrefix(refused, "http://")}, []string{"dial tcp", "connect:"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := ListModels(context.Background(), c.url, "")
			if err == nil {
				t.Fatal("listed models")
			}
			got := ConnectionProblem(c.url, err)
			for _, w := range c.want {
				if !strings.Contains(got, w) {
					t.Errorf("%q does not say %q", got, w)
				}
			}
			for _, w := range c.not {
				if strings.Contains(got, w) {
					t.Errorf("%q shows Go's error text %q", got, w)
				}
			}
		})
	}
	if got := ConnectionProblem("http://x", errors.New("something odd")); !strings.Contains(got, "something odd") {
		t.Errorf("an unknown error is lost: %q", got)
	}
	for in, want := range map[string]string{
		"ftp://x":         "http:// or https://",
		"x":               "http:// or https://",
		"http://":         "no server name",
		"https://a b/v1":  "not a URL",
		"http://host/v1":  "",
		"https://h:99/v1": "",
	} {
		got := CheckBaseURL(in)
		if (want == "") != (got == "") || !strings.Contains(got, want) {
			t.Errorf("CheckBaseURL(%q) = %q, want it to say %q", in, got, want)
		}
	}
}
