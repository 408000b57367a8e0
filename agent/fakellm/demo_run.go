package fakellm

import "strings"

// runTarget is the command "run" asks for: the text in the first pair of
// backticks ("run `git status`"), else ls -la.
func runTarget(s string) string {
	if i := strings.IndexByte(s, '`'); i >= 0 {
		if j := strings.IndexByte(s[i+1:], '`'); j > 0 {
			return s[i+1 : i+1+j]
		}
	}
	return "ls -la"
}
