package framegate

import (
	"bytes"
	"errors"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"testing/fstest"
)

func newGate(t *testing.T, log *slog.Logger) *Gate {
	t.Helper()
	g, err := New(log)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// TestCheckNeedsTheLaunchSecret: only a message that starts with this
// launch's secret reaches Wails, and then without it.
func TestCheckNeedsTheLaunchSecret(t *testing.T) {
	g := newGate(t, nil)
	other := newGate(t, nil)
	if g.secret == other.secret || len(g.secret) != secretLen {
		t.Fatalf("secrets %q and %q", g.secret, other.secret)
	}
	flipped := []byte(g.secret)
	flipped[secretLen-1] ^= 1
	for _, tc := range []struct {
		name, msg, want string
		ok              bool
	}{
		{"quit with the secret", g.secret + "Q", "Q", true},
		{"a bound call with the secret", g.secret + `C{"name":"app.DesktopGate.Session"}`, `C{"name":"app.DesktopGate.Session"}`, true},
		{"the secret alone", g.secret, "", true},
		{"quit bare", "Q", "", false},
		{"browser open bare", "BO:http://127.0.0.1:1/", "", false},
		{"runtime ready bare", "runtime:ready", "", false},
		{"another launch's secret", other.secret + "Q", "", false},
		{"one bit off", string(flipped) + "Q", "", false},
		{"the secret cut short", g.secret[:secretLen-1], "", false},
		{"the secret later in the message", "Q" + g.secret, "", false},
		{"upper case secret", strings.ToUpper(g.secret) + "Q", "", false},
		{"empty", "", "", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := g.Check(tc.msg)
			if ok != tc.ok || got != tc.want {
				t.Fatalf("Check(%q) = %q, %v; want %q, %v", tc.msg, got, ok, tc.want, tc.ok)
			}
		})
	}
}

// TestFilterLogsAFloodWithinBounds: a frame posting 10,000 messages gets
// them all dropped and counted, at most maxLogged log lines, none holding
// more of a message than its kind; the bare runtime:ready of the page's
// first load is dropped without a line.
func TestFilterLogsAFloodWithinBounds(t *testing.T) {
	var buf bytes.Buffer
	g := newGate(t, slog.New(slog.NewTextHandler(&buf, nil)))
	if _, ok := g.Filter(runtimeReady); ok || g.Dropped() != 0 || buf.Len() != 0 {
		t.Fatalf("runtime:ready: dropped %d, log %q", g.Dropped(), buf.String())
	}
	for i := 0; i < 10000; i++ {
		if _, ok := g.Filter("BO:http://marker.invalid/\n\x1b[2Jforged=line"); ok {
			t.Fatal("a bare message went through")
		}
	}
	if g.Dropped() != 10000 {
		t.Fatalf("dropped %d, want 10000", g.Dropped())
	}
	lines := strings.Count(buf.String(), "\n")
	if lines == 0 || lines > maxLogged {
		t.Fatalf("%d log lines, want 1..%d", lines, maxLogged)
	}
	if strings.Contains(buf.String(), "marker") || strings.Contains(buf.String(), "forged") || !strings.Contains(buf.String(), "kind=BO") {
		t.Fatalf("log: %s", buf.String())
	}
	if rest, ok := g.Filter(g.secret + "WTtitle"); !ok || rest != "WTtitle" {
		t.Fatalf("the window's own message: %q, %v", rest, ok)
	}
}

func TestKind(t *testing.T) {
	for msg, want := range map[string]string{"Q": "Q", "BO:x": "BO", "EEx": "EE", "": "", "\x1bQ": "", "W\n": "W", "[]": "", "{x": ""} {
		if got := kind(msg); got != want {
			t.Errorf("kind(%q) = %q, want %q", msg, got, want)
		}
	}
}

// TestPageWrapsWailsInvokeInTheTopFrame: the wrapper goes first in <head>
// (after Wails' own scripts, before the page's), holds the secret, stays
// out of a framed copy, and sends runtime:ready again; the real page has
// a <head> for it.
func TestPageWrapsWailsInvokeInTheTopFrame(t *testing.T) {
	g := newGate(t, nil)
	index, err := os.ReadFile("../../frontend/index.html")
	if err != nil {
		t.Fatal(err)
	}
	page, err := g.Page(index)
	if err != nil {
		t.Fatal(err)
	}
	s := string(page)
	head := strings.Index(s, "<head>")
	script := strings.Index(s, "<script>")
	if head < 0 || script != head+len("<head>") {
		t.Fatalf("the wrapper is not first in <head>:\n%s", s)
	}
	for _, want := range []string{`"` + g.secret + `"`, "window.top!==window", `window.WailsInvoke("runtime:ready")`} {
		if !strings.Contains(s, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	if strings.Index(s, "<script>") > strings.Index(s, `type="module"`) {
		t.Error("the wrapper comes after the page's own script")
	}
	if _, err := g.Page([]byte("<html><body>no head</body></html>")); !errors.Is(err, errNoHead) {
		t.Fatalf("no <head>: %v", err)
	}
	upper, err := g.Page([]byte("<HTML><HEAD><TITLE>x</TITLE></HEAD></HTML>"))
	if err != nil || !strings.HasPrefix(string(upper), "<HTML><HEAD><script>") {
		t.Fatalf("upper case: %q, %v", upper, err)
	}
}

// TestMiddlewareServesTheWrappedPage: "/" and "/index.html" get the page
// with the wrapper and may not be framed; everything else, and anything
// but GET, goes to the asset handler as before.
func TestMiddlewareServesTheWrappedPage(t *testing.T) {
	g := newGate(t, nil)
	assets := fstest.MapFS{"index.html": {Data: []byte("<!doctype html><html><head><title>J</title></head><body></body></html>")}}
	mw, err := g.wrap(assets)
	if err != nil {
		t.Fatal(err)
	}
	next := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = w.Write([]byte("next " + r.Method + " " + r.URL.Path))
	})
	h := mw(next)
	for _, tc := range []struct{ method, path, want string }{
		{"GET", "/", g.secret},
		{"GET", "/index.html", g.secret},
		{"GET", "/assets/index.js", "next GET /assets/index.js"},
		{"GET", "/appview/abc", "next GET /appview/abc"},
		{"POST", "/", "next POST /"},
	} {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(tc.method, tc.path, nil))
		if !strings.Contains(rec.Body.String(), tc.want) {
			t.Errorf("%s %s: %q", tc.method, tc.path, rec.Body.String())
		}
		if tc.want == g.secret {
			if rec.Header().Get("Content-Security-Policy") != "frame-ancestors 'none'" || !strings.HasPrefix(rec.Header().Get("Content-Type"), "text/html") {
				t.Errorf("%s %s: headers %v", tc.method, tc.path, rec.Header())
			}
		}
	}
	if _, err := g.wrap(fstest.MapFS{"index.html": {Data: []byte("<body>")}}); !errors.Is(err, errNoHead) {
		t.Fatalf("no <head>: %v", err)
	}
	// Not built: nothing to wrap, the gate off (Install skips it).
	bare := newGate(t, nil)
	if mw, err := bare.wrap(fstest.MapFS{".gitkeep": {}}); mw != nil || err != nil || !bare.off {
		t.Fatalf("no index.html: %v, %v, off %v", mw != nil, err, bare.off)
	}
}

// TestFilterReadsOnlyTheHead: the window's handler hands Go the first
// headLen bytes of a message however long it is; that decides.
func TestFilterReadsOnlyTheHead(t *testing.T) {
	var buf bytes.Buffer
	g := newGate(t, slog.New(slog.NewTextHandler(&buf, nil)))
	long := g.secret + strings.Repeat("x", 100)
	if skip, ok := g.filterHead(long[:headLen], 1<<30); !ok || skip != secretLen {
		t.Fatalf("the window's long message: %d, %v", skip, ok)
	}
	if _, ok := g.filterHead(strings.Repeat("Q", headLen), 1<<30); ok || !strings.Contains(buf.String(), "bytes=1073741824") {
		t.Fatalf("a 1 GiB frame message: %v, log %q", ok, buf.String())
	}
	// runtime:ready is dropped silently only when it is the whole message.
	if _, ok := g.filterHead(runtimeReady, len(runtimeReady)+1); ok || g.Dropped() != 2 {
		t.Fatalf("runtime:ready and more: dropped %d", g.Dropped())
	}
}
