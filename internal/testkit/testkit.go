// Package testkit holds the small helpers the tests of several packages
// share: a buffer goroutines write to together, an in-memory key vault,
// a file copy.
package testkit

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"strings"
	"sync"
	"testing"
)

// SyncBuffer is a bytes.Buffer several goroutines can write to (a child
// process's output copiers, a logger) while the test reads it.
type SyncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *SyncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *SyncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// Vault is a key storage in memory (the shape of mcp.Vault and of the
// app's key store) that the test can read back. The zero value is ready.
type Vault struct {
	mu sync.Mutex
	m  map[string]string
}

// Get is the secret stored for account, or an error when there is none.
func (v *Vault) Get(account string) (string, error) {
	v.mu.Lock()
	defer v.mu.Unlock()
	s, ok := v.m[account]
	if !ok {
		return "", errors.New("no such key stored")
	}
	return s, nil
}

// Set stores secret for account.
func (v *Vault) Set(account, secret string) error {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.m == nil {
		v.m = map[string]string{}
	}
	v.m[account] = secret
	return nil
}

// Delete forgets account's secret.
func (v *Vault) Delete(account string) error {
	v.mu.Lock()
	defer v.mu.Unlock()
	delete(v.m, account)
	return nil
}

// Dump is everything stored, as JSON.
func (v *Vault) Dump() string {
	v.mu.Lock()
	defer v.mu.Unlock()
	data, _ := json.Marshal(v.m)
	return string(data)
}

// Holds reports whether a stored secret contains s.
func (v *Vault) Holds(s string) bool {
	v.mu.Lock()
	defer v.mu.Unlock()
	for _, secret := range v.m {
		if strings.Contains(secret, s) {
			return true
		}
	}
	return false
}

// CopyFile copies the file from to the file to (mode 0600), failing the
// test if it cannot.
func CopyFile(t testing.TB, from, to string) {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, b, 0o600); err != nil {
		t.Fatal(err)
	}
}
