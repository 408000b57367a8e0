package mcp

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"golang.org/x/net/publicsuffix"

	"github.com/juncture-app/juncture/agent/tools"
)

// MCP Apps (the ext-apps extension, protocol 2026-01-26): a tool whose
// definition carries _meta.ui.resourceUri (or the older
// _meta["ui/resourceUri"]) has an interactive view, a ui:// resource of
// its server holding one HTML document. Its result gets a PartApp naming
// the view; the window reads it with ReadAppView and shows it in a
// sandboxed frame whose Content-Security-Policy allows only the origins
// the resource declares (_meta.ui.csp). Budgets are decided here, before
// anything is read.

const (
	// MaxAppViewBytes is the largest view Juncture shows: a bundled
	// single-file app is typically well under 1 MiB; one over 2 MiB is
	// refused with an error saying so.
	MaxAppViewBytes = 2 << 20
	// maxCSPDomains caps each declared origin list; maxDomainLen one entry.
	maxCSPDomains = 32
	maxDomainLen  = 200
	// AppMIMEType is the view's declared type.
	AppMIMEType = "text/html;profile=mcp-app"
)

// ErrNotAnApp: the resource is not an MCP App view.
var ErrNotAnApp = errors.New("mcp: not an MCP App view")

// AppCSP is what a view declares it needs (McpUiResourceCsp): origins
// such as https://api.example.com or https://*.example.com. Only entries
// that are a plain origin are kept; the rest are listed in Dropped.
type AppCSP struct {
	ConnectDomains  []string `json:"connectDomains"`
	ResourceDomains []string `json:"resourceDomains"`
	FrameDomains    []string `json:"frameDomains"`
	BaseURIDomains  []string `json:"baseUriDomains"`
}

// AppView is a read view: its HTML and what it declared.
type AppView struct {
	Server        string   `json:"server"`
	URI           string   `json:"uri"`
	HTML          string   `json:"html"`
	CSP           AppCSP   `json:"csp"`
	PrefersBorder bool     `json:"prefersBorder"`
	Dropped       []string `json:"dropped"` // declared origins Juncture did not accept, and why
}

// appMeta is the _meta.ui of a tool.
type appMeta struct {
	resourceURI string
	visibility  []string // nil: not said (model and app)
}

// toolAppMeta reads a tool's _meta.ui (and the older "ui/resourceUri").
// A resource URI that is not ui:// is ignored.
func toolAppMeta(t *sdk.Tool) appMeta {
	var am appMeta
	if t == nil || t.Meta == nil {
		return am
	}
	if ui, ok := t.Meta["ui"].(map[string]any); ok {
		if u, ok := ui["resourceUri"].(string); ok {
			am.resourceURI = u
		}
		if vs, ok := ui["visibility"].([]any); ok {
			am.visibility = []string{}
			for _, v := range vs {
				if s, ok := v.(string); ok {
					am.visibility = append(am.visibility, s)
				}
			}
		}
	}
	if am.resourceURI == "" {
		if u, ok := t.Meta["ui/resourceUri"].(string); ok {
			am.resourceURI = u
		}
	}
	if !isUIURI(am.resourceURI) {
		am.resourceURI = ""
	}
	return am
}

// callableByView: a view may call the tool unless its visibility leaves
// "app" out.
func (am appMeta) callableByView() bool {
	if am.visibility == nil {
		return true
	}
	for _, v := range am.visibility {
		if v == "app" {
			return true
		}
	}
	return false
}

// viewOnly: the tool's visibility is said and leaves "model" out (the
// spec's ["app"]): the model is not offered it; its views call it.
func (am appMeta) viewOnly() bool {
	if am.visibility == nil {
		return false
	}
	for _, v := range am.visibility {
		if v == "model" {
			return false
		}
	}
	return true
}

func isUIURI(u string) bool {
	return strings.HasPrefix(u, "ui://") && len(u) > len("ui://") && len(u) <= 2048 && !strings.ContainsAny(u, " \t\r\n\x00")
}

// ReadAppView reads a server's ui:// view (resources/read). It refuses
// a URI that is not ui://, a read with no HTML content, and one over
// MaxAppViewBytes.
func (m *Manager) ReadAppView(ctx context.Context, server, uri string) (AppView, error) {
	if !isUIURI(uri) {
		return AppView{}, fmt.Errorf("%w: %q is not a ui:// resource", ErrNotAnApp, shorten(uri, 200))
	}
	s, sess, err := m.readySession(server)
	if err != nil {
		return AppView{}, err
	}
	ctx, cancel := context.WithTimeout(ctx, offerTimeout)
	defer cancel()
	res, err := sess.cs.ReadResource(ctx, &sdk.ReadResourceParams{URI: uri})
	if err != nil {
		return AppView{}, requestError("reading the view "+shorten(uri, 200), s.name, err)
	}
	return appViewOf(server, uri, res)
}

// appViewOf picks the view's HTML out of a read: the first text content
// of type text/html (with or without the mcp-app profile).
func appViewOf(server, uri string, res *sdk.ReadResourceResult) (AppView, error) {
	if res == nil {
		return AppView{}, fmt.Errorf("%w: %s returned nothing for %s", ErrNotAnApp, server, shorten(uri, 200))
	}
	for _, c := range res.Contents {
		if c == nil || !isHTMLType(c.MIMEType) {
			continue
		}
		html := c.Text
		if c.Blob != nil {
			html = string(c.Blob)
		}
		if len(html) > MaxAppViewBytes {
			return AppView{}, fmt.Errorf("the view %s of %s is %s, over the %s Juncture shows", shorten(uri, 200), server, humanSize(len(html)), humanSize(MaxAppViewBytes))
		}
		if html == "" {
			return AppView{}, fmt.Errorf("%w: the view %s of %s is empty", ErrNotAnApp, shorten(uri, 200), server)
		}
		v := AppView{Server: server, URI: uri, HTML: html, Dropped: []string{}}
		v.CSP, v.PrefersBorder, v.Dropped = readUIMeta(c.Meta)
		return v, nil
	}
	return AppView{}, fmt.Errorf("%w: %s returned no HTML for %s", ErrNotAnApp, server, shorten(uri, 200))
}

func isHTMLType(t string) bool {
	base := strings.ToLower(strings.TrimSpace(strings.SplitN(t, ";", 2)[0]))
	return base == "text/html"
}

// readUIMeta reads a view's _meta.ui: its CSP (only plain origins kept)
// and whether it prefers a border.
func readUIMeta(meta sdk.Meta) (csp AppCSP, border bool, dropped []string) {
	csp = AppCSP{ConnectDomains: []string{}, ResourceDomains: []string{}, FrameDomains: []string{}, BaseURIDomains: []string{}}
	dropped = []string{}
	ui, _ := meta["ui"].(map[string]any)
	if ui == nil {
		return csp, false, dropped
	}
	border, _ = ui["prefersBorder"].(bool)
	c, _ := ui["csp"].(map[string]any)
	if c == nil {
		return csp, border, dropped
	}
	read := func(key string) []string {
		list, _ := c[key].([]any)
		out := []string{}
		for i, v := range list {
			if i >= maxCSPDomains {
				dropped = append(dropped, fmt.Sprintf("%s: %d more origins (at most %d are kept)", key, len(list)-i, maxCSPDomains))
				break
			}
			s, _ := v.(string)
			if o, ok := cspOrigin(s); ok {
				out = append(out, o)
			} else {
				dropped = append(dropped, fmt.Sprintf("%s: %q is not an origin", key, shorten(s, 80)))
			}
		}
		return out
	}
	csp.ConnectDomains = read("connectDomains")
	csp.ResourceDomains = read("resourceDomains")
	csp.FrameDomains = read("frameDomains")
	csp.BaseURIDomains = read("baseUriDomains")
	return csp, border, dropped
}

// originRE is what a declared origin may be: http(s) or ws(s), a host
// (optionally with one leading "*." for its subdomains), an optional
// port. No path, no keyword ('unsafe-inline', *), no separator that
// would end the directive.
var originRE = regexp.MustCompile(`^(https?|wss?)://(\*\.)?[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*(:([0-9]{1,5}|\*))?/?$`)

// cspOrigin is a declared origin as a CSP source, lower-cased without a
// trailing slash, if it is one.
func cspOrigin(s string) (string, bool) {
	s = strings.ToLower(strings.TrimSpace(s))
	if len(s) > maxDomainLen || !originRE.MatchString(s) {
		return "", false
	}
	// A port is one of 1 to 65535 (the pattern allows any 5 digits).
	if _, hostPort, _ := strings.Cut(s, "://"); strings.Contains(hostPort, ":") {
		port := strings.TrimSuffix(hostPort[strings.LastIndexByte(hostPort, ':')+1:], "/")
		if n, err := strconv.Atoi(port); port != "*" && (err != nil || n < 1 || n > 65535) {
			return "", false
		}
	}
	// "*." must cover a domain's subdomains, not a whole top-level domain
	// ("https://*.com" is as broad as "https:").
	if _, rest, wild := strings.Cut(s, "://*."); wild {
		host := strings.TrimSuffix(rest, "/")
		if i := strings.LastIndexByte(host, ':'); i >= 0 {
			host = host[:i]
		}
		// Nor a public suffix of more labels ("*.co.uk", "*.github.io"):
		// every site registered under it. Nor a name whose subdomains are
		// all public suffixes (a wildcard rule: "*.kawasaki.jp"), asked
		// with the "*" label itself, which no exception rule names.
		// Nor an IPv4 address's tail ("*.1.1": every address a.b.1.1): no
		// top-level domain is a number, and the list has no rule for one.
		tld := host[strings.LastIndexByte(host, '.')+1:]
		if !strings.Contains(host, ".") || strings.Trim(tld, "0123456789") == "" ||
			publicsuffix.List.PublicSuffix(host) == host ||
			publicsuffix.List.PublicSuffix("*."+host) == "*."+host {
			return "", false
		}
	}
	return strings.TrimSuffix(s, "/"), true
}

// AppToolName is the model's name of server's tool, when a view of that
// server may call it: the tool is listed and its visibility includes
// "app".
func (m *Manager) AppToolName(server, tool string) (string, error) {
	var views []serverView
	mine := -1
	for _, s := range m.sorted() {
		if st := s.snapshot(); st.sess != nil {
			if s.name == server {
				mine = len(views)
			}
			views = append(views, viewOf(s.name, st))
		}
	}
	if mine < 0 {
		if m.lookup(server) == nil {
			return "", ErrUnknownServer
		}
		return "", ErrNotReady
	}
	for _, e := range views[mine].entries {
		if e.tool.Name != tool {
			continue
		}
		if e.schemaErr != "" {
			return "", fmt.Errorf("%w: %s's tool %q is not offered (%s)", ErrNotOffered, server, shorten(tool, 80), e.schemaErr)
		}
		if !toolAppMeta(e.tool).callableByView() {
			return "", fmt.Errorf("%w: %s's tool %q is not for its views", ErrNotOffered, server, shorten(tool, 80))
		}
		return assignNames(views)[ToolRef{Server: server, Tool: tool}], nil
	}
	return "", fmt.Errorf("%w: %s has no tool %q", ErrNotOffered, server, shorten(tool, 80))
}

// withAppPart adds the tool's view to a result that is not an error: the
// window shows it in the tool's block.
func withAppPart(r tools.Result, server, view string) tools.Result {
	if view == "" || r.IsError || r.Input != nil {
		return r
	}
	r.Parts = append(r.Parts, tools.Part{Kind: tools.PartApp, URI: view, Name: server})
	return r
}
