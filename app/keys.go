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

// openKeys opens the secret store (Config.Secrets, else the one
// secrets.OpenChosen picks) and this database's vault, moving the keys of
// an older, writable database out of it. A read-only copy (a.readOnly)
// moves nothing and does not probe the keychain by writing to it.
func (a *App) openKeys(ctx context.Context) error {
	v, err := secrets.OpenChosen(ctx, a.db, a.cfg.Secrets, a.readOnly == "", a.log)
	if err != nil {
		return err
	}
	a.keys = v
	return nil
}
