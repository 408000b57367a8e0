package fakellm

import "testing"

func TestRunTarget(t *testing.T) {
	for in, want := range map[string]string{
		"run something":            "ls -la",
		"please run `git status`":  "git status",
		"run `git push` now":       "git push",
		"run `` nothing":           "ls -la",
		"run `unterminated please": "ls -la",
	} {
		if got := runTarget(in); got != want {
			t.Errorf("runTarget(%q) = %q; want %q", in, got, want)
		}
	}
}
