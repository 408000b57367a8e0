package app

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

// The ids of the endpoints that are not saved.
const (
	EndpointEnvID = "env"
)

// Settings keys of the endpoint catalog (JSON values).
const (
	keyEndpoints       = secrets.KeyEndpoints
	keyDefaultEndpoint = "defaultEndpointId"
	keyEndpointPrices  = "endpointPrices" // prices of the read-only endpoints, by id
)

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
	e.APIKey = maskKey(e.APIKey)
	return e
}

// ListEndpoints lists the endpoints: the environment's, the saved ones,
// and the local servers that answer now. Keys are masked.
func (a *App) ListEndpoints() ([]Endpoint, error) {
	ctx, cancel := a.ctx()
	defer cancel()
	// Probed before the catalog is locked: a model call never waits on it.
	a.probeLocal(ctx, false)
	c := &a.cat
	c.mu.Lock()
	defer c.mu.Unlock()
	if err := a.loadCatalog(ctx); err != nil {
		return nil, asError(err)
	}
	if a.readOnly == "" {
		if err := a.adoptDefault(ctx); err != nil {
			return nil, asError(err)
		}
	}
	list := a.endpointsLocked()
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
	} else if msg := validate(Settings{BaseURL: e.BaseURL, Model: "x", LoopGuard: 1, Theme: "system"})["baseUrl"]; msg != "" {
		bad["baseUrl"] = msg
	}
	if e.Name == "" && bad["baseUrl"] == "" {
		e.Name = hostName(e.BaseURL)
	}
	if len(e.Name) > 100 {
		bad["name"] = "Use a name of at most 100 characters."
	}
	e.Models = cleanModels(e.Models)
	if msg := checkPrices(e.Prices); msg != "" {
		bad["prices"] = msg
	}
	return bad
}

// cleanModels trims the names, drops empty and repeated ones.
func cleanModels(in []string) []string {
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

func invalidEndpoint(bad map[string]string) error {
	return &Error{Code: CodeInvalidSettings, Message: "Some fields need a fix; nothing was saved.", Details: bad}
}

// SaveEndpoint adds (id "") or replaces a saved endpoint, or sets the
// prices of a read-only one (the environment's, a detected server).
// isDefault set makes a saved endpoint the default (Settings → General
// then shows it). A masked key keeps the stored one.
func (a *App) SaveEndpoint(e Endpoint) (Endpoint, error) {
	if a.readOnly != "" {
		return Endpoint{}, errorf(CodeUnavailable, "This is a read-only copy of a damaged database; nothing can be saved.")
	}
	ctx, c, done, err := a.openCatalog()
	if err != nil {
		return Endpoint{}, err
	}
	defer done()
	if err := a.adoptDefault(ctx); err != nil {
		return Endpoint{}, asError(err)
	}
	if e.ID == EndpointEnvID || isLocalID(e.ID) {
		return a.saveReadOnlyPrices(ctx, e)
	}
	i := -1
	if e.ID != "" {
		i = slices.IndexFunc(c.endpoints, func(x Endpoint) bool { return x.ID == e.ID })
		if i < 0 {
			return Endpoint{}, errorf(CodeNotFound, "This endpoint no longer exists.")
		}
	}
	if bad := validateEndpoint(&e); len(bad) > 0 {
		return Endpoint{}, invalidEndpoint(bad)
	}
	if i >= 0 && c.unreadable[e.ID] && (e.APIKey == "" || strings.HasPrefix(e.APIKey, "••••")) && !sameEndpoint(c.endpoints[i].BaseURL, e.BaseURL) {
		// The unread key stays bound to this endpoint: never to a new URL.
		return Endpoint{}, invalidEndpoint(map[string]string{"apiKey": "The saved key could not be read from the key storage: type it again to change the URL."})
	}
	if strings.HasPrefix(e.APIKey, "••••") {
		e.APIKey = ""
		if i >= 0 && c.endpoints[i].APIKey != "" {
			// A key goes only to the endpoint it was saved with.
			if !sameEndpoint(c.endpoints[i].BaseURL, e.BaseURL) {
				return Endpoint{}, invalidEndpoint(map[string]string{"apiKey": keyMovedMessage(c.endpoints[i].BaseURL)})
			}
			e.APIKey = c.endpoints[i].APIKey
		}
	}
	e.APIKey = strings.TrimSpace(e.APIKey)
	rec := Endpoint{ID: e.ID, Name: e.Name, BaseURL: e.BaseURL, APIKey: e.APIKey, Models: e.Models, Prices: cleanPrices(e.Prices), Source: EndpointSaved}
	if rec.ID == "" {
		rec.ID = agent.NewID("endpoint")
	}
	next := slices.Clone(c.endpoints)
	if i >= 0 {
		next[i] = rec
	} else {
		next = append(next, rec)
	}
	keys := map[string]string{}
	var legacy map[string]string
	makeDefault := e.IsDefault && rec.ID != c.defaultID
	savedBase, _, savedModel := a.savedLegacy()
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
	if err := a.saveCatalogKeys(ctx, keys, legacy); err != nil {
		return Endpoint{}, asError(err)
	}
	c.endpoints = next
	if rec.APIKey != "" {
		delete(c.unreadable, rec.ID)
	}
	if id, ok := keys[keyDefaultEndpoint]; ok {
		c.defaultID = id
	}
	if legacy != nil {
		a.emit("status", a.Status())
	}
	for _, x := range a.endpointsLocked() {
		if x.ID == rec.ID {
			return masked(x), nil
		}
	}
	return masked(rec), nil
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

func isLocalID(id string) bool {
	_, _, ok := localByID(id)
	return ok
}

// saveReadOnlyPrices keeps the prices of an endpoint that is not saved.
// The caller holds a.cat.mu.
func (a *App) saveReadOnlyPrices(ctx context.Context, e Endpoint) (Endpoint, error) {
	c := &a.cat
	if msg := checkPrices(e.Prices); msg != "" {
		return Endpoint{}, invalidEndpoint(map[string]string{"prices": msg})
	}
	next := map[string]map[string]ModelPrice{}
	for k, v := range c.prices {
		next[k] = v
	}
	next[e.ID] = cleanPrices(e.Prices)
	b, _ := json.Marshal(next)
	if err := a.saveCatalogKeys(ctx, map[string]string{keyEndpointPrices: string(b)}, nil); err != nil {
		return Endpoint{}, asError(err)
	}
	c.prices = next
	for _, x := range a.endpointsLocked() {
		if x.ID == e.ID {
			return masked(x), nil
		}
	}
	name, base, _ := localByID(e.ID)
	return Endpoint{ID: e.ID, Name: name, BaseURL: base, Source: EndpointDetected, Models: []string{}, Prices: clonePrices(next[e.ID])}, nil
}

// DeleteEndpoint deletes a saved endpoint. The environment's and detected
// ones cannot be deleted. Chats that used it run with the default endpoint
// from their next model call (their header says so); deleting the default
// clears Settings → General's endpoint.
func (a *App) DeleteEndpoint(id string) error {
	if id == EndpointEnvID {
		return errorf(CodeInvalidArgument, "This endpoint comes from the environment (OPENAI_BASE_URL); change it there and restart Juncture.")
	}
	if isLocalID(id) {
		return errorf(CodeInvalidArgument, "This endpoint is a server detected on this machine; it cannot be deleted.")
	}
	if a.readOnly != "" {
		return errorf(CodeUnavailable, "This is a read-only copy of a damaged database; nothing can be changed.")
	}
	ctx, c, done, err := a.openCatalog()
	if err != nil {
		return err
	}
	defer done()
	i := slices.IndexFunc(c.endpoints, func(x Endpoint) bool { return x.ID == id })
	if i < 0 {
		return errorf(CodeNotFound, "This endpoint no longer exists.")
	}
	next := slices.Delete(slices.Clone(c.endpoints), i, i+1)
	b, _ := json.Marshal(next)
	keys := map[string]string{keyEndpoints: string(b)}
	var legacy map[string]string
	if id == c.defaultID {
		keys[keyDefaultEndpoint] = ""
		legacy = map[string]string{"baseUrl": "", "apiKey": ""}
	}
	if err := a.saveCatalogKeys(ctx, keys, legacy); err != nil {
		return asError(err)
	}
	if err := a.keys.Delete(secrets.EndpointAccount(id)); err != nil {
		a.log.Warn("the deleted endpoint's key stays stored", "endpoint", id, "err", err)
	}
	c.endpoints = next
	if id == c.defaultID {
		c.defaultID = ""
		a.emit("status", a.Status())
	}
	return nil
}

// listModelsTimeout bounds ListModels and TestConnection.
const listModelsTimeout = 10 * time.Second

// ListModels asks an endpoint ("" = the default) for its models
// (GET {base}/models with its key).
func (a *App) ListModels(endpointID string) ([]string, error) {
	var base, key, name string
	if endpointID == "" {
		base, key = a.settings.keyedDefault()
		name = "the default endpoint"
	} else {
		ctx, cancel := a.ctx()
		e, ok, err := a.endpointByID(ctx, endpointID)
		cancel()
		if err != nil {
			return nil, asError(err)
		}
		if !ok {
			return nil, errorf(CodeNotFound, "This endpoint no longer exists.")
		}
		base, key, name = e.BaseURL, e.APIKey, e.Name
	}
	if base == "" {
		return nil, errorf(CodeNotConfigured, "No endpoint is configured yet: add one in Settings → Endpoints.")
	}
	models, err := listModels(a.bgCtx, base, key)
	if err != nil {
		return nil, errorf(CodeUnavailable, fmt.Sprintf("Could not list the models of %s: %v", name, err))
	}
	return models, nil
}

// listModels is GET {base}/models, bounded by listModelsTimeout.
func listModels(ctx context.Context, base, key string) ([]string, error) {
	ctx, cancel := context.WithTimeout(ctx, listModelsTimeout)
	defer cancel()
	models, err := openai.New(openai.Config{BaseURL: base, APIKey: key, HTTPClient: keyedHTTPClient(listModelsTimeout)}).Models(ctx)
	if err != nil {
		return nil, err
	}
	if models == nil {
		models = []string{}
	}
	return models, nil
}
