package openai

// The lexical half of the chunk scanner: object keys (with encoding/json's
// case folding), strings and their escapes, literals, numbers, and skipping
// any value. chunkscan.go holds the chunk-specific half.

import (
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// field returns the index in names of the field key (a raw string span)
// selects, or fNone: an exact match after unescaping, else a match under
// encoding/json's case folding.
func (s *chunkScanner) field(key span, names []string) int {
	raw := s.b[key.start:key.end]
	if key.flags == 0 {
		for f, n := range names {
			if string(raw) == n {
				return f
			}
		}
		for f, n := range names {
			if len(n) == len(raw) && asciiFoldEqual(raw, n) {
				return f
			}
		}
		return fNone
	}
	var buf [64]byte
	k := appendUnquoted(buf[:0], raw)
	for f, n := range names {
		if string(k) == n {
			return f
		}
	}
	var fbuf [64]byte
	folded := appendFoldedName(fbuf[:0], k)
	for f, n := range names {
		// The names are lower-case ASCII: folded, they are upper-case.
		if string(folded) == strings.ToUpper(n) {
			return f
		}
	}
	return fNone
}

// asciiFoldEqual reports whether a and the lower-case ASCII name n are
// equal once a-z are upper-cased, as encoding/json's foldName does.
func asciiFoldEqual(a []byte, n string) bool {
	for i := 0; i < len(a); i++ {
		c, m := a[i], n[i]
		if 'a' <= c && c <= 'z' {
			c -= 'a' - 'A'
		}
		if 'a' <= m && m <= 'z' {
			m -= 'a' - 'A'
		}
		if c != m {
			return false
		}
	}
	return true
}

// appendFoldedName is encoding/json's key folding (fold.go).
func appendFoldedName(out, in []byte) []byte {
	for i := 0; i < len(in); {
		if c := in[i]; c < utf8.RuneSelf {
			if 'a' <= c && c <= 'z' {
				c -= 'a' - 'A'
			}
			out = append(out, c)
			i++
			continue
		}
		r, n := utf8.DecodeRune(in[i:])
		out = utf8.AppendRune(out, foldRune(r))
		i += n
	}
	return out
}

// foldRune returns the smallest rune of r's fold set.
func foldRune(r rune) rune {
	for {
		r2 := unicode.SimpleFold(r)
		if r2 <= r {
			return r2
		}
		r = r2
	}
}

// strSafe marks bytes a string's content can hold as they are: not '"',
// '\\', a control character or the start of a multi-byte sequence.
var strSafe = func() (t [256]bool) {
	for c := 0x20; c < 0x80; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return
}()

// str0 scans the string at b[i] (a '"'), returning its content's span and
// the offset after the closing quote.
func (s *chunkScanner) str0(i int) (span, int, error) {
	b := s.b
	sp := span{start: i + 1}
	i++
	for {
		for i < len(b) && strSafe[b[i]] {
			i++
		}
		if i >= len(b) {
			return sp, i, errUnexpectedEnd
		}
		switch c := b[i]; {
		case c == '"':
			sp.end = i
			return sp, i + 1, nil
		case c == '\\':
			sp.flags |= spanEscaped
			i++
			if i >= len(b) {
				return sp, i, errUnexpectedEnd
			}
			switch b[i] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i++
			case 'u':
				i++
				for end := i + 4; i < end; i++ {
					if i >= len(b) {
						return sp, i, errUnexpectedEnd
					}
					if !isHex(b[i]) {
						return sp, i, s.syntax(i, `in \u hexadecimal character escape`)
					}
				}
			default:
				return sp, i, s.syntax(i, "in string escape code")
			}
		case c < 0x20:
			return sp, i, s.syntax(i, "in string literal")
		default: // ≥ 0x80
			sp.flags |= spanHigh
			i++
		}
	}
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// str returns the string a span holds, unescaped as encoding/json does.
func (s *chunkScanner) str(sp span) string {
	raw := s.b[sp.start:sp.end]
	if sp.flags == 0 || sp.flags == spanHigh && utf8.Valid(raw) {
		return string(raw)
	}
	var sb strings.Builder
	sb.Grow(len(raw))
	writeUnquoted(&sb, raw)
	return sb.String()
}

// appendUnquoted appends the unescaped form of the valid string content s.
func appendUnquoted(out, s []byte) []byte {
	var sb strings.Builder
	writeUnquoted(&sb, s)
	return append(out, sb.String()...)
}

// writeUnquoted is encoding/json's unquoteBytes for content the scanner has
// already validated.
func writeUnquoted(sb *strings.Builder, s []byte) {
	for r := 0; r < len(s); {
		c := s[r]
		switch {
		case c == '\\':
			switch s[r+1] {
			case 'b':
				sb.WriteByte('\b')
			case 'f':
				sb.WriteByte('\f')
			case 'n':
				sb.WriteByte('\n')
			case 'r':
				sb.WriteByte('\r')
			case 't':
				sb.WriteByte('\t')
			case 'u':
				rr := getu4(s[r:])
				r += 6
				if utf16.IsSurrogate(rr) {
					rr1 := getu4(s[r:])
					if dec := utf16.DecodeRune(rr, rr1); dec != unicode.ReplacementChar {
						r += 6
						sb.WriteRune(dec)
						continue
					}
					rr = unicode.ReplacementChar
				}
				sb.WriteRune(rr)
				continue
			default: // '"', '\\', '/'
				sb.WriteByte(s[r+1])
			}
			r += 2
		case c < utf8.RuneSelf:
			sb.WriteByte(c)
			r++
		default:
			rr, size := utf8.DecodeRune(s[r:])
			sb.WriteRune(rr)
			r += size
		}
	}
}

// getu4 decodes \uXXXX at the start of s, or returns -1.
func getu4(s []byte) rune {
	if len(s) < 6 || s[0] != '\\' || s[1] != 'u' {
		return -1
	}
	var r rune
	for _, c := range s[2:6] {
		switch {
		case '0' <= c && c <= '9':
			c = c - '0'
		case 'a' <= c && c <= 'f':
			c = c - 'a' + 10
		case 'A' <= c && c <= 'F':
			c = c - 'A' + 10
		default:
			return -1
		}
		r = r*16 + rune(c)
	}
	return r
}

// literal checks that b[i:] starts with lit (true, false or null).
func (s *chunkScanner) literal(i int, lit string) (int, error) {
	b := s.b
	for k := 0; k < len(lit); k++ {
		if i+k >= len(b) {
			return i + k, errUnexpectedEnd
		}
		if b[i+k] != lit[k] {
			if k == 0 {
				return i, s.syntax(i, "looking for beginning of value")
			}
			return i + k, s.syntax(i+k, "in literal "+lit+" (expecting "+quoteChar(lit[k])+")")
		}
	}
	return i + len(lit), nil
}

// number scans the number at b[i]: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
func (s *chunkScanner) number(i int) (int, error) {
	b := s.b
	if b[i] == '-' {
		i++
	}
	if i >= len(b) {
		return i, errUnexpectedEnd
	}
	switch c := b[i]; {
	case c == '0':
		i++
	case '1' <= c && c <= '9':
		for i++; i < len(b) && '0' <= b[i] && b[i] <= '9'; i++ {
		}
	default:
		return i, s.syntax(i, "in numeric literal")
	}
	if i < len(b) && b[i] == '.' {
		i++
		if i >= len(b) {
			return i, errUnexpectedEnd
		}
		if b[i] < '0' || b[i] > '9' {
			return i, s.syntax(i, "after decimal point in numeric literal")
		}
		for i++; i < len(b) && '0' <= b[i] && b[i] <= '9'; i++ {
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		if i >= len(b) {
			return i, errUnexpectedEnd
		}
		if b[i] < '0' || b[i] > '9' {
			return i, s.syntax(i, "in exponent of numeric literal")
		}
		for i++; i < len(b) && '0' <= b[i] && b[i] <= '9'; i++ {
		}
	}
	return i, nil
}

// skipValue checks and skips the value at b[i], inside containers nested
// depth deep.
func (s *chunkScanner) skipValue(i, depth int) (int, error) {
	b := s.b
	if i >= len(b) {
		return i, errUnexpectedEnd
	}
	switch c := b[i]; c {
	case '"':
		_, j, err := s.str0(i)
		return j, err
	case 'n':
		return s.literal(i, "null")
	case 't':
		return s.literal(i, "true")
	case 'f':
		return s.literal(i, "false")
	case '{', '[':
		depth++
		if depth > maxNestingDepth {
			return i, &scanError{msg: "invalid character " + quoteChar(c) + " exceeded max depth", off: i}
		}
		i = s.ws(i + 1)
		if i < len(b) && (c == '{' && b[i] == '}' || c == '[' && b[i] == ']') {
			return i + 1, nil
		}
		for {
			var err error
			if c == '{' {
				if i >= len(b) || b[i] != '"' {
					return i, s.syntax(i, "looking for beginning of object key string")
				}
				if _, i, err = s.str0(i); err != nil {
					return i, err
				}
				i = s.ws(i)
				if i >= len(b) || b[i] != ':' {
					return i, s.syntax(i, "after object key")
				}
				i = s.ws(i + 1)
			}
			if i, err = s.skipValue(i, depth); err != nil {
				return i, err
			}
			i = s.ws(i)
			if i >= len(b) {
				return i, errUnexpectedEnd
			}
			switch b[i] {
			case ',':
				i = s.ws(i + 1)
				continue
			case '}':
				if c == '{' {
					return i + 1, nil
				}
			case ']':
				if c == '[' {
					return i + 1, nil
				}
			}
			if c == '{' {
				return i, s.syntax(i, "after object key:value pair")
			}
			return i, s.syntax(i, "after array element")
		}
	}
	if c := b[i]; c == '-' || '0' <= c && c <= '9' {
		return s.number(i)
	}
	return i, s.syntax(i, "looking for beginning of value")
}
