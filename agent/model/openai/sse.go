package openai

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/http"

	"github.com/openai/openai-go/v3/option"

	"github.com/juncture-app/juncture/agent/model"
)

// sseReader reads "data:" frames of an SSE body.
type sseReader struct {
	body io.ReadCloser
	r    *bufio.Reader
	data []byte
}

func newSSEReader(resp *http.Response) *sseReader {
	return &sseReader{body: resp.Body, r: bufio.NewReaderSize(resp.Body, 64<<10)}
}

var errDone = errors.New("[DONE]")

// errFrameTooLarge ends a stream whose event passed MaxFrameBytes.
func errFrameTooLarge() error {
	return &model.EndpointError{Message: fmt.Sprintf("the endpoint sent an event larger than %d MiB; the answer was not read further", MaxFrameBytes>>20)}
}

// next returns the next frame's data; errDone at "[DONE]"; io.EOF (or a
// read error) when the body ends.
func (s *sseReader) next() ([]byte, error) {
	s.data = s.data[:0]
	size := 0 // the frame's bytes so far, every line counted
	for {
		line, err := s.r.ReadSlice('\n')
		size += len(line)
		if errors.Is(err, bufio.ErrBufferFull) {
			// A frame line longer than the buffer: collect it whole,
			// up to the frame's budget.
			long := append([]byte(nil), line...)
			for errors.Is(err, bufio.ErrBufferFull) && size <= MaxFrameBytes {
				line, err = s.r.ReadSlice('\n')
				size += len(line)
				long = append(long, line...)
			}
			line = long
		}
		if size > MaxFrameBytes {
			return nil, errFrameTooLarge()
		}
		if err != nil && len(line) == 0 {
			if len(s.data) > 0 && err == io.EOF {
				return s.data, nil
			}
			return nil, err
		}
		line = bytes.TrimRight(line, "\r\n")
		switch {
		case len(line) == 0:
			if len(s.data) > 0 {
				return s.data, nil
			}
			size = 0 // an event of comments only: the next one starts afresh
		case bytes.HasPrefix(line, []byte("data:")):
			v := bytes.TrimPrefix(line[5:], []byte(" "))
			if bytes.Equal(v, []byte("[DONE]")) {
				return nil, errDone
			}
			if len(s.data) > 0 {
				s.data = append(s.data, '\n')
			}
			s.data = append(s.data, v...)
		}
		// event:, id:, retry: and comments are ignored.
		if err != nil {
			if len(s.data) > 0 {
				return s.data, nil
			}
			return nil, err
		}
	}
}

// Budgets for what an endpoint sends, decided before a byte is read: an
// endpoint that never ends a line, a frame or a body costs this much
// memory, then the call fails.
const (
	// MaxFrameBytes bounds one SSE event (all its lines, comments
	// included): a chunk carries a few tokens, never megabytes.
	MaxFrameBytes = 16 << 20
	// maxErrorBody bounds the body of an error status.
	maxErrorBody = 1 << 20
	// maxReplyBody bounds a whole non-streamed reply (a title, the
	// model list).
	maxReplyBody = 16 << 20
	// maxErrorMessage bounds the endpoint's message kept in an error: it
	// goes to the chat, its events and the stored answer.
	maxErrorMessage = 2 << 10
	// maxModels and maxModelID bound a model list: the window's picker
	// shows it, and a chosen name is sent back as the model.
	maxModels  = 5000
	maxModelID = 256
)

// capBodies cuts what an endpoint's reply may send: an error status's
// body at maxErrorBody, any body at whole (0: a stream, whose events
// sseReader bounds). Reading past the budget fails with an *EndpointError.
func capBodies(whole int64) option.Middleware {
	return func(req *http.Request, next option.MiddlewareNext) (*http.Response, error) {
		resp, err := next(req)
		if err != nil || resp == nil || resp.Body == nil {
			return resp, err
		}
		limit := whole
		if resp.StatusCode >= 400 {
			limit = maxErrorBody
		}
		if limit > 0 {
			resp.Body = &cappedBody{rc: resp.Body, left: limit, limit: limit, status: resp.StatusCode}
		}
		return resp, nil
	}
}

// cappedBody reads at most limit bytes of a body, then fails.
type cappedBody struct {
	rc          io.ReadCloser
	left, limit int64
	status      int
}

func (b *cappedBody) Read(p []byte) (int, error) {
	if b.left <= 0 {
		var one [1]byte
		if n, err := b.rc.Read(one[:]); n == 0 {
			return 0, err // the body ended exactly at the budget
		}
		e := &model.EndpointError{Message: fmt.Sprintf("the endpoint's reply passed %d MiB; it was not read further", b.limit>>20)}
		if b.status >= 400 {
			e.Status = b.status
			e.Retryable = b.status == http.StatusTooManyRequests || b.status >= 500
		}
		return 0, e
	}
	if int64(len(p)) > b.left {
		p = p[:b.left]
	}
	n, err := b.rc.Read(p)
	b.left -= int64(n)
	return n, err
}

func (b *cappedBody) Close() error { return b.rc.Close() }
