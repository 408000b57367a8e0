//go:build linux

package webkitgc

import (
	"log/slog"
	"os"
)

// Configure sets the web process's JavaScriptCore options in this
// process's environment, which WebKitGTK's web process inherits when the
// window's web view starts it; call it before wails.Run.
func Configure(log *slog.Logger) error {
	set, err := apply(os.LookupEnv, os.Setenv)
	log.Debug("webkitgc: the web process's JavaScript heap grows as on a smaller machine", "set", set)
	return err
}
