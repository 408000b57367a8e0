package agui

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
)

// SSEWriter frames events as AG-UI SSE: one compact JSON object per
// "data: …\n\n" frame (LF only).
//
// Write, WriteRaw, WriteFrame and Comment flush after their frame. The
// Buffer* methods frame without flushing, so a handler that drains a queue
// can write everything already queued and then Flush once (WriteFrames does
// both): one syscall and one chunk for a burst of tokens, and nothing held
// back when only one event is queued. The bytes on the wire are the same
// either way; only where the flushes fall differs. An SSEWriter is not safe
// for concurrent use.
type SSEWriter struct {
	w       io.Writer
	f       http.Flusher
	buf     bytes.Buffer // scratch: one frame being encoded
	enc     *json.Encoder
	pending bool // something was written since the last flush
}

// NewSSEWriter sets the SSE headers on w and returns a writer.
func NewSSEWriter(w http.ResponseWriter) *SSEWriter {
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-cache")
	h.Set("X-Accel-Buffering", "no")
	f, _ := w.(http.Flusher)
	return &SSEWriter{w: w, f: f}
}

// Write frames one value (an Event or any JSON object) and flushes.
func (s *SSEWriter) Write(v any) error {
	if err := s.Buffer(v); err != nil {
		return err
	}
	s.Flush()
	return nil
}

// WriteRaw frames already-encoded JSON and flushes.
func (s *SSEWriter) WriteRaw(b []byte) error {
	if err := s.BufferRaw(b); err != nil {
		return err
	}
	s.Flush()
	return nil
}

// WriteFrame writes an already framed SSE frame (ending in a blank line)
// and flushes.
func (s *SSEWriter) WriteFrame(frame []byte) error {
	if err := s.BufferFrame(frame); err != nil {
		return err
	}
	s.Flush()
	return nil
}

// WriteFrames writes already framed SSE frames in order and flushes once,
// after the last. A write error stops at the failing frame; what was
// written before it is flushed.
func (s *SSEWriter) WriteFrames(frames [][]byte) error {
	defer s.Flush()
	for _, f := range frames {
		if err := s.BufferFrame(f); err != nil {
			return err
		}
	}
	return nil
}

// Buffer frames one value like Write, without flushing. The encoding is
// json.Marshal's (HTML-safe escaping, compact), so the frame is
// byte-identical to Write's.
func (s *SSEWriter) Buffer(v any) error {
	if s.enc == nil {
		s.enc = json.NewEncoder(&s.buf)
	}
	s.buf.Reset()
	s.buf.WriteString("data: ")
	if err := s.enc.Encode(v); err != nil { // Encode ends the value with '\n'
		s.buf.Reset()
		return fmt.Errorf("encoding event: %w", err)
	}
	s.buf.WriteByte('\n')
	return s.put(s.buf.Bytes())
}

// BufferRaw frames already-encoded JSON like WriteRaw, without flushing.
func (s *SSEWriter) BufferRaw(b []byte) error {
	s.buf.Reset()
	s.buf.Grow(len(b) + 8)
	s.buf.WriteString("data: ")
	s.buf.Write(b)
	s.buf.WriteString("\n\n")
	return s.put(s.buf.Bytes())
}

// BufferFrame writes an already framed SSE frame without flushing.
func (s *SSEWriter) BufferFrame(frame []byte) error {
	return s.put(frame)
}

// Buffered reports whether frames were written since the last flush.
func (s *SSEWriter) Buffered() bool { return s.pending }

// Flush sends what was written since the last flush (a no-op when nothing
// was, so it is cheap to call after every drain).
func (s *SSEWriter) Flush() {
	if !s.pending {
		return
	}
	s.pending = false
	if s.f != nil {
		s.f.Flush()
	}
}

// Comment writes an SSE comment (a keepalive clients ignore) and flushes,
// together with anything still buffered.
func (s *SSEWriter) Comment(text string) error {
	s.buf.Reset()
	s.buf.WriteString(": ")
	s.buf.WriteString(text)
	s.buf.WriteString("\n\n")
	s.pending = true
	if _, err := s.w.Write(s.buf.Bytes()); err != nil {
		return fmt.Errorf("writing keepalive: %w", err)
	}
	s.Flush()
	return nil
}

func (s *SSEWriter) put(b []byte) error {
	s.pending = true
	if _, err := s.w.Write(b); err != nil {
		return fmt.Errorf("writing event: %w", err)
	}
	return nil
}
