// Package sandboxtest holds what the sandbox's own tests and the tests of
// its users (tools, mcp) share: a local port that really accepts
// connections, the tiny TCP client a confined child runs, and the rule for
// skipping where Landlock is missing.
//
// It does not import the sandbox package, so the sandbox's internal tests
// can use it too.
package sandboxtest

import (
	"fmt"
	"net"
	"os"
	"testing"
	"time"
)

// Listen opens a local port that is really open (every connection is
// accepted and closed), so a refused connection is the sandbox's doing.
// It is closed at the end of the test.
func Listen(t testing.TB) string {
	t.Helper()
	ln, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	AcceptAll(ln)
	return ln.Addr().String()
}

// AcceptAll accepts and closes every connection to ln until it is closed.
func AcceptAll(ln net.Listener) {
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()
}

// MaybeDial makes a test binary a tiny TCP client when the variable env
// holds an address: it connects, prints "connected" or the error, and
// exits. Tests run their own binary confined to see what the sandbox lets
// through; call it first thing in TestMain.
func MaybeDial(env string) {
	addr := os.Getenv(env)
	if addr == "" {
		return
	}
	c, err := net.DialTimeout("tcp", addr, 5*time.Second)
	if err != nil {
		fmt.Println("dial:", err)
		os.Exit(1)
	}
	c.Close()
	fmt.Println("connected")
	os.Exit(0)
}

// RequireLandlock skips the test unless have (Landlock with TCP rules is
// there); JUNCTURE_REQUIRE_LANDLOCK=1 makes that a failure instead. what
// says what was found.
func RequireLandlock(t testing.TB, have bool, what string) {
	t.Helper()
	if have {
		return
	}
	if os.Getenv("JUNCTURE_REQUIRE_LANDLOCK") == "1" {
		t.Fatalf("Landlock is required: %s", what)
	}
	t.Skipf("no Landlock with TCP rules here: %s", what)
}
