package interrupt

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
)

// maxNesting bounds the depth of arrays and objects the package parses or
// encodes. JSON.parse has no explicit limit but fails with a RangeError far
// earlier than Go would; 1000 levels is far beyond any interrupt value.
const maxNesting = 1000

// Parse decodes JSON text the way JSON.parse does and returns the JSON value
// model used throughout this package: nil, bool, float64, string, []any and
// map[string]any. Numbers are IEEE-754 doubles (so 1.0 and 1 are the same
// value and integers beyond 2^53 round like in JavaScript), duplicate keys
// are last-wins, and a "\udxxx" escape of a lone surrogate is kept (see the
// package documentation) instead of being replaced by U+FFFD. A number that
// overflows to ±Inf parses, like in JavaScript, and is then rejected by
// CanonicalJSON.
func Parse(data []byte) (any, error) {
	p := parser{data: data}
	p.skipWS()
	v, err := p.value()
	if err != nil {
		return nil, err
	}
	p.skipWS()
	if p.pos != len(p.data) {
		return nil, p.fail("unexpected data after the JSON value")
	}
	return v, nil
}

// parseMembers decodes a JSON object into its members with their raw
// (unparsed, validated) values, last-wins. isObject is false when data is
// valid JSON that is not an object.
func parseMembers(data []byte) (members map[string]json.RawMessage, isObject bool, err error) {
	_, members, isObject, err = parseOrderedMembers(data)
	return members, isObject, err
}

// parseOrderedMembers is parseMembers that also returns the keys in their
// first-occurrence order (JavaScript's own-key order for string keys that
// are not array indices).
func parseOrderedMembers(data []byte) (keys []string, members map[string]json.RawMessage, isObject bool, err error) {
	p := parser{data: data}
	p.skipWS()
	if p.pos >= len(p.data) || p.data[p.pos] != '{' {
		if _, err := Parse(data); err != nil {
			return nil, nil, false, err
		}
		return nil, nil, false, nil
	}
	p.pos++
	p.depth = 1
	members = map[string]json.RawMessage{}
	p.skipWS()
	if p.peek() == '}' {
		p.pos++
	} else {
		for {
			p.skipWS()
			key, err := p.string()
			if err != nil {
				return nil, nil, false, err
			}
			p.skipWS()
			if p.peek() != ':' {
				return nil, nil, false, p.fail("expected ':'")
			}
			p.pos++
			p.skipWS()
			start := p.pos
			if _, err := p.value(); err != nil {
				return nil, nil, false, err
			}
			if _, dup := members[key]; !dup {
				keys = append(keys, key)
			}
			members[key] = json.RawMessage(p.data[start:p.pos])
			p.skipWS()
			if p.peek() == ',' {
				p.pos++
				continue
			}
			if p.peek() != '}' {
				return nil, nil, false, p.fail("expected ',' or '}'")
			}
			p.pos++
			break
		}
	}
	p.skipWS()
	if p.pos != len(p.data) {
		return nil, nil, false, p.fail("unexpected data after the JSON value")
	}
	return keys, members, true, nil
}

type parser struct {
	data  []byte
	pos   int
	depth int
}

func (p *parser) fail(msg string) error {
	return fmt.Errorf("%w: %s at offset %d", ErrInvalidJSON, msg, p.pos)
}

func (p *parser) peek() byte {
	if p.pos < len(p.data) {
		return p.data[p.pos]
	}
	return 0
}

func (p *parser) skipWS() {
	for p.pos < len(p.data) {
		switch p.data[p.pos] {
		case ' ', '\t', '\n', '\r':
			p.pos++
		default:
			return
		}
	}
}

func (p *parser) value() (any, error) {
	switch c := p.peek(); {
	case c == '{':
		return p.object()
	case c == '[':
		return p.array()
	case c == '"':
		return p.string()
	case c == 't':
		return true, p.literal("true")
	case c == 'f':
		return false, p.literal("false")
	case c == 'n':
		return nil, p.literal("null")
	case c == '-' || (c >= '0' && c <= '9'):
		return p.number()
	case p.pos >= len(p.data):
		return nil, p.fail("unexpected end of JSON input")
	default:
		return nil, p.fail(fmt.Sprintf("unexpected character %q", c))
	}
}

func (p *parser) literal(word string) error {
	if len(p.data)-p.pos < len(word) || string(p.data[p.pos:p.pos+len(word)]) != word {
		return p.fail("invalid literal")
	}
	p.pos += len(word)
	return nil
}

func (p *parser) enter() error {
	p.depth++
	if p.depth > maxNesting {
		return fmt.Errorf("%w (more than %d levels)", ErrTooDeep, maxNesting)
	}
	return nil
}

func (p *parser) object() (any, error) {
	if err := p.enter(); err != nil {
		return nil, err
	}
	defer func() { p.depth-- }()
	p.pos++ // '{'
	obj := map[string]any{}
	p.skipWS()
	if p.peek() == '}' {
		p.pos++
		return obj, nil
	}
	for {
		p.skipWS()
		if p.peek() != '"' {
			return nil, p.fail("expected a string key")
		}
		key, err := p.string()
		if err != nil {
			return nil, err
		}
		p.skipWS()
		if p.peek() != ':' {
			return nil, p.fail("expected ':'")
		}
		p.pos++
		p.skipWS()
		v, err := p.value()
		if err != nil {
			return nil, err
		}
		obj[key] = v
		p.skipWS()
		switch p.peek() {
		case ',':
			p.pos++
		case '}':
			p.pos++
			return obj, nil
		default:
			return nil, p.fail("expected ',' or '}'")
		}
	}
}

func (p *parser) array() (any, error) {
	if err := p.enter(); err != nil {
		return nil, err
	}
	defer func() { p.depth-- }()
	p.pos++ // '['
	arr := []any{}
	p.skipWS()
	if p.peek() == ']' {
		p.pos++
		return arr, nil
	}
	for {
		p.skipWS()
		v, err := p.value()
		if err != nil {
			return nil, err
		}
		arr = append(arr, v)
		p.skipWS()
		switch p.peek() {
		case ',':
			p.pos++
		case ']':
			p.pos++
			return arr, nil
		default:
			return nil, p.fail("expected ',' or ']'")
		}
	}
}

func (p *parser) string() (string, error) {
	if p.peek() != '"' {
		return "", p.fail("expected a string")
	}
	p.pos++
	start := p.pos
	var buf []byte
	for {
		if p.pos >= len(p.data) {
			return "", p.fail("unterminated string")
		}
		c := p.data[p.pos]
		switch {
		case c == '"':
			var s string
			if buf == nil {
				s = string(p.data[start:p.pos])
			} else {
				s = string(append(buf, p.data[start:p.pos]...))
			}
			p.pos++
			return jsNormalize(s), nil
		case c < 0x20:
			return "", p.fail("control character in string")
		case c == '\\':
			buf = append(buf, p.data[start:p.pos]...)
			p.pos++
			var err error
			if buf, err = p.escape(buf); err != nil {
				return "", err
			}
			start = p.pos
		default:
			p.pos++
		}
	}
}

func (p *parser) escape(buf []byte) ([]byte, error) {
	if p.pos >= len(p.data) {
		return nil, p.fail("unterminated escape")
	}
	c := p.data[p.pos]
	p.pos++
	switch c {
	case '"', '\\', '/':
		return append(buf, c), nil
	case 'b':
		return append(buf, '\b'), nil
	case 'f':
		return append(buf, '\f'), nil
	case 'n':
		return append(buf, '\n'), nil
	case 'r':
		return append(buf, '\r'), nil
	case 't':
		return append(buf, '\t'), nil
	case 'u':
		if len(p.data)-p.pos < 4 {
			return nil, p.fail("short \\u escape")
		}
		v, err := strconv.ParseUint(string(p.data[p.pos:p.pos+4]), 16, 16)
		if err != nil || !isHex4(p.data[p.pos:p.pos+4]) {
			return nil, p.fail("invalid \\u escape")
		}
		p.pos += 4
		return appendUnit(buf, uint16(v)), nil
	}
	p.pos--
	return nil, p.fail("invalid escape")
}

func isHex4(b []byte) bool {
	for _, c := range b {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
			return false
		}
	}
	return true
}

func (p *parser) number() (any, error) {
	start := p.pos
	if p.peek() == '-' {
		p.pos++
	}
	switch c := p.peek(); {
	case c == '0':
		p.pos++
	case c >= '1' && c <= '9':
		p.digits()
	default:
		return nil, p.fail("invalid number")
	}
	if p.peek() == '.' {
		p.pos++
		if n := p.digits(); n == 0 {
			return nil, p.fail("invalid number")
		}
	}
	if c := p.peek(); c == 'e' || c == 'E' {
		p.pos++
		if c := p.peek(); c == '+' || c == '-' {
			p.pos++
		}
		if n := p.digits(); n == 0 {
			return nil, p.fail("invalid number")
		}
	}
	return parseFloat(string(p.data[start:p.pos]))
}

func (p *parser) digits() int {
	n := 0
	for p.pos < len(p.data) && p.data[p.pos] >= '0' && p.data[p.pos] <= '9' {
		p.pos++
		n++
	}
	return n
}

// parseFloat converts JSON number text to the nearest double; overflow gives
// ±Inf and underflow ±0, like JavaScript.
func parseFloat(s string) (float64, error) {
	f, err := strconv.ParseFloat(s, 64)
	var numErr *strconv.NumError
	if err != nil && !(errors.As(err, &numErr) && errors.Is(numErr.Err, strconv.ErrRange)) {
		return 0, fmt.Errorf("%w: invalid number %q", ErrInvalidJSON, s)
	}
	if err != nil && !math.IsInf(f, 0) && f != 0 {
		return 0, fmt.Errorf("%w: invalid number %q", ErrInvalidJSON, s)
	}
	return f, nil
}
