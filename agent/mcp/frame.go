package mcp

import (
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strings"
	"time"
)

// maxFrameBytes is the largest message Juncture reads from a server: one
// stdio line, one server-sent event, or one plain JSON answer over HTTP.
// It is set on every transport explicitly: the SDK's Streamable HTTP
// client reads events unbounded when MaxEventSize is left 0, whatever its
// documentation says (go-sdk v1.8.0), and reads a JSON answer whole.
const maxFrameBytes = 16 << 20

// errFrameTooLarge ends a plain JSON answer over HTTP that is larger than
// maxFrameBytes.
var errFrameTooLarge = fmt.Errorf("juncture: the message is larger than %d bytes", maxFrameBytes)

// frameTooLargeTexts are what the errors of a message over the limit say
// (the SDK's own are unexported and reach Juncture as text).
var frameTooLargeTexts = []string{
	errFrameTooLarge.Error(),
	"inbound JSON-RPC frame exceeded the configured maximum line length", // stdio
	"SSE event exceeded", // Streamable HTTP and legacy SSE
}

// frameTooLarge reports whether any of errs says a message was over the
// limit.
func frameTooLarge(errs ...error) bool {
	for _, err := range errs {
		if err == nil {
			continue
		}
		if errors.Is(err, errFrameTooLarge) {
			return true
		}
		msg := err.Error()
		for _, t := range frameTooLargeTexts {
			if strings.Contains(msg, t) {
				return true
			}
		}
	}
	return false
}

// frameTooLargeReason is the "(…)" of a call or a session that ended
// because the server sent a message over the limit.
func frameTooLargeReason() string {
	return fmt.Sprintf("it sent a message larger than %s, the most Juncture reads; the connection was reset", humanSize(maxFrameBytes))
}

// limitJSONBody bounds a plain JSON answer (the SDK reads it whole);
// event streams are bounded per event by the transport.
func limitJSONBody(resp *http.Response) {
	ct, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	if ct == "text/event-stream" || resp.Body == nil {
		return
	}
	resp.Body = &limitedBody{ReadCloser: resp.Body, left: maxFrameBytes}
}

type limitedBody struct {
	io.ReadCloser
	left int
}

func (b *limitedBody) Read(p []byte) (int, error) {
	// One byte past the limit tells a body of exactly the limit from a
	// larger one.
	if len(p) > b.left+1 {
		p = p[:b.left+1]
	}
	n, err := b.ReadCloser.Read(p)
	if n > b.left {
		n, b.left = b.left, 0
		return n, errFrameTooLarge
	}
	b.left -= n
	return n, err
}

// endedTooLarge reports whether the session ended because the server sent
// a message over the limit. A read that failed ends the session a moment
// after the call it failed, hence the grace.
func (s *session) endedTooLarge(grace time.Duration) bool {
	t := time.NewTimer(grace)
	defer t.Stop()
	select {
	case <-s.dead:
		return frameTooLarge(s.waitErr)
	case <-t.C:
		return false
	}
}
