package app

import (
	"encoding/json"
	"sync"
)

// Hub is the Emitter of browser mode: it fans every event out to the
// connected /api/events streams. Each client has its own unbounded queue,
// so a slow browser never slows the runtime or another client.
type Hub struct {
	mu      sync.Mutex
	clients map[*hubClient]struct{}
}

type hubClient struct {
	mu     sync.Mutex
	q      [][]byte
	wake   chan struct{}
	closed bool
}

// NewHub returns an empty hub.
func NewHub() *Hub { return &Hub{clients: make(map[*hubClient]struct{})} }

// Emit implements Emitter: the frame {"name":…, "data":…} goes to every client.
func (h *Hub) Emit(name string, data any) {
	b, err := json.Marshal(struct {
		Name string `json:"name"`
		Data any    `json:"data"`
	}{name, data})
	if err != nil {
		return
	}
	h.mu.Lock()
	for c := range h.clients {
		c.push(b)
	}
	h.mu.Unlock()
}

func (h *Hub) join() *hubClient {
	c := &hubClient{wake: make(chan struct{}, 1)}
	h.mu.Lock()
	h.clients[c] = struct{}{}
	h.mu.Unlock()
	return c
}

func (h *Hub) leave(c *hubClient) {
	h.mu.Lock()
	delete(h.clients, c)
	h.mu.Unlock()
}

func (c *hubClient) push(b []byte) {
	c.mu.Lock()
	c.q = append(c.q, b)
	c.mu.Unlock()
	select {
	case c.wake <- struct{}{}:
	default:
	}
}

// drain takes everything queued.
func (c *hubClient) drain() [][]byte {
	c.mu.Lock()
	q := c.q
	c.q = nil
	c.mu.Unlock()
	return q
}
