package update

import (
	"net/http"
	"net/url"
	"testing"
)

// An https feed (or artifact) that redirects to http://127.0.0.1:… would
// make the updater send a GET to whatever listens on this computer, on
// the remote server's say: a redirect from https stays on https.
func TestRedirectFromHTTPSStaysOnHTTPS(t *testing.T) {
	c := (&Updater{}).client()
	from, _ := url.Parse("https://updates.example.com/feed.json")
	to, _ := url.Parse("http://127.0.0.1:8080/admin/delete")
	err := c.CheckRedirect(&http.Request{URL: to}, []*http.Request{{URL: from}})
	if err == nil {
		t.Fatal("https → http://127.0.0.1 redirect followed")
	}
	// A local test feed may still redirect within http loopback.
	lfrom, _ := url.Parse("http://127.0.0.1:9000/feed.json")
	if err := c.CheckRedirect(&http.Request{URL: to}, []*http.Request{{URL: lfrom}}); err != nil {
		t.Fatalf("local feed redirect: %v", err)
	}
}
