package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// frameWriter is the stdout the SDK's IOTransport writes to. The transport
// writes each frame (one JSON message and its newline) in a single Write,
// so holding the lock for a Write keeps frames whole, and injectLine puts
// a line of its own between two frames, never inside one.
type frameWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (f *frameWriter) Write(p []byte) (int, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.w.Write(p)
}

// Close leaves stdout open: the process exits when the session ends.
func (f *frameWriter) Close() error { return nil }

func (f *frameWriter) injectLine(line string) error {
	_, err := f.Write([]byte(line + "\n"))
	return err
}

// cancelLog remembers the requests the client cancelled, for the hang tool.
// A tool handler cannot see its own JSON-RPC id, and the SDK consumes
// notifications/cancelled before any handler or middleware sees it, so the
// incoming messages are watched on the way in (observe for stdio,
// observeHTTP for HTTP): the ids of tools/call "hang" requests, then the
// cancellations naming one of them. The record is made before the SDK acts
// on the notification, so it is there by the time the handler's context is
// done.
type cancelLog struct {
	mu        sync.Mutex
	hangs     map[string]bool // ids of hang calls seen
	cancelled []string        // ids of hang calls the client cancelled, oldest first
}

func newCancelLog() *cancelLog { return &cancelLog{hangs: map[string]bool{}} }

// note records one incoming message.
func (c *cancelLog) note(method string, id any, params json.RawMessage) {
	switch method {
	case "tools/call":
		var p struct {
			Name string `json:"name"`
		}
		if json.Unmarshal(params, &p) == nil && p.Name == "hang" && id != nil {
			c.mu.Lock()
			c.hangs[fmt.Sprint(id)] = true
			c.mu.Unlock()
		}
	case "notifications/cancelled":
		var p struct {
			RequestID any `json:"requestId"`
		}
		d := json.NewDecoder(bytes.NewReader(params))
		d.UseNumber() // 7, not 7e+00
		if d.Decode(&p) == nil && p.RequestID != nil {
			id := fmt.Sprint(p.RequestID)
			c.mu.Lock()
			if c.hangs[id] {
				delete(c.hangs, id)
				c.cancelled = append(c.cancelled, id)
			}
			c.mu.Unlock()
		}
	}
}

// take returns the oldest cancelled hang call not yet taken. With several
// hangs cancelled at once each handler logs one id, not necessarily its own.
func (c *cancelLog) take() (string, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.cancelled) == 0 {
		return "", false
	}
	id := c.cancelled[0]
	c.cancelled = c.cancelled[1:]
	return id, true
}

// observe wraps a transport so that cancelLog sees what the client sends.
func (c *cancelLog) observe(t mcp.Transport) mcp.Transport { return &observedTransport{t, c} }

type observedTransport struct {
	mcp.Transport
	log *cancelLog
}

func (t *observedTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	conn, err := t.Transport.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return &observedConn{conn, t.log}, nil
}

type observedConn struct {
	mcp.Connection
	log *cancelLog
}

func (c *observedConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	msg, err := c.Connection.Read(ctx)
	if req, ok := msg.(*jsonrpc.Request); ok {
		var id any
		if req.ID.IsValid() {
			id = req.ID.Raw()
		}
		c.log.note(req.Method, id, req.Params)
	}
	return msg, err
}

// observeHTTP is observe for Streamable HTTP: it reads each POST body (one
// message or a batch) before passing the request on.
func (c *cancelLog) observeHTTP(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost && r.Body != nil {
			body, err := io.ReadAll(io.LimitReader(r.Body, 16<<20))
			r.Body.Close()
			if err != nil {
				http.Error(w, err.Error(), http.StatusBadRequest)
				return
			}
			r.Body = io.NopCloser(bytes.NewReader(body))
			type message struct {
				Method string          `json:"method"`
				ID     any             `json:"id"`
				Params json.RawMessage `json:"params"`
			}
			var msgs []message
			if strings.HasPrefix(strings.TrimSpace(string(body)), "[") {
				_ = json.Unmarshal(body, &msgs)
			} else {
				var m message
				if json.Unmarshal(body, &m) == nil {
					msgs = append(msgs, m)
				}
			}
			for _, m := range msgs {
				if n, ok := m.ID.(float64); ok && n == float64(int64(n)) {
					m.ID = int64(n) // as the stdio path prints it
				}
				c.note(m.Method, m.ID, m.Params)
			}
		}
		next.ServeHTTP(w, r)
	})
}
