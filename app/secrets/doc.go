// Package secrets keeps Juncture's keys (API keys, MCP header and env
// secrets) out of the database and out of files other users can read.
//
// Guarantees:
//   - A key lives in one place: the OS keychain (Keychain on macOS,
//     Credential Manager on Windows, the Secret Service on Linux) through
//     go-keyring, or, when none answers a probe at start, a file only the
//     person can read ($XDG_CONFIG_HOME/juncture/secrets.json, 0600 in a
//     0700 folder, replaced atomically). KeyStorage says which, and why.
//   - The settings table keeps no key: a row keeps "" (a general key) or a
//     reference (an endpoint's "apiKeyRef"). Open moves the keys of older
//     databases into the store, then rebuilds the file (store.RebuildFile)
//     and scrubs its migration backups (store.ScrubSettings).
//   - Accounts are "<vault id>/<name>": the vault id is saved in the
//     database, so two databases never share a key.
//   - No error, log line or KeyStorage detail holds a secret.
package secrets
