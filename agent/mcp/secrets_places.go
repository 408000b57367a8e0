package mcp

import (
	"net/url"
	"strconv"
	"strings"
)

// Secrets outside headers and secret-named env variables: a token in the
// URL's query (?api_key=…) or its password, a token in the arguments
// (--api-key X, --token=X, or a bare sk-… / ghp_…), and an env value that
// looks like a token whatever its name. Masked hides them, ExtractSecrets
// moves them to the secret store like the others.

// tokenPrefixes start the tokens of well-known services.
var tokenPrefixes = []string{"sk-", "sk_", "ghp_", "gho_", "ghu_", "ghs_", "github_pat_", "glpat-", "xoxb-", "xoxp-", "xapp-", "AKIA", "AIza", "eyJ"}

// secretContent reports whether a value looks like a secret whatever it
// is called: a known token prefix, "Bearer …", or a URL with a password or
// a secret query parameter.
func secretContent(v string) bool {
	v = strings.TrimSpace(v)
	if strings.HasPrefix(strings.ToLower(v), "bearer ") {
		return true
	}
	for _, p := range tokenPrefixes {
		if strings.HasPrefix(v, p) && len(v) >= len(p)+8 && !strings.ContainsAny(v, " /") {
			return true
		}
	}
	if strings.Contains(v, "://") {
		found := false
		_, _ = rewriteURLSecrets(v, func(_, val string) (string, error) { found = found || val != ""; return val, nil })
		return found
	}
	return false
}

// secretEnv reports whether an env variable holds a secret: by its name,
// its value, or because the value is a reference.
func secretEnv(name, value string) bool {
	if _, ok := ParseSecretRef(value); ok {
		return true
	}
	return secretEnvName(name) || secretContent(value)
}

// secretFlag reports whether a command-line flag names a secret
// (--api-key, --token, -password).
func secretFlag(flag string) bool {
	return secretEnvName(strings.ReplaceAll(strings.TrimLeft(flag, "-"), "-", "_"))
}

var userinfoEscaper = strings.NewReplacer("%", "%25", "/", "%2F", "@", "%40", "?", "%3F", "#", "%23", ":", "%3A", "{", "%7B", "}", "%7D")

// rewriteURLSecrets calls f with each secret of a URL (the password of its
// user info as ":password", and each query parameter named like a secret,
// or holding a reference, by its name) and puts back what f returns.
// Everything else of the URL is kept byte for byte.
func rewriteURLSecrets(raw string, f func(param, value string) (string, error)) (string, error) {
	scheme := strings.Index(raw, "://")
	if scheme < 0 {
		return raw, nil
	}
	rest := raw[scheme+3:]
	authEnd := strings.IndexAny(rest, "/?#")
	if authEnd < 0 {
		authEnd = len(rest)
	}
	auth := rest[:authEnd]
	if at := strings.LastIndex(auth, "@"); at >= 0 {
		if user, pass, ok := strings.Cut(auth[:at], ":"); ok && pass != "" {
			// A reference sits escaped in the user info (its "/" and ":"
			// would end it).
			if u, err := url.PathUnescape(pass); err == nil {
				if _, ref := ParseSecretRef(u); ref {
					pass = u
				}
			}
			np, err := f(":password", pass)
			if err != nil {
				return "", err
			}
			if _, ref := ParseSecretRef(np); ref {
				np = userinfoEscaper.Replace(np)
			}
			auth = user + ":" + np + auth[at:]
		}
	}
	tail := rest[authEnd:]
	q := strings.Index(tail, "?")
	if q < 0 {
		return raw[:scheme+3] + auth + tail, nil
	}
	query, frag := tail[q+1:], ""
	if h := strings.Index(query, "#"); h >= 0 {
		query, frag = query[:h], query[h:]
	}
	parts := strings.Split(query, "&")
	for i, part := range parts {
		k, v, ok := strings.Cut(part, "=")
		if !ok || v == "" {
			continue
		}
		name, err := url.QueryUnescape(k)
		if err != nil {
			name = k
		}
		if _, ref := ParseSecretRef(v); !ref && !secretEnvName(name) {
			continue
		}
		nv, err := f(name, v)
		if err != nil {
			return "", err
		}
		parts[i] = k + "=" + nv
	}
	return raw[:scheme+3] + auth + tail[:q+1] + strings.Join(parts, "&") + frag, nil
}

// rewriteArgSecrets calls f, in place, with each secret of args: the value
// of --flag=value or of "--flag value" when the flag names a secret (by
// the flag), and a bare argument that looks like a token or is a
// reference (by its position, "#3").
func rewriteArgSecrets(args []string, f func(flag, value string) (string, error)) error {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if strings.HasPrefix(a, "-") {
			flag, v, eq := strings.Cut(a, "=")
			switch {
			case eq && v != "" && secretFlag(flag):
				nv, err := f(flag, v)
				if err != nil {
					return err
				}
				args[i] = flag + "=" + nv
			case !eq && secretFlag(flag) && i+1 < len(args) && !strings.HasPrefix(args[i+1], "-"):
				nv, err := f(flag, args[i+1])
				if err != nil {
					return err
				}
				args[i+1] = nv
				i++
			}
			continue
		}
		if _, ref := ParseSecretRef(a); ref || secretContent(a) {
			nv, err := f("#"+strconv.Itoa(i), a)
			if err != nil {
				return err
			}
			args[i] = nv
		}
	}
	return nil
}

// maskURL is a URL as Settings shows it: its secrets replaced by Mask.
func maskURL(raw string) string {
	out, _ := rewriteURLSecrets(raw, func(_, v string) (string, error) { return Mask, nil })
	return out
}

// maskArgs is args as Settings shows them (a copy): secrets replaced by
// maskValue.
func maskArgs(args []string) []string {
	if len(args) == 0 {
		return args
	}
	out := append([]string(nil), args...)
	_ = rewriteArgSecrets(out, func(_, v string) (string, error) { return maskValue(v), nil })
	return out
}

// restoreArgs puts back each argument of edited that is still exactly the
// masked form of an argument of previous: the one at the same position,
// else the only one with that masked text (so moved arguments keep their
// values). An ambiguous mask stays, and the save refuses it.
func restoreArgs(previous, edited []string) []string {
	if len(edited) == 0 {
		return edited
	}
	masked := maskArgs(previous)
	byMask := map[string]string{}
	seen := map[string]int{}
	for i, m := range masked {
		if m != previous[i] {
			byMask[m] = previous[i]
			seen[m]++
		}
	}
	out := append([]string(nil), edited...)
	for i, a := range out {
		if !strings.Contains(a, Mask) {
			continue
		}
		if i < len(masked) && masked[i] == a && previous[i] != a {
			out[i] = previous[i]
		} else if prev, ok := byMask[a]; ok && seen[a] == 1 {
			out[i] = prev
		}
	}
	return out
}
