// Package threadmodel resolves the model a thread talks to.
//
// A thread's own endpoint and model (its options), else the defaults,
// through one cached OpenAI-compatible client per endpoint, key and model;
// an MCP server's approved sampling request is answered by the same model.
package threadmodel

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/juncture-app/juncture/agent"
	"github.com/juncture-app/juncture/agent/history"
	"github.com/juncture-app/juncture/agent/mcp"
	"github.com/juncture-app/juncture/agent/model"
	"github.com/juncture-app/juncture/agent/model/openai"
	"github.com/juncture-app/juncture/app/config"
	"github.com/juncture-app/juncture/store"
)

// Threads reads a stored thread (*store.DB has it).
type Threads interface {
	Thread(ctx context.Context, id string) (history.Thread, error)
}

// Resolver turns a thread into the model client its next call uses.
type Resolver struct {
	Threads Threads
	Conf    *config.Catalog

	mu      sync.Mutex
	clients map[openai.Config]*openai.Client // by endpoint, key and model (see Client)
}

// Model is the runtime's model seam (agent.Options.Model): the thread's
// own endpoint and model (its options), else the defaults ("" = the
// defaults).
func (r *Resolver) Model(ctx context.Context, threadID string) (agent.Model, error) {
	o, err := r.Options(ctx, threadID)
	if err != nil {
		return nil, err
	}
	cfg, err := r.Config(ctx, o)
	if err != nil {
		return nil, err
	}
	return r.Client(cfg), nil
}

// Options reads a thread's options ("" or a thread not stored yet: none,
// so the defaults).
func (r *Resolver) Options(ctx context.Context, threadID string) (history.ThreadOptions, error) {
	if threadID == "" {
		return history.ThreadOptions{}, nil
	}
	t, err := r.Threads.Thread(ctx, threadID)
	if errors.Is(err, store.ErrNotFound) {
		return history.ThreadOptions{}, nil
	}
	if err != nil {
		return history.ThreadOptions{}, err
	}
	return t.Options, nil
}

// Config is where a thread's model calls go: its endpoint and model, else
// the defaults. An endpoint that no longer exists falls back to the
// default endpoint and model.
func (r *Resolver) Config(ctx context.Context, o history.ThreadOptions) (openai.Config, error) {
	wanted := o.Model
	if o.EndpointID != "" {
		e, ok, err := r.Conf.EndpointByID(ctx, o.EndpointID)
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
	st, _ := r.Conf.Effective()
	m := st.Model
	if wanted != "" {
		m = wanted
	}
	if st.BaseURL == "" || m == "" {
		return openai.Config{}, agent.ErrNotConfigured
	}
	base, key := r.Conf.KeyedDefault()
	return openai.Config{BaseURL: base, APIKey: key, Model: m}, nil
}

// maxClients bounds the model clients kept at once.
const maxClients = 32

// Client returns the (cached) model client for cfg: several live at once,
// one per endpoint, key and model in use.
func (r *Resolver) Client(cfg openai.Config) *openai.Client {
	r.mu.Lock()
	defer r.mu.Unlock()
	cfg.HTTPClient = config.KeyedHTTP // no redirect carries the key elsewhere
	if c, ok := r.clients[cfg]; ok {
		return c
	}
	if r.clients == nil || len(r.clients) >= maxClients {
		r.clients = map[openai.Config]*openai.Client{}
	}
	c := openai.New(cfg)
	r.clients[cfg] = c
	return c
}

// Sample answers a server's approved sampling request with the thread's
// configured model (the person approved it on the card first): the
// MCP manager's Sampler.
func (r *Resolver) Sample(ctx context.Context, req mcp.SampleRequest) (mcp.SampleResult, error) {
	// The thread's own endpoint and model, as its turns use: a chat set
	// to another endpoint must not send the server's prompt (or spend the
	// key) of the default one.
	o, err := r.Options(ctx, req.ThreadID)
	if err != nil {
		return mcp.SampleResult{}, fmt.Errorf("reading the thread's options: %w", err)
	}
	cfg, err := r.Config(ctx, o)
	if err != nil {
		return mcp.SampleResult{}, err
	}
	c := r.Client(cfg)
	msgs := make([]history.Message, 0, len(req.Messages))
	for _, m := range req.Messages {
		role := history.RoleUser
		if m.Role == "assistant" {
			role = history.RoleAssistant
		}
		msgs = append(msgs, history.Message{Role: role, Content: m.Text, Status: history.StatusComplete})
	}
	var text strings.Builder
	for d, err := range c.Deltas(ctx, model.Request{System: req.System, Messages: msgs, MaxTokens: req.MaxTokens}) {
		if err != nil {
			return mcp.SampleResult{}, fmt.Errorf("asking the model for %s: %w", req.Server, err)
		}
		text.WriteString(d.Text)
	}
	return mcp.SampleResult{Text: text.String(), Model: c.Model(), StopReason: "endTurn"}, nil
}
