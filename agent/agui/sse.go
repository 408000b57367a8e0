package agui

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
)

// SSEWriter frames events as AG-UI SSE: one compact JSON object per
// "data: …\n\n" frame (LF only), flushed after every frame.
type SSEWriter struct {
	w io.Writer
	f http.Flusher
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

// Write frames one value (an Event or any JSON object).
func (s *SSEWriter) Write(v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("encoding event: %w", err)
	}
	return s.WriteRaw(b)
}

// WriteRaw frames already-encoded JSON.
func (s *SSEWriter) WriteRaw(b []byte) error {
	buf := make([]byte, 0, len(b)+8)
	buf = append(buf, "data: "...)
	buf = append(buf, b...)
	buf = append(buf, '\n', '\n')
	if _, err := s.w.Write(buf); err != nil {
		return fmt.Errorf("writing event: %w", err)
	}
	if s.f != nil {
		s.f.Flush()
	}
	return nil
}

// WriteFrame writes an already framed SSE frame (ending in a blank line).
func (s *SSEWriter) WriteFrame(frame []byte) error {
	if _, err := s.w.Write(frame); err != nil {
		return fmt.Errorf("writing event: %w", err)
	}
	if s.f != nil {
		s.f.Flush()
	}
	return nil
}

// Comment writes an SSE comment (a keepalive clients ignore).
func (s *SSEWriter) Comment(text string) error {
	if _, err := fmt.Fprintf(s.w, ": %s\n\n", text); err != nil {
		return fmt.Errorf("writing keepalive: %w", err)
	}
	if s.f != nil {
		s.f.Flush()
	}
	return nil
}
