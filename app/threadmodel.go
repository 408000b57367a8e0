package app

import (
	"context"
	"errors"
	"fmt"

	"github.com/juncture-app/juncture/agent"
	"github.com/juncture-app/juncture/agent/history"
	"github.com/juncture-app/juncture/agent/model/openai"
	"github.com/juncture-app/juncture/app/config"
	"github.com/juncture-app/juncture/store"
)

// What a thread runs with: its options resolved to an endpoint, a model
// and a client (cached per configuration).

// threadOptions reads a thread's options ("" or a thread not stored yet:
// none, so the defaults).
func (a *App) threadOptions(ctx context.Context, threadID string) (history.ThreadOptions, error) {
	if threadID == "" {
		return history.ThreadOptions{}, nil
	}
	t, err := a.db.Thread(ctx, threadID)
	if errors.Is(err, store.ErrNotFound) {
		return history.ThreadOptions{}, nil
	}
	if err != nil {
		return history.ThreadOptions{}, err
	}
	return t.Options, nil
}

// modelConfig is where a thread's model calls go: its endpoint and model,
// else the defaults. An endpoint that no longer exists falls back to the
// default endpoint and model.
func (a *App) modelConfig(ctx context.Context, o history.ThreadOptions) (openai.Config, error) {
	wanted := o.Model
	if o.EndpointID != "" {
		e, ok, err := a.conf.EndpointByID(ctx, o.EndpointID)
		if err != nil {
			return openai.Config{}, err
		}
		switch {
		case !ok:
			wanted = "" // the model was the deleted endpoint's
		case !e.IsDefault:
			m := wanted
			if m == "" {
				m = e.DefaultModel
			}
			if m == "" && e.Source == config.EndpointDetected {
				if models, err := config.ListModels(ctx, e.BaseURL, e.APIKey); err == nil {
					m = config.FirstOf(models)
				}
			}
			if m == "" {
				return openai.Config{}, fmt.Errorf("%w: choose a model for %s", agent.ErrNotConfigured, e.Name)
			}
			return openai.Config{BaseURL: e.BaseURL, APIKey: e.APIKey, Model: m}, nil
		}
	}
	st, _ := a.conf.Effective()
	m := st.Model
	if wanted != "" {
		m = wanted
	}
	if st.BaseURL == "" || m == "" {
		return openai.Config{}, agent.ErrNotConfigured
	}
	base, key := a.conf.KeyedDefault()
	return openai.Config{BaseURL: base, APIKey: key, Model: m}, nil
}

// maxClients bounds the model clients kept at once.
const maxClients = 32

// client returns the (cached) model client for cfg: several live at once,
// one per endpoint, key and model in use.
func (a *App) client(cfg openai.Config) *openai.Client {
	a.clientMu.Lock()
	defer a.clientMu.Unlock()
	cfg.HTTPClient = config.KeyedHTTP // no redirect carries the key elsewhere
	if c, ok := a.clients[cfg]; ok {
		return c
	}
	if a.clients == nil || len(a.clients) >= maxClients {
		a.clients = map[openai.Config]*openai.Client{}
	}
	c := openai.New(cfg)
	a.clients[cfg] = c
	return c
}
