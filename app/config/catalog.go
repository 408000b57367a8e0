package config

import (
	"context"
	"encoding/json"
	"log/slog"
	"net/url"
	"os"
	"slices"
	"sync"

	"github.com/juncture-app/juncture/agent"
	"github.com/juncture-app/juncture/app/secrets"
)

// Rows is the settings table as the catalog needs it (*store.DB has it).
type Rows interface {
	Settings(ctx context.Context) (map[string]string, error)
	SaveSettings(ctx context.Context, m map[string]string) error
}

// Options configure a Catalog.
type Options struct {
	Rows Rows
	// Keys holds the keys the settings table does not.
	Keys   *secrets.Vault
	Getenv func(string) string // nil: os.Getenv
	Logger *slog.Logger        // nil: slog.Default()
	// Writable is false for a read-only copy: listing the endpoints then
	// saves nothing.
	Writable bool
	// Local are the servers probed on this machine (nil: LocalProviders).
	Local []Provider
	// OnDefaultChange is called when a change moves the default endpoint
	// (the app tells the window its status), with the catalog locked.
	OnDefaultChange func()
}

// Catalog is the person's configuration: the settings (saved, from the
// environment, detected), the saved endpoints and presets (as JSON in the
// settings table), the environment's endpoint and the local servers.
type Catalog struct {
	rows      Rows
	keys      *secrets.Vault
	getenv    func(string) string
	log       *slog.Logger
	writable  bool
	onDefault func()

	settings settings

	// mu guards what follows, loaded from the settings table on first use.
	mu        sync.Mutex
	loaded    bool
	endpoints []Endpoint // as saved, keys in clear
	defaultID string
	prices    map[string]map[string]ModelPrice // read-only endpoints' prices
	presets   presetStore
	// unreadable holds the saved endpoints whose key could not be read.
	unreadable map[string]bool

	probe probe
}

// New is a catalog over o.Rows; LoadSettings reads what is saved.
func New(o Options) *Catalog {
	c := &Catalog{rows: o.Rows, keys: o.Keys, getenv: o.Getenv, log: o.Logger, writable: o.Writable, onDefault: o.OnDefaultChange}
	if c.getenv == nil {
		c.getenv = os.Getenv
	}
	if c.log == nil {
		c.log = slog.Default()
	}
	if c.onDefault == nil {
		c.onDefault = func() {}
	}
	c.probe.servers = o.Local
	if c.probe.servers == nil {
		c.probe.servers = LocalProviders()
	}
	return c
}

// Settings keys of the endpoint catalog (JSON values).
const (
	keyEndpoints       = secrets.KeyEndpoints
	keyDefaultEndpoint = "defaultEndpointId"
	keyEndpointPrices  = "endpointPrices" // prices of the read-only endpoints, by id
)

// load reads the catalog from the settings table the first time. The
// caller holds c.mu.
func (c *Catalog) load(ctx context.Context) error {
	if c.loaded {
		return nil
	}
	m, err := c.rows.Settings(ctx)
	if err != nil {
		return err
	}
	c.endpoints = nil
	if s := m[keyEndpoints]; s != "" {
		if err := json.Unmarshal([]byte(s), &c.endpoints); err != nil {
			c.log.Warn("saved endpoints do not parse; starting from none", "err", err)
			c.endpoints = nil
		}
		c.unreadable = c.fillEndpointKeys(s, c.endpoints)
	}
	c.prices = map[string]map[string]ModelPrice{}
	if s := m[keyEndpointPrices]; s != "" {
		_ = json.Unmarshal([]byte(s), &c.prices)
	}
	c.defaultID = m[keyDefaultEndpoint]
	if err := c.presets.load(m); err != nil {
		c.log.Warn("saved presets do not parse; using the shipped ones", "err", err)
	}
	c.loaded = true
	return nil
}

// fillEndpointKeys puts the vault's keys into endpoints read from the
// settings row s; it returns the ids of those whose key could not be read.
func (c *Catalog) fillEndpointKeys(s string, eps []Endpoint) map[string]bool {
	unread := map[string]bool{}
	refs := secrets.EndpointRefs(s)
	if len(refs) != len(eps) {
		return unread
	}
	for i := range eps {
		if eps[i].APIKey != "" || refs[i] == "" {
			continue
		}
		k, err := c.keys.Get(refs[i])
		if err != nil {
			c.log.Warn("an endpoint's key could not be read; it is kept", "endpoint", eps[i].ID, "err", err)
			unread[eps[i].ID] = true
			continue
		}
		eps[i].APIKey = k
	}
	return unread
}

// open locks the catalog, loaded; done unlocks it.
func (c *Catalog) open(ctx context.Context) (done func(), err error) {
	c.mu.Lock()
	if err := c.load(ctx); err != nil {
		c.mu.Unlock()
		return nil, err
	}
	return c.mu.Unlock, nil
}

// saveKeys writes settings keys (and the legacy keys given in legacy,
// also into the in-memory settings). The caller holds c.mu.
func (c *Catalog) saveKeys(ctx context.Context, keys map[string]string, legacy map[string]string) error {
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
	if err := c.saveRows(ctx, all); err != nil {
		return err
	}
	if len(legacy) > 0 {
		s := &c.settings
		s.mu.Lock()
		if s.saved == nil {
			s.saved = map[string]string{}
		}
		for k, v := range legacy {
			s.saved[k] = v
		}
		s.mu.Unlock()
	}
	return nil
}

func (c *Catalog) endpointsJSON() string {
	b, _ := json.Marshal(c.endpoints)
	return string(b)
}

// savedLegacy returns the saved (not environment) default endpoint keys.
func (c *Catalog) savedLegacy() (baseURL, apiKey, modelName string) {
	s := &c.settings
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.saved["baseUrl"], s.saved["apiKey"], s.saved["model"]
}

// adoptDefault keeps the saved default endpoint in step with Settings →
// General: a base URL saved there (before endpoints existed, or since)
// becomes a saved endpoint named after its host, marked default, and the
// default endpoint shows what General saved. The caller holds c.mu.
func (c *Catalog) adoptDefault(ctx context.Context) error {
	base, key, mdl := c.savedLegacy()
	if base == "" || c.GeneralKeyUnreadable() {
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
		return c.saveKeys(ctx, map[string]string{keyEndpoints: c.endpointsJSON(), keyDefaultEndpoint: c.defaultID}, nil)
	}
	e := &c.endpoints[i]
	if e.BaseURL == base && e.APIKey == key {
		return nil
	}
	if e.Name == hostName(e.BaseURL) {
		e.Name = hostName(base)
	}
	e.BaseURL, e.APIKey = base, key
	return c.saveKeys(ctx, map[string]string{keyEndpoints: c.endpointsJSON()}, nil)
}

// hostName is an endpoint's name made from its URL ("api.openai.com").
func hostName(base string) string {
	u, err := url.Parse(base)
	if err != nil || u.Host == "" {
		return base
	}
	return u.Host
}

// endpointsLocked lists every endpoint with keys in clear, the local
// servers as the last probe found them. The caller holds c.mu (loaded).
func (c *Catalog) endpointsLocked() []Endpoint {
	st, src := c.Effective()
	var out []Endpoint
	envBase := c.getenv("OPENAI_BASE_URL")
	if envBase != "" {
		m := c.getenv("JUNCTURE_MODEL")
		e := Endpoint{ID: EndpointEnvID, Name: "Environment (" + hostName(envBase) + ")", BaseURL: envBase,
			APIKey: c.getenv("OPENAI_API_KEY"), Source: EndpointEnvironment, DefaultModel: m, IsDefault: true}
		if m != "" {
			e.Models = []string{m}
		}
		out = append(out, e)
	}
	savedBase, savedKey, savedModel := c.savedLegacy()
	generalUnread := c.GeneralKeyUnreadable()
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
	local := c.lastProbe()
	for _, srv := range c.probe.servers {
		f, ok := local[srv.ID]
		if !ok {
			continue
		}
		e := Endpoint{ID: srv.ID, Name: srv.Name, BaseURL: f.url, Models: slices.Clone(f.models), Source: EndpointDetected, DefaultModel: firstOf(f.models)}
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

// FirstOf is the first of a list ("" when empty).
func FirstOf(s []string) string { return firstOf(s) }

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

// EndpointByID finds an endpoint by id, key in clear. A local server is
// found whether or not it answered (its URL is known).
func (c *Catalog) EndpointByID(ctx context.Context, id string) (Endpoint, bool, error) {
	done, err := c.open(ctx)
	if err != nil {
		return Endpoint{}, false, err
	}
	defer done()
	for _, e := range c.endpointsLocked() {
		if e.ID == id {
			return e, true, nil
		}
	}
	if name, base, ok := c.localByID(id); ok {
		return Endpoint{ID: id, Name: name, BaseURL: base, Source: EndpointDetected, Models: []string{}, Prices: clonePrices(c.prices[id])}, true, nil
	}
	return Endpoint{}, false, nil
}
