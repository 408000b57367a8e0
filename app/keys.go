package app

import (
	"context"

	"github.com/juncture-app/juncture/app/secrets"
)

// Keys: the app reads and saves them through its vault (package secrets);
// the settings table keeps none.

// SecretStore keeps secrets by account name (secrets.Store).
type SecretStore = secrets.Store

// KeyStorage says where keys are stored (Settings shows it).
type KeyStorage = secrets.KeyStorage

// openKeys opens the secret store and this database's vault (moving the
// keys of an older, writable database out of it).
func (a *App) openKeys(ctx context.Context) error {
	st, status := a.cfg.Secrets, KeyStorage{Kind: "custom", Detail: "provided by the caller"}
	if st == nil {
		var err error
		if st, status, err = secrets.Choose(secrets.KeychainService); err != nil {
			return err
		}
	}
	v, err := secrets.Open(ctx, a.db, st, status, a.readOnly == "", a.log)
	if err != nil {
		return err
	}
	a.keys = v
	return nil
}
