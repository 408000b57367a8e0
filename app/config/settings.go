package config

import (
	"context"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"github.com/juncture-app/juncture/app/secrets"
)

// Settings are the person's choices. The environment wins over saved values
// for the start it is set in; Effective says where each value comes from.
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

// envKeys maps setting fields to the environment variables that override them.
var envKeys = map[string]string{
	"baseUrl":   "OPENAI_BASE_URL",
	"apiKey":    "OPENAI_API_KEY",
	"model":     "JUNCTURE_MODEL",
	"workspace": "JUNCTURE_WORKSPACE",
}

// DefaultLoopGuard is the loop guard when none is saved.
const DefaultLoopGuard = 25

// settings holds saved values, the environment and what was detected.
type settings struct {
	mu       sync.Mutex
	saved    map[string]string
	detected map[string]string // baseUrl, model of a local server found at start
	detectOK string            // "Ollama at …" / "LM Studio at …"
}

// Effective is the settings in force and where each field comes from.
func (c *Catalog) Effective() (Settings, map[string]string) {
	s := &c.settings
	s.mu.Lock()
	defer s.mu.Unlock()
	src := map[string]string{}
	get := func(field, def string) string {
		if k, ok := envKeys[field]; ok {
			if v := c.getenv(k); v != "" {
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
	st.LoopGuard, _ = strconv.Atoi(get("loopGuard", strconv.Itoa(DefaultLoopGuard)))
	st.EnableWriteTools = get("enableWriteTools", "true") == "true"
	st.ModelAcceptsImages = get("modelAcceptsImages", "false") == "true"
	return st, src
}

// Detected names the local server found at start ("" = none).
func (c *Catalog) Detected() string {
	c.settings.mu.Lock()
	defer c.settings.mu.Unlock()
	return c.settings.detectOK
}

// MaskKey shows only the end of a key.
func MaskKey(k string) string {
	if k == "" {
		return ""
	}
	if len(k) <= 4 {
		return "••••"
	}
	return "••••" + k[len(k)-4:]
}

// IsMasked reports whether a key is a mask (MaskKey) sent back.
func IsMasked(k string) bool { return strings.HasPrefix(k, "••••") }

// notAURL is the message for a base URL that is not one.
const notAURL = "Enter a full http:// or https:// URL, for example http://127.0.0.1:11434/v1."

// CheckBaseURL checks a base URL ("" = fine: a message otherwise).
func CheckBaseURL(base string) string {
	u, err := url.Parse(base)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return notAURL
	}
	return ""
}

// Validate checks a settings change; the map holds per-field messages.
func Validate(st Settings) map[string]string {
	bad := map[string]string{}
	if st.BaseURL != "" {
		if msg := CheckBaseURL(st.BaseURL); msg != "" {
			bad["baseUrl"] = msg
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

// GeneralKeyUnreadable reports whether the saved general key could not be
// read from the key storage.
func (c *Catalog) GeneralKeyUnreadable() bool {
	return c.keys.Unreadable(secrets.SettingAccount("apiKey"))
}

// SaveSettings validates and saves settings all at once (nothing is saved
// when any field is invalid). A masked API key keeps the stored key.
func (c *Catalog) SaveSettings(ctx context.Context, st Settings) error {
	cur, _ := c.Effective()
	st.BaseURL, st.Model, st.Workspace = strings.TrimSpace(st.BaseURL), strings.TrimSpace(st.Model), strings.TrimSpace(st.Workspace)
	keyBase, bad := c.keyBinding(&st, cur.BaseURL, c.GeneralKeyUnreadable())
	if bad != "" {
		return invalidSettings(map[string]string{"apiKey": bad})
	}
	probe := st
	if probe.BaseURL == "" {
		probe.BaseURL = cur.BaseURL // the environment may supply it
	}
	if probe.Model == "" {
		probe.Model = cur.Model
	}
	if bad := Validate(probe); len(bad) > 0 {
		return invalidSettings(bad)
	}
	m := st.toMap()
	m[keyKeyBase] = keyBase
	if err := c.saveRows(ctx, m); err != nil {
		return err
	}
	c.settings.mu.Lock()
	c.settings.saved = m
	c.settings.mu.Unlock()
	return nil
}

// LoadSettings reads the saved settings, their keys from the vault (a
// row that still holds a key, as in a read-only copy, keeps it).
func (c *Catalog) LoadSettings(ctx context.Context) error {
	saved, err := c.rows.Settings(ctx)
	if err != nil {
		return err
	}
	names := map[string]bool{"apiKey": true}
	for k := range saved {
		if secrets.IsSecretSetting(k) {
			names[k] = true
		}
	}
	for k := range names {
		if saved[k] != "" {
			continue
		}
		s, err := c.keys.Get(secrets.SettingAccount(k))
		if err != nil {
			c.log.Warn("a saved key could not be read; it is kept", "setting", k, "err", err)
			continue
		}
		if s != "" {
			saved[k] = s
		}
	}
	c.settings.mu.Lock()
	c.settings.saved = saved
	c.settings.mu.Unlock()
	return nil
}

// saveRows saves settings rows, their keys to the vault only.
func (c *Catalog) saveRows(ctx context.Context, m map[string]string) error {
	rows, err := secrets.StripRows(m, c.keys, true)
	if err != nil {
		return err
	}
	return c.rows.SaveSettings(ctx, rows)
}
