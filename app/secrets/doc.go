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
//   - The live app's probe (Probe) removes its test entry however late the
//     keychain answers; one left by a run that exited mid-probe is noted
//     in $XDG_CONFIG_HOME/juncture/keychain-probes and removed by a later
//     start whose probe works (only "probe-<16 hex>" entries so noted).
//   - A migration backup that is not a readable database is searched for
//     known keys by its data only (Linux skips a sparse file's holes), at
//     most 1 GiB; one not searched whole is kept and logged as possibly
//     holding a key, never deleted on a guess.
//   - Accounts are "<vault id>/<name>": the vault id is saved in the
//     database, so two databases never share a key.
//   - No error, log line or KeyStorage detail holds a secret.
//   - A vault opened for a read-only copy of damaged data (Open with
//     writable false) moves and scrubs nothing, and does not probe the
//     keychain by writing a test entry: it only reads, to learn whether
//     the keychain answers (ProbeReading). Its settings may be
//     unreadable (the damage): then it names no vault, and no key is read
//     or written. When the copy's settings name the vault, its MCP servers'
//     OAuth refreshes are written to the storage like the live app's:
//     a provider that rotates refresh tokens has already replaced the old
//     one, so keeping the new token only in the copy's memory would leave
//     the repaired app a dead sign-in (and, with reuse detection, get the
//     whole sign-in revoked). Tried and reverted on 2026-12-03.
package secrets
