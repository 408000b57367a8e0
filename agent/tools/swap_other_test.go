//go:build !linux

package tools

import (
	"os"
	"path/filepath"
)

// exchange swaps two paths through a third name. Unlike Linux's
// RENAME_EXCHANGE it is not atomic, so the race is milder here.
func exchange(a, b string) error {
	tmp := filepath.Join(filepath.Dir(a), ".swap")
	if err := os.Rename(a, tmp); err != nil {
		return err
	}
	if err := os.Rename(b, a); err != nil {
		return err
	}
	return os.Rename(tmp, b)
}
