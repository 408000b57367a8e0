package interrupt

import (
	"crypto/sha256"
	"encoding"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/big"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// Errors of CanonicalJSON. The first three carry the exact messages of
// @tanstack/ai's canonicalInterruptJson TypeErrors.
//
//nolint:staticcheck // ST1005: the reference messages end with a period.
var (
	// ErrNotJSONCompatible: NaN, ±Inf, an absent value (nil json.RawMessage,
	// the Go analogue of undefined), a func, chan, complex or big number.
	ErrNotJSONCompatible = errors.New("Interrupt values must be JSON-compatible.")
	// ErrCycle: a map, slice or pointer that contains itself.
	ErrCycle = errors.New("Interrupt values must not cycle.")
	// ErrNotPlainObject: a struct without a JSON form (no MarshalJSON),
	// time.Time (the analogue of a JS Date), []byte, or a map whose keys
	// are not strings.
	ErrNotPlainObject = errors.New("Interrupt values must use plain JSON objects.")
	// ErrInvalidJSON wraps a syntax error in JSON text.
	ErrInvalidJSON = errors.New("interrupt: invalid JSON")
	// ErrTooDeep: more than 1000 nested arrays/objects.
	ErrTooDeep = errors.New("interrupt: JSON nesting too deep")
)

// DigestPrefix starts every digest.
const DigestPrefix = "sha256:"

// CanonicalJSON returns canonicalInterruptJson(v) byte for byte: no
// whitespace, object keys sorted by UTF-16 code units, numbers formatted
// by ECMAScript Number::toString (-0 is 0), strings escaped like
// JSON.stringify (U+2028/U+2029 and <, >, & raw; lone surrogates as
// lowercase \udxxx).
//
// v is either JSON text (json.RawMessage, parsed with Parse) or a Go value:
// nil, bool, string, any integer or float kind, json.Number, maps with
// string keys, slices, arrays, pointers, and types with MarshalJSON or
// MarshalText (their JSON form is used). For those Go values the result
// equals canonicalInterruptJson(JSON.parse(json.Marshal(v))), except that
// a nil json.RawMessage is "undefined" and fails instead of reading as null.
func CanonicalJSON(v any) (string, error) {
	e := canonicalEncoder{onPath: map[pathKey]bool{}}
	if err := e.encode(v, 0); err != nil {
		return "", err
	}
	return string(e.buf), nil
}

// Digest returns digestInterruptJson(text): "sha256:" followed by the
// lowercase hex SHA-256 of the UTF-8 encoding of text. Like TextEncoder, a
// lone surrogate (WTF-8 form) or invalid UTF-8 is hashed as U+FFFD, so
// Digest of raw text agrees with the reference too. Canonical JSON is
// always well-formed UTF-8.
func Digest(text string) string {
	var sum [32]byte
	if utf8.ValidString(text) {
		sum = sha256.Sum256([]byte(text))
	} else {
		units := jsUnits(text)
		for i, u := range units {
			if (isHigh(u) && (i+1 >= len(units) || !isLow(units[i+1]))) ||
				(isLow(u) && (i == 0 || !isHigh(units[i-1]))) {
				units[i] = 0xFFFD
			}
		}
		sum = sha256.Sum256([]byte(unitsString(units)))
	}
	return DigestPrefix + hex.EncodeToString(sum[:])
}

// DigestValue is Digest(CanonicalJSON(v)).
func DigestValue(v any) (string, error) {
	c, err := CanonicalJSON(v)
	if err != nil {
		return "", err
	}
	return Digest(c), nil
}

// CanonicalClone returns v cloned through canonical JSON (keys sorted), as
// the reference deep-clones payloads and stored descriptors.
func CanonicalClone(v any) (json.RawMessage, error) {
	c, err := CanonicalJSON(v)
	if err != nil {
		return nil, err
	}
	return json.RawMessage(c), nil
}

type pathKey struct {
	ptr  uintptr
	n    int
	kind reflect.Kind
}

type canonicalEncoder struct {
	buf    []byte
	onPath map[pathKey]bool
}

var (
	timeType      = reflect.TypeFor[time.Time]()
	bigIntType    = reflect.TypeFor[big.Int]()
	bigFloatType  = reflect.TypeFor[big.Float]()
	bigRatType    = reflect.TypeFor[big.Rat]()
	marshalerType = reflect.TypeFor[json.Marshaler]()
	textType      = reflect.TypeFor[encoding.TextMarshaler]()
)

func (e *canonicalEncoder) encode(v any, depth int) error {
	if depth > maxNesting {
		return fmt.Errorf("%w (more than %d levels)", ErrTooDeep, maxNesting)
	}
	switch x := v.(type) {
	case nil:
		e.buf = append(e.buf, "null"...)
		return nil
	case bool:
		e.buf = strconv.AppendBool(e.buf, x)
		return nil
	case string:
		e.buf = appendJSString(e.buf, x)
		return nil
	case float64:
		return e.number(x)
	case json.RawMessage:
		if len(x) == 0 {
			return ErrNotJSONCompatible
		}
		parsed, err := Parse(x)
		if err != nil {
			return err
		}
		return e.encode(parsed, depth)
	case json.Number:
		parsed, err := Parse([]byte(x))
		f, ok := parsed.(float64)
		if err != nil || !ok {
			return fmt.Errorf("%w: invalid json.Number %q", ErrInvalidJSON, string(x))
		}
		return e.number(f)
	case []any:
		if x == nil {
			e.buf = append(e.buf, "null"...)
			return nil
		}
		return e.list(reflect.ValueOf(x), depth)
	case map[string]any:
		if x == nil {
			e.buf = append(e.buf, "null"...)
			return nil
		}
		return e.object(reflect.ValueOf(x), depth)
	}
	return e.reflectValue(reflect.ValueOf(v), depth)
}

func (e *canonicalEncoder) reflectValue(rv reflect.Value, depth int) error {
	t := rv.Type()
	switch t {
	case timeType, reflect.PointerTo(timeType):
		return ErrNotPlainObject
	case bigIntType, bigFloatType, bigRatType, reflect.PointerTo(bigIntType),
		reflect.PointerTo(bigFloatType), reflect.PointerTo(bigRatType):
		return ErrNotJSONCompatible
	}
	if (rv.Kind() == reflect.Pointer || rv.Kind() == reflect.Interface) && rv.IsNil() {
		e.buf = append(e.buf, "null"...)
		return nil
	}
	if t.Implements(marshalerType) {
		b, err := rv.Interface().(json.Marshaler).MarshalJSON()
		if err != nil {
			return fmt.Errorf("%w: %w", ErrNotJSONCompatible, err)
		}
		return e.encode(json.RawMessage(b), depth)
	}
	if t.Implements(textType) {
		b, err := rv.Interface().(encoding.TextMarshaler).MarshalText()
		if err != nil {
			return fmt.Errorf("%w: %w", ErrNotJSONCompatible, err)
		}
		e.buf = appendJSString(e.buf, string(b))
		return nil
	}
	switch rv.Kind() {
	case reflect.Bool:
		e.buf = strconv.AppendBool(e.buf, rv.Bool())
	case reflect.String:
		e.buf = appendJSString(e.buf, rv.String())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return e.number(float64(rv.Int()))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return e.number(float64(rv.Uint()))
	case reflect.Float32:
		// The JSON form of a float32 is its shortest 32-bit decimal.
		f, _ := strconv.ParseFloat(strconv.FormatFloat(rv.Float(), 'g', -1, 32), 64)
		if math.IsNaN(rv.Float()) || math.IsInf(rv.Float(), 0) {
			return ErrNotJSONCompatible
		}
		return e.number(f)
	case reflect.Float64:
		return e.number(rv.Float())
	case reflect.Pointer:
		key := pathKey{ptr: rv.Pointer(), kind: reflect.Pointer}
		if e.onPath[key] {
			return ErrCycle
		}
		e.onPath[key] = true
		defer delete(e.onPath, key)
		return e.reflectValue(rv.Elem(), depth)
	case reflect.Interface:
		return e.encode(rv.Elem().Interface(), depth)
	case reflect.Map:
		if t.Key().Kind() != reflect.String {
			return ErrNotPlainObject
		}
		if rv.IsNil() {
			e.buf = append(e.buf, "null"...)
			return nil
		}
		return e.object(rv, depth)
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Uint8 {
			return ErrNotPlainObject
		}
		if rv.IsNil() {
			e.buf = append(e.buf, "null"...)
			return nil
		}
		return e.list(rv, depth)
	case reflect.Array:
		return e.list(rv, depth)
	case reflect.Struct:
		return ErrNotPlainObject
	default: // func, chan, complex, unsafe pointer
		return ErrNotJSONCompatible
	}
	return nil
}

func (e *canonicalEncoder) number(f float64) error {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return ErrNotJSONCompatible
	}
	e.buf = append(e.buf, FormatNumber(f)...)
	return nil
}

func (e *canonicalEncoder) list(rv reflect.Value, depth int) error {
	if rv.Kind() == reflect.Slice && rv.Len() > 0 {
		key := pathKey{ptr: rv.Pointer(), n: rv.Len(), kind: reflect.Slice}
		if e.onPath[key] {
			return ErrCycle
		}
		e.onPath[key] = true
		defer delete(e.onPath, key)
	}
	e.buf = append(e.buf, '[')
	for i := 0; i < rv.Len(); i++ {
		if i > 0 {
			e.buf = append(e.buf, ',')
		}
		if err := e.encode(rv.Index(i).Interface(), depth+1); err != nil {
			return err
		}
	}
	e.buf = append(e.buf, ']')
	return nil
}

func (e *canonicalEncoder) object(rv reflect.Value, depth int) error {
	key := pathKey{ptr: rv.Pointer(), kind: reflect.Map}
	if e.onPath[key] {
		return ErrCycle
	}
	e.onPath[key] = true
	defer delete(e.onPath, key)

	type member struct {
		key string
		val reflect.Value
	}
	members := make([]member, 0, rv.Len())
	seen := make(map[string]bool, rv.Len())
	for it := rv.MapRange(); it.Next(); {
		k := jsNormalize(it.Key().String())
		if seen[k] {
			// Two Go keys that denote the same JavaScript string.
			return ErrNotJSONCompatible
		}
		seen[k] = true
		members = append(members, member{k, it.Value()})
	}
	sort.Slice(members, func(i, j int) bool { return compareUTF16(members[i].key, members[j].key) < 0 })
	e.buf = append(e.buf, '{')
	for i, m := range members {
		if i > 0 {
			e.buf = append(e.buf, ',')
		}
		e.buf = appendJSString(e.buf, m.key)
		e.buf = append(e.buf, ':')
		if err := e.encode(m.val.Interface(), depth+1); err != nil {
			return err
		}
	}
	e.buf = append(e.buf, '}')
	return nil
}

// FormatNumber formats a finite double like ECMAScript Number::toString
// (radix 10): shortest round-trip digits, plain notation for exponents in
// [-6, 21), exponential ("1e+21", "1.5e-7") otherwise, and -0 as "0".
func FormatNumber(f float64) string {
	if f == 0 {
		return "0"
	}
	sign := ""
	if f < 0 {
		sign, f = "-", -f
	}
	s := strconv.FormatFloat(f, 'e', -1, 64) // d[.ddd]e±XX
	mant, expText, _ := strings.Cut(s, "e")
	digits := strings.Replace(mant, ".", "", 1)
	exp, _ := strconv.Atoi(expText)
	k, n := len(digits), exp+1
	switch {
	case k <= n && n <= 21:
		return sign + digits + strings.Repeat("0", n-k)
	case 0 < n && n <= 21:
		return sign + digits[:n] + "." + digits[n:]
	case -6 < n && n <= 0:
		return sign + "0." + strings.Repeat("0", -n) + digits
	}
	out := sign + digits[:1]
	if k > 1 {
		out += "." + digits[1:]
	}
	if n-1 >= 0 {
		return out + "e+" + strconv.Itoa(n-1)
	}
	return out + "e-" + strconv.Itoa(1-n)
}
