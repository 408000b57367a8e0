package mcp

import (
	"strings"
	"testing"
)

// A file that does not parse is masked by pattern for the raw editor,
// and the masked values come back from the file on disk when saved.
func TestMaskUnparsedRoundTrip(t *testing.T) {
	t.Parallel()
	broken := `{"mcpServers": {"r": {"url": "https://x", "headers": {"Authorization": "Bearer sk-123", "X-Api-Key": "k-9", "Accept": "json"}, "env": {"GITHUB_TOKEN": "ghp_1"}}`
	masked := MaskUnparsed(broken)
	for _, secret := range []string{"sk-123", "k-9", "ghp_1"} {
		if strings.Contains(masked, secret) {
			t.Fatalf("%q shown in %s", secret, masked)
		}
	}
	if !strings.Contains(masked, `"Accept": "json"`) {
		t.Fatalf("a plain value was masked: %s", masked)
	}
	fixed := masked + "}}"
	if got, want := RestoreUnparsed(fixed, broken), broken+"}}"; got != want {
		t.Fatalf("restored\n%s\nwant\n%s", got, want)
	}
}

// A broken file's URL query token, secret arguments and bare tokens are
// masked in the raw editor too, and come back on save (issue 19, defect 15).
func TestMaskUnparsedPlaces(t *testing.T) {
	t.Parallel()
	broken := `{"mcpServers": {"r": {"url": "https://x/mcp?api_key=qk-1111&v=2", "args": ["--token=tk-2222", "--api-key", "ak-3333", "ghp_bare44445555", "--verbose"]}`
	masked := MaskUnparsed(broken)
	for _, secret := range []string{"qk-1111", "tk-2222", "ak-3333", "ghp_bare44445555"} {
		if strings.Contains(masked, secret) {
			t.Fatalf("%q shown in %s", secret, masked)
		}
	}
	if !strings.Contains(masked, "v=2") || !strings.Contains(masked, `"--verbose"`) {
		t.Fatalf("a plain value was masked: %s", masked)
	}
	fixed := masked + "}}"
	if got, want := RestoreUnparsed(fixed, broken), broken+"}}"; got != want {
		t.Fatalf("restored\n%s\nwant\n%s", got, want)
	}
}
