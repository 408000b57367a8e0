package sandbox

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Budgets of the filtering proxy: what one confined program can make it
// hold.
const (
	proxyMaxConns     = 64               // connections open at once
	proxyHeaderBytes  = 64 << 10         // request line and headers
	proxyHeaderTime   = 10 * time.Second // to send them
	proxyDialTime     = 10 * time.Second // to reach the host
	proxyRefusedKept  = 16               // refused destinations remembered
	refusedByTheProxy = RefusedByProxy
)

// RefusedByProxy starts what the filtering proxy answers a refused
// destination with (the reason of its 403), and marks the refusal in a
// tool result: Explain recognizes it.
const RefusedByProxy = "Refused by the Juncture sandbox"

// LookupFunc resolves a host name to addresses, as net.Resolver.LookupHost.
type LookupFunc func(ctx context.Context, host string) ([]string, error)

// hostRule is one entry of a host list: a name ("example.com"), every
// name below a domain ("*.example.com"), or an IP address, with a port
// (0: the web's ports, 80 and 443).
type hostRule struct {
	host string // lower case; "*.x" for a domain
	port int
}

// parseHost reads one host list entry: "example.com", "*.example.com",
// "example.com:8443", "10.0.0.5", "[::1]:8080".
func parseHost(entry string) (hostRule, error) {
	e := strings.ToLower(strings.TrimSpace(entry))
	host, port := e, 0
	if h, p, err := net.SplitHostPort(e); err == nil {
		n, err := strconv.Atoi(p)
		if err != nil || n < 1 || n > 65535 {
			return hostRule{}, fmt.Errorf("sandbox: the host %q has an invalid port", entry)
		}
		host, port = h, n
	}
	host = strings.TrimSuffix(strings.Trim(host, "[]"), ".")
	name := strings.TrimPrefix(host, "*.")
	switch {
	case name == "" || strings.ContainsAny(name, "*/@ \t") || strings.Contains(name, ".."):
		return hostRule{}, fmt.Errorf("sandbox: %q is not a host name (write example.com, *.example.com or example.com:8443)", entry)
	case name != host && net.ParseIP(name) != nil:
		return hostRule{}, fmt.Errorf("sandbox: %q: a wildcard needs a domain, not an address", entry)
	}
	if ip, err := netip.ParseAddr(host); err == nil {
		host = ip.Unmap().String()
	}
	return hostRule{host: host, port: port}, nil
}

// matches says whether the rule allows host:port (host lower case).
func (r hostRule) matches(host string, port int) bool {
	if r.port == 0 && port != 80 && port != 443 || r.port != 0 && port != r.port {
		return false
	}
	if d, ok := strings.CutPrefix(r.host, "*."); ok {
		return strings.HasSuffix(host, "."+d)
	}
	return host == r.host
}

// proxyRules is what the proxy lets through: the host list, or (local)
// this machine only.
type proxyRules struct {
	local bool
	hosts []hostRule
}

func (r proxyRules) allows(host string, port int) bool {
	if r.local {
		return isLoopbackName(host)
	}
	return slices.ContainsFunc(r.hosts, func(h hostRule) bool { return h.matches(host, port) })
}

func isLoopbackName(host string) bool {
	if host == "localhost" || strings.HasSuffix(host, ".localhost") {
		return true
	}
	ip, err := netip.ParseAddr(host)
	return err == nil && ip.Unmap().IsLoopback()
}

// publicOnly drops the addresses a listed public name must not lead to
// (loopback, private, link-local, unspecified, multicast), so that a host
// on the list whose name is made to point at this machine or the local
// network (DNS rebinding) does not open a way there. Addresses the list
// names literally are allowed by allows, not through a name.
func publicOnly(addrs []string) []string {
	var out []string
	for _, a := range addrs {
		ip, err := netip.ParseAddr(a)
		if err != nil {
			continue
		}
		ip = ip.Unmap()
		if nat64.Contains(ip) { // a NAT64 gateway reaches the IPv4 address inside
			b := ip.As16()
			if !isPublic(netip.AddrFrom4([4]byte(b[12:]))) {
				continue
			}
		}
		if !isPublic(ip) {
			continue
		}
		out = append(out, ip.String())
	}
	return out
}

// nonPublic are the ranges netip's predicates miss that still lead to this
// machine, a local network or nowhere public: "this network", carrier-grade
// NAT (Tailscale's machines), the reserved and broadcast IPv4 ranges,
// local-use NAT64 and site-local IPv6.
var nonPublic = []netip.Prefix{
	netip.MustParsePrefix("0.0.0.0/8"),
	netip.MustParsePrefix("100.64.0.0/10"),
	netip.MustParsePrefix("240.0.0.0/4"), // 255.255.255.255 included
	netip.MustParsePrefix("64:ff9b:1::/48"),
	netip.MustParsePrefix("fec0::/10"),
}

// nat64 is the well-known NAT64 prefix: its last 32 bits are an IPv4 address.
var nat64 = netip.MustParsePrefix("64:ff9b::/96")

func isPublic(ip netip.Addr) bool {
	if ip.IsLoopback() || ip.IsPrivate() || ip.IsLinkLocalUnicast() || ip.IsLinkLocalMulticast() ||
		ip.IsUnspecified() || ip.IsMulticast() || ip.IsInterfaceLocalMulticast() {
		return false
	}
	return !slices.ContainsFunc(nonPublic, func(p netip.Prefix) bool { return p.Contains(ip) })
}

// proxy is the filtering HTTP proxy one confined program reaches the
// network through (NetLocal, NetHosts): CONNECT for any TCP (HTTPS), and
// plain HTTP requests with an absolute URL. It listens on loopback only,
// lives as long as the program (Wrap's cleanup stops it), and refuses
// every destination its rules do not allow, with a 403 whose reason says
// the sandbox refused it.
type proxy struct {
	rules  proxyRules
	lookup LookupFunc
	ln     net.Listener
	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup

	mu      sync.Mutex
	conns   map[net.Conn]struct{}
	refused []string
}

func startProxy(rules proxyRules, lookup LookupFunc) (*proxy, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("sandbox: starting the network filter: %w", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	p := &proxy{rules: rules, lookup: lookup, ln: ln, ctx: ctx, cancel: cancel, conns: map[net.Conn]struct{}{}}
	p.wg.Add(1)
	go p.serve()
	return p, nil
}

// port is the loopback port the program's proxy variables point at.
func (p *proxy) port() uint16 { return uint16(p.ln.Addr().(*net.TCPAddr).Port) }

func (p *proxy) url() string { return "http://127.0.0.1:" + strconv.Itoa(int(p.port())) }

// stop closes the listener and every connection and waits for them.
func (p *proxy) stop() {
	p.cancel()
	_ = p.ln.Close()
	p.mu.Lock()
	for c := range p.conns {
		_ = c.Close()
	}
	p.mu.Unlock()
	p.wg.Wait()
}

// refusals are the destinations refused so far ("host:port"), oldest
// first, at most proxyRefusedKept.
func (p *proxy) refusals() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return slices.Clone(p.refused)
}

func (p *proxy) serve() {
	defer p.wg.Done()
	for {
		c, err := p.ln.Accept()
		if err != nil {
			return
		}
		if !p.track(c) {
			_, _ = io.WriteString(c, "HTTP/1.1 503 "+refusedByTheProxy+": too many connections\r\nConnection: close\r\nContent-Length: 0\r\n\r\n")
			_ = c.Close()
			continue
		}
		p.wg.Add(1)
		go func() {
			defer p.wg.Done()
			defer p.untrack(c)
			p.handle(c)
		}()
	}
}

// track registers c; false when the budget is spent or the proxy stops.
func (p *proxy) track(c net.Conn) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.conns) >= proxyMaxConns || p.ctx.Err() != nil {
		return false
	}
	p.conns[c] = struct{}{}
	return true
}

func (p *proxy) untrack(c net.Conn) {
	_ = c.Close()
	p.mu.Lock()
	delete(p.conns, c)
	p.mu.Unlock()
}

// handle serves one connection: one CONNECT tunnel, or one plain HTTP
// request (forwarded with "Connection: close", then the connection ends).
func (p *proxy) handle(c net.Conn) {
	_ = c.SetReadDeadline(time.Now().Add(proxyHeaderTime))
	lr := &io.LimitedReader{R: c, N: proxyHeaderBytes}
	br := bufio.NewReader(lr)
	req, err := http.ReadRequest(br)
	if err != nil {
		reply(c, http.StatusBadRequest, "Bad Request: not an HTTP proxy request")
		return
	}
	_ = c.SetReadDeadline(time.Time{})
	lr.N = 1 << 62 // the header is read; the body and the tunnel are not limited here

	target := req.Host
	if req.Method != http.MethodConnect {
		if req.URL == nil || req.URL.Scheme != "http" || req.URL.Host == "" {
			reply(c, http.StatusBadRequest, "Bad Request: only CONNECT and http:// requests are proxied")
			return
		}
		target = req.URL.Host
		if req.URL.Port() == "" {
			target = net.JoinHostPort(req.URL.Hostname(), "80")
		}
	}
	host, portText, err := net.SplitHostPort(target)
	port, perr := strconv.Atoi(portText)
	if err != nil || perr != nil || port < 1 || port > 65535 {
		reply(c, http.StatusBadRequest, "Bad Request: the destination needs a host and a port")
		return
	}
	host = strings.TrimSuffix(strings.ToLower(host), ".")
	if ip, err := netip.ParseAddr(host); err == nil {
		host = ip.Unmap().String()
	}
	dest := net.JoinHostPort(host, strconv.Itoa(port))
	if !p.rules.allows(host, port) {
		p.refuse(dest)
		reply(c, http.StatusForbidden, refusedByTheProxy+": "+dest+" is not allowed")
		return
	}
	up, err := p.dial(host, port)
	if err != nil {
		reply(c, http.StatusBadGateway, "Bad Gateway: "+shortErr(err))
		return
	}
	defer up.Close()
	p.mu.Lock()
	p.conns[up] = struct{}{} // stop closes it too
	p.mu.Unlock()
	defer func() { p.mu.Lock(); delete(p.conns, up); p.mu.Unlock() }()

	if req.Method == http.MethodConnect {
		if _, err := io.WriteString(c, "HTTP/1.1 200 Connection established\r\n\r\n"); err != nil {
			return
		}
		if n := br.Buffered(); n > 0 { // bytes the client sent after the header
			b, _ := br.Peek(n)
			if _, err := up.Write(b); err != nil {
				return
			}
		}
		pipe(c, up)
		return
	}
	req.Header.Del("Proxy-Connection")
	req.Header.Del("Proxy-Authorization")
	req.Close = true
	req.RequestURI = ""
	sent := make(chan struct{})
	go func() { defer close(sent); _ = req.Write(up) }()
	_, _ = io.Copy(c, up)
	_ = c.Close() // a request body still being sent ends with them
	_ = up.Close()
	<-sent
}

// pipe copies both ways until either side ends, then ends both.
func pipe(a, b net.Conn) {
	done := make(chan struct{}, 2)
	go func() { _, _ = io.Copy(a, b); done <- struct{}{} }()
	go func() { _, _ = io.Copy(b, a); done <- struct{}{} }()
	<-done
	_ = a.Close()
	_ = b.Close()
	<-done
}

func (p *proxy) refuse(dest string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !slices.Contains(p.refused, dest) && len(p.refused) < proxyRefusedKept {
		p.refused = append(p.refused, dest)
	}
}

// dial reaches host:port: a literal address as it is, a name through
// lookup. Under a host list a name may only lead to public addresses
// (publicOnly), unless lookup was replaced (tests).
func (p *proxy) dial(host string, port int) (net.Conn, error) {
	ctx, cancel := context.WithTimeout(p.ctx, proxyDialTime)
	defer cancel()
	addrs := []string{host}
	if _, err := netip.ParseAddr(host); err != nil && host != "localhost" {
		lookup := p.lookup
		if lookup == nil {
			lookup = func(ctx context.Context, host string) ([]string, error) {
				as, err := net.DefaultResolver.LookupHost(ctx, host)
				if !p.rules.local {
					as = publicOnly(as)
				}
				return as, err
			}
		}
		var err error
		if addrs, err = lookup(ctx, host); err != nil {
			return nil, fmt.Errorf("looking up %s: %w", host, err)
		}
		if len(addrs) == 0 {
			return nil, fmt.Errorf("%s has no public address", host)
		}
	} else if host == "localhost" {
		addrs = []string{"127.0.0.1", "::1"}
	}
	var d net.Dialer
	var errs []error
	for _, a := range addrs {
		if p.rules.local {
			if ip, err := netip.ParseAddr(a); err != nil || !ip.Unmap().IsLoopback() {
				errs = append(errs, fmt.Errorf("%s is not this machine", a))
				continue
			}
		}
		c, err := d.DialContext(ctx, "tcp", net.JoinHostPort(a, strconv.Itoa(port)))
		if err == nil {
			return c, nil
		}
		errs = append(errs, err)
	}
	return nil, errors.Join(errs...)
}

// reply writes a short HTTP response whose reason phrase carries the
// message (clients show the status line), and the message as its body.
func reply(c net.Conn, code int, msg string) {
	msg = strings.Map(func(r rune) rune {
		if r < ' ' || r == 0x7f {
			return ' '
		}
		return r
	}, msg)
	_, _ = fmt.Fprintf(c, "HTTP/1.1 %d %s\r\nContent-Type: text/plain\r\nConnection: close\r\nContent-Length: %d\r\n\r\n%s\n",
		code, msg, len(msg)+1, msg)
}

func shortErr(err error) string {
	s := err.Error()
	if len(s) > 200 {
		s = s[:200] + "…"
	}
	return s
}
