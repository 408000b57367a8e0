package sandbox

import (
	"net"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/juncture-app/juncture/agent/sandbox/sandboxtest"
)

// TestProxyPortReachableElsewhereIsSaid: Landlock's TCP rules name ports,
// not addresses, so a program whose network goes through the filtering
// proxy can connect to the proxy's port on any other host (here 127.0.0.2,
// which no host list names) around the proxy. Until the sandbox can
// refuse that, the Status must say it.
func TestProxyPortReachableElsewhereIsSaid(t *testing.T) {
	needLandlock(t)
	pl := newPlace(t)
	p := Policy{Write: []string{pl.ws}, Read: []string{filepath.Dir(selfExe(t))}, Network: NetHosts, Hosts: []string{"example.com"}}
	cmd := exec.Command(selfExe(t))
	cmd.Env = []string{"PATH=/usr/bin:/bin"}
	st, cleanup, err := New(Options{}).Wrap(cmd, p)
	if err != nil {
		t.Fatal(err)
	}
	defer cleanup()
	var proxyURL string
	for _, kv := range cmd.Env {
		if v, ok := strings.CutPrefix(kv, "HTTP_PROXY="); ok {
			proxyURL = v
		}
	}
	_, port, _ := net.SplitHostPort(strings.TrimPrefix(proxyURL, "http://"))
	ln, err := net.Listen("tcp4", "127.0.0.2:"+port) // stands for a server elsewhere on the proxy's port
	if err != nil {
		t.Skipf("cannot listen on 127.0.0.2:%s: %v", port, err)
	}
	defer ln.Close()
	sandboxtest.AcceptAll(ln)
	cmd.Env = append(cmd.Env, dialEnv+"="+ln.Addr().String())
	out, _ := cmd.CombinedOutput()
	if strings.Contains(string(out), "connected") && !strings.Contains(st.String(), "port on any host") {
		t.Errorf("the program reached %s around the proxy, and the status does not say it can: %s", ln.Addr(), st)
	}
	if !strings.Contains(st.String(), "port on any host") {
		t.Errorf("the status does not say the proxy's port is reachable everywhere: %s", st)
	}
}
