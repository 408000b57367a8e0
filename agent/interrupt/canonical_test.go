package interrupt

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"testing"
	"unicode/utf8"
)

func TestFormatNumber(t *testing.T) {
	cases := map[float64]string{
		0: "0", math.Copysign(0, -1): "0", 1: "1", -1: "-1", 1.5: "1.5", 1e21: "1e+21", 1e20: "100000000000000000000",
		123456789012345680000: "123456789012345680000", 1e-6: "0.000001", 1e-7: "1e-7", 0.1: "0.1",
		0.30000000000000004: "0.30000000000000004", -1.5e-10: "-1.5e-10", 9007199254740993: "9007199254740992",
		5e-324: "5e-324", math.MaxFloat64: "1.7976931348623157e+308", 123e-20: "1.23e-18", 1.25e22: "1.25e+22",
		-0.000001: "-0.000001", 12345.678: "12345.678",
	}
	for in, want := range cases {
		if got := FormatNumber(in); got != want {
			t.Errorf("FormatNumber(%v) = %s, want %s", in, got, want)
		}
	}
}

type textKey struct{ s string }

func (k textKey) MarshalText() ([]byte, error) { return []byte("<" + k.s + ">"), nil }

type withJSON struct{ A int }

func (w withJSON) MarshalJSON() ([]byte, error) {
	return []byte(`{"z":1,"a":` + FormatNumber(float64(w.A)) + `}`), nil
}

type namedKind string

func TestCanonicalGoValues(t *testing.T) {
	one := 1.0
	ptrStruct := &struct{ self any }{}
	var selfPtr any
	selfPtr = &selfPtr
	selfMap := map[string]any{}
	selfMap["m"] = map[string]any{"back": selfMap}
	selfSlice := make([]any, 1)
	selfSlice[0] = selfSlice
	cases := []struct {
		name string
		in   any
		want string
		err  error
	}{
		{"ints", []any{int8(-3), uint64(1 << 60), int64(1<<53 + 1)}, "[-3,1152921504606847000,9007199254740992]", nil},
		{"float32 shortest", float32(0.1), "0.1", nil},
		{"json.Number", json.Number("1.0e2"), "100", nil},
		{"typed map and slice", map[string][]int{"b": {2}, "a": nil}, `{"a":null,"b":[2]}`, nil},
		{"nil map is null like encoding/json", map[string]any(nil), "null", nil},
		{"pointer", &one, "1", nil},
		{"named string", namedKind("x"), `"x"`, nil},
		{"Marshaler (sorted)", withJSON{A: 2}, `{"a":2,"z":1}`, nil},
		{"TextMarshaler", textKey{"k"}, `"<k>"`, nil},
		{"array", [2]bool{true, false}, "[true,false]", nil},
		{"escapes", "\x00\x1f\"\\/\u007f\u2028<>&", `"\u0000\u001f\"\\/` + "\u007f\u2028<>&" + `"`, nil},
		{"invalid UTF-8 becomes U+FFFD per maximal subpart", "a\xffb\xf0\x9f\x98c", "\"a\uFFFDb\uFFFDc\"", nil},
		{"key order by UTF-16 code units", map[string]any{"\uff01": 1, "\U0001F600": 2, "\ue000": 3, "a": 4}, "{\"a\":4,\"\U0001F600\":2,\"\ue000\":3,\"\uff01\":1}", nil},
		{"keys that collide after normalisation", map[string]any{"\xff": 1, "\uFFFD": 2}, "", ErrNotJSONCompatible},
		{"struct without JSON form", struct{ A int }{1}, "", ErrNotPlainObject},
		{"bytes", []byte("x"), "", ErrNotPlainObject},
		{"non-string map keys", map[int]string{1: "a"}, "", ErrNotPlainObject},
		{"chan", make(chan int), "", ErrNotJSONCompatible},
		{"complex", complex(1, 2), "", ErrNotJSONCompatible},
		{"float32 NaN", float32(math.NaN()), "", ErrNotJSONCompatible},
		{"cycle through maps", selfMap, "", ErrCycle},
		{"cycle through slices", selfSlice, "", ErrCycle},
		{"pointer to struct", ptrStruct, "", ErrNotPlainObject},
		{"cycle through pointers", selfPtr, "", ErrCycle},
		{"invalid JSON text", json.RawMessage(`{"a":}`), "", ErrInvalidJSON},
		{"overflowing number text", json.RawMessage(`1e400`), "", ErrNotJSONCompatible},
		{"underflowing number text", json.RawMessage(`-1e-400`), "0", nil},
		{"duplicate keys: last wins", json.RawMessage(`{"a":1,"a":2}`), `{"a":2}`, nil},
		{"escaped pair and lone surrogate", json.RawMessage(`"\ud83d\ude00\udc00"`), "\"\U0001F600\\udc00\"", nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := CanonicalJSON(c.in)
			if c.err != nil {
				if !errors.Is(err, c.err) {
					t.Fatalf("got (%q, %v), want %v", got, err, c.err)
				}
				return
			}
			if err != nil || got != c.want {
				t.Fatalf("got (%q, %v), want %q", got, err, c.want)
			}
		})
	}
}

func TestCanonicalTooDeep(t *testing.T) {
	deep := bytes.Repeat([]byte("["), maxNesting+1)
	deep = append(deep, bytes.Repeat([]byte("]"), maxNesting+1)...)
	if _, err := CanonicalJSON(json.RawMessage(deep)); !errors.Is(err, ErrTooDeep) {
		t.Fatalf("got %v", err)
	}
	var v any = []any{}
	for i := 0; i < maxNesting+2; i++ {
		v = []any{v}
	}
	if _, err := CanonicalJSON(v); !errors.Is(err, ErrTooDeep) {
		t.Fatalf("got %v", err)
	}
}

func TestParseStrictness(t *testing.T) {
	bad := []string{``, ` `, `01`, `-`, `1.`, `.5`, `1e`, `+1`, `NaN`, `Infinity`, `[1,]`, `{"a":1,}`, `{a:1}`, `'a'`,
		`"\x"`, `"\u12"`, `"` + "\t" + `"`, `[1] 2`, `tru`, `nul`, "\ufeff1", `"\u00zz"`}
	for _, s := range bad {
		if _, err := Parse([]byte(s)); !errors.Is(err, ErrInvalidJSON) {
			t.Errorf("Parse(%q) = %v, want ErrInvalidJSON", s, err)
		}
	}
	good := map[string]any{` 1 `: 1.0, `-0`: math.Copysign(0, -1), `"\/"`: "/", `{"__proto__":1}`: map[string]any{"__proto__": 1.0}}
	for s, want := range good {
		got, err := Parse([]byte(s))
		if err != nil {
			t.Errorf("Parse(%q): %v", s, err)
			continue
		}
		if c1, _ := CanonicalJSON(got); c1 != func() string { c, _ := CanonicalJSON(want); return c }() {
			t.Errorf("Parse(%q) = %#v", s, got)
		}
	}
}

func TestDigestOfRawText(t *testing.T) {
	// TextEncoder semantics: lone surrogates and invalid bytes hash as U+FFFD,
	// a surrogate pair (even in WTF-8 form) as the character.
	if Digest("\xed\xa0\x80") != Digest("\uFFFD") {
		t.Fatal("lone surrogate")
	}
	if Digest("\xed\xa0\xbd\xed\xb8\x80") != Digest("\U0001F600") {
		t.Fatal("surrogate pair")
	}
	if Digest("a\xff") != Digest("a\uFFFD") {
		t.Fatal("invalid byte")
	}
	if Digest("") != "sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855" {
		t.Fatal("empty")
	}
}

// FuzzCanonicalJSON: Parse agrees with encoding/json on what is JSON; the
// canonical text is valid UTF-8 JSON and a fixed point; where encoding/json
// can represent the value, canonicalising its decoding gives the same text.
func FuzzCanonicalJSON(f *testing.F) {
	for _, s := range []string{`null`, `{"z":1,"a":[1.0,-0,1e21,1e-7]}`, `"\ud800x\udfff"`, `{"é":1,"😀":2,"！":3}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		v, perr := Parse(data)
		valid := json.Valid(data)
		if perr == nil && !valid {
			t.Fatalf("Parse accepted invalid JSON %q", data)
		}
		if perr != nil {
			if valid && !errors.Is(perr, ErrTooDeep) {
				t.Fatalf("Parse refused valid JSON %q: %v", data, perr)
			}
			return
		}
		c, err := CanonicalJSON(json.RawMessage(data))
		if err != nil {
			if !errors.Is(err, ErrNotJSONCompatible) && !errors.Is(err, ErrTooDeep) {
				t.Fatalf("CanonicalJSON(%q): %v", data, err)
			}
			return
		}
		if !json.Valid([]byte(c)) || !utf8.ValidString(c) {
			t.Fatalf("canonical %q of %q is not valid UTF-8 JSON", c, data)
		}
		again, err := CanonicalJSON(json.RawMessage(c))
		if err != nil || again != c {
			t.Fatalf("not a fixed point: %q -> %q (%v)", c, again, err)
		}
		if fromValue, err := CanonicalJSON(v); err != nil || fromValue != c {
			t.Fatalf("value path %q != %q (%v)", fromValue, c, err)
		}
		if utf8.Valid(data) && !bytes.Contains(data, []byte(`\u`)) {
			var std any
			if json.Unmarshal(data, &std) == nil {
				if viaStd, err := CanonicalJSON(std); err != nil || viaStd != c {
					t.Fatalf("encoding/json path %q != %q (%v)", viaStd, c, err)
				}
			}
		}
	})
}
