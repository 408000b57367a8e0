package secrets

import (
	"errors"
	"os"
	"path/filepath"

	"github.com/juncture-app/juncture/store"
)

// configFiles are the files of the configuration folder that Juncture
// writes: the MCP servers (their env may hold tokens) and the keys'
// fallback file.
var configFiles = []string{"mcp.json", "secrets.json"}

// PrivateConfig makes each existing configuration folder 0700 and its
// files 0600 (an older version, or the person, may have made them
// readable by others); a folder that does not exist yet is made 0700 by
// whatever writes it first. Symlinked files are left alone.
func PrivateConfig(dirs []string) error {
	var errs []error
	for _, dir := range dirs {
		if _, err := os.Stat(dir); errors.Is(err, os.ErrNotExist) {
			continue
		}
		errs = append(errs, store.PrivateDir(dir))
		for _, name := range configFiles {
			errs = append(errs, store.PrivateFile(filepath.Join(dir, name)))
		}
	}
	return errors.Join(errs...)
}
