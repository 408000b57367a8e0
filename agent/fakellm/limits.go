package fakellm

import (
	"net"
	"sync"
	"time"
)

// The server's bounds against a hostile local client (the app's offline
// demo listens on a loopback port for as long as the app runs, inside the
// app's process): a request body must arrive within bodyTimeout, a
// keep-alive connection idle for idleTimeout is closed, and at most
// maxConns connections are open at once (more wait to be accepted).
var (
	bodyTimeout = 60 * time.Second
	idleTimeout = 60 * time.Second
)

const maxConns = 128

// maxReading bounds the request bodies read at once (each up to maxBody).
const maxReading = 4

// limitListener accepts at most n open connections.
type limitListener struct {
	net.Listener
	sem       chan struct{}
	done      chan struct{}
	closeOnce sync.Once
}

func newLimitListener(l net.Listener, n int) *limitListener {
	return &limitListener{Listener: l, sem: make(chan struct{}, n), done: make(chan struct{})}
}

func (l *limitListener) open() int { return len(l.sem) }

func (l *limitListener) Accept() (net.Conn, error) {
	select {
	case l.sem <- struct{}{}:
	case <-l.done:
		return nil, net.ErrClosed
	}
	c, err := l.Listener.Accept()
	if err != nil {
		<-l.sem
		return nil, err
	}
	return &limitConn{Conn: c, release: func() { <-l.sem }}, nil
}

func (l *limitListener) Close() error {
	l.closeOnce.Do(func() { close(l.done) })
	return l.Listener.Close()
}

type limitConn struct {
	net.Conn
	once    sync.Once
	release func()
}

func (c *limitConn) Close() error {
	err := c.Conn.Close()
	c.once.Do(c.release)
	return err
}
