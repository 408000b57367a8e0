package mcp

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/juncture-app/juncture/agent/sandbox"
	"github.com/juncture-app/juncture/agent/tools"
)

// protocolVersion is the MCP version Juncture asks for first: the newest
// it speaks. A server that does not speak it (server/discover fails) is
// met with the SDK's initialize handshake at 2025-11-25, the last
// session-based version. 2026-07-28 servers ask their questions as
// multi round-trip results (roundtrip.go); older ones send requests
// during the call (prompts.go).
const protocolVersion = mrtrVersion

// Stopping a stdio server: how long it gets to exit after SIGTERM, and
// how long after SIGKILL before Juncture stops waiting.
const (
	terminateGrace = 2 * time.Second
	killWait       = 5 * time.Second
	// waitDelay bounds how long os/exec waits for a dead server's stderr
	// to close (a grandchild that escaped its process group could hold
	// it open forever).
	waitDelay = 2 * time.Second
	// reapGrace is how long a server whose output closed gets to be
	// reaped, so its exit status can be told ("exited with status 3").
	reapGrace = 500 * time.Millisecond
)

// session is one connection to a server. The supervisor that made it is
// the only one to stop it.
type session struct {
	cs        *sdk.ClientSession
	conn      *capturedConn        // the transport's connection, to break it when stopping
	proc      *tools.ServerProcess // stdio only
	httpTr    *http.Transport      // HTTP only: its idle connections are closed at the end
	cancel    context.CancelFunc   // ends the session's context
	transport string               // what the log says: "stdio", "Streamable HTTP", "SSE"
	title     string

	dead    chan struct{} // closed once the session has ended
	waitErr error         // why, when it was not a clean close; set before dead closes

	mu       sync.Mutex
	stopNote string // set when Juncture stops it: what a call in flight is told

	taskTools taskSupport // its tools' task support, read at its first call (tasks_wire.go)

	// mrtr: the server speaks 2026-07-28 or later; its questions come as
	// input_required results, never as requests during a call.
	mrtr bool

	box sandbox.Status // stdio only: how the process is confined
}

// sandbox is the session's sandbox line, "" for an HTTP server (no
// program of Juncture's).
func (s *session) sandbox() string {
	if s.proc == nil {
		return ""
	}
	return s.box.String()
}

// explain adds the sandbox's note to a failed call's result when the
// server's output shows a refusal the sandbox would cause, and the
// sandbox line to the result (for the ledger).
func (s *session) explain(r tools.Result) tools.Result {
	if s.proc == nil {
		return r
	}
	r.Sandbox = s.box.String()
	if note := sandbox.Explain(s.box, r.Content); note != "" && r.IsError {
		r.Content += "\n" + note
	}
	return r
}

// procDone is closed when a stdio server's process has exited; nil (never
// ready) for an HTTP server.
func (s *session) procDone() <-chan struct{} {
	if s.proc == nil {
		return nil
	}
	return s.proc.Done()
}

// endReason says why the session ended, for "stopped unexpectedly (…)"
// and "stopped during the call (…)". A stdio server's exit status is the
// best answer; the process is given grace to be reaped after its output
// closed.
func (s *session) endReason(grace time.Duration) string {
	s.mu.Lock()
	note := s.stopNote
	s.mu.Unlock()
	if note != "" {
		return note
	}
	if s.endedTooLarge(grace) {
		return frameTooLargeReason()
	}
	if s.proc != nil {
		t := time.NewTimer(grace)
		defer t.Stop()
		select {
		case <-s.proc.Done():
			return exitText(s.proc.Wait())
		case <-t.C:
		}
	}
	select {
	case <-s.dead:
		if s.waitErr != nil {
			return "the connection broke: " + shorten(redactURLs(s.waitErr.Error()), 160)
		}
	default:
	}
	return "the connection closed"
}

// capturedConn remembers the Connection a transport made, so stopping can
// break it: ClientSession.Close alone waits for every call in flight,
// and a server that never answers would hold it forever.
type capturedConn struct {
	sdk.Transport
	mu   sync.Mutex
	conn sdk.Connection
}

// Connect returns the transport's own connection, unwrapped: the SDK
// relies on optional interfaces of it (a Streamable HTTP connection
// learns of the initialize result that way).
func (c *capturedConn) Connect(ctx context.Context) (sdk.Connection, error) {
	conn, err := c.Transport.Connect(ctx)
	if err == nil {
		c.mu.Lock()
		c.conn = conn
		c.mu.Unlock()
	}
	return conn, err
}

func (c *capturedConn) close() {
	c.mu.Lock()
	conn := c.conn
	c.mu.Unlock()
	if conn != nil {
		_ = conn.Close()
	}
}

// connect opens a session over the configured transport.
func (s *supervisor) connect(ctx context.Context, cancel context.CancelFunc) (*session, error) {
	if s.cfg.Transport() == TransportHTTP {
		return s.connectHTTP(ctx, cancel)
	}
	return s.connectStdio(ctx, cancel)
}

// open connects the client over t and starts watching the session's end.
func (s *supervisor) open(ctx context.Context, t sdk.Transport, sess *session) error {
	sess.conn = &capturedConn{Transport: t}
	cs, err := s.client.Connect(ctx, sess.conn, &sdk.ClientSessionOptions{ProtocolVersion: protocolVersion})
	if err != nil {
		sess.conn.close()
		return err
	}
	sess.cs = cs
	sess.dead = make(chan struct{})
	if r := cs.InitializeResult(); r != nil {
		sess.mrtr = r.ProtocolVersion >= mrtrVersion
		s.log.Note(notePrefix + "speaks MCP " + r.ProtocolVersion)
	}
	if r := cs.InitializeResult(); r != nil && r.ServerInfo != nil {
		sess.title = orDefault(r.ServerInfo.Title, r.ServerInfo.Name)
	}
	s.m.wg.Add(1)
	go func() {
		defer s.m.wg.Done()
		sess.waitErr = cs.Wait()
		close(sess.dead)
	}()
	return nil
}

func (s *supervisor) connectStdio(ctx context.Context, cancel context.CancelFunc) (*session, error) {
	if s.m.o.Processes == nil {
		cancel()
		return nil, errors.New("mcp: programs cannot be started here (no process set)")
	}
	cmd, err := s.command()
	if err != nil {
		cancel()
		return nil, err
	}
	box, unbox, err := s.confine(cmd)
	if err != nil {
		cancel()
		return nil, fmt.Errorf("could not start %q: %w", s.cfg.Command, err)
	}
	s.log.Note(notePrefix + fmt.Sprintf("starting %q (stdio); %s", s.cfg.Command, box))
	proc, err := s.m.o.Processes.StartServer(cmd)
	if err != nil {
		unbox()
		cancel()
		return nil, fmt.Errorf("could not start %q: %w", s.cfg.Command, unwrapExec(err))
	}
	sandbox.Started(cmd) // releases the start pipe; the handshake below waits for the server anyway
	go func() { <-proc.Done(); unbox() }()
	sess := &session{proc: proc, cancel: cancel, transport: TransportStdio, box: box}
	if err := s.open(ctx, &sdk.IOTransport{Reader: proc.Stdout, Writer: proc.Stdin, MaxLineLength: maxFrameBytes}, sess); err != nil {
		if ctx.Err() == nil { // otherwise the caller reports the timeout or the stop
			err = s.startExitError(proc, err)
		}
		s.stopProcess(proc)
		cancel()
		return nil, err
	}
	return sess, nil
}

// startExitError describes a stdio server that failed during the
// handshake: mostly one that exited, whose last stderr line says why. Its
// output closes a moment before it is reaped, hence the grace.
func (s *supervisor) startExitError(proc *tools.ServerProcess, err error) error {
	t := time.NewTimer(time.Second)
	defer t.Stop()
	select {
	case <-proc.Done():
	case <-t.C:
		return fmt.Errorf("the handshake failed: %s", shorten(err.Error(), 200))
	}
	msg := exitText(proc.Wait())
	if last := s.log.lastLine(); last != "" {
		msg += ": " + shorten(last, 200)
	}
	return errors.New(msg)
}

// command builds the server's command: the program found on the PATH of
// the server's own environment (which may differ from the app's), the
// minimal environment plus the configured variables, the configured
// folder, and stderr into the log tail.
func (s *supervisor) command() (*exec.Cmd, error) {
	env, err := tools.ServerEnv(s.cfg.Env)
	if err != nil {
		return nil, err
	}
	dir, err := expandHome(s.cfg.Cwd)
	if err != nil {
		return nil, err
	}
	if dir != "" {
		// os/exec would report a missing folder as a missing program.
		if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
			return nil, fmt.Errorf("could not start %q: the folder %q does not exist", s.cfg.Command, dir)
		}
	}
	path, err := lookPath(s.cfg.Command, dir, env)
	if err != nil {
		return nil, fmt.Errorf("could not start %q: %w", s.cfg.Command, err)
	}
	cmd := exec.Command(path, s.cfg.Args...)
	cmd.Env = env
	cmd.Dir = dir
	cmd.Stderr = s.log
	cmd.WaitDelay = waitDelay
	return cmd, nil
}

// serverCaches are the folders below the home folder a stdio server may
// write besides the workspace, by the program that starts it: the package
// managers' caches that npx, uvx and pip fill when they start a server.
// Writing there is what starting a server takes; other folders must be
// listed in mcp.json.
// A server started by one of these programs gets its cache made when it
// is missing (a folder that does not exist cannot be allowed).
var serverCaches = map[string][]string{
	"npx": {".npm"}, "npm": {".npm"},
	"uvx": {".cache/uv", ".local/share/uv"}, "uv": {".cache/uv", ".local/share/uv"},
	"pip": {".cache/pip"}, "pipx": {".cache/pip", ".local/share/pipx"},
	"bunx": {".bun/install/cache"}, "bun": {".bun/install/cache"},
}

// serverConfigFiles are the files below the home folder a stdio server
// may read besides its folders, by the program that starts it: the
// package managers' own settings (a registry, a proxy), which they read
// when they start. Missing ones are skipped.
var serverConfigFiles = map[string][]string{
	"npx": {".npmrc"}, "npm": {".npmrc"},
	"uvx": {".config/uv/uv.toml"}, "uv": {".config/uv/uv.toml"},
	"pip": {".config/pip/pip.conf", ".pip/pip.conf"}, "pipx": {".config/pip/pip.conf", ".pip/pip.conf"},
	"bunx": {".bunfig.toml"}, "bun": {".bunfig.toml"},
}

// confine wraps cmd in the server's sandbox: it may write in the
// workspace (the roots as they are now), the folders listed in its
// "sandbox" entry and the caches, read those, the system, its own program
// files and the folders its entry lists under "read", and reach the
// network its entry says (any by default).
func (s *supervisor) confine(cmd *exec.Cmd) (sandbox.Status, func(), error) {
	sb := s.cfg.Sandbox
	if sb == nil {
		sb = &ServerSandbox{}
	}
	if sb.Off {
		return sandbox.Status{Mechanism: sandbox.None, Reason: "turned off for this server in mcp.json", Network: "any"}, func() {}, nil
	}
	p := sandbox.Policy{Network: sb.Network, Ports: sb.Ports, Hosts: sb.Hosts}
	if p.Network == "" {
		p.Network = sandbox.NetAny
	}
	if s.m.o.Roots != nil {
		p.Write = append(p.Write, s.m.o.Roots()...)
	}
	for _, list := range []struct {
		what  string
		paths []string
		to    *[]string
	}{{"writable", sb.Write, &p.Write}, {"readable", sb.Read, &p.Read}} {
		for _, w := range list.paths {
			dir, err := expandHome(w)
			if err != nil {
				return sandbox.Status{}, func() {}, err
			}
			if coversHome(dir) { // a link pointed at home since mcp.json was read
				return sandbox.Status{}, func() {}, fmt.Errorf("the %s folder %q of this server's sandbox now leads to the whole disk or home folder: not started", list.what, w)
			}
			*list.to = append(*list.to, dir)
		}
	}
	if home, err := os.UserHomeDir(); err == nil {
		prog := strings.TrimSuffix(filepath.Base(s.cfg.Command), ".exe")
		for _, c := range serverCaches[prog] {
			dir := filepath.Join(home, c)
			_ = os.MkdirAll(dir, 0o700) // if it cannot be made, the server cannot write there
			p.Write = append(p.Write, dir)
		}
		for _, f := range serverConfigFiles[prog] {
			p.Read = append(p.Read, filepath.Join(home, f))
		}
	}
	return s.m.o.Sandbox.Wrap(cmd, p)
}

// lookPath finds name the way a shell with env would: a name with a
// slash is taken as a path (relative to dir), others are searched in
// env's PATH.
func lookPath(name, dir string, env []string) (string, error) {
	if name == "" {
		return "", errors.New("no command is configured")
	}
	if strings.ContainsRune(name, '/') || strings.ContainsRune(name, filepath.Separator) {
		if !filepath.IsAbs(name) && dir != "" {
			name = filepath.Join(dir, name)
		}
		return exec.LookPath(name)
	}
	for _, d := range filepath.SplitList(envValue(env, "PATH")) {
		if d == "" || !filepath.IsAbs(d) {
			continue // a relative PATH entry would depend on the folder: never
		}
		if p, err := exec.LookPath(filepath.Join(d, name)); err == nil {
			return p, nil
		}
	}
	return "", exec.ErrNotFound
}

func envValue(env []string, key string) string {
	for i := len(env) - 1; i >= 0; i-- {
		if k, v, ok := strings.Cut(env[i], "="); ok && strings.EqualFold(k, key) {
			return v
		}
	}
	return ""
}

// expandHome expands a leading "~" in a configured folder.
func expandHome(dir string) (string, error) {
	if dir != "~" && !strings.HasPrefix(dir, "~/") && !strings.HasPrefix(dir, `~\`) {
		return dir, nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("expanding ~ in the folder %q: %w", dir, err)
	}
	return filepath.Join(home, dir[1:]), nil
}

// unwrapExec drops os/exec's "exec: \"name\": " prefix, which repeats
// what the message already says.
func unwrapExec(err error) error {
	var ee *exec.Error
	if errors.As(err, &ee) {
		return ee.Err
	}
	return err
}

// exitText describes how a process ended: "exit status 3", "killed by
// signal 9", "exited".
func exitText(err error) string {
	var ee *exec.ExitError
	switch {
	case err == nil:
		return "exited with status 0"
	case errors.As(err, &ee):
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			return "killed by signal " + ws.Signal().String()
		}
		return fmt.Sprintf("exited with status %d", ee.ExitCode())
	}
	return shorten(err.Error(), 160)
}

// connectHTTP connects with Streamable HTTP, or with the legacy HTTP+SSE
// transport when configured so or when the server refuses Streamable
// HTTP the way legacy servers do (a 4xx to the POST).
func (s *supervisor) connectHTTP(ctx context.Context, cancel context.CancelFunc) (*session, error) {
	tr := http.DefaultTransport.(*http.Transport).Clone()
	origin := configuredOrigin(s.cfg.URL)
	rt := &headerTransport{base: tr, headers: s.cfg.Headers, origin: origin}
	client := &http.Client{Transport: rt, CheckRedirect: checkRedirect(origin, withAuthorization(s.cfg.Headers))}
	var oauth *oauthConn
	if authType(s.cfg) != "" {
		oauth = &oauthConn{s: s}
	}
	sess := &session{httpTr: tr, cancel: cancel}
	where := redactURL(s.cfg.URL)
	useSSE := strings.EqualFold(s.cfg.Type, "sse")
	if !useSSE {
		s.log.Note(notePrefix + "connecting to " + where + " (Streamable HTTP)")
		sess.transport = "Streamable HTTP"
		err := s.open(ctx, &sdk.StreamableClientTransport{Endpoint: s.cfg.URL, HTTPClient: client, MaxEventSize: maxFrameBytes, OAuthHandler: oauthHandler(oauth)}, sess)
		if err == nil {
			return sess, nil
		}
		status := rt.lastPostStatus()
		// A server that asks for a sign-in is not a legacy one.
		if ctx.Err() != nil || status < 400 || status >= 500 || s.m.auth.blocked(s.name) {
			tr.CloseIdleConnections()
			cancel()
			return nil, s.connectError(where, err)
		}
		s.log.Note(notePrefix + fmt.Sprintf("the server refused Streamable HTTP (HTTP %d); trying the legacy SSE transport", status))
	} else {
		s.log.Note(notePrefix + "connecting to " + where + " (SSE)")
	}
	sess.transport = "SSE"
	if err := s.open(ctx, &sdk.SSEClientTransport{Endpoint: s.cfg.URL, HTTPClient: client, MaxEventSize: maxFrameBytes}, sess); err != nil {
		tr.CloseIdleConnections()
		cancel()
		return nil, s.connectError(where, err)
	}
	s.log.Note(notePrefix + "connected over the legacy SSE transport")
	return sess, nil
}

// connectError is a failed HTTP connection as the status shows it: the
// SDK's errors quote the URL, whose query may hold a token.
func (s *supervisor) connectError(where string, err error) error {
	msg := redactURLs(strings.ReplaceAll(err.Error(), s.cfg.URL, where))
	return fmt.Errorf("could not connect to %s: %s", where, shorten(msg, 200))
}

// headerTransport adds the configured headers (secrets: they appear in no
// log and no error) to requests to the configured origin only (never
// after a redirect elsewhere: redirect.go), and remembers the status of
// the last POST, which tells a legacy SSE server apart.
type headerTransport struct {
	base    http.RoundTripper
	headers map[string]string
	origin  *url.URL // the configured URL; nil: headers go nowhere
	mu      sync.Mutex
	post    int
}

func (h *headerTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if len(h.headers) > 0 && h.origin != nil && sameOrigin(h.origin, req.URL) {
		req = req.Clone(req.Context())
		for k, v := range h.headers {
			req.Header.Set(k, v)
		}
	}
	resp, err := h.base.RoundTrip(req)
	if err == nil {
		limitJSONBody(resp)
	}
	if err == nil && req.Method == http.MethodPost {
		h.mu.Lock()
		h.post = resp.StatusCode
		h.mu.Unlock()
	}
	return resp, err
}

func (h *headerTransport) lastPostStatus() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.post
}

// redactURL shows where a server is without its query or user info,
// which may carry a token.
func redactURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return "the configured URL"
	}
	return u.Scheme + "://" + u.Host + u.Path
}

// stopSession ends a session: break the connection (calls in flight fail
// at once and the server's requests are cancelled), close the SDK
// session, then end the process: SIGTERM, up to 2 s, SIGKILL. note, when
// set, is what a call in flight is told ("it was restarted").
func (s *supervisor) stopSession(sess *session, note string) {
	if note != "" {
		sess.mu.Lock()
		sess.stopNote = note
		sess.mu.Unlock()
	}
	sess.conn.close()
	if sess.cs != nil {
		_ = sess.cs.Close()
		<-sess.dead
	}
	sess.cancel()
	if sess.proc != nil {
		s.stopProcess(sess.proc)
	}
	if sess.httpTr != nil {
		sess.httpTr.CloseIdleConnections()
	}
}

// stopProcess ends a server's process group and waits for it to be
// reaped (bounded: a process stuck in the kernel is given up on).
func (s *supervisor) stopProcess(p *tools.ServerProcess) {
	select {
	case <-p.Done():
		return
	default:
	}
	p.Terminate()
	t := time.NewTimer(terminateGrace)
	defer t.Stop()
	select {
	case <-p.Done():
		return
	case <-t.C:
	}
	p.Kill()
	t.Reset(killWait)
	select {
	case <-p.Done():
	case <-t.C:
		s.m.log.Warn("An MCP server's process did not end after SIGKILL", "server", s.name)
	}
}

// shorten cuts a message for a status line.
func shorten(s string, n int) string {
	s = strings.TrimSpace(s)
	if len(s) <= n {
		return s
	}
	return s[:runeCut(s, n)] + "…"
}
