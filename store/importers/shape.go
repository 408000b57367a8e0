package importers

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
// a budget is stated in (a conversation's messages).
func Shape(data []byte, key string) (values, children int) {
	depth := 0
	keyDepth := -1 // depth inside key's value, -1 outside it
	empty := false // the container just opened has no element yet
	lastKey := ""  // the last member name read at depth 1
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
				lastKey = string(bytesIf(data, start, i, key))
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
			if depth == 2 && lastKey == key && keyDepth == -1 && key != "" {
				keyDepth = 2
			}
			empty = true
			expectKey = c == '{'
		case '}', ']':
			if depth == keyDepth {
				keyDepth = -2 // measured once: a repeated key does not count again
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

// bytesIf returns data[start:end] when it equals key (a member name worth
// remembering), else nothing: names are compared without being kept.
func bytesIf(data []byte, start, end int, key string) []byte {
	if end-start == len(key) && string(data[start:end]) == key {
		return data[start:end]
	}
	return nil
}
