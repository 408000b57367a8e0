package secrets

import (
	"encoding/json"
	"strings"
)

// Keys in the settings table. The table keeps no key: saving one writes
// the store, and the row keeps "" (a general key such as apiKey) or a
// reference (an endpoint's "apiKeyRef").

// Settings keys of the key storage.
const (
	KeyVaultID = "vaultId"  // names this database's accounts in the store
	KeyScrubDB = "keysMove" // "pending" from a move until the file is rebuilt
	// KeyEndpoints is the saved endpoints' JSON (the app's catalog); each
	// endpoint's "apiKey" moves to the account EndpointAccount(id).
	KeyEndpoints = "endpoints"
)

// IsSecretSetting reports whether a settings row holds a key (the general
// apiKey, or anything named like a key, token, secret or password).
func IsSecretSetting(name string) bool {
	n := strings.ToLower(name)
	if n == strings.ToLower(KeyVaultID) || n == strings.ToLower(KeyScrubDB) {
		return false
	}
	for _, w := range []string{"apikey", "api_key", "token", "secret", "password", "passphrase", "credential"} {
		if strings.Contains(n, w) {
			return true
		}
	}
	return false
}

// SettingAccount is the vault name of a secret settings row.
func SettingAccount(name string) string { return "setting:" + name }

// EndpointAccount is the vault name of a saved endpoint's key.
func EndpointAccount(id string) string { return "endpoint:" + id }

// StripRows is m as the settings table may keep it: keys moved into the
// vault (store true) or only removed (a backup's rows; vault may be nil).
func StripRows(m map[string]string, vault *Vault, store bool) (map[string]string, error) {
	out := make(map[string]string, len(m))
	for k, v := range m {
		switch {
		case IsSecretSetting(k):
			if store {
				if err := vault.Set(SettingAccount(k), v); err != nil {
					return nil, err
				}
			}
			out[k] = ""
		case k == KeyEndpoints:
			s, err := stripEndpointKeys(v, vault, store)
			if err != nil {
				return nil, err
			}
			out[k] = s
		default:
			out[k] = v
		}
	}
	return out, nil
}

// stripEndpointKeys rewrites the saved endpoints' JSON without keys: a key
// goes to the vault (account endpoint:<id>) and "apiKeyRef" names it.
// Fields it does not know are kept as they are.
func stripEndpointKeys(s string, vault *Vault, store bool) (string, error) {
	if strings.TrimSpace(s) == "" {
		return s, nil
	}
	var list []map[string]json.RawMessage
	if err := json.Unmarshal([]byte(s), &list); err != nil {
		// Never kept as it is: it may hold a key in clear (and the
		// catalog starts from none when it does not parse anyway).
		return "[]", nil
	}
	for _, e := range list {
		raw, present := e["apiKey"]
		if !present {
			continue // already a reference (or no key): the vault keeps its key
		}
		var id, key string
		_ = json.Unmarshal(e["id"], &id)
		_ = json.Unmarshal(raw, &key)
		delete(e, "apiKey")
		if id == "" {
			delete(e, "apiKeyRef")
			continue
		}
		if store {
			if err := vault.Set(EndpointAccount(id), key); err != nil {
				return "", err
			}
		}
		if key != "" || (store && vault.Unreadable(EndpointAccount(id))) {
			// A key that could not be read keeps its reference.
			ref, _ := json.Marshal(EndpointAccount(id))
			e["apiKeyRef"] = ref
		} else if store {
			delete(e, "apiKeyRef")
		}
	}
	b, err := json.Marshal(list)
	if err != nil {
		return "", err
	}
	return string(b), nil
}

// HasSecrets reports whether rows hold a key in clear.
func HasSecrets(m map[string]string) bool {
	for k, v := range m {
		if IsSecretSetting(k) && v != "" {
			return true
		}
	}
	if s := m[KeyEndpoints]; s != "" {
		var list []map[string]json.RawMessage
		if json.Unmarshal([]byte(s), &list) != nil {
			return true // unknown: treat as holding one
		}
		for _, e := range list {
			var key string
			if json.Unmarshal(e["apiKey"], &key) == nil && key != "" {
				return true
			}
		}
	}
	return false
}

// EndpointRefs lists, in order, the key reference of each endpoint in the
// saved endpoints' JSON s ("" for one without; nil when s does not parse).
func EndpointRefs(s string) []string {
	var refs []struct {
		Ref string `json:"apiKeyRef"`
	}
	if json.Unmarshal([]byte(s), &refs) != nil {
		return nil
	}
	out := make([]string, len(refs))
	for i, r := range refs {
		out[i] = r.Ref
	}
	return out
}
