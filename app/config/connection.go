package config

import (
	"context"
	"fmt"
	"time"
)

// ConnectionResult is what TestConnection found.
type ConnectionResult struct {
	OK      bool     `json:"ok"`
	Message string   `json:"message"`
	Models  []string `json:"models"`
}

// storedKeyWait bounds reading a stored key for TestConnection (the
// facade's own bound on a call).
const storedKeyWait = 30 * time.Second

// TestConnection lists the models of the endpoint in st ("" = the
// effective one); a masked or empty key means the key stored for that URL
// only (a key goes only to the endpoint it was saved with).
func (c *Catalog) TestConnection(ctx context.Context, st Settings) ConnectionResult {
	cur, _ := c.Effective()
	if st.BaseURL == "" {
		st.BaseURL = cur.BaseURL
	}
	if masked := IsMasked(st.APIKey); st.APIKey == "" || masked {
		kctx, cancel := context.WithTimeout(ctx, storedKeyWait)
		key, ok := c.StoredKeyFor(kctx, st.BaseURL, st.APIKey)
		cancel()
		if !ok && masked {
			return ConnectionResult{Message: "The key shown is saved for another endpoint: type the key for this URL to test it.", Models: []string{}}
		}
		st.APIKey = key
	}
	if st.BaseURL == "" {
		return ConnectionResult{Message: "Enter the endpoint's base URL first.", Models: []string{}}
	}
	if msg := CheckBaseURL(st.BaseURL); msg != "" {
		return ConnectionResult{Message: msg, Models: []string{}}
	}
	models, err := ListModels(ctx, st.BaseURL, st.APIKey)
	if err != nil {
		return ConnectionResult{Message: ConnectionProblem(st.BaseURL, err), Models: []string{}}
	}
	noun := "models"
	if len(models) == 1 {
		noun = "model"
	}
	return ConnectionResult{OK: true, Message: fmt.Sprintf("Connected: %d %s available.", len(models), noun), Models: models}
}

// Target is where ListModels asks an endpoint ("" = the default) for its
// models: its base URL, its key and its name for messages; ok is false
// when no endpoint has the id (any more).
func (c *Catalog) Target(ctx context.Context, endpointID string) (base, key, name string, ok bool, err error) {
	if endpointID == "" {
		base, key = c.KeyedDefault()
		return base, key, "the default endpoint", true, nil
	}
	e, ok, err := c.EndpointByID(ctx, endpointID)
	return e.BaseURL, e.APIKey, e.Name, ok, err
}
