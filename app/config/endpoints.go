package config

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/juncture-app/juncture/agent"
	"github.com/juncture-app/juncture/agent/model/openai"
	"github.com/juncture-app/juncture/app/secrets"
)

// Endpoints: several OpenAI-compatible servers a chat can talk to. The
// person's saved ones live as JSON in the settings table; the environment's
// (OPENAI_BASE_URL, id "env") and the local servers found on this machine
// (ids "ollama", "lmstudio") are listed with them, read-only.
//
// The default endpoint is what Settings → General edits (the saved
// baseUrl / apiKey / model keys, which stay what GetSettings, Status and
// chats without an endpoint of their own read). A saved endpoint marked
// default mirrors those keys: making an endpoint the default writes them,
// and what General saves shows on that endpoint.

// Endpoint sources.
const (
	EndpointSaved       = "saved"
	EndpointEnvironment = "environment"
	EndpointDetected    = "detected"
)

// EndpointEnvID is the id of the environment's endpoint.
const EndpointEnvID = "env"

// ModelPrice is what one model costs, in the endpoint's currency per
// million tokens (the window shows a chat's cost from it).
type ModelPrice struct {
	InputPerMTok  float64 `json:"inputPerMTok"`
	OutputPerMTok float64 `json:"outputPerMTok"`
}

// Endpoint is one OpenAI-compatible server. APIKey is masked on the way
// out ("••••" and the last 4 characters); a masked value saved back keeps
// the stored key.
type Endpoint struct {
	ID      string `json:"id"`
	Name    string `json:"name"`
	BaseURL string `json:"baseUrl"`
	APIKey  string `json:"apiKey"`
	// Models is the person's list of the endpoint's models (optional: the
	// model picker also asks the endpoint, ListModels).
	Models []string `json:"models"`
	// Prices are optional, by model name.
	Prices map[string]ModelPrice `json:"prices"`
	// Source is "saved", "environment" or "detected"; only saved ones
	// can be edited (the others take prices only) or deleted.
	Source string `json:"source"`
	// IsDefault marks the endpoint chats without their own use. Saving a
	// saved endpoint with it set makes that endpoint the default.
	IsDefault bool `json:"isDefault"`
	// DefaultModel is the model a chat on this endpoint uses when it picks
	// none (read-only; "" when the endpoint names none).
	DefaultModel string `json:"defaultModel"`
	// KeyState is KeyUnavailable when the endpoint's saved key could not
	// be read from the key storage (APIKey is then empty, and a save
	// keeps the stored key); "" otherwise.
	KeyState string `json:"keyState,omitempty"`
}

// KeyUnavailable is the KeyState of a saved key the key storage could not
// read (it may exist: "could not read" is not "empty").
const KeyUnavailable = "unavailable"

// masked is e as the window sees it.
func masked(e Endpoint) Endpoint {
	e.APIKey = MaskKey(e.APIKey)
	return e
}

// ListEndpoints lists the endpoints: the environment's, the saved ones,
// and the local servers that answer now. Keys are masked.
func (c *Catalog) ListEndpoints(ctx context.Context) ([]Endpoint, error) {
	// Probed before the catalog is locked: a model call never waits on it.
	c.probeLocal(ctx, false)
	done, err := c.open(ctx)
	if err != nil {
		return nil, err
	}
	defer done()
	if c.writable {
		if err := c.adoptDefault(ctx); err != nil {
			return nil, err
		}
	}
	list := c.endpointsLocked()
	for i := range list {
		list[i] = masked(list[i])
	}
	return list, nil
}

// validateEndpoint checks a saved endpoint's fields (per-field messages,
// as SaveSettings gives them).
func validateEndpoint(e *Endpoint) map[string]string {
	bad := map[string]string{}
	e.Name, e.BaseURL = strings.TrimSpace(e.Name), strings.TrimSpace(e.BaseURL)
	if e.BaseURL == "" {
		bad["baseUrl"] = "Enter the endpoint's base URL, for example http://127.0.0.1:11434/v1."
	} else if msg := CheckBaseURL(e.BaseURL); msg != "" {
		bad["baseUrl"] = msg
	}
	if e.Name == "" && bad["baseUrl"] == "" {
		e.Name = hostName(e.BaseURL)
	}
	if len(e.Name) > 100 {
		bad["name"] = "Use a name of at most 100 characters."
	}
	e.Models = CleanNames(e.Models)
	if msg := checkPrices(e.Prices); msg != "" {
		bad["prices"] = msg
	}
	return bad
}

// CleanNames trims the names, drops empty and repeated ones.
func CleanNames(in []string) []string {
	out := []string{}
	for _, m := range in {
		m = strings.TrimSpace(m)
		if m != "" && !slices.Contains(out, m) {
			out = append(out, m)
		}
	}
	return out
}

func checkPrices(p map[string]ModelPrice) string {
	for m, pr := range p {
		if strings.TrimSpace(m) == "" {
			return "Each price needs a model name."
		}
		for _, v := range []float64{pr.InputPerMTok, pr.OutputPerMTok} {
			if v < 0 || math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Sprintf("The price of %s must be zero or more (per million tokens).", m)
			}
		}
	}
	return ""
}

func cleanPrices(p map[string]ModelPrice) map[string]ModelPrice {
	out := map[string]ModelPrice{}
	for m, pr := range p {
		if pr.InputPerMTok == 0 && pr.OutputPerMTok == 0 {
			continue
		}
		out[strings.TrimSpace(m)] = pr
	}
	return out
}

// SaveEndpoint adds (id "") or replaces a saved endpoint, or sets the
// prices of a read-only one (the environment's, a detected server).
// isDefault set makes a saved endpoint the default (Settings → General
// then shows it). A masked key keeps the stored one.
func (c *Catalog) SaveEndpoint(ctx context.Context, e Endpoint) (Endpoint, error) {
	done, err := c.open(ctx)
	if err != nil {
		return Endpoint{}, err
	}
	defer done()
	if err := c.adoptDefault(ctx); err != nil {
		return Endpoint{}, err
	}
	if e.ID == EndpointEnvID || c.IsLocalID(e.ID) {
		return c.saveReadOnlyPrices(ctx, e)
	}
	i := -1
	if e.ID != "" {
		i = slices.IndexFunc(c.endpoints, func(x Endpoint) bool { return x.ID == e.ID })
		if i < 0 {
			return Endpoint{}, notFound("This endpoint no longer exists.")
		}
	}
	if bad := validateEndpoint(&e); len(bad) > 0 {
		return Endpoint{}, invalidFields(bad)
	}
	if i >= 0 && c.unreadable[e.ID] && (e.APIKey == "" || IsMasked(e.APIKey)) && !SameEndpoint(c.endpoints[i].BaseURL, e.BaseURL) {
		// The unread key stays bound to this endpoint: never to a new URL.
		return Endpoint{}, invalidFields(map[string]string{"apiKey": "The saved key could not be read from the key storage: type it again to change the URL."})
	}
	if IsMasked(e.APIKey) {
		e.APIKey = ""
		if i >= 0 && c.endpoints[i].APIKey != "" {
			// A key goes only to the endpoint it was saved with.
			if !SameEndpoint(c.endpoints[i].BaseURL, e.BaseURL) {
				return Endpoint{}, invalidFields(map[string]string{"apiKey": keyMovedMessage(c.endpoints[i].BaseURL)})
			}
			e.APIKey = c.endpoints[i].APIKey
		}
	}
	e.APIKey = strings.TrimSpace(e.APIKey)
	rec := Endpoint{ID: e.ID, Name: e.Name, BaseURL: e.BaseURL, APIKey: e.APIKey, Models: e.Models, Prices: cleanPrices(e.Prices), Source: EndpointSaved}
	if rec.ID == "" {
		rec.ID = agent.NewID("endpoint")
	}
	if err := c.putEndpoint(ctx, rec, i, e.IsDefault); err != nil {
		return Endpoint{}, err
	}
	for _, x := range c.endpointsLocked() {
		if x.ID == rec.ID {
			return masked(x), nil
		}
	}
	return masked(rec), nil
}

// putEndpoint saves rec at index i (-1: added), the default endpoint's
// keys with it when it is or becomes the default. The caller holds c.mu.
func (c *Catalog) putEndpoint(ctx context.Context, rec Endpoint, i int, isDefault bool) error {
	next := slices.Clone(c.endpoints)
	if i >= 0 {
		next[i] = rec
	} else {
		next = append(next, rec)
	}
	keys := map[string]string{}
	var legacy map[string]string
	makeDefault := isDefault && rec.ID != c.defaultID
	savedBase, _, savedModel := c.savedLegacy()
	if makeDefault || (rec.ID == c.defaultID && savedBase != "") {
		// The default endpoint is what Settings → General shows.
		legacy = map[string]string{"baseUrl": rec.BaseURL, "apiKey": rec.APIKey}
		if makeDefault || savedModel == "" {
			if m := defaultModelFor(rec, savedModel); m != "" {
				legacy["model"] = m
			}
		}
		keys[keyDefaultEndpoint] = rec.ID
	}
	b, _ := json.Marshal(next)
	keys[keyEndpoints] = string(b)
	if err := c.saveKeys(ctx, keys, legacy); err != nil {
		return err
	}
	c.endpoints = next
	if rec.APIKey != "" {
		delete(c.unreadable, rec.ID)
	}
	if id, ok := keys[keyDefaultEndpoint]; ok {
		c.defaultID = id
	}
	if legacy != nil {
		c.onDefault()
	}
	return nil
}

// defaultModelFor is the model an endpoint that becomes the default runs:
// the current default model when the endpoint lists it (or lists none),
// else its first model.
func defaultModelFor(e Endpoint, current string) string {
	if len(e.Models) == 0 || slices.Contains(e.Models, current) {
		return current
	}
	return e.Models[0]
}

// saveReadOnlyPrices keeps the prices of an endpoint that is not saved.
// The caller holds c.mu.
func (c *Catalog) saveReadOnlyPrices(ctx context.Context, e Endpoint) (Endpoint, error) {
	if msg := checkPrices(e.Prices); msg != "" {
		return Endpoint{}, invalidFields(map[string]string{"prices": msg})
	}
	next := map[string]map[string]ModelPrice{}
	for k, v := range c.prices {
		next[k] = v
	}
	next[e.ID] = cleanPrices(e.Prices)
	b, _ := json.Marshal(next)
	if err := c.saveKeys(ctx, map[string]string{keyEndpointPrices: string(b)}, nil); err != nil {
		return Endpoint{}, err
	}
	c.prices = next
	for _, x := range c.endpointsLocked() {
		if x.ID == e.ID {
			return masked(x), nil
		}
	}
	name, base, _ := c.localByID(e.ID)
	return Endpoint{ID: e.ID, Name: name, BaseURL: base, Source: EndpointDetected, Models: []string{}, Prices: clonePrices(next[e.ID])}, nil
}

// DeleteEndpoint deletes a saved endpoint. The environment's and detected
// ones cannot be deleted. Chats that used it run with the default endpoint
// from their next model call (their header says so); deleting the default
// clears Settings → General's endpoint.
func (c *Catalog) DeleteEndpoint(ctx context.Context, id string) error {
	if id == EndpointEnvID {
		return refused("This endpoint comes from the environment (OPENAI_BASE_URL); change it there and restart Juncture.")
	}
	if c.IsLocalID(id) {
		return refused("This endpoint is a server detected on this machine; it cannot be deleted.")
	}
	done, err := c.open(ctx)
	if err != nil {
		return err
	}
	defer done()
	i := slices.IndexFunc(c.endpoints, func(x Endpoint) bool { return x.ID == id })
	if i < 0 {
		return notFound("This endpoint no longer exists.")
	}
	next := slices.Delete(slices.Clone(c.endpoints), i, i+1)
	b, _ := json.Marshal(next)
	keys := map[string]string{keyEndpoints: string(b)}
	var legacy map[string]string
	if id == c.defaultID {
		keys[keyDefaultEndpoint] = ""
		legacy = map[string]string{"baseUrl": "", "apiKey": ""}
	}
	if err := c.saveKeys(ctx, keys, legacy); err != nil {
		return err
	}
	if err := c.keys.Delete(secrets.EndpointAccount(id)); err != nil {
		c.log.Warn("the deleted endpoint's key stays stored", "endpoint", id, "err", err)
	}
	c.endpoints = next
	if id == c.defaultID {
		c.defaultID = ""
		c.onDefault()
	}
	return nil
}

// ListModelsTimeout bounds ListModels.
const ListModelsTimeout = 10 * time.Second

// ListModels is GET {base}/models with key, bounded by ListModelsTimeout.
func ListModels(ctx context.Context, base, key string) ([]string, error) {
	ctx, cancel := context.WithTimeout(ctx, ListModelsTimeout)
	defer cancel()
	models, err := openai.New(openai.Config{BaseURL: base, APIKey: key, HTTPClient: KeyedHTTPClient(ListModelsTimeout)}).Models(ctx)
	if err != nil {
		return nil, err
	}
	if models == nil {
		models = []string{}
	}
	return models, nil
}
