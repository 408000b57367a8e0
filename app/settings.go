package app

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/juncture-app/juncture/agent/model/openai"
)

// Settings are the person's choices. The environment wins over saved values
// for the start it is set in; SettingsView says where each value comes from.
type Settings struct {
	BaseURL          string `json:"baseUrl"`
	APIKey           string `json:"apiKey"`
	Model            string `json:"model"`
	Workspace        string `json:"workspace"`
	LoopGuard        int    `json:"loopGuard"`
	Theme            string `json:"theme"`
	EnableWriteTools bool   `json:"enableWriteTools"`
	// ModelAcceptsImages sends the images of tool results (MCP image
	// content) to the model as image parts; off, the model reads their
	// text description only (what every model accepts).
	ModelAcceptsImages bool `json:"modelAcceptsImages"`
}

// Sources of a setting's value.
const (
	SourceEnvironment = "environment"
	SourceSaved       = "saved"
	SourceDefault     = "default"
	SourceDetected    = "detected"
)

// SettingsView is what GetSettings returns.
type SettingsView struct {
	Settings Settings          `json:"settings"`
	Sources  map[string]string `json:"sources"`
	// KeyStorage is where keys are stored: the OS keychain, or the
	// fallback file and why.
	KeyStorage *KeyStorage `json:"keyStorage,omitempty"`
	// KeyState is KeyUnavailable when the saved key could not be read
	// (apiKey is then empty, and a save keeps the stored key).
	KeyState string `json:"keyState,omitempty"`
}

// envKeys maps setting fields to the environment variables that override them.
var envKeys = map[string]string{
	"baseUrl":   "OPENAI_BASE_URL",
	"apiKey":    "OPENAI_API_KEY",
	"model":     "JUNCTURE_MODEL",
	"workspace": "JUNCTURE_WORKSPACE",
}

const defaultLoopGuard = 25

// settings holds saved values, the environment and what was detected.
type settings struct {
	getenv func(string) string

	mu       sync.Mutex
	saved    map[string]string
	detected map[string]string // baseUrl, model of a local server found at start
	detectOK string            // "Ollama" / "LM Studio"
}

func (s *settings) effective() (Settings, map[string]string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	src := map[string]string{}
	get := func(field, def string) string {
		if k, ok := envKeys[field]; ok {
			if v := s.getenv(k); v != "" {
				src[field] = SourceEnvironment
				return v
			}
		}
		if v, ok := s.saved[field]; ok && v != "" {
			src[field] = SourceSaved
			return v
		}
		if v, ok := s.detected[field]; ok && v != "" {
			src[field] = SourceDetected
			return v
		}
		src[field] = SourceDefault
		return def
	}
	st := Settings{
		BaseURL:   get("baseUrl", ""),
		APIKey:    get("apiKey", ""),
		Model:     get("model", ""),
		Workspace: get("workspace", ""),
		Theme:     get("theme", "system"),
	}
	st.LoopGuard, _ = strconv.Atoi(get("loopGuard", strconv.Itoa(defaultLoopGuard)))
	st.EnableWriteTools = get("enableWriteTools", "true") == "true"
	st.ModelAcceptsImages = get("modelAcceptsImages", "false") == "true"
	return st, src
}

// maskKey shows only the end of a key.
func maskKey(k string) string {
	if k == "" {
		return ""
	}
	if len(k) <= 4 {
		return "••••"
	}
	return "••••" + k[len(k)-4:]
}

// validate checks a settings change; the map holds per-field messages.
func validate(st Settings) map[string]string {
	bad := map[string]string{}
	if st.BaseURL != "" {
		u, err := url.Parse(st.BaseURL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			bad["baseUrl"] = "Enter a full http:// or https:// URL, for example http://127.0.0.1:11434/v1."
		}
	}
	if st.BaseURL != "" && strings.TrimSpace(st.Model) == "" {
		bad["model"] = "Choose a model (Test connection lists the endpoint's models)."
	}
	if st.LoopGuard < 1 || st.LoopGuard > 200 {
		bad["loopGuard"] = "Choose a number from 1 to 200."
	}
	switch st.Theme {
	case "system", "light", "dark":
	default:
		bad["theme"] = "Choose system, light or dark."
	}
	if st.Workspace != "" {
		if !filepath.IsAbs(st.Workspace) {
			bad["workspace"] = "Enter an absolute folder path."
		} else if fi, err := os.Stat(st.Workspace); err == nil && !fi.IsDir() {
			bad["workspace"] = "This path is a file, not a folder."
		}
	}
	return bad
}

// toMap is the saved form of settings.
func (st Settings) toMap() map[string]string {
	return map[string]string{
		"baseUrl": st.BaseURL, "apiKey": st.APIKey, "model": st.Model, "workspace": st.Workspace,
		"loopGuard": strconv.Itoa(st.LoopGuard), "theme": st.Theme, "enableWriteTools": strconv.FormatBool(st.EnableWriteTools),
		"modelAcceptsImages": strconv.FormatBool(st.ModelAcceptsImages),
	}
}

// localServers are probed when nothing is configured.
var localServers = []struct{ name, url string }{
	{"Ollama", "http://127.0.0.1:11434/v1"},
	{"LM Studio", "http://127.0.0.1:1234/v1"},
}

// detect looks for a local OpenAI-compatible server when no endpoint and no
// key are set anywhere. It records the first that answers with a model.
func (s *settings) detect(ctx context.Context) {
	st, _ := s.effective()
	if st.BaseURL != "" || st.APIKey != "" {
		return
	}
	for _, srv := range localServers {
		cctx, cancel := context.WithTimeout(ctx, 1500*time.Millisecond)
		c := openai.New(openai.Config{BaseURL: srv.url, HTTPClient: &http.Client{Timeout: 1500 * time.Millisecond}})
		models, err := c.Models(cctx)
		cancel()
		if err != nil || len(models) == 0 {
			continue
		}
		s.mu.Lock()
		s.detected = map[string]string{"baseUrl": srv.url, "model": models[0]}
		s.detectOK = fmt.Sprintf("%s at %s", srv.name, srv.url)
		s.mu.Unlock()
		return
	}
}
