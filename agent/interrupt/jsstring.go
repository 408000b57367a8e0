package interrupt

import (
	"strings"
	"unicode/utf8"
)

// JavaScript strings are sequences of UTF-16 code units and may contain lone
// surrogates; Go strings are bytes. This file maps between the two:
//
//   - A lone surrogate is carried inside a Go string as its 3-byte
//     generalised UTF-8 ("WTF-8") form, ED A0..BF 80..BF. The JSON parser
//     produces that form for a "\udxxx" escape that is not part of a pair,
//     and the canonical encoder writes it back as "\udxxx".
//   - Any other invalid UTF-8 is decoded like the WHATWG TextDecoder does
//     (one U+FFFD per maximal invalid subpart), which is what a browser or
//     Node peer sees when it receives the same bytes.
//   - Two WTF-8 surrogates that form a pair are the supplementary character.

// jsUnits converts s to UTF-16 code units using the rules above.
func jsUnits(s string) []uint16 {
	units := make([]uint16, 0, len(s))
	for i := 0; i < len(s); {
		b := s[i]
		if b < utf8.RuneSelf {
			units = append(units, uint16(b))
			i++
			continue
		}
		if b == 0xED && i+2 < len(s) && s[i+1] >= 0xA0 && s[i+1] <= 0xBF && s[i+2] >= 0x80 && s[i+2] <= 0xBF {
			units = append(units, 0xD000|uint16(s[i+1]&0x3F)<<6|uint16(s[i+2]&0x3F))
			i += 3
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size <= 1 {
			units = append(units, 0xFFFD)
			i += invalidSpan(s[i:])
			continue
		}
		if r >= 0x10000 {
			r -= 0x10000
			units = append(units, 0xD800+uint16(r>>10), 0xDC00+uint16(r&0x3FF))
		} else {
			units = append(units, uint16(r))
		}
		i += size
	}
	return units
}

// invalidSpan returns the length of the maximal invalid subpart at the start
// of s (WHATWG UTF-8 decoder), at least 1.
func invalidSpan(s string) int {
	b := s[0]
	need := 0
	lo, hi := byte(0x80), byte(0xBF)
	switch {
	case b >= 0xC2 && b <= 0xDF:
		need = 1
	case b == 0xE0:
		need, lo = 2, 0xA0
	case b == 0xED:
		need, hi = 2, 0x9F
	case b >= 0xE1 && b <= 0xEF:
		need = 2
	case b == 0xF0:
		need, lo = 3, 0x90
	case b >= 0xF1 && b <= 0xF3:
		need = 3
	case b == 0xF4:
		need, hi = 3, 0x8F
	default:
		return 1
	}
	i := 1
	for ; i <= need; i++ {
		if i >= len(s) || s[i] < lo || s[i] > hi {
			return i
		}
		lo, hi = 0x80, 0xBF
	}
	return i
}

// appendUnit appends one BMP code unit (surrogates in WTF-8 form).
func appendUnit(dst []byte, u uint16) []byte {
	switch {
	case u < 0x80:
		return append(dst, byte(u))
	case u < 0x800:
		return append(dst, 0xC0|byte(u>>6), 0x80|byte(u&0x3F))
	default:
		return append(dst, 0xE0|byte(u>>12), 0x80|byte(u>>6&0x3F), 0x80|byte(u&0x3F))
	}
}

func isHigh(u uint16) bool { return u >= 0xD800 && u <= 0xDBFF }
func isLow(u uint16) bool  { return u >= 0xDC00 && u <= 0xDFFF }

// unitsString is the inverse of jsUnits: pairs become UTF-8, lone surrogates
// stay WTF-8.
func unitsString(units []uint16) string {
	buf := make([]byte, 0, len(units))
	for i := 0; i < len(units); i++ {
		u := units[i]
		if isHigh(u) && i+1 < len(units) && isLow(units[i+1]) {
			r := 0x10000 + (rune(u)-0xD800)<<10 + rune(units[i+1]) - 0xDC00
			buf = utf8.AppendRune(buf, r)
			i++
			continue
		}
		buf = appendUnit(buf, u)
	}
	return string(buf)
}

// jsNormalize returns the canonical Go form of the JavaScript string that s
// denotes. Valid UTF-8 is returned unchanged.
func jsNormalize(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	return unitsString(jsUnits(s))
}

// appendJSString appends s as JSON.stringify writes it (ES2019 well-formed
// JSON.stringify): only '"', '\\' and controls are escaped, lone surrogates
// become lowercase \udxxx, everything else (including U+2028/U+2029 and
// <, >, &) is raw UTF-8.
func appendJSString(dst []byte, s string) []byte {
	dst = append(dst, '"')
	if utf8.ValidString(s) {
		start := 0
		for i := 0; i < len(s); i++ {
			c := s[i]
			if c >= 0x20 && c != '"' && c != '\\' {
				continue
			}
			dst = append(dst, s[start:i]...)
			dst = appendEscape(dst, uint16(c))
			start = i + 1
		}
		dst = append(dst, s[start:]...)
		return append(dst, '"')
	}
	units := jsUnits(s)
	for i := 0; i < len(units); i++ {
		u := units[i]
		switch {
		case u < 0x20 || u == '"' || u == '\\':
			dst = appendEscape(dst, u)
		case isHigh(u) && i+1 < len(units) && isLow(units[i+1]):
			dst = utf8.AppendRune(dst, 0x10000+(rune(u)-0xD800)<<10+rune(units[i+1])-0xDC00)
			i++
		case isHigh(u) || isLow(u):
			dst = appendHexEscape(dst, u)
		default:
			dst = appendUnit(dst, u)
		}
	}
	return append(dst, '"')
}

func appendEscape(dst []byte, u uint16) []byte {
	switch u {
	case '"':
		return append(dst, '\\', '"')
	case '\\':
		return append(dst, '\\', '\\')
	case '\b':
		return append(dst, '\\', 'b')
	case '\t':
		return append(dst, '\\', 't')
	case '\n':
		return append(dst, '\\', 'n')
	case '\f':
		return append(dst, '\\', 'f')
	case '\r':
		return append(dst, '\\', 'r')
	}
	return appendHexEscape(dst, u)
}

func appendHexEscape(dst []byte, u uint16) []byte {
	const hex = "0123456789abcdef"
	return append(dst, '\\', 'u', hex[u>>12], hex[u>>8&0xF], hex[u>>4&0xF], hex[u&0xF])
}

// compareUTF16 orders strings like Array.prototype.sort without a
// comparator: by UTF-16 code units.
func compareUTF16(a, b string) int {
	if utf8.ValidString(a) && utf8.ValidString(b) {
		for len(a) > 0 && len(b) > 0 {
			ra, na := utf8.DecodeRuneInString(a)
			rb, nb := utf8.DecodeRuneInString(b)
			if ra != rb {
				return compareRunesUTF16(ra, rb)
			}
			a, b = a[na:], b[nb:]
		}
		return len(a) - len(b)
	}
	ua, ub := jsUnits(a), jsUnits(b)
	for i := 0; i < len(ua) && i < len(ub); i++ {
		if ua[i] != ub[i] {
			return int(ua[i]) - int(ub[i])
		}
	}
	return len(ua) - len(ub)
}

// compareRunesUTF16 compares two different scalar values by their first
// UTF-16 code unit (then by value, which orders the low surrogates).
func compareRunesUTF16(a, b rune) int {
	if (a >= 0x10000) == (b >= 0x10000) {
		return int(a - b)
	}
	if a >= 0x10000 {
		return int(0xD800+(a-0x10000)>>10) - int(b)
	}
	return int(a) - int(0xD800+(b-0x10000)>>10)
}

// jsTrim is String.prototype.trim: WhiteSpace and LineTerminator code
// points at both ends.
func jsTrim(s string) string {
	return strings.TrimFunc(s, isJSSpace)
}

func isJSSpace(r rune) bool {
	switch r {
	case '\t', '\n', '\v', '\f', '\r', ' ', 0xA0, 0x1680, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000, 0xFEFF:
		return true
	}
	return r >= 0x2000 && r <= 0x200A
}
