package config

import (
	"context"
	"net/http"
	"slices"
	"sync"
	"time"

	"github.com/juncture-app/juncture/agent/model/openai"
)

// Provider is a well-known OpenAI-compatible server: the window offers it
// to fill a base URL, and the local ones are probed on this machine.
type Provider struct {
	// ID is the endpoint id of a local server ("ollama"), the preset's
	// id in the window otherwise.
	ID string `json:"id"`
	// Name names a detected endpoint ("Ollama").
	Name string `json:"name"`
	// Label is what the window's menu shows ("Ollama (local)").
	Label string `json:"label"`
	URL   string `json:"url"`
	// Local servers run on this machine and are probed.
	Local bool `json:"local"`
}

// providers is the one list of well-known servers (Providers).
var providers = []Provider{
	{ID: "openai", Name: "OpenAI", Label: "OpenAI", URL: "https://api.openai.com/v1"},
	{ID: "ollama", Name: "Ollama", Label: "Ollama (local)", URL: "http://127.0.0.1:11434/v1", Local: true},
	{ID: "lmstudio", Name: "LM Studio", Label: "LM Studio (local)", URL: "http://127.0.0.1:1234/v1", Local: true},
	{ID: "openrouter", Name: "OpenRouter", Label: "OpenRouter", URL: "https://openrouter.ai/api/v1"},
}

// Providers lists the well-known servers, in the order the window shows them.
func Providers() []Provider { return slices.Clone(providers) }

// LocalProviders are the servers probed on this machine.
func LocalProviders() []Provider {
	return slices.DeleteFunc(Providers(), func(p Provider) bool { return !p.Local })
}

// localServer is a local server that answered a probe.
type localServer struct {
	name, url string
	models    []string
}

// localProbeTTL is how long a probe of the local servers is reused.
const localProbeTTL = 30 * time.Second

// probeTimeout bounds one local server's answer.
const probeTimeout = 1500 * time.Millisecond

// probe is the local servers as last probed.
type probe struct {
	mu       sync.Mutex
	servers  []Provider
	local    map[string]localServer // by endpoint id, from the last probe
	probedAt time.Time
}

// localModels asks a local server for its models.
func localModels(ctx context.Context, url string) ([]string, error) {
	cctx, cancel := context.WithTimeout(ctx, probeTimeout)
	defer cancel()
	cl := openai.New(openai.Config{BaseURL: url, HTTPClient: &http.Client{Timeout: probeTimeout}})
	return cl.Models(cctx)
}

// ProbeLocal probes the local servers (a probe is reused for
// localProbeTTL; force probes again).
func (c *Catalog) ProbeLocal(ctx context.Context, force bool) {
	c.probeLocal(ctx, force)
}

// probeLocal returns the local servers that answer now.
func (c *Catalog) probeLocal(ctx context.Context, force bool) map[string]localServer {
	p := &c.probe
	p.mu.Lock()
	defer p.mu.Unlock()
	if !force && p.local != nil && time.Since(p.probedAt) < localProbeTTL {
		return p.local
	}
	found := make([]*localServer, len(p.servers))
	var wg sync.WaitGroup
	for i, srv := range p.servers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			models, err := localModels(ctx, srv.URL)
			if err != nil {
				return
			}
			found[i] = &localServer{name: srv.Name, url: srv.URL, models: models}
		}()
	}
	wg.Wait()
	p.local = map[string]localServer{}
	for i, f := range found {
		if f != nil {
			p.local[p.servers[i].ID] = *f
		}
	}
	p.probedAt = time.Now()
	return p.local
}

// lastProbe is the local servers as the last probe found them.
func (c *Catalog) lastProbe() map[string]localServer {
	c.probe.mu.Lock()
	defer c.probe.mu.Unlock()
	return c.probe.local
}

// localByID is the local server with that endpoint id, whether or not it
// answered the last probe.
func (c *Catalog) localByID(id string) (name, base string, ok bool) {
	for _, s := range c.probe.servers {
		if s.ID == id {
			return s.Name, s.URL, true
		}
	}
	return "", "", false
}

// IsLocalID reports whether id names a local server.
func (c *Catalog) IsLocalID(id string) bool {
	_, _, ok := c.localByID(id)
	return ok
}

// Detect looks for a local OpenAI-compatible server when no endpoint and no
// key are set anywhere. It records the first that answers with a model.
func (c *Catalog) Detect(ctx context.Context) {
	st, _ := c.Effective()
	if st.BaseURL != "" || st.APIKey != "" {
		return
	}
	for _, srv := range c.probe.servers {
		models, err := localModels(ctx, srv.URL)
		if err != nil || len(models) == 0 {
			continue
		}
		s := &c.settings
		s.mu.Lock()
		s.detected = map[string]string{"baseUrl": srv.URL, "model": models[0]}
		s.detectOK = srv.Name + " at " + srv.URL
		s.mu.Unlock()
		return
	}
}
