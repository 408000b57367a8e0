package web

import (
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
	"time"

	"github.com/juncture-app/juncture/agent"
)

// stubApp is a Facade with no methods and no runtime: enough for the
// checks that happen before a handler runs.
type stubApp struct{}

func (stubApp) Calls() map[string]Call   { return map[string]Call{} }
func (stubApp) Runtime() *agent.Runtime  { return nil }
func (stubApp) AsError(err error) *Error { return errorf(CodeInternal, err.Error()) }
func (stubApp) AppViews() http.Handler   { return http.NotFoundHandler() }

// fakeClock is the tickets' clock, moved by hand.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *fakeClock) Add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// streamOpened stands for the event stream behind streamAuth.
func streamOpened(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusNoContent) }

const testToken = "0123456789abcdef0123456789abcdef0123456789abcdef"

func ticketServer(t *testing.T) (*Server, *fakeClock) {
	t.Helper()
	s := NewServer(stubApp{}, fstest.MapFS{"index.html": {Data: []byte("<!doctype html>")}}, testToken)
	clock := &fakeClock{t: time.Unix(1_700_000_000, 0)}
	s.tickets.now = clock.Now
	return s, clock
}

// askTicket is the page's POST /api/events/ticket with auth as its
// Authorization header (none when empty) and query appended to the path.
func askTicket(s *Server, auth, query string) *httptest.ResponseRecorder {
	r := httptest.NewRequest(http.MethodPost, "http://127.0.0.1:8765/api/events/ticket"+query, nil)
	if auth != "" {
		r.Header.Set("Authorization", auth)
	}
	rec := httptest.NewRecorder()
	s.ServeHTTP(rec, r)
	return rec
}

func ticketOf(t *testing.T, rec *httptest.ResponseRecorder) string {
	t.Helper()
	var body struct{ Ticket string }
	if rec.Code != http.StatusOK || json.Unmarshal(rec.Body.Bytes(), &body) != nil || body.Ticket == "" {
		t.Fatalf("asking for a ticket: %d %s", rec.Code, rec.Body)
	}
	return body.Ticket
}

// openStream is GET /api/events?<query> as far as its authorisation: the
// stream itself is replaced by a 204.
func openStream(s *Server, query string) int {
	r := httptest.NewRequest(http.MethodGet, "http://127.0.0.1:8765/api/events?"+query, nil)
	rec := httptest.NewRecorder()
	s.streamAuth(streamOpened)(rec, r)
	return rec.Code
}

// A ticket opens one stream, once: a reconnect (or anyone who read the
// URL in a log) reusing it is refused. It is 128 random bits, not the
// token, and the answer is never cached.
func TestStreamTicketOpensOneStreamOnce(t *testing.T) {
	s, _ := ticketServer(t)
	rec := askTicket(s, "Bearer "+testToken, "")
	ticket := ticketOf(t, rec)
	if !regexp.MustCompile(`^[0-9a-f]{32}$`).MatchString(ticket) || strings.Contains(ticket, testToken) {
		t.Errorf("ticket %q: want 32 hex digits, unrelated to the token", ticket)
	}
	if cc := rec.Header().Get("Cache-Control"); cc != "no-store" {
		t.Errorf("Cache-Control %q, want no-store", cc)
	}
	if other := ticketOf(t, askTicket(s, "Bearer "+testToken, "")); other == ticket {
		t.Errorf("two tickets are the same: %q", ticket)
	}
	if code := openStream(s, "ticket="+ticket); code != http.StatusNoContent {
		t.Fatalf("first use of the ticket: %d, want the stream", code)
	}
	if code := openStream(s, "ticket="+ticket); code != http.StatusUnauthorized {
		t.Errorf("second use of the ticket: %d, want 401", code)
	}
	for _, q := range []string{"", "ticket=", "ticket=" + strings.Repeat("0", 32), "ticket=" + testToken} {
		if code := openStream(s, q); code != http.StatusUnauthorized {
			t.Errorf("stream with %q: %d, want 401", q, code)
		}
	}
}

// A ticket not used within ticketTTL opens nothing.
func TestStreamTicketExpires(t *testing.T) {
	tests := []struct {
		name  string
		after time.Duration
		want  int
	}{
		{"just before", ticketTTL - time.Second, http.StatusNoContent},
		{"at expiry", ticketTTL, http.StatusUnauthorized},
		{"long after", time.Hour, http.StatusUnauthorized},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, clock := ticketServer(t)
			ticket := ticketOf(t, askTicket(s, "Bearer "+testToken, ""))
			clock.Add(tt.after)
			if code := openStream(s, "ticket="+ticket); code != tt.want {
				t.Errorf("after %v: %d, want %d", tt.after, code, tt.want)
			}
		})
	}
}

// Tickets asked for and never used are bounded: past maxTickets asking is
// refused (429) until they expire, and the expired ones are swept, so
// memory does not grow with the asking.
func TestStreamTicketsAreBounded(t *testing.T) {
	s, clock := ticketServer(t)
	var first string
	for i := 0; i < maxTickets; i++ {
		ticket := ticketOf(t, askTicket(s, "Bearer "+testToken, ""))
		if i == 0 {
			first = ticket
		}
	}
	if rec := askTicket(s, "Bearer "+testToken, ""); rec.Code != http.StatusTooManyRequests {
		t.Fatalf("ticket %d: %d, want 429", maxTickets+1, rec.Code)
	}
	if n := s.tickets.outstanding(); n != maxTickets {
		t.Errorf("%d tickets held, want %d", n, maxTickets)
	}
	// Using one frees its place.
	if code := openStream(s, "ticket="+first); code != http.StatusNoContent {
		t.Fatalf("using a waiting ticket: %d", code)
	}
	ticketOf(t, askTicket(s, "Bearer "+testToken, ""))
	clock.Add(ticketTTL)
	ticketOf(t, askTicket(s, "Bearer "+testToken, ""))
	if n := s.tickets.outstanding(); n != 1 {
		t.Errorf("after expiry %d tickets held, want 1 (the expired swept)", n)
	}
}

// The long-lived token is never taken from a URL: ?token= opens no stream
// and makes no call, and a ticket is only given for the token in the
// Authorization header. The stream still takes the header (a client that
// can send one, such as the benchmarks).
func TestTokenInTheURLIsRefused(t *testing.T) {
	s, _ := ticketServer(t)
	tests := []struct {
		name, method, target, auth string
		want                       int
	}{
		{"events with ?token=", "GET", "/api/events?token=" + testToken, "", http.StatusUnauthorized},
		{"events with ?token= and a ticket-shaped name", "GET", "/api/events?ticket=&token=" + testToken, "", http.StatusUnauthorized},
		{"call with ?token=", "POST", "/api/call/Status?token=" + testToken, "", http.StatusUnauthorized},
		{"ticket with ?token=", "POST", "/api/events/ticket?token=" + testToken, "", http.StatusUnauthorized},
		{"agui with ?token=", "POST", "/agui?token=" + testToken, "", http.StatusUnauthorized},
		{"ticket without a token", "POST", "/api/events/ticket", "", http.StatusUnauthorized},
		{"ticket with a wrong token", "POST", "/api/events/ticket", "Bearer nope", http.StatusUnauthorized},
		{"ticket by GET (static files: none there)", "GET", "/api/events/ticket", "Bearer " + testToken, http.StatusNotFound},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := httptest.NewRequest(tt.method, "http://127.0.0.1:8765"+tt.target, nil)
			if tt.auth != "" {
				r.Header.Set("Authorization", tt.auth)
			}
			rec := httptest.NewRecorder()
			s.ServeHTTP(rec, r)
			if rec.Code != tt.want {
				t.Errorf("%s %s: %d %s, want %d", tt.method, tt.target, rec.Code, rec.Body, tt.want)
			}
		})
	}
	r := httptest.NewRequest(http.MethodGet, "http://127.0.0.1:8765/api/events", nil)
	r.Header.Set("Authorization", "Bearer "+testToken)
	rec := httptest.NewRecorder()
	s.streamAuth(streamOpened)(rec, r)
	if rec.Code != http.StatusNoContent {
		t.Errorf("stream with the token in its header: %d, want the stream", rec.Code)
	}
}

// No URL the page builds carries the token: the frontend's sources never
// write a token= query parameter (the server refuses one anyway, above).
func TestFrontendBuildsNoURLWithTheToken(t *testing.T) {
	root := filepath.Join("..", "..", "frontend", "src")
	tokenInQuery := regexp.MustCompile(`[?&]token=`)
	seen := 0
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || strings.Contains(path, ".test.") || !(strings.HasSuffix(path, ".ts") || strings.HasSuffix(path, ".tsx")) {
			return err
		}
		seen++
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for i, line := range strings.Split(string(b), "\n") {
			if tokenInQuery.MatchString(line) {
				t.Errorf("%s:%d builds a URL with the token: %s", path, i+1, strings.TrimSpace(line))
			}
		}
		return nil
	})
	if err != nil || seen < 10 {
		t.Fatalf("reading the frontend's sources: %v (%d files)", err, seen)
	}
}

// A request whose headers are over the server's budget is answered 431 at
// once, never served and never left hanging: a page opened with a #token=
// of a megabyte, or one whose browser sends a normal token with more
// cookies for 127.0.0.1 than the budget (other local apps set them; the
// browser sends them to every port). The page takes a 431 as "token
// refused" only for a token over MaxTokenLength; for its own it says the
// headers are too large, likely cookies (http.ts, headersTooLarge).
func TestOversizeHeadersAreAnswered431(t *testing.T) {
	s, _ := ticketServer(t)
	srv := s.HTTPServer(HTTPLimits{})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go func() { _ = srv.Serve(ln) }()
	defer srv.Close()
	cookies := make([]string, 0, 40)
	for i := 0; i < cap(cookies); i++ {
		cookies = append(cookies, fmt.Sprintf("other-app-%d=%s", i, strings.Repeat("c", 2000)))
	}
	for _, tc := range []struct {
		name, authorization, cookie string
	}{
		{"a megabyte of Authorization", "Bearer " + strings.Repeat("a", 1<<20), ""},
		{"the page's token with 80 KB of cookies", "Bearer " + testToken, strings.Join(cookies, "; ")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req, _ := http.NewRequest(http.MethodPost, "http://"+ln.Addr().String()+"/api/events/ticket", nil)
			req.Header.Set("Authorization", tc.authorization)
			if tc.cookie != "" {
				req.Header.Set("Cookie", tc.cookie)
			}
			client := &http.Client{Timeout: 10 * time.Second}
			resp, err := client.Do(req)
			if err != nil {
				t.Fatalf("%s: %v, want an answer", tc.name, err)
			}
			_, _ = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			if resp.StatusCode != http.StatusRequestHeaderFieldsTooLarge {
				t.Errorf("%s: %d, want 431", tc.name, resp.StatusCode)
			}
		})
	}
}

// Many requests racing with one ticket (a reconnect and a replay of a
// logged URL at once): exactly one opens the stream. Run with -race.
func TestStreamTicketRaceOpensOneStream(t *testing.T) {
	s, _ := ticketServer(t)
	for round := 0; round < 50; round++ {
		ticket := ticketOf(t, askTicket(s, "Bearer "+testToken, ""))
		const racers = 8
		codes := make(chan int, racers)
		start := make(chan struct{})
		var wg sync.WaitGroup
		for i := 0; i < racers; i++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				codes <- openStream(s, "ticket="+ticket)
			}()
		}
		close(start)
		wg.Wait()
		close(codes)
		opened := 0
		for code := range codes {
			if code == http.StatusNoContent {
				opened++
			} else if code != http.StatusUnauthorized {
				t.Fatalf("round %d: a racer got %d, want 204 or 401", round, code)
			}
		}
		if opened != 1 {
			t.Fatalf("round %d: one ticket opened %d streams, want 1", round, opened)
		}
	}
}

// A web page on another origin, or reached through a foreign name that
// resolves to 127.0.0.1 (DNS rebinding), gets no ticket even with the
// token: so it can neither open the stream nor use up the tickets the
// person's page needs.
func TestStreamTicketRefusedToOtherPages(t *testing.T) {
	s, _ := ticketServer(t)
	tests := []struct {
		name, host, origin string
	}{
		{"another origin", "127.0.0.1:8765", "http://evil.example"},
		{"another port on loopback", "127.0.0.1:8765", "http://127.0.0.1:9999"},
		{"an opaque origin (sandboxed frame, file:)", "127.0.0.1:8765", "null"},
		{"a rebound name", "evil.example:8765", ""},
		{"a rebound name, its own origin", "evil.example:8765", "http://evil.example:8765"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := httptest.NewRequest(http.MethodPost, "http://127.0.0.1:8765/api/events/ticket", nil)
			r.Host = tt.host
			if tt.origin != "" {
				r.Header.Set("Origin", tt.origin)
			}
			r.Header.Set("Authorization", "Bearer "+testToken)
			rec := httptest.NewRecorder()
			s.ServeHTTP(rec, r)
			if rec.Code != http.StatusForbidden || strings.Contains(rec.Body.String(), "ticket\":") {
				t.Errorf("%d %s, want 403 and no ticket", rec.Code, rec.Body)
			}
			if rec.Header().Get("Access-Control-Allow-Origin") != "" {
				t.Errorf("answer allows origin %q", rec.Header().Get("Access-Control-Allow-Origin"))
			}
		})
	}
	if n := s.tickets.outstanding(); n != 0 {
		t.Errorf("%d tickets issued to other pages, want 0", n)
	}
}

// Pages reconnecting all at once, while others' tickets expire: every
// ticket given opens its one stream, and no more than maxTickets are ever
// held. Run with -race.
func TestStreamTicketsUnderLoad(t *testing.T) {
	s, clock := ticketServer(t)
	var wg sync.WaitGroup
	errs := make(chan string, 64)
	for g := 0; g < 16; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for i := 0; i < 100; i++ {
				ticket, ok := s.tickets.issue()
				if !ok {
					continue // the cap, reached by the ones left unused below
				}
				if g%4 == 0 {
					clock.Add(time.Second) // left unused, to expire
					continue
				}
				if !s.tickets.use(ticket) && clock.Now().Before(time.Unix(1_700_000_000, 0).Add(ticketTTL)) {
					errs <- "a fresh ticket was refused"
					return
				}
				if s.tickets.use(ticket) {
					errs <- "a ticket was used twice"
					return
				}
				if n := s.tickets.outstanding(); n > maxTickets {
					errs <- "more tickets held than maxTickets"
					return
				}
			}
		}(g)
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}
