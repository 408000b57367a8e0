package mcp

import (
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
)

// Secrets in the configuration: header values and secret-looking env
// values are masked in everything shown, and a masked value saved back
// keeps the stored one.

// Mask replaces a secret in what Settings shows; see ServerConfig.Masked.
const Mask = "••••••••"

// secretEnvWords mark an environment variable whose value is a secret.
var secretEnvWords = []string{"KEY", "TOKEN", "SECRET", "PASSWORD", "PASSPHRASE", "CREDENTIAL", "AUTH"}

// secretEnvName reports whether an environment variable's name says it
// holds a secret (GITHUB_PERSONAL_ACCESS_TOKEN, OPENAI_API_KEY, ...).
func secretEnvName(name string) bool {
	upper := strings.ToUpper(name)
	for _, w := range secretEnvWords {
		if strings.Contains(upper, w) {
			return true
		}
	}
	return false
}

// maskValue keeps the last 4 characters of a long secret so a person can
// tell which key is configured; short ones show nothing of themselves.
func maskValue(v string) string {
	if v == "" {
		return ""
	}
	if _, ok := ParseSecretRef(v); ok {
		return Mask // a reference: nothing of the secret to show
	}
	r := []rune(v)
	if len(r) > 12 {
		return Mask + string(r[len(r)-4:])
	}
	return Mask
}

// Masked is c as Settings may show it: every header value, and the value of
// every environment variable whose name looks secret, replaced by Mask
// (plus the last 4 characters of values longer than 12). RestoreSecrets
// undoes it for values the person did not change.
func (c ServerConfig) Masked() ServerConfig {
	if len(c.Headers) > 0 {
		h := make(map[string]string, len(c.Headers))
		for k, v := range c.Headers {
			h[k] = maskValue(v)
		}
		c.Headers = h
	}
	if len(c.Env) > 0 {
		e := make(map[string]string, len(c.Env))
		for k, v := range c.Env {
			if secretEnv(k, v) {
				v = maskValue(v)
			}
			e[k] = v
		}
		c.Env = e
	}
	c.URL = maskURL(c.URL)
	c.Args = maskArgs(c.Args)
	c.Auth = maskedAuth(c.Auth)
	return c
}

// Masked masks every server (ServerConfig.Masked).
func (c Config) Masked() Config {
	if c.Servers != nil {
		servers := make(map[string]ServerConfig, len(c.Servers))
		for name, s := range c.Servers {
			servers[name] = s.Masked()
		}
		c.Servers = servers
	}
	return c
}

// RestoreSecrets puts previous's values back where edited still holds the
// mask Masked made of them (same header or env name), so a form or editor
// that showed masked values saves the real ones. Anything the person
// changed is kept as edited.
func RestoreSecrets(previous, edited ServerConfig) ServerConfig {
	if movedOrigin(previous.URL, edited.URL) {
		// A header goes only to the origin it was saved for: with another
		// URL its mask stays, and the save asks for the value again.
		edited.Headers = restoreMap(previous.Headers, edited.Headers, func(string, string) bool { return false })
	} else {
		edited.Headers = restoreMap(previous.Headers, edited.Headers, func(string, string) bool { return true })
	}
	edited.Env = restoreMap(previous.Env, edited.Env, secretEnv)
	if strings.Contains(edited.URL, Mask) && edited.URL == maskURL(previous.URL) {
		edited.URL = previous.URL
	}
	edited.Args = restoreArgs(previous.Args, edited.Args)
	edited.Auth = restoreAuth(previous, edited)
	return edited
}

// movedOrigin reports whether an edited URL names another origin (scheme,
// host, port) than the saved one; an unparsable one counts as moved.
func movedOrigin(previous, edited string) bool {
	if previous == "" || edited == "" {
		return false
	}
	p, e := configuredOrigin(previous), configuredOrigin(edited)
	return p == nil || e == nil || !sameOrigin(p, e)
}

func restoreMap(previous, edited map[string]string, masked func(k, v string) bool) map[string]string {
	if len(edited) == 0 {
		return edited
	}
	out := make(map[string]string, len(edited))
	for k, v := range edited {
		if prev, ok := previous[k]; ok && masked(k, prev) && strings.HasPrefix(v, Mask) && v == maskValue(prev) {
			v = prev
		}
		out[k] = v
	}
	return out
}

// RestoreConfigSecrets applies RestoreSecrets to each server of edited that
// previous has under the same name.
func RestoreConfigSecrets(previous, edited Config) Config {
	if edited.Servers == nil {
		return edited
	}
	servers := make(map[string]ServerConfig, len(edited.Servers))
	for name, s := range edited.Servers {
		if prev, ok := previous.Servers[name]; ok {
			s = RestoreSecrets(prev, s)
		}
		servers[name] = s
	}
	edited.Servers = servers
	return edited
}

// unparsedSecretRE finds "name": "value" pairs whose name looks secret
// (secretEnvWords, or a cookie) in a file that does not parse, so cannot
// be masked field by field.
var unparsedSecretRE = regexp.MustCompile(`("(?i:[^"\\]*(?:` + strings.Join(append(secretEnvWords, "COOKIE"), "|") + `)[^"\\]*)"\s*:\s*")((?:[^"\\]|\\.)*)(")`)

// unparsedPlaceREs find, in a file that does not parse, the secrets of
// secrets_places.go: a secret URL query parameter, a secret flag's value
// ("--token=X", "--api-key", "X") and a well-known token. Each has three
// groups: before, the secret, after.
var unparsedPlaceREs = func() []*regexp.Regexp {
	words := `(?i:` + strings.Join(secretEnvWords, "|") + `)`
	prefixes := make([]string, len(tokenPrefixes))
	for i, p := range tokenPrefixes {
		prefixes[i] = regexp.QuoteMeta(p)
	}
	return []*regexp.Regexp{
		regexp.MustCompile(`([?&][^=&"\\\s#]*` + words + `[^=&"\\\s#]*=)([^&"#\\\s]+)()`),
		regexp.MustCompile(`("-{1,2}[A-Za-z0-9_-]*` + words + `[A-Za-z0-9_-]*=)([^"\\]+)(")`),
		regexp.MustCompile(`("-{1,2}[A-Za-z0-9_-]*` + words + `[A-Za-z0-9_-]*"\s*,\s*")([^"\\]+)(")`),
		regexp.MustCompile(`(")((?:` + strings.Join(prefixes, "|") + `)[^"\\\s]{8,})(")`),
	}
}()

// MaskUnparsed hides the secret-looking values of a configuration text
// that does not parse (the raw editor shows it so the person can fix it).
func MaskUnparsed(text string) string {
	text = unparsedSecretRE.ReplaceAllString(text, "${1}"+Mask+"${3}")
	for _, re := range unparsedPlaceREs {
		text = re.ReplaceAllString(text, "${1}"+Mask+"${3}")
	}
	return text
}

// RestoreUnparsed puts back, name by name, the values MaskUnparsed hid: a
// value still equal to the mask takes the on-disk value of the same name
// (the first one, when a name repeats).
func RestoreUnparsed(edited, onDisk string) string {
	orig := map[string]string{}
	for _, m := range unparsedSecretRE.FindAllStringSubmatch(onDisk, -1) {
		if _, seen := orig[m[1]]; !seen {
			orig[m[1]] = m[2]
		}
	}
	edited = unparsedSecretRE.ReplaceAllStringFunc(edited, func(s string) string {
		m := unparsedSecretRE.FindStringSubmatch(s)
		if v, ok := orig[m[1]]; ok && m[2] == Mask {
			return m[1] + v + m[3]
		}
		return s
	})
	// The other places have no name to match by: the n-th mask takes the
	// n-th value on disk when both texts have as many.
	for i, re := range unparsedPlaceREs {
		disk := re.FindAllStringSubmatch(onDisk, -1)
		shown := re
		if i == len(unparsedPlaceREs)-1 {
			// A masked token no longer has its prefix.
			shown = regexp.MustCompile(`(")(` + Mask + `)(")`)
		}
		if len(shown.FindAllStringIndex(edited, -1)) != len(disk) {
			continue
		}
		n := 0
		edited = shown.ReplaceAllStringFunc(edited, func(s string) string {
			m, d := shown.FindStringSubmatch(s), disk[n]
			n++
			if m[2] == Mask && m[1] == d[1] {
				return m[1] + d[2] + m[3]
			}
			return s
		})
	}
	return edited
}

// Secrets out of mcp.json: header values and secret-looking env values are
// kept in a secret store (the app's: the OS keychain or its fallback file)
// and the file holds a reference in their place,
// "${keychain:mcp/<server>/header/<name>}". The app resolves references
// when it reads the file, so the manager starts servers with the values.

const (
	secretRefPrefix = "${keychain:"
	secretRefSuffix = "}"
)

// SecretRef is the reference written in place of a stored secret.
func SecretRef(account string) string { return secretRefPrefix + account + secretRefSuffix }

// ParseSecretRef returns the account a reference names.
func ParseSecretRef(v string) (string, bool) {
	if !strings.HasPrefix(v, secretRefPrefix) || !strings.HasSuffix(v, secretRefSuffix) || len(v) <= len(secretRefPrefix)+len(secretRefSuffix) {
		return "", false
	}
	return v[len(secretRefPrefix) : len(v)-len(secretRefSuffix)], true
}

// SecretAccount names the stored value of a server's header, env
// variable, URL query parameter or argument (kind "header", "env", "url"
// or "arg"). "/" and "%" in the names are escaped, so two fields never
// share an account.
func SecretAccount(server, kind, name string) string {
	return "mcp/" + escapeAccountPart(server) + "/" + kind + "/" + escapeAccountPart(name)
}

func escapeAccountPart(s string) string {
	return strings.NewReplacer("%", "%25", "/", "%2F").Replace(s)
}

// cloneServers copies c's servers (and their maps) so a change leaves c
// as it was.
func cloneServers(c Config) Config {
	if c.Servers == nil {
		return c
	}
	servers := make(map[string]ServerConfig, len(c.Servers))
	for name, s := range c.Servers {
		if s.Headers != nil {
			h := make(map[string]string, len(s.Headers))
			for k, v := range s.Headers {
				h[k] = v
			}
			s.Headers = h
		}
		if s.Env != nil {
			e := make(map[string]string, len(s.Env))
			for k, v := range s.Env {
				e[k] = v
			}
			s.Env = e
		}
		s.Args = slices.Clone(s.Args)
		if s.Auth != nil {
			a := *s.Auth
			a.Scopes = slices.Clone(a.Scopes)
			s.Auth = &a
		}
		servers[name] = s
	}
	c.Servers = servers
	return c
}

// ExtractSecrets returns c with every secret Masked hides (header values;
// env values named like secrets or looking like one; secret URL query
// parameters and passwords; secret arguments) stored through put and
// replaced by its reference. Empty values, references and values still
// holding the mask (SaveConfig refuses those) are left as they are;
// changed says whether any value moved.
func ExtractSecrets(c Config, put func(account, secret string) error) (out Config, changed bool, err error) {
	out = cloneServers(c)
	for name, s := range out.Servers {
		move := func(kind, field, v string) (string, error) {
			if v == "" || strings.Contains(v, Mask) {
				return v, nil
			}
			if _, ok := ParseSecretRef(v); ok {
				return v, nil
			}
			account := SecretAccount(name, kind, field)
			if err := put(account, v); err != nil {
				return "", fmt.Errorf("storing the %s %s of MCP server %q: %w", kind, field, name, err)
			}
			changed = true
			return SecretRef(account), nil
		}
		for k, v := range s.Headers {
			if s.Headers[k], err = move("header", k, v); err != nil {
				return Config{}, false, err
			}
		}
		for k, v := range s.Env {
			if !secretEnv(k, v) {
				continue
			}
			if s.Env[k], err = move("env", k, v); err != nil {
				return Config{}, false, err
			}
		}
		if s.URL, err = rewriteURLSecrets(s.URL, func(param, v string) (string, error) { return move("url", param, v) }); err != nil {
			return Config{}, false, err
		}
		if err := rewriteArgSecrets(s.Args, func(flag, v string) (string, error) { return move("arg", flag, v) }); err != nil {
			return Config{}, false, err
		}
		if s.Auth != nil {
			if s.Auth.ClientSecret, err = move("auth", "clientSecret", s.Auth.ClientSecret); err != nil {
				return Config{}, false, err
			}
		}
		out.Servers[name] = s
	}
	return out, changed, nil
}

// ResolveSecrets returns c with every reference replaced by get's value.
// A reference resolves only the secret stored for its own server and
// field (SecretAccount): one naming any other account (another server's
// secret, the app's own keys) is refused. missing lists the references
// not resolved, refused ones included; their value is then empty.
func ResolveSecrets(c Config, get func(account string) (string, error)) (out Config, missing []string) {
	out = cloneServers(c)
	for name, s := range out.Servers {
		resolve := func(kind, field, v string) string {
			account, ok := ParseSecretRef(v)
			if !ok {
				return v
			}
			if account != SecretAccount(name, kind, field) {
				missing = append(missing, fmt.Sprintf("%s %s of %s (refers to another secret; refused)", kind, field, name))
				return ""
			}
			secret, err := get(account)
			if err != nil || secret == "" {
				missing = append(missing, fmt.Sprintf("%s %s of %s", kind, field, name))
				return ""
			}
			return secret
		}
		for k, v := range s.Headers {
			s.Headers[k] = resolve("header", k, v)
		}
		for k, v := range s.Env {
			s.Env[k] = resolve("env", k, v)
		}
		s.URL, _ = rewriteURLSecrets(s.URL, func(param, v string) (string, error) { return resolve("url", param, v), nil })
		_ = rewriteArgSecrets(s.Args, func(flag, v string) (string, error) { return resolve("arg", flag, v), nil })
		if s.Auth != nil {
			s.Auth.ClientSecret = resolve("auth", "clientSecret", s.Auth.ClientSecret)
		}
		out.Servers[name] = s
	}
	sort.Strings(missing)
	return out, missing
}

// SaveConfigTextSecrets is SaveConfigText that stores the secrets through
// put (ExtractSecrets) and writes their references: the returned
// configuration holds the values, the file does not.
func SaveConfigTextSecrets(path string, text []byte, previous Config, put func(account, secret string) error) (Config, error) {
	parsed, lay, err := parseConfig(text, filepath.Base(path))
	if err != nil {
		return Config{}, fmt.Errorf("saving the MCP configuration %s: %w", path, err)
	}
	restored := RestoreConfigSecrets(previous, parsed)
	if err := lay.stillMasked(restored); err != nil {
		return Config{}, fmt.Errorf("saving the MCP configuration %s: %w: %w", path, ErrMaskedSecret, err)
	}
	stored, _, err := ExtractSecrets(restored, put)
	if err != nil {
		return Config{}, fmt.Errorf("saving the MCP configuration %s: %w", path, err)
	}
	data, err := stored.Marshal()
	if err != nil {
		return Config{}, fmt.Errorf("saving the MCP configuration %s: %w", path, err)
	}
	if err := writeFileAtomic(resolveLink(path), data); err != nil {
		return Config{}, fmt.Errorf("saving the MCP configuration %s: %w", path, err)
	}
	return restored, nil
}

// SaveConfigSecrets is SaveConfig that stores the secrets through put and
// writes their references.
func SaveConfigSecrets(path string, c Config, put func(account, secret string) error) error {
	stored, _, err := ExtractSecrets(c, put)
	if err != nil {
		return fmt.Errorf("saving the MCP configuration %s: %w", path, err)
	}
	return SaveConfig(path, stored)
}
