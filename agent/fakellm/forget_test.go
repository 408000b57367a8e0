package fakellm

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"
)

// A forgetting server (the app's offline demo) answers as before but keeps
// no request and no header, so it does not grow with every chat; waiting
// for requests still counts them.
func TestForgetKeepsNoRequests(t *testing.T) {
	s := Start(t)
	s.SetForget(true)
	s.SetFallback(Demo())
	for range 3 {
		req, _ := http.NewRequest(http.MethodPost, s.URL+"/chat/completions",
			strings.NewReader(`{"model":"m","messages":[{"role":"user","content":"`+strings.Repeat("x", 1<<16)+`"}]}`))
		req.Header.Set("Authorization", "Bearer sk-never-kept")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("status %d", resp.StatusCode)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := s.WaitRequests(ctx, 3); err != nil {
		t.Fatal(err)
	}
	if r, a := s.Requests(), s.Authorizations(); len(r) != 0 || len(a) != 0 {
		t.Fatalf("kept %d requests and %d headers", len(r), len(a))
	}
}
