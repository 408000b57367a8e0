// Package aguitest checks recorded event streams with the official AG-UI
// 1.0 validator (tools/agui-conformance: @ag-ui/core and @ag-ui/client run
// in Node, strict mode). Tests everywhere use it on what they recorded.
package aguitest

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"
)

// validatorPath is $AGUI_VALIDATOR, else the vendored validator in this repo.
func validatorPath() string {
	if p := os.Getenv("AGUI_VALIDATOR"); p != "" {
		return p
	}
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "..", "tools", "agui-conformance", "validate-sse.mjs")
}

// Validate fails tb unless stream (SSE bytes exactly as written) is a valid
// AG-UI 1.0 stream. It skips only when node or the validator's packages are
// not installed (`make test` installs them).
func Validate(tb testing.TB, stream []byte) {
	tb.Helper()
	validator := validatorPath()
	if _, err := exec.LookPath("node"); err != nil {
		tb.Skip("node not installed; AG-UI conformance check skipped")
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(validator), "node_modules")); err != nil {
		tb.Skip("AG-UI validator not installed (make test installs it)")
	}
	f := filepath.Join(tb.TempDir(), "stream.sse")
	if err := os.WriteFile(f, stream, 0o644); err != nil {
		tb.Fatal(err)
	}
	if out, err := exec.Command("node", validator, "--strict", f).CombinedOutput(); err != nil {
		tb.Fatalf("AG-UI 1.0 conformance failed:\n%s\nstream:\n%s", out, stream)
	}
}
