package secrets

import (
	"context"
	"log/slog"
)

// OpenChosen is Open over st, a store the caller provides (tests), or,
// when st is nil, over the one Choose picks: the OS keychain, or the
// fallback file when the keychain does not answer.
func OpenChosen(ctx context.Context, db Rows, st Store, writable bool, log *slog.Logger) (*Vault, error) {
	status := KeyStorage{Kind: "custom", Detail: "provided by the caller"}
	if st == nil {
		var err error
		if st, status, err = Choose(KeychainService); err != nil {
			return nil, err
		}
	}
	return Open(ctx, db, st, status, writable, log)
}
