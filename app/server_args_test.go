package app

import (
	"encoding/json"
	"net/http"
	"testing"
)

// Issue 19 #25: scripts and older clients leave out trailing arguments
// added in a later version; they read as their zero value (as the
// desktop transport pads them). Too many arguments are still refused.
func TestCallOmittedTrailingArgumentsAreZero(t *testing.T) {
	f := newFixture(t, nil)
	cases := []struct {
		method string
		args   []any
		status int
	}{
		{"NewThread", []any{}, http.StatusOK},
		{"ListThreads", []any{}, http.StatusOK},
		{"ListThreads", []any{""}, http.StatusOK},
		{"ListThreads", []any{"", 10, "extra"}, http.StatusBadRequest},
		{"Status", []any{1}, http.StatusBadRequest},
	}
	for _, c := range cases {
		resp := f.request("POST", "/api/call/"+c.method, c.args, nil)
		var body struct{ Error *Error }
		_ = json.NewDecoder(resp.Body).Decode(&body)
		resp.Body.Close()
		if resp.StatusCode != c.status {
			t.Errorf("%s%v: status %d (%+v), want %d", c.method, c.args, resp.StatusCode, body.Error, c.status)
		}
		if c.status == http.StatusBadRequest && (body.Error == nil || body.Error.Code != CodeInvalidArgument) {
			t.Errorf("%s%v: error %+v, want invalid-argument", c.method, c.args, body.Error)
		}
	}
	// An empty body is no arguments at all.
	req, _ := http.NewRequest("POST", f.srv.URL+"/api/call/ListThreads", nil)
	req.Header.Set("Authorization", "Bearer "+f.token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Errorf("ListThreads with an empty body: status %d", resp.StatusCode)
	}
}
