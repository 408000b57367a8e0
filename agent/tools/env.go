package tools

import (
	"fmt"
	"os"
	"runtime"
	"sort"
	"strings"
)

// commandEnv is the environment of every process this package starts: the
// variables in inheritedEnv taken from the app's environment, then extra
// (BuiltinOptions.ExtraEnv), which wins over an inherited variable of the
// same name.
func commandEnv(extra map[string]string) ([]string, error) {
	return buildEnv(os.Environ(), inheritedEnv, extra, runtime.GOOS == "windows")
}

// buildEnv keeps the variables of environ named in keep, in their order,
// and appends extra sorted by name. fold compares names
// case-insensitively, as Windows does. The result is never nil: a nil
// exec.Cmd.Env would mean the app's whole environment.
func buildEnv(environ, keep []string, extra map[string]string, fold bool) ([]string, error) {
	norm := func(k string) string {
		if fold {
			return strings.ToUpper(k)
		}
		return k
	}
	wanted := make(map[string]bool, len(keep))
	for _, k := range keep {
		wanted[norm(k)] = true
	}
	names := make([]string, 0, len(extra))
	for k, v := range extra {
		if k == "" || strings.ContainsAny(k, "=\x00") || strings.ContainsRune(v, 0) {
			return nil, fmt.Errorf("the configured environment variable %q is not valid (a name must be non-empty without = or NUL)", k)
		}
		names = append(names, k)
	}
	sort.Strings(names)
	overridden := make(map[string]bool, len(extra))
	for _, k := range names {
		overridden[norm(k)] = true
	}
	env := make([]string, 0, len(keep)+len(names))
	for _, kv := range environ {
		// On Windows, entries such as "=C:=C:\dir" start with "=".
		k, _, ok := strings.Cut(kv, "=")
		if !ok || k == "" || !wanted[norm(k)] || overridden[norm(k)] {
			continue
		}
		env = append(env, kv)
	}
	for _, k := range names {
		env = append(env, k+"="+extra[k])
	}
	return env, nil
}
