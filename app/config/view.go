package config

import "github.com/juncture-app/juncture/app/secrets"

// SettingsView is the settings as the window shows them (GetSettings).
type SettingsView struct {
	Settings Settings          `json:"settings"`
	Sources  map[string]string `json:"sources"`
	// KeyStorage is where keys are stored, and why (secrets.KeyStorage).
	KeyStorage *secrets.KeyStorage `json:"keyStorage,omitempty"`
	// KeyState is KeyUnavailable when the saved key could not be read
	// (apiKey is then empty, and a save keeps the stored key).
	KeyState string `json:"keyState,omitempty"`
	// Providers are the well-known servers the window offers to fill a
	// base URL (Providers: the one list).
	Providers []Provider `json:"providers,omitempty"`
}

// View is the effective settings and where each came from, the key
// masked; storage says where keys are kept.
func (c *Catalog) View(storage *secrets.KeyStorage) SettingsView {
	st, src := c.Effective()
	st.APIKey = MaskKey(st.APIKey)
	v := SettingsView{Settings: st, Sources: src, KeyStorage: storage, Providers: Providers()}
	if src["apiKey"] != SourceEnvironment && c.GeneralKeyUnreadable() {
		v.KeyState = KeyUnavailable
	}
	return v
}
