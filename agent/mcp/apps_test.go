package mcp

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/juncture-app/juncture/agent/tools"
)

var appBuild struct {
	once sync.Once
	path string
	err  error
}

// startApps runs internal/appserver as "apps" and waits until it is ready.
func startApps(t testing.TB) *Manager {
	t.Helper()
	appBuild.once.Do(func() { appBuild.path, appBuild.err = buildTestServer("internal/appserver", "appserver") })
	if appBuild.err != nil {
		t.Fatal(appBuild.err)
	}
	m := newManager(t, Options{})
	m.Apply(Config{Servers: map[string]ServerConfig{"apps": {Command: appBuild.path, Env: map[string]string{"APPSERVER_PROBE": "http://127.0.0.1:9"}}}})
	waitFor(t, m, "apps", "ready", isReady)
	return m
}

// A tool with a view gets a PartApp naming its ui:// resource; the view
// reads with its declared CSP, hostile entries dropped.
func TestAppViewOfARealServer(t *testing.T) {
	t.Parallel()
	m := startApps(t)
	ctx := context.Background()
	res := runTool(t, ctx, m, nil, "apps", "clock", map[string]any{})
	var app *tools.Part
	for i := range res.Parts {
		if res.Parts[i].Kind == tools.PartApp {
			app = &res.Parts[i]
		}
	}
	if app == nil || app.URI != "ui://clock/view.html" || app.Name != "apps" {
		t.Fatalf("parts %+v", res.Parts)
	}
	if !strings.Contains(res.Content, "It is 12:00.") {
		t.Fatalf("content %q", res.Content)
	}
	v, err := m.ReadAppView(ctx, "apps", app.URI)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(v.HTML, "ui/initialize") || !v.PrefersBorder {
		t.Fatalf("view %+v", v)
	}
	if strings.Join(v.CSP.ConnectDomains, " ") != "https://api.example.com" || strings.Join(v.CSP.ResourceDomains, " ") != "https://*.cdn.example.com" {
		t.Fatalf("csp %+v", v.CSP)
	}
	if len(v.Dropped) != 2 {
		t.Fatalf("dropped %v", v.Dropped)
	}
	// Over the budget (the 3 MiB view): TestAppViewBudgetsAndMeta here, and
	// e2e/mcp-apps.test.mjs against this server (3 MiB through stdio under
	// -race on a loaded machine can outlast the 15 s read timeout).
	// Not a ui:// resource: refused before asking the server.
	for _, uri := range []string{"file:///etc/passwd", "https://example.com/", "ui://", "ui://x y"} {
		if _, err := m.ReadAppView(ctx, "apps", uri); !errors.Is(err, ErrNotAnApp) {
			t.Fatalf("%s: %v", uri, err)
		}
	}
	if _, err := m.ReadAppView(ctx, "nope", "ui://clock/view.html"); !errors.Is(err, ErrUnknownServer) {
		t.Fatalf("unknown server: %v", err)
	}
}

// A view may call its server's tools whose visibility includes "app"
// (or is not said), and no other.
func TestAppToolName(t *testing.T) {
	t.Parallel()
	m := startApps(t)
	waitTool(t, m, "apps", "stamp")
	if n, err := m.AppToolName("apps", "stamp"); err != nil || n != "apps__stamp" {
		t.Fatalf("stamp: %q %v", n, err)
	}
	if n, err := m.AppToolName("apps", "clock"); err != nil || n != "apps__clock" {
		t.Fatalf("clock: %q %v", n, err)
	}
	for _, tool := range []string{"secret", "write_file", "apps__stamp", ""} {
		if _, err := m.AppToolName("apps", tool); !errors.Is(err, ErrNotOffered) {
			t.Fatalf("%q: %v", tool, err)
		}
	}
	if _, err := m.AppToolName("other", "stamp"); !errors.Is(err, ErrUnknownServer) {
		t.Fatalf("other server: %v", err)
	}
}

// A tool whose visibility is ["app"] is for its views only: the model's
// tool list leaves it out (and the registry refuses a model's call of
// it), its views may still call it and it runs.
func TestAppOnlyToolIsNotOfferedToTheModel(t *testing.T) {
	t.Parallel()
	m := startApps(t)
	waitTool(t, m, "apps", "tally")
	reg, err := tools.NewRegistry(m.Tools()...)
	if err != nil {
		t.Fatal(err)
	}
	offered := map[string]bool{}
	for _, s := range reg.Specs() {
		offered[s.Name] = true
	}
	if offered["apps__tally"] || !offered["apps__clock"] || !offered["apps__stamp"] || !offered["apps__secret"] {
		t.Fatalf("offered to the model: %v", offered)
	}
	if _, bad := reg.Prepare("apps__tally", `{"n":2}`); bad == nil || !strings.Contains(bad.Content, "Unknown tool") {
		t.Fatalf("a model's call of apps__tally: %+v", bad)
	}
	n, err := m.AppToolName("apps", "tally")
	if err != nil || n != "apps__tally" {
		t.Fatalf("tally for the view: %q %v", n, err)
	}
	c, bad := reg.PrepareFromView(n, `{"n":2}`)
	if bad != nil {
		t.Fatalf("the view's call: %s", bad.Content)
	}
	if res := reg.Execute(context.Background(), c); res.IsError || !strings.Contains(res.Content, "tally: 2") {
		t.Fatalf("the view's call ran: %+v", res)
	}
}

// Hostile twins of what a resource declares: only plain origins become
// CSP sources; anything that could end a directive or widen it is
// dropped.
func TestCSPOrigin(t *testing.T) {
	ok := []struct{ in, out string }{
		{"https://api.example.com", "https://api.example.com"},
		{"HTTPS://API.Example.com/", "https://api.example.com"},
		{"https://*.example.com", "https://*.example.com"},
		{"wss://rt.example.com:8443", "wss://rt.example.com:8443"},
		{"http://localhost:3000", "http://localhost:3000"},
	}
	for _, c := range ok {
		if got, good := cspOrigin(c.in); !good || got != c.out {
			t.Errorf("%q: %q %v", c.in, got, good)
		}
	}
	for _, bad := range []string{
		"*", "'unsafe-inline'", "'unsafe-eval'", "'self'", "data:", "blob:", "https:", "https://*",
		"https://a.com; script-src *", "https://a.com 'unsafe-inline'", "https://a.com,https://b.com",
		"javascript:alert(1)", "https://a.com/path", "https://a.com/?q", "ftp://a.com", "https://*.*.com",
		"https://a.com:99999999", "https://" + strings.Repeat("a", 300) + ".com", "https://a.com\nx", "",
	} {
		if got, good := cspOrigin(bad); good {
			t.Errorf("%q accepted as %q", bad, got)
		}
	}
}

func TestAppViewBudgetsAndMeta(t *testing.T) {
	many := make([]any, 40)
	for i := range many {
		many[i] = "https://a.example.com"
	}
	csp, border, dropped := readUIMeta(sdk.Meta{"ui": map[string]any{"prefersBorder": true, "csp": map[string]any{"connectDomains": many, "frameDomains": []any{42, "https://f.example.com"}}}})
	if len(csp.ConnectDomains) != maxCSPDomains || !border || len(csp.FrameDomains) != 1 || len(dropped) != 2 {
		t.Fatalf("csp %+v border %v dropped %v", csp, border, dropped)
	}
	for _, res := range []*sdk.ReadResourceResult{nil, {}, {Contents: []*sdk.ResourceContents{{URI: "ui://a", MIMEType: "text/plain", Text: "<p>"}}}, {Contents: []*sdk.ResourceContents{{URI: "ui://a", MIMEType: AppMIMEType}}}} {
		if _, err := appViewOf("s", "ui://a", res); !errors.Is(err, ErrNotAnApp) {
			t.Fatalf("%+v: %v", res, err)
		}
	}
	exact := strings.Repeat("x", MaxAppViewBytes)
	if _, err := appViewOf("s", "ui://a", &sdk.ReadResourceResult{Contents: []*sdk.ResourceContents{{MIMEType: "text/html", Text: exact}}}); err != nil {
		t.Fatalf("at the budget: %v", err)
	}
	if _, err := appViewOf("s", "ui://a", &sdk.ReadResourceResult{Contents: []*sdk.ResourceContents{{MIMEType: "text/html", Text: exact + "x"}}}); err == nil {
		t.Fatal("over the budget: no error")
	}
	if am := toolAppMeta(&sdk.Tool{Meta: sdk.Meta{"ui/resourceUri": "ui://old/view"}}); am.resourceURI != "ui://old/view" || !am.callableByView() {
		t.Fatalf("legacy key: %+v", am)
	}
	if am := toolAppMeta(&sdk.Tool{Meta: sdk.Meta{"ui": map[string]any{"resourceUri": "https://evil/", "visibility": []any{"model"}}}}); am.resourceURI != "" || am.callableByView() {
		t.Fatalf("non-ui uri or model-only: %+v", am)
	}
}

// TestCSPOriginWildcardNeedsADomain: "*." over a single label (a whole
// top-level domain) is as broad as "https:", which is refused.
func TestCSPOriginWildcardNeedsADomain(t *testing.T) {
	for _, bad := range []string{"https://*.com", "wss://*.io", "http://*.localhost:*"} {
		if got, good := cspOrigin(bad); good {
			t.Errorf("%q accepted as %q", bad, got)
		}
	}
	if _, good := cspOrigin("https://*.example.com"); !good {
		t.Error("https://*.example.com refused")
	}
}

// TestCSPOriginWildcardNeedsARegistrableDomain: "*." over a public suffix
// of two labels ("*.co.uk", "*.github.io") is as broad as "*.com": every
// site registered under it.
func TestCSPOriginWildcardNeedsARegistrableDomain(t *testing.T) {
	for _, bad := range []string{"https://*.co.uk", "https://*.github.io", "wss://*.com.au:443"} {
		if got, good := cspOrigin(bad); good {
			t.Errorf("%q accepted as %q", bad, got)
		}
	}
	for _, ok := range []string{"https://*.example.co.uk", "https://*.me.github.io", "https://api.co.uk"} {
		if _, good := cspOrigin(ok); !good {
			t.Errorf("%q refused", ok)
		}
	}
}

// TestCSPOriginWildcardOverWildcardSuffix: "*." over a name whose every
// subdomain is a public suffix (the list's wildcard rules: "*.kawasaki.jp",
// "*.sch.uk", "*.compute.amazonaws.com") is broader still than "*.co.uk":
// every site registered under every one of them. The name itself is not a
// public suffix, so asking about it alone let these through.
func TestCSPOriginWildcardOverWildcardSuffix(t *testing.T) {
	for _, bad := range []string{"https://*.kawasaki.jp", "https://*.sch.uk", "https://*.nom.br", "https://*.compute.amazonaws.com:443"} {
		if got, good := cspOrigin(bad); good {
			t.Errorf("%q accepted as %q", bad, got)
		}
	}
	for _, ok := range []string{"https://*.city.kawasaki.jp", "https://*.school.x.sch.uk", "https://*.example.com"} {
		if _, good := cspOrigin(ok); !good {
			t.Errorf("%q refused", ok)
		}
	}
}

// TestCSPOriginWildcardOverAnIPAddress: a host whose last label is a
// number is an IPv4 address's tail, never a domain: "https://*.1.1" is
// not one site's subdomains but every address a.b.1.1 (65,536 hosts,
// private networks among them), and the public suffix list, which knows
// no numeric top-level domain, let it through. A plain address stays an
// origin.
func TestCSPOriginWildcardOverAnIPAddress(t *testing.T) {
	checkCSPOrigins(t, []string{"https://*.0.0.1", "https://*.1.1", "wss://*.168.192:8080", "https://*.example.1"},
		[]string{"https://10.0.0.1", "http://127.0.0.1:8080", "https://*.1example.com", "https://*.example.x1"})
}

// TestCSPOriginPortInRange: a port past 65535 is no origin's; the view's
// CSP got a source the browser cannot parse instead of the server being
// told it was dropped.
func TestCSPOriginPortInRange(t *testing.T) {
	checkCSPOrigins(t, []string{"https://example.com:99999", "https://*.example.com:65536", "wss://a.example.com:00000"},
		[]string{"https://example.com:65535", "https://example.com:1", "https://example.com:*"})
}

// checkCSPOrigins: cspOrigin refuses every one of bad and takes every one of good.
func checkCSPOrigins(t *testing.T, bad, good []string) {
	t.Helper()
	for _, s := range bad {
		if got, ok := cspOrigin(s); ok {
			t.Errorf("%q accepted as %q", s, got)
		}
	}
	for _, s := range good {
		if _, ok := cspOrigin(s); !ok {
			t.Errorf("%q refused", s)
		}
	}
}
