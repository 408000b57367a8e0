package web

import (
	"errors"
	"fmt"
	"net"
	"testing"
	"time"
)

// A request to the ticket endpoint whose body never finishes arriving
// (slowloris: a Content-Length promised, a few bytes sent) has its
// connection dropped within the body's budget: net/http drains an unread
// body before writing the answer, with no deadline of its own, so
// without one such connections would each hold one of MaxConns for ever
// and a few of them would lock the person's page out. Also when the
// request is refused (no token) before any handler reads it.
func TestTicketEndpointDropsADrippedBody(t *testing.T) {
	tests := []struct{ name, auth string }{
		{"with the token", "Authorization: Bearer " + testToken + "\r\n"},
		{"without it", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, _ := ticketServer(t)
			srv := s.HTTPServer(HTTPLimits{Body: 200 * time.Millisecond})
			ln, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				t.Fatal(err)
			}
			go func() { _ = srv.Serve(ln) }()
			defer srv.Close()
			conn, err := net.Dial("tcp", ln.Addr().String())
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			fmt.Fprintf(conn, "POST /api/events/ticket HTTP/1.1\r\nHost: %s\r\n%sContent-Length: 100000\r\n\r\nxxxxxxxxxx", ln.Addr(), tt.auth)
			// Whatever the answer (none: the body never came), the server
			// must drop the connection; a byte dripped now and then must
			// not keep it.
			start := time.Now()
			buf := make([]byte, 512)
			for time.Since(start) < 3*time.Second {
				if _, err := conn.Write([]byte("x")); err != nil {
					return // dropped
				}
				_ = conn.SetReadDeadline(time.Now().Add(100 * time.Millisecond))
				if _, err := conn.Read(buf); err != nil {
					if ne := net.Error(nil); !errors.As(err, &ne) || !ne.Timeout() {
						return // closed by the server
					}
				}
			}
			t.Fatalf("the connection was still held %v after the request, with a body dripping", time.Since(start))
		})
	}
}
