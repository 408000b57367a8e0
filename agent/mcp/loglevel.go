//nolint:staticcheck // SA1019: logging is deprecated as of 2026-07-28 (SEP-2577) but inside its deprecation window; servers still log this way, and Settings offers their level.
package mcp

import (
	"context"
	"fmt"
	"slices"
	"sync"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// A server's log messages (notifications/message) go to its log tail
// (see newClient). The least severe level the person wants to see is
// chosen in Settings per server and sent with logging/setLevel when
// chosen and again at the start of every session; unset, the server sends
// what it likes.

// LogLevels are MCP's levels, least severe first.
var LogLevels = []string{"debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"}

// logLevels holds the chosen level of each server by configured name; it
// outlives the supervisors (a server whose configuration changed keeps
// its level).
type logLevels struct {
	mu     sync.Mutex
	levels map[string]string
}

func (l *logLevels) get(server string) string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.levels[server]
}

func (l *logLevels) set(server, level string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.levels == nil {
		l.levels = map[string]string{}
	}
	if level == "" {
		delete(l.levels, server)
	} else {
		l.levels[server] = level
	}
}

// SetLogLevels sets the chosen levels of several servers at once without
// sending anything (the app's saved choices, before servers start).
func (m *Manager) SetLogLevels(levels map[string]string) {
	for server, level := range levels {
		if slices.Contains(LogLevels, level) {
			m.logLevels.set(server, level)
		}
	}
}

// LogLevel returns the level chosen for a server ("" when none).
func (m *Manager) LogLevel(server string) string { return m.logLevels.get(server) }

// SetLogLevel chooses the least severe level of the server's log messages
// ("" leaves it to the server from its next session on) and sends it at
// once when the server is ready and offers logging.
func (m *Manager) SetLogLevel(ctx context.Context, server, level string) error {
	if level != "" && !slices.Contains(LogLevels, level) {
		return fmt.Errorf("mcp: %q is not a log level (one of %v)", level, LogLevels)
	}
	s := m.lookup(server)
	if s == nil {
		return ErrUnknownServer
	}
	m.logLevels.set(server, level)
	sess, _ := s.ready()
	if sess == nil || level == "" {
		return nil
	}
	if sess.capabilities().Logging == nil {
		return fmt.Errorf("%w: %s does not send log messages", ErrNotOffered, server)
	}
	ctx, cancel := withOfferTimeout(ctx)
	defer cancel()
	return s.sendLogLevel(ctx, sess, level)
}

// applyLogLevel sends the chosen level to a new session (called once it
// is ready); a failure is noted in the server's log, nothing more.
func (s *supervisor) applyLogLevel(ctx context.Context, sess *session) {
	level := s.m.logLevels.get(s.name)
	if level == "" || sess.capabilities().Logging == nil {
		return
	}
	_ = s.sendLogLevel(ctx, sess, level)
}

func (s *supervisor) sendLogLevel(ctx context.Context, sess *session, level string) error {
	//lint:ignore SA1019 logging is deprecated from 2026-07-28 on but every server of 2025-11-25 speaks it
	err := sess.cs.SetLoggingLevel(ctx, &sdk.SetLoggingLevelParams{Level: sdk.LoggingLevel(level)})
	if err != nil {
		s.log.Note(notePrefix + "could not set the log level: " + shorten(err.Error(), 200))
		return requestError("setting the log level", s.name, err)
	}
	s.log.Note(notePrefix + "log level set to " + level)
	return nil
}
