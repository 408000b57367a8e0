package secrets

import (
	"errors"
	"fmt"
	"sync"
)

// Vault is the app's view of a Store: accounts are named "<vault id>/<name>"
// (the vault id is saved in the settings table, so two databases never
// share a key) and values are cached in memory.
type Vault struct {
	store  Store
	status KeyStorage
	id     string

	mu    sync.Mutex
	cache map[string]string // name → secret ("" = known absent)
	// unreadable holds the names whose last read failed: "could not
	// read" is not "empty", so a save never deletes them (Set).
	unreadable map[string]bool
}

// NewVault is a vault over st with no id yet (Open names it).
func NewVault(st Store, status KeyStorage) *Vault {
	return &Vault{store: st, status: status, cache: map[string]string{}, unreadable: map[string]bool{}}
}

func (v *Vault) account(name string) string { return v.id + "/" + name }

// Get returns the named secret ("" when none is stored).
func (v *Vault) Get(name string) (string, error) {
	if v == nil || v.id == "" {
		return "", nil
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	if s, ok := v.cache[name]; ok {
		return s, nil
	}
	s, err := v.store.Get(v.account(name))
	if errors.Is(err, ErrNotFound) {
		s, err = "", nil
	}
	if err != nil {
		v.unreadable[name] = true
		return "", fmt.Errorf("reading a key from the %s: %w", v.status.Kind, err)
	}
	delete(v.unreadable, name)
	v.cache[name] = s
	return s, nil
}

// Unreadable reports whether the named secret's last read failed (the
// storage did not answer): the key may exist, and is kept.
func (v *Vault) Unreadable(name string) bool {
	if v == nil {
		return false
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.unreadable[name]
}

// Delete deletes the named secret, read or not (its owner is deleted).
func (v *Vault) Delete(name string) error {
	if v == nil || v.id == "" {
		return errors.New("keys cannot be deleted: no key storage is open")
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	if err := v.store.Delete(v.account(name)); err != nil {
		return fmt.Errorf("deleting a key in the %s: %w", v.status.Kind, err)
	}
	delete(v.unreadable, name)
	v.cache[name] = ""
	return nil
}

// Set stores the named secret; "" deletes it, unless the secret could not
// be read (Unreadable): a save never deletes a key it could not read.
func (v *Vault) Set(name, secret string) error {
	if v == nil || v.id == "" {
		return errors.New("keys cannot be saved: no key storage is open")
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	if s, ok := v.cache[name]; ok && s == secret {
		return nil
	}
	if secret == "" && v.unreadable[name] {
		return nil
	}
	var err error
	if secret == "" {
		err = v.store.Delete(v.account(name))
	} else {
		err = v.store.Set(v.account(name), secret)
	}
	if err != nil {
		return fmt.Errorf("saving a key in the %s: %w", v.status.Kind, err)
	}
	delete(v.unreadable, name)
	v.cache[name] = secret
	return nil
}

// Storage is what Settings shows.
func (v *Vault) Storage() *KeyStorage {
	if v == nil {
		return nil
	}
	s := v.status
	return &s
}
