package importers

import (
	"bytes"
	"encoding/json"
	"strings"
)

// Shape measures JSON before it is decoded, so that a budget is checked
// before the decoder allocates anything for the values: encoding/json
// turns each of the few bytes of "{}," into a struct of hundreds of bytes,
// so a file's size alone does not bound the memory its decoding takes.
//
// data must be valid JSON (as a json.RawMessage a Decoder returned, or a
// document json.Valid accepts); on other input the counts are
// meaningless but the scan still ends, in one pass without allocating.
//
// Values counts array elements and object members at every depth.
// Children counts the direct elements (or members) of the value of the
// top-level object member named key, the part of a document whose length
// a budget is stated in (a conversation's messages). A member is key as
// encoding/json would decide: its name unescaped and compared without
// case ("Messages", "m\u0065ssages" and "me\u017f\u017fages" fill the
// same field), and every occurrence counts (the decoder keeps the last
// of a repeated name, so measuring only the first let the second through).
func Shape(data []byte, key string) (values, children int) {
	depth := 0
	keyDepth := -1     // depth inside key's value, -1 outside it
	empty := false     // the container just opened has no element yet
	lastIsKey := false // the last member name read at depth 1 is key
	expectKey := false
	for i := 0; i < len(data); i++ {
		c := data[i]
		switch c {
		case '"':
			start := i + 1
			for i++; i < len(data) && data[i] != '"'; i++ {
				if data[i] == '\\' {
					i++
				}
			}
			if expectKey && depth == 1 {
				lastIsKey = key != "" && sameName(data[start:min(i, len(data))], key)
			}
			expectKey = false
			if empty {
				empty = false
				values++
				if depth == keyDepth {
					children++
				}
			}
		case '{', '[':
			if empty {
				values++
				if depth == keyDepth {
					children++
				}
			}
			depth++
			if depth == 2 && lastIsKey {
				keyDepth = 2
			}
			empty = true
			expectKey = c == '{'
		case '}', ']':
			if depth == keyDepth {
				keyDepth = -1 // a repeated key counts again
			}
			depth--
			empty = false
			expectKey = false
		case ',':
			values++
			if depth == keyDepth {
				children++
			}
			// In the document's own object a comma is followed by a
			// member name (names are only looked for at depth 1).
			expectKey = true
		case ' ', '\t', '\r', '\n', ':':
		default:
			if empty {
				empty = false
				values++
				if depth == keyDepth {
					children++
				}
			}
			expectKey = false
		}
	}
	return values, children
}

// sameName says whether the raw (still escaped) member name matches key
// as encoding/json matches a field's name: unescaped, then equal under
// Unicode case folding. Only a name that could match is unescaped; a
// character of key written as \uXXXX takes at most 6 bytes.
func sameName(raw []byte, key string) bool {
	if bytes.IndexByte(raw, '\\') < 0 {
		return bytes.EqualFold(raw, []byte(key))
	}
	if len(raw) > 6*len(key) {
		return false
	}
	var name string
	if err := json.Unmarshal(append(append([]byte{'"'}, raw...), '"'), &name); err != nil {
		return false
	}
	return strings.EqualFold(name, key)
}
