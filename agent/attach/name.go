package attach

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// MaxNameRunes caps a file's name (its extension is kept).
const MaxNameRunes = 120

// SanitizeName is the name a file is stored and shown under: its last path
// element, without control characters (NUL, newlines, tabs), format
// characters (bidi overrides and isolates U+202A–202E and U+2066–2069,
// the marks U+200E/U+200F, zero-width characters) or backticks (they
// would end the fence the model reads the file in), at most MaxNameRunes
// long, "file" when nothing is left. "report\u202egnp.exe", shown as
// "reportexe.png", becomes "reportgnp.exe".
func SanitizeName(name string) string {
	name = strings.ToValidUTF8(name, "")
	if i := strings.LastIndexAny(name, `/\`); i >= 0 {
		name = name[i+1:]
	}
	var b strings.Builder
	for _, r := range name {
		switch {
		case r == '`':
			b.WriteByte('\'')
		case r == '\t':
			b.WriteByte(' ')
		case unicode.IsControl(r), unicode.Is(unicode.Cf, r), r == utf8.RuneError,
			r == '\u2028', r == '\u2029':
		default:
			b.WriteRune(r)
		}
	}
	name = strings.TrimSpace(b.String())
	if utf8.RuneCountInString(name) > MaxNameRunes {
		name = capName(name)
	}
	if strings.Trim(name, ".") == "" {
		return "file"
	}
	return name
}

// capName cuts a long name to MaxNameRunes, keeping a short extension.
func capName(name string) string {
	ext := ""
	if i := strings.LastIndexByte(name, '.'); i > 0 && utf8.RuneCountInString(name[i:]) <= 16 {
		name, ext = name[:i], name[i:]
	}
	keep := MaxNameRunes - utf8.RuneCountInString(ext) - 1
	runes := []rune(name)
	return strings.TrimSpace(string(runes[:keep])) + "…" + ext
}

// QuoteName is a name as the model reads it in a header ("File: NAME"):
// sanitized, and in double quotes with escapes when it holds anything but
// letters, digits, spaces and . _ - ( ) + , so it cannot pass for the
// header's end or for an instruction of the app.
func QuoteName(name string) string {
	name = SanitizeName(name)
	for _, r := range name {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) && !strings.ContainsRune(" ._-()+,", r) {
			return strconv.Quote(name)
		}
	}
	return name
}
