package mcp

import (
	"context"
	"errors"
	"fmt"
	"net"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"

	"github.com/juncture-app/juncture/agent/tools"
)

// codeRejectedByTransport is the code of the SDK's "rejected by
// transport" error: over HTTP, the call's own request failed (the server
// is gone, or the connection broke while it ran). It is not a refusal by
// the server, whatever the JSON-RPC error says.
const codeRejectedByTransport = -32005

// transportFailed describes a call whose HTTP request failed, and asks
// the supervisor to check the session (the SDK keeps a session "open"
// whose server died). ok is false for other failures.
func (m *Manager) transportFailed(server string, s *supervisor, sess *session, err error) (res tools.Result, ok bool) {
	if frameTooLarge(err) {
		// The SDK failed the connection for good: no ping can mend it.
		sess.breakWith(frameTooLargeReason())
		s.checkSession()
		return tools.Result{IsError: true, Content: fmt.Sprintf("The MCP server %q sent a result larger than %s, the most Juncture reads; the connection was reset, side effects unknown.", server, humanSize(maxFrameBytes))}, true
	}
	var rpcErr *jsonrpc.Error
	if !errors.As(err, &rpcErr) || rpcErr.Code != codeRejectedByTransport {
		return tools.Result{}, false
	}
	s.checkSession()
	var op *net.OpError
	if errors.As(err, &op) && op.Op == "dial" {
		// No connection was made: the request never left.
		return tools.Result{IsError: true, Content: fmt.Sprintf("The MCP server %q could not be reached (%s); the call was not sent.", server, shorten(op.Err.Error(), 160))}, true
	}
	return tools.Result{IsError: true, Content: fmt.Sprintf("The connection to the MCP server %q broke during the call (%s); side effects unknown.", server, shorten(redactURLs(err.Error()), 200))}, true
}

// checkSession asks the supervisor to make sure its session still works.
func (s *supervisor) checkSession() { signal(s.checkCh) }

// pingTimeout bounds the check of a session after a transport failure.
const pingTimeout = 5 * time.Second

// sessionBroken pings the server after a call's transport failed. A
// server that answers keeps its session; otherwise the session is marked
// broken (what calls in flight are told) and the supervisor reconnects
// with backoff.
func (s *supervisor) sessionBroken(sess *session) bool {
	sess.mu.Lock()
	broken := sess.stopNote != ""
	sess.mu.Unlock()
	if broken {
		return true
	}
	ctx, cancel := context.WithTimeout(s.ctx, pingTimeout)
	defer cancel()
	err := sess.cs.Ping(ctx, nil)
	if err == nil || s.ctx.Err() != nil {
		return false
	}
	sess.breakWith("the connection broke: " + shorten(redactURLs(err.Error()), 160))
	return true
}

// breakWith marks the session broken: why is what calls in flight and the
// status are told (unless Juncture was already stopping it).
func (sess *session) breakWith(why string) {
	sess.mu.Lock()
	defer sess.mu.Unlock()
	if sess.stopNote == "" {
		sess.stopNote = why
	}
}
