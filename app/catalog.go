package app

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/juncture-app/juncture/agent"
	"github.com/juncture-app/juncture/agent/model/openai"
	"github.com/juncture-app/juncture/app/secrets"
)

// The catalog: the saved endpoints and presets (as JSON in the settings
// table), the environment's endpoint and the local servers probed on this
// machine, behind one lock.

// catalog is the endpoints and presets as saved (keys in clear), loaded
// from the settings table on first use.
type catalog struct {
	mu        sync.Mutex
	loaded    bool
	endpoints []Endpoint
	defaultID string
	prices    map[string]map[string]ModelPrice // read-only endpoints' prices
	presets   presetStore
	// unreadable holds the saved endpoints whose key could not be read.
	unreadable map[string]bool

	localMu  sync.Mutex
	local    map[string]localServer // by endpoint id, from the last probe
	probedAt time.Time
}

// localServer is a local server that answered a probe.
type localServer struct {
	name, url string
	models    []string
}

// localProbeTTL is how long a probe of the local servers is reused.
const localProbeTTL = 30 * time.Second

// localID is the endpoint id of a local server ("Ollama" → "ollama").
func localID(name string) string {
	return strings.ToLower(strings.ReplaceAll(name, " ", ""))
}

// loadCatalog reads the catalog from the settings table the first time.
// The caller holds a.cat.mu.
func (a *App) loadCatalog(ctx context.Context) error {
	c := &a.cat
	if c.loaded {
		return nil
	}
	m, err := a.db.Settings(ctx)
	if err != nil {
		return err
	}
	c.endpoints = nil
	if s := m[keyEndpoints]; s != "" {
		if err := json.Unmarshal([]byte(s), &c.endpoints); err != nil {
			a.log.Warn("saved endpoints do not parse; starting from none", "err", err)
			c.endpoints = nil
		}
		c.unreadable = a.fillEndpointKeys(s, c.endpoints)
	}
	c.prices = map[string]map[string]ModelPrice{}
	if s := m[keyEndpointPrices]; s != "" {
		_ = json.Unmarshal([]byte(s), &c.prices)
	}
	c.defaultID = m[keyDefaultEndpoint]
	if err := c.presets.load(m); err != nil {
		a.log.Warn("saved presets do not parse; using the shipped ones", "err", err)
	}
	c.loaded = true
	return nil
}

// saveCatalogKeys writes settings keys (and the legacy keys given in
// legacy, also into the in-memory settings). The caller holds a.cat.mu.
func (a *App) saveCatalogKeys(ctx context.Context, keys map[string]string, legacy map[string]string) error {
	if k, ok := legacy["apiKey"]; ok {
		// General's key is now the default endpoint's: saved for its URL.
		legacy[keyKeyBase] = ""
		if k != "" {
			legacy[keyKeyBase] = legacy["baseUrl"]
		}
	}
	all := map[string]string{}
	for k, v := range keys {
		all[k] = v
	}
	for k, v := range legacy {
		all[k] = v
	}
	if err := a.saveSettingsRows(ctx, all); err != nil {
		return err
	}
	if len(legacy) > 0 {
		a.settings.mu.Lock()
		if a.settings.saved == nil {
			a.settings.saved = map[string]string{}
		}
		for k, v := range legacy {
			a.settings.saved[k] = v
		}
		a.settings.mu.Unlock()
	}
	return nil
}

func (a *App) endpointsJSON() string {
	b, _ := json.Marshal(a.cat.endpoints)
	return string(b)
}

// savedLegacy returns the saved (not environment) default endpoint keys.
func (a *App) savedLegacy() (baseURL, apiKey, modelName string) {
	a.settings.mu.Lock()
	defer a.settings.mu.Unlock()
	return a.settings.saved["baseUrl"], a.settings.saved["apiKey"], a.settings.saved["model"]
}

// adoptDefault keeps the saved default endpoint in step with Settings →
// General: a base URL saved there (before endpoints existed, or since)
// becomes a saved endpoint named after its host, marked default, and the
// default endpoint shows what General saved. The caller holds a.cat.mu.
func (a *App) adoptDefault(ctx context.Context) error {
	c := &a.cat
	base, key, mdl := a.savedLegacy()
	if base == "" || a.keys.Unreadable(secrets.SettingAccount("apiKey")) {
		// An unread key is not an empty one: nothing to mirror.
		return nil
	}
	i := slices.IndexFunc(c.endpoints, func(e Endpoint) bool { return e.ID == c.defaultID })
	if i < 0 {
		// An endpoint with the same URL and key becomes the default, else a new one.
		i = slices.IndexFunc(c.endpoints, func(e Endpoint) bool { return e.BaseURL == base && e.APIKey == key })
		if i < 0 {
			e := Endpoint{ID: agent.NewID("endpoint"), Name: hostName(base), BaseURL: base, APIKey: key, Source: EndpointSaved}
			if mdl != "" {
				e.Models = []string{mdl}
			}
			c.endpoints = append(c.endpoints, e)
			i = len(c.endpoints) - 1
		}
		c.defaultID = c.endpoints[i].ID
		return a.saveCatalogKeys(ctx, map[string]string{keyEndpoints: a.endpointsJSON(), keyDefaultEndpoint: c.defaultID}, nil)
	}
	e := &c.endpoints[i]
	if e.BaseURL == base && e.APIKey == key {
		return nil
	}
	if e.Name == hostName(e.BaseURL) {
		e.Name = hostName(base)
	}
	e.BaseURL, e.APIKey = base, key
	return a.saveCatalogKeys(ctx, map[string]string{keyEndpoints: a.endpointsJSON()}, nil)
}

// hostName is an endpoint's name made from its URL ("api.openai.com").
func hostName(base string) string {
	u, err := url.Parse(base)
	if err != nil || u.Host == "" {
		return base
	}
	return u.Host
}

// probeLocal returns the local servers that answer now (a probe is reused
// for localProbeTTL; force probes again).
func (a *App) probeLocal(ctx context.Context, force bool) map[string]localServer {
	c := &a.cat
	c.localMu.Lock()
	defer c.localMu.Unlock()
	if !force && c.local != nil && time.Since(c.probedAt) < localProbeTTL {
		return c.local
	}
	servers := localServers
	found := make([]*localServer, len(servers))
	var wg sync.WaitGroup
	for i, srv := range servers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			cctx, cancel := context.WithTimeout(ctx, 1500*time.Millisecond)
			defer cancel()
			cl := openai.New(openai.Config{BaseURL: srv.url, HTTPClient: &http.Client{Timeout: 1500 * time.Millisecond}})
			models, err := cl.Models(cctx)
			if err != nil {
				return
			}
			found[i] = &localServer{name: srv.name, url: srv.url, models: models}
		}()
	}
	wg.Wait()
	c.local = map[string]localServer{}
	for _, f := range found {
		if f != nil {
			c.local[localID(f.name)] = *f
		}
	}
	c.probedAt = time.Now()
	return c.local
}

// localByID is the local server with that endpoint id, whether or not it
// answered the last probe.
func localByID(id string) (name, base string, ok bool) {
	for _, s := range localServers {
		if localID(s.name) == id {
			return s.name, s.url, true
		}
	}
	return "", "", false
}

// endpointsLocked lists every endpoint with keys in clear, the local
// servers as the last probe found them. The caller holds a.cat.mu (loaded).
func (a *App) endpointsLocked() []Endpoint {
	c := &a.cat
	st, src := a.settings.effective()
	var out []Endpoint
	envBase := a.cfg.Getenv("OPENAI_BASE_URL")
	if envBase != "" {
		m := a.cfg.Getenv("JUNCTURE_MODEL")
		e := Endpoint{ID: EndpointEnvID, Name: "Environment (" + hostName(envBase) + ")", BaseURL: envBase,
			APIKey: a.cfg.Getenv("OPENAI_API_KEY"), Source: EndpointEnvironment, DefaultModel: m, IsDefault: true}
		if m != "" {
			e.Models = []string{m}
		}
		out = append(out, e)
	}
	savedBase, savedKey, savedModel := a.savedLegacy()
	generalUnread := a.keys.Unreadable(secrets.SettingAccount("apiKey"))
	for _, e := range c.endpoints {
		e.Source = EndpointSaved
		if c.unreadable[e.ID] {
			e.KeyState = KeyUnavailable
		}
		e.Models = slices.Clone(e.Models)
		e.DefaultModel = firstOf(e.Models)
		if e.ID == c.defaultID && savedBase != "" {
			// The default endpoint is what Settings → General saved, and
			// what a chat without an endpoint runs with (unless the
			// environment names another).
			e.BaseURL, e.APIKey = savedBase, savedKey
			if generalUnread {
				e.KeyState = KeyUnavailable
			}
			e.IsDefault = envBase == ""
			switch {
			case e.IsDefault && st.Model != "":
				e.DefaultModel = st.Model
			case savedModel != "":
				e.DefaultModel = savedModel
			}
		}
		out = append(out, e)
	}
	c.localMu.Lock()
	local := c.local
	c.localMu.Unlock()
	for _, srv := range localServers {
		id := localID(srv.name)
		f, ok := local[id]
		if !ok {
			continue
		}
		e := Endpoint{ID: id, Name: srv.name, BaseURL: f.url, Models: slices.Clone(f.models), Source: EndpointDetected, DefaultModel: firstOf(f.models)}
		// Found at start as the default (nothing else configured).
		e.IsDefault = src["baseUrl"] == SourceDetected && st.BaseURL == f.url
		if e.IsDefault && st.Model != "" {
			e.DefaultModel = st.Model
		}
		out = append(out, e)
	}
	for i := range out {
		if out[i].Source != EndpointSaved {
			out[i].Prices = clonePrices(c.prices[out[i].ID])
		} else {
			out[i].Prices = clonePrices(out[i].Prices)
		}
		if out[i].Models == nil {
			out[i].Models = []string{}
		}
	}
	return out
}

func firstOf(s []string) string {
	if len(s) == 0 {
		return ""
	}
	return s[0]
}

func clonePrices(p map[string]ModelPrice) map[string]ModelPrice {
	out := make(map[string]ModelPrice, len(p))
	for k, v := range p {
		out[k] = v
	}
	return out
}

// endpointByID finds an endpoint by id, key in clear. A local server is
// found whether or not it answered (its URL is known).
func (a *App) endpointByID(ctx context.Context, id string) (Endpoint, bool, error) {
	c := &a.cat
	c.mu.Lock()
	defer c.mu.Unlock()
	if err := a.loadCatalog(ctx); err != nil {
		return Endpoint{}, false, err
	}
	for _, e := range a.endpointsLocked() {
		if e.ID == id {
			return e, true, nil
		}
	}
	if name, base, ok := localByID(id); ok {
		return Endpoint{ID: id, Name: name, BaseURL: base, Source: EndpointDetected, Models: []string{}, Prices: clonePrices(c.prices[id])}, true, nil
	}
	return Endpoint{}, false, nil
}

// openCatalog returns the catalog loaded and locked, with its context;
// done releases both. Every method that reads or edits endpoints or
// presets goes through it.
func (a *App) openCatalog() (context.Context, *catalog, func(), error) {
	ctx, cancel := a.ctx()
	c := &a.cat
	c.mu.Lock()
	done := func() { c.mu.Unlock(); cancel() }
	if err := a.loadCatalog(ctx); err != nil {
		done()
		return nil, nil, nil, asError(err)
	}
	return ctx, c, done, nil
}
