package app

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
	"time"

	"github.com/juncture-app/juncture/app/web"
)

// Issue 19 #23: a ChatGPT export larger than the old 32 MiB cut (37 MB
// reported) arrives whole: the answer is about the file (here: it has no
// message), never "invalid character in string escape" from a body cut
// short. Its quotes make it grow by half once JSON-encoded.
func TestLargeImportArrivesWhole(t *testing.T) {
	f := newFixture(t, nil)
	title := strings.Repeat(`say "hi" `, 37<<20/10) // 37 MiB of text, 7.4 MiB of it quotes
	file, _ := json.Marshal([]map[string]any{{"id": "c", "title": title, "mapping": map[string]any{}}})
	if len(file) < 37<<20 || len(file) > 64<<20 {
		t.Fatalf("a file of %d MiB", len(file)>>20)
	}
	var sum map[string]any
	e := f.call(&sum, "ImportConversations", "chatgpt", string(file))
	if e == nil || e.Code != CodeInvalidArgument || !strings.Contains(e.Message, "none of the 1 conversations has a message") {
		t.Fatalf("import of a %d MiB file: %+v", len(file)>>20, e)
	}
}

// Issue 19 #23: a call over its budget is refused with 413 and the limit
// in words, and nothing is done.
func TestCallOverItsBudgetIs413(t *testing.T) {
	f := newFixture(t, nil)
	big := strings.Repeat("x", web.CallBodyDefault)
	for _, c := range []struct{ path, limit string }{
		{"/api/call/RenameThread", "8 MiB"},
		{"/agui", "70.7 MiB"},
	} {
		var body io.Reader = strings.NewReader(`["t","` + big + `"]`)
		if c.path == "/agui" {
			// Generated as it is sent: the test holds none of it.
			body = io.MultiReader(strings.NewReader(`{"threadId":"t","runId":"r","messages":[{"id":"m","role":"user","content":"`),
				io.LimitReader(repeatReader('x'), web.AGUIBody), strings.NewReader(`"}]}`))
		}
		req, _ := http.NewRequest("POST", f.srv.URL+c.path, body)
		req.Header.Set("Authorization", "Bearer "+f.token)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatalf("%s: %v", c.path, err)
		}
		var out struct{ Error *Error }
		_ = json.NewDecoder(resp.Body).Decode(&out)
		resp.Body.Close()
		if resp.StatusCode != http.StatusRequestEntityTooLarge || out.Error == nil || out.Error.Code != "too-large" || !strings.Contains(out.Error.Message, c.limit) {
			t.Errorf("%s: status %d, error %+v; want 413 saying %s", c.path, resp.StatusCode, out.Error, c.limit)
		}
	}
}

type repeatReader byte

func (r repeatReader) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = byte(r)
	}
	return len(p), nil
}

// limitedServer serves f's app over real loopback connections with small
// limits, as `juncture serve` does with the defaults.
func limitedServer(t *testing.T, f *fixture, limits web.HTTPLimits) (addr string, ln *web.Limited) {
	t.Helper()
	s := web.NewServer(f.svc, fstest.MapFS{"index.html": {Data: []byte("<!doctype html>")}}, f.token)
	s.KeepAlive = 20 * time.Millisecond
	hs := s.HTTPServer(limits)
	raw, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ln = web.LimitListener(raw, limits.MaxConns)
	go func() { _ = hs.Serve(ln) }()
	t.Cleanup(func() { _ = hs.Close() })
	return raw.Addr().String(), ln
}

// closedByServer waits until the server closes c (reading what it sent),
// failing after a bound far above every limit.
func closedByServer(t *testing.T, c net.Conn) string {
	_ = c.SetReadDeadline(time.Now().Add(30 * time.Second))
	b, err := io.ReadAll(c)
	if err != nil {
		t.Errorf("the server never closed the connection: %v (read %q)", err, b)
	}
	return string(b)
}

// Issue 19 #24: idle connections, connections that never send their
// headers and calls whose body never finishes are all dropped, never more
// than MaxConns are held at once, and the event stream outlives every one
// of those limits.
func TestBrowserServerDropsIdleAndStalledConnections(t *testing.T) {
	f := newFixture(t, nil)
	limits := web.HTTPLimits{ReadHeader: 200 * time.Millisecond, Idle: 200 * time.Millisecond, Body: 300 * time.Millisecond, MaxConns: 8}
	addr, ln := limitedServer(t, f, limits)

	// The event stream first: it must keep its slot and keep going.
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", "http://"+addr+"/api/events", nil)
	req.Header.Set("Authorization", "Bearer "+f.token)
	client := &http.Client{Transport: &http.Transport{}}
	defer client.CloseIdleConnections()
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()

	var wg sync.WaitGroup
	var mu sync.Mutex
	var answers []string
	dial := func(send string) {
		defer wg.Done()
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Error(err)
			return
		}
		defer c.Close()
		if send != "" {
			if _, err := io.WriteString(c, send); err != nil {
				t.Error(err)
				return
			}
		}
		got := closedByServer(t, c)
		mu.Lock()
		answers = append(answers, got)
		mu.Unlock()
	}
	stalled := "POST /api/call/ListThreads HTTP/1.1\r\nHost: " + addr + "\r\nAuthorization: Bearer " + f.token + "\r\nContent-Length: 1000\r\n\r\n["
	kept := "GET / HTTP/1.1\r\nHost: " + addr + "\r\n\r\n" // answered, then kept alive and idle
	for i := range 40 {
		wg.Add(1)
		switch i % 4 {
		case 0:
			go dial(stalled)
		case 1:
			go dial(kept)
		case 2:
			go dial("GET / HTTP/1.1\r\nHost: ") // headers never finish
		default:
			go dial("") // nothing at all
		}
	}
	// While they come and go, never more than MaxConns are open.
	stop := make(chan struct{})
	watched := make(chan int)
	go func() {
		most := 0
		for {
			select {
			case <-stop:
				watched <- most
				return
			default:
				most = max(most, ln.Open())
				time.Sleep(time.Millisecond)
			}
		}
	}()
	wg.Wait()
	close(stop)
	if most := <-watched; most > limits.MaxConns {
		t.Errorf("%d connections open at once; the cap is %d", most, limits.MaxConns)
	}
	var timeouts, served int
	for _, a := range answers {
		switch {
		case strings.HasPrefix(a, "HTTP/1.1 408"):
			timeouts++
		case strings.HasPrefix(a, "HTTP/1.1 200"):
			served++
		}
	}
	if timeouts != 10 || served != 10 {
		t.Errorf("%d stalled bodies answered 408 (want 10), %d kept-alive requests answered (want 10)", timeouts, served)
	}

	// The stream outlived all of it, and still delivers.
	br := bufio.NewReader(resp.Body)
	for n := 0; n < 5; {
		line, err := br.ReadString('\n')
		if err != nil {
			t.Fatalf("the event stream ended: %v", err)
		}
		if strings.HasPrefix(line, ": keepalive") {
			n++
		}
	}
	for deadline := time.Now().Add(30 * time.Second); ln.Open() != 1; time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%d connections open after the others closed; want the stream's", ln.Open())
		}
	}
}
