package app

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"strconv"
	"strings"
	"sync"
)

// hubRing is how many recent events the hub keeps for clients that
// reconnect (a page whose event stream dropped, or a server restart).
const hubRing = 8192

// Hub is the Emitter of browser mode: it fans every event out to the
// connected /api/events streams. Each client has its own unbounded queue,
// so a slow browser never slows the runtime or another client.
//
// Every frame carries an SSE id "<boot>.<seq>". A client that reconnects
// with the last id it saw gets the frames it missed replayed in order; when
// they are no longer kept it gets a "resync" event and reloads instead.
// After a server restart (another boot) a client gets every frame of the
// new boot, as long as they are all still kept.
type Hub struct {
	boot string

	mu      sync.Mutex
	seq     uint64
	ring    []hubFrame // the last hubRing frames, oldest first
	clients map[*hubClient]struct{}
}

type hubFrame struct {
	seq  uint64
	data []byte // "id: …\ndata: …\n\n"
}

type hubClient struct {
	mu   sync.Mutex
	q    [][]byte
	wake chan struct{}
}

// NewHub returns an empty hub with a fresh boot id.
func NewHub() *Hub {
	var b [6]byte
	_, _ = rand.Read(b[:])
	return &Hub{boot: hex.EncodeToString(b[:]), clients: make(map[*hubClient]struct{})}
}

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
	h.seq++
	f := hubFrame{seq: h.seq, data: h.frame(h.seq, b)}
	if len(h.ring) == hubRing {
		copy(h.ring, h.ring[1:])
		h.ring = h.ring[:hubRing-1]
	}
	h.ring = append(h.ring, f)
	for c := range h.clients {
		c.push(f.data)
	}
	h.mu.Unlock()
}

func (h *Hub) frame(seq uint64, b []byte) []byte {
	out := make([]byte, 0, len(b)+40)
	out = append(out, "id: "...)
	out = append(out, h.boot...)
	out = append(out, '.')
	out = strconv.AppendUint(out, seq, 10)
	out = append(out, "\ndata: "...)
	out = append(out, b...)
	return append(out, '\n', '\n')
}

// resyncFrame tells a client that events were lost: reload what it shows.
func (h *Hub) resyncFrame() []byte {
	return []byte("data: {\"name\":\"resync\",\"data\":{}}\n\n")
}

// join registers a client; lastID is the last event id it saw ("" for a
// fresh page, which loads its state itself). Missed frames are queued
// before any live one.
func (h *Hub) join(lastID string) *hubClient {
	c := &hubClient{wake: make(chan struct{}, 1)}
	h.mu.Lock()
	defer h.mu.Unlock()
	if lastID != "" {
		c.q = h.missed(lastID)
		if len(c.q) > 0 {
			c.wake <- struct{}{}
		}
	}
	h.clients[c] = struct{}{}
	return c
}

// missed returns the frames after lastID, or a resync frame when they are
// no longer all kept. h.mu is held.
func (h *Hub) missed(lastID string) [][]byte {
	boot, seqText, ok := strings.Cut(lastID, ".")
	seq, err := strconv.ParseUint(seqText, 10, 64)
	if !ok || err != nil {
		return [][]byte{h.resyncFrame()}
	}
	if boot != h.boot {
		seq = 0 // the server restarted: everything of this boot is new to the client
	}
	if seq > h.seq {
		return [][]byte{h.resyncFrame()}
	}
	oldest := h.seq - uint64(len(h.ring)) + 1
	if seq+1 < oldest {
		return [][]byte{h.resyncFrame()}
	}
	var out [][]byte
	for _, f := range h.ring {
		if f.seq > seq {
			out = append(out, f.data)
		}
	}
	return out
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
