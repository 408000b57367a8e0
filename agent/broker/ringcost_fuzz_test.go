package broker

import (
	"bytes"
	"encoding/json"
	"testing"
)

// FuzzTextCostMatchesEncoding checks textCost against what encoding/json
// really writes: textCost(s) is the text plus its JSON, so it must equal
// len(s) + len(Marshal(s)) - 2 (the quotes) for any string, hostile or not.
func FuzzTextCostMatchesEncoding(f *testing.F) {
	for _, s := range []string{"", "a", "<>&", "\u2028\u2029", "\x00\x1f\x7f", "\xff\xfe", "\"\\\n\r\t\b\f", "é漢😀", "\xe2\x80", "\xed\xa0\x80"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		b, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := textCost(s), len(s)+len(b)-2; got != want {
			t.Fatalf("textCost(%q) = %d, encoding holds %d (%s)", s, got, want, b)
		}
	})
}

// FuzzRawCostCoversEncoding checks rawCost never counts less than the raw
// JSON plus what the encoder writes of it.
func FuzzRawCostCoversEncoding(f *testing.F) {
	for _, s := range []string{`{}`, `"<>&"`, "\"\u2028\"", `{"a":[1,2,3]}`, "\"\xff\"", `"\u003c"`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		if !json.Valid(raw) {
			return
		}
		b, err := json.Marshal(json.RawMessage(raw))
		if err != nil {
			return
		}
		if got, want := rawCost(raw), len(raw)+len(b); got < want {
			t.Fatalf("rawCost(%q) = %d < %d (%s)", raw, got, want, bytes.TrimSpace(b))
		}
	})
}
