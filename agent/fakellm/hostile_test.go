package fakellm

import (
	"bufio"
	"errors"
	"fmt"
	"net"
	"strings"
	"testing"
	"time"
)

// The app's demo server listens as long as the app runs, on a loopback
// port any local process can reach, in the app's own process: a client that
// sends a request head and then never the body, or keeps a connection
// open idle, must not hold a handler or a file descriptor for ever.
func TestStuckAndIdleConnectionsAreClosed(t *testing.T) {
	defer func(b, i time.Duration) { bodyTimeout, idleTimeout = b, i }(bodyTimeout, idleTimeout)
	bodyTimeout, idleTimeout = 300*time.Millisecond, 300*time.Millisecond
	s := Start(t)
	s.SetForget(true)
	s.SetFallback(Demo())
	host := strings.TrimSuffix(strings.TrimPrefix(s.URL, "http://"), "/v1")

	// Head sent, body promised but never sent.
	stuck, err := net.Dial("tcp", host)
	if err != nil {
		t.Fatal(err)
	}
	defer stuck.Close()
	fmt.Fprintf(stuck, "POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n{")
	// One complete request, then the connection kept idle.
	idle, err := net.Dial("tcp", host)
	if err != nil {
		t.Fatal(err)
	}
	defer idle.Close()
	fmt.Fprintf(idle, "GET /v1/models HTTP/1.1\r\nHost: x\r\n\r\n")
	br := bufio.NewReader(idle)
	for {
		line, err := br.ReadString('\n')
		if err != nil {
			t.Fatal(err)
		}
		if line == "\r\n" {
			break
		}
	}
	for _, c := range []net.Conn{stuck, idle} {
		_ = c.SetReadDeadline(time.Now().Add(5 * time.Second))
		buf := make([]byte, 4096)
		for {
			_, err := c.Read(buf)
			if err == nil {
				continue
			}
			if ne := net.Error(nil); errors.As(err, &ne) && ne.Timeout() {
				t.Fatalf("%s: the server kept the connection open", c.LocalAddr())
			}
			break
		}
	}
	s.mu.Lock()
	active := s.active
	s.mu.Unlock()
	if active != 0 {
		t.Fatalf("%d handlers still running", active)
	}
}

// dialMany opens n connections to s, closed when the test ends.
func dialMany(t *testing.T, s *Server, n int) []net.Conn {
	t.Helper()
	host := strings.TrimSuffix(strings.TrimPrefix(s.URL, "http://"), "/v1")
	conns := make([]net.Conn, 0, n)
	t.Cleanup(func() {
		for _, c := range conns {
			c.Close()
		}
	})
	for range n {
		c, err := net.Dial("tcp", host)
		if err != nil {
			t.Fatal(err)
		}
		conns = append(conns, c)
	}
	return conns
}

// Connections beyond maxConns wait to be accepted rather than each taking a
// descriptor and a goroutine of the app.
func TestConnectionsAreCapped(t *testing.T) {
	s := Start(t)
	dialMany(t, s, maxConns+20)
	time.Sleep(300 * time.Millisecond)
	if n := s.lim.open(); n > maxConns {
		t.Fatalf("%d connections accepted, cap %d", n, maxConns)
	}
}

// Request bodies (up to 64 MiB each) are read a few at a time, so many
// clients sending large bodies at once cannot hold maxConns × maxBody of
// the app's memory.
func TestBodiesAreReadAFewAtATime(t *testing.T) {
	s := Start(t)
	for _, c := range dialMany(t, s, maxReading+3) {
		fmt.Fprintf(c, "POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Length: 100000\r\n\r\n{")
	}
	time.Sleep(300 * time.Millisecond)
	if n := len(s.reading); n > maxReading {
		t.Fatalf("%d bodies read at once, cap %d", n, maxReading)
	}
}
