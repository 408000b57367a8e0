package secrets

import (
	"context"
	"log/slog"
)

// OpenChosen is Open over st, a store the caller provides (tests), or,
// when st is nil, over the one Choose picks: the OS keychain, or the
// fallback file when the keychain does not answer.
func OpenChosen(ctx context.Context, db Rows, st Store, writable bool, log *slog.Logger) (*Vault, error) {
	return openChosen(ctx, db, st, Keyring(KeychainService), writable, log)
}

// openChosen is OpenChosen with the keychain given (tests pass a fake).
func openChosen(ctx context.Context, db Rows, st, keychain Store, writable bool, log *slog.Logger) (*Vault, error) {
	status := KeyStorage{Kind: "custom", Detail: "provided by the caller"}
	if st == nil {
		var err error
		if st, status, err = choose(keychain, writable); err != nil {
			return nil, err
		}
	}
	return Open(ctx, db, st, status, writable, log)
}
