package openai

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/juncture-app/juncture/agent/model"
)

// endless serves status and prefix, then repeats unit until the client
// goes away or the test's own ceiling (256 MiB, far past every budget) is
// reached; wrote counts the bytes written.
func endless(status int, ctype, prefix, unit string, wrote *atomic.Int64) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", ctype)
		w.WriteHeader(status)
		n, _ := w.Write([]byte(prefix))
		wrote.Add(int64(n))
		block := []byte(strings.Repeat(unit, (64<<10)/len(unit)))
		for wrote.Load() < 256<<20 {
			n, err := w.Write(block)
			wrote.Add(int64(n))
			if err != nil {
				return
			}
		}
	}
}

// TestHostileEndpointBodiesStayInBudget: an endpoint that never ends a
// stream's line, its frame, an error body, a title or a model list is
// read only up to its budget, and the call fails with a clear error
// instead of taking memory without end.
func TestHostileEndpointBodiesStayInBudget(t *testing.T) {
	t.Parallel()
	const slack = 8 << 20 // socket buffers and the reader's own buffer
	cases := []struct {
		name    string
		status  int
		ctype   string
		prefix  string
		unit    string
		call    func(c *Client) error
		budget  int64
		wantMsg string
	}{
		{"one endless data line", 200, "text/event-stream", "data: ", "a", streamCall, MaxFrameBytes, "larger than"},
		{"endless data lines in one frame", 200, "text/event-stream", "", "data: aaaaaaaaaaaaaaa\n", streamCall, MaxFrameBytes, "larger than"},
		{"endless comment line", 200, "text/event-stream", ": ", "a", streamCall, MaxFrameBytes, "larger than"},
		{"endless 500 body", 500, "application/json", `{"error":{"message":"`, "a", streamCall, maxErrorBody, "passed"},
		{"endless title", 200, "application/json", `{"choices":[{"message":{"content":"`, "a", func(c *Client) error {
			_, err := c.Complete(context.Background(), hiReq)
			return err
		}, maxReplyBody, "passed"},
		{"endless model list", 200, "application/json", `{"data":[`, `{"id":"m"},`, func(c *Client) error {
			_, err := c.Models(context.Background())
			return err
		}, maxReplyBody, "passed"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var wrote atomic.Int64
			c := testEndpoint(t, endless(tc.status, tc.ctype, tc.prefix, tc.unit, &wrote))
			err := tc.call(c)
			var ee *model.EndpointError
			if !errors.As(err, &ee) || !strings.Contains(ee.Message, tc.wantMsg) {
				t.Fatalf("error %.300v, want an *model.EndpointError saying %q", err, tc.wantMsg)
			}
			if len(ee.Message) > maxErrorMessage+64 {
				t.Fatalf("error message is %d bytes", len(ee.Message))
			}
			if got := wrote.Load(); got > tc.budget+slack {
				t.Fatalf("the client read %d MiB, budget %d MiB", got>>20, tc.budget>>20)
			}
		})
	}
}

// TestEndpointErrorMessageIsClipped: an endpoint's error message goes to
// the chat, its events and its stored answer: a long one is cut.
func TestEndpointErrorMessageIsClipped(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("é", 300<<10)
	c := testEndpoint(t, func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, `{"error":{"message":"`+long+`"}}`, 400)
	})
	err := streamCall(c)
	var ee *model.EndpointError
	if !errors.As(err, &ee) || ee.Status != 400 {
		t.Fatalf("error %.300v, want a 400", err)
	}
	if len(ee.Message) > maxErrorMessage+64 || !strings.HasPrefix(ee.Message, "éé") || !bytes.ContainsRune([]byte(ee.Message), '…') {
		t.Fatalf("message of %d bytes, want at most %d ending in …", len(ee.Message), maxErrorMessage)
	}
}

func streamCall(c *Client) error {
	for _, err := range c.Deltas(context.Background(), hiReq) {
		if err != nil {
			return err
		}
	}
	return nil
}

// TestModelListIsVetted: a model list (from any endpoint, or whatever
// listens on a local server's port) gives at most maxModels names, each
// at most maxModelID bytes of printable text: the window's picker lists
// them and a chosen one is sent back as the model.
func TestModelListIsVetted(t *testing.T) {
	t.Parallel()
	var body strings.Builder
	body.WriteString(`{"object":"list","data":[{"id":"good-1"},{"id":"` + strings.Repeat("x", 300) + `"},{"id":"a\u202eb"},{"id":"c\u0007"},{"id":""},{"id":"good-2"}`)
	for i := range 3 * maxModels {
		fmt.Fprintf(&body, `,{"id":"m%d"}`, i)
	}
	body.WriteString(`]}`)
	c := testEndpoint(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, body.String())
	})
	ids, err := c.Models(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(ids) != maxModels || ids[0] != "good-1" || ids[1] != "good-2" {
		t.Fatalf("%d ids starting %q, want %d starting good-1, good-2", len(ids), ids[:min(len(ids), 3)], maxModels)
	}
}
