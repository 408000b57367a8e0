package sandbox

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"go.uber.org/goleak"
)

// TestProxyHostList: a confined program whose network is a host list
// reaches a listed host through the sandbox's proxy (a loopback server
// given a name by the proxy's lookup), over plain HTTP and over CONNECT
// (HTTPS); another host is refused by the proxy with a status that says
// so, a direct connection is refused by Landlock, and Refused names the
// refused destination. Nothing of the proxy outlives the cleanup.
func TestProxyHostList(t *testing.T) {
	needLandlock(t)
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	hello := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, "hello from "+r.Host) })
	plain := httptest.NewServer(hello)
	defer plain.Close()
	tlsSrv := httptest.NewTLSServer(hello)
	defer tlsSrv.Close()
	port := func(s *httptest.Server) string { return strconv.Itoa(s.Listener.Addr().(*net.TCPAddr).Port) }

	lookup := func(_ context.Context, host string) ([]string, error) {
		if host == "allowed.test" || host == "denied.test" {
			return []string{"127.0.0.1"}, nil
		}
		return nil, fmt.Errorf("no such host %s", host)
	}
	s := New(Options{ProxyLookup: lookup})
	pl := newPlace(t)
	p := Policy{Write: []string{pl.ws}, Read: []string{filepath.Dir(selfExe(t))}, Network: NetHosts,
		Hosts: []string{"allowed.test:" + port(plain), "allowed.test:" + port(tlsSrv)}}

	run := func(env string) (Status, []string, string, error) {
		cmd := exec.Command(selfExe(t))
		cmd.Dir = pl.ws
		cmd.Env = []string{"PATH=/usr/bin:/bin", "HOME=" + pl.home, env, "NO_PROXY=*"}
		st, cleanup, err := s.Wrap(cmd, p)
		if err != nil {
			t.Fatal(err)
		}
		defer cleanup()
		out, err := cmd.CombinedOutput()
		return st, Refused(cmd), string(out), err
	}

	st, _, out, err := run(getEnv + "=http://allowed.test:" + port(plain) + "/")
	if err != nil || !strings.Contains(out, "status 200: hello from allowed.test") {
		t.Errorf("plain HTTP to a listed host: %v\n%s", err, out)
	}
	if want := "network: only allowed.test:" + port(plain) + ", allowed.test:" + port(tlsSrv) + ", through the sandbox's proxy"; !strings.Contains(st.String(), want) {
		t.Errorf("status %s, want %q", st, want)
	}
	_, _, out, err = run(getEnv + "=https://allowed.test:" + port(tlsSrv) + "/")
	if err != nil || !strings.Contains(out, "status 200: hello from allowed.test") {
		t.Errorf("HTTPS (CONNECT) to a listed host: %v\n%s", err, out)
	}
	for _, url := range []string{"http://denied.test:" + port(plain) + "/", "https://denied.test:" + port(tlsSrv) + "/"} {
		st, refused, out, _ := run(getEnv + "=" + url)
		if strings.Contains(out, "hello") || !strings.Contains(out, refusedByTheProxy) {
			t.Errorf("%s: not refused by the proxy:\n%s", url, out)
		}
		if len(refused) != 1 || !strings.HasPrefix(refused[0], "denied.test:") {
			t.Errorf("%s: Refused = %q", url, refused)
		}
		if !strings.Contains(Explain(st, out), "The sandbox (landlock) refused") {
			t.Errorf("%s: the refusal is not explained: %q", url, Explain(st, out))
		}
	}
	_, _, out, err = run(dialEnv + "=" + plain.Listener.Addr().String())
	if err == nil || !strings.Contains(out, "permission denied") {
		t.Errorf("a direct connection around the proxy: %v\n%s", err, out)
	}
}

// TestProxyLocal: with network "local" the proxy reaches this machine
// and refuses other hosts, and a name only reaches loopback addresses.
func TestProxyLocal(t *testing.T) {
	needLandlock(t)
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, "local") }))
	defer srv.Close()
	_, portText, _ := net.SplitHostPort(srv.Listener.Addr().String())
	lookup := func(context.Context, string) ([]string, error) { return []string{"192.0.2.1"}, nil }
	pl := newPlace(t)
	p := Policy{Write: []string{pl.ws}, Read: []string{filepath.Dir(selfExe(t))}, Network: NetLocal}
	for url, want := range map[string]string{
		"http://127.0.0.1:" + portText + "/":      "status 200: local",
		"http://localhost:" + portText + "/":      "status 200: local",
		"http://example.test:" + portText + "/":   refusedByTheProxy,
		"http://localhost.test:" + portText + "/": refusedByTheProxy,
	} {
		cmd := exec.Command(selfExe(t))
		cmd.Env = []string{"PATH=/usr/bin:/bin", getEnv + "=" + url}
		st, cleanup, err := New(Options{ProxyLookup: lookup}).Wrap(cmd, p)
		if err != nil {
			t.Fatal(err)
		}
		out, _ := cmd.CombinedOutput()
		cleanup()
		if !strings.Contains(string(out), want) {
			t.Errorf("%s: want %q:\n%s", url, want, out)
		}
		if !strings.Contains(st.Network, "this machine only") {
			t.Errorf("status %s", st)
		}
	}
}

func TestParseHost(t *testing.T) {
	tests := []struct {
		in   string
		want hostRule
		bad  bool
	}{
		{"Example.COM.", hostRule{"example.com", 0}, false},
		{"*.github.com", hostRule{"*.github.com", 0}, false},
		{"api.example.com:8443", hostRule{"api.example.com", 8443}, false},
		{"[::1]:80", hostRule{"::1", 80}, false},
		{"10.0.0.5", hostRule{"10.0.0.5", 0}, false},
		{"::ffff:10.0.0.5", hostRule{"10.0.0.5", 0}, false},
		{"*", hostRule{}, true},
		{"*.10.0.0.5", hostRule{}, true},
		{"a.com:0", hostRule{}, true},
		{"a.com:http", hostRule{}, true},
		{"user@a.com", hostRule{}, true},
		{"a..com", hostRule{}, true},
		{"", hostRule{}, true},
	}
	for _, tt := range tests {
		got, err := parseHost(tt.in)
		if (err != nil) != tt.bad || got != tt.want {
			t.Errorf("parseHost(%q) = %+v, %v", tt.in, got, err)
		}
	}
	r := proxyRules{hosts: []hostRule{{"example.com", 0}, {"*.github.com", 0}, {"db.test", 5432}}}
	for _, c := range []struct {
		host string
		port int
		ok   bool
	}{
		{"example.com", 443, true}, {"example.com", 80, true}, {"example.com", 22, false},
		{"api.github.com", 443, true}, {"github.com", 443, false}, {"evilgithub.com", 443, false},
		{"db.test", 5432, true}, {"db.test", 443, false}, {"example.com.evil", 443, false},
	} {
		if got := r.allows(c.host, c.port); got != c.ok {
			t.Errorf("allows(%s, %d) = %v", c.host, c.port, got)
		}
	}
	if got := publicOnly([]string{"127.0.0.1", "10.1.2.3", "192.168.0.1", "169.254.169.254", "::1", "fe80::1", "0.0.0.0", "93.184.216.34", "2606:2800::1", "::ffff:127.0.0.1"}); !slices.Equal(got, []string{"93.184.216.34", "2606:2800::1"}) {
		t.Errorf("publicOnly = %q", got)
	}
}

// TestProxyBudgets: the proxy answers garbage and an oversized header
// with 400 and holds no more than its connection budget; stopping it
// ends every connection it holds.
func TestProxyBudgets(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	px, err := startProxy(proxyRules{local: true}, nil)
	if err != nil {
		t.Fatal(err)
	}
	addr := px.ln.Addr().String()
	roundTrip := func(req string) string {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		go func() { _, _ = c.Write([]byte(req)) }()
		b := make([]byte, 512)
		n, _ := c.Read(b)
		return string(b[:n])
	}
	if got := roundTrip("hello\r\n\r\n"); !strings.HasPrefix(got, "HTTP/1.1 400") {
		t.Errorf("garbage: %q", got)
	}
	if got := roundTrip("GET http://localhost/ HTTP/1.1\r\nX: " + strings.Repeat("a", proxyHeaderBytes) + "\r\n\r\n"); !strings.HasPrefix(got, "HTTP/1.1 400") {
		t.Errorf("oversized header: %q", got)
	}
	if got := roundTrip("CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n"); !strings.HasPrefix(got, "HTTP/1.1 403 "+refusedByTheProxy) {
		t.Errorf("a host outside: %q", got)
	}
	var held []net.Conn
	for range proxyMaxConns + 1 {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		held = append(held, c)
	}
	b := make([]byte, 64)
	if n, _ := held[proxyMaxConns].Read(b); !strings.Contains(string(b[:n]), "503") {
		t.Errorf("over the budget: %q", b[:n])
	}
	px.stop()
	for _, c := range held {
		c.Close()
	}
	if got := px.refusals(); !slices.Equal(got, []string{"example.com:443"}) {
		t.Errorf("refusals = %q", got)
	}
}
