package openai

// The chunk scanner's lenient half: delta.content sent as an array of parts
// (Mistral's magistral models) and delta.reasoning_details (OpenRouter).
// Both are held to decodeChunk's chunkContent and reasoningDetails
// (chunkjson_test.go) by FuzzScanChunk. Unlike the rest of the chunk, a
// part or detail of an unexpected shape is skipped rather than failing the
// chunk: these formats are young, and the answer matters more than a piece
// of it a provider added in a new shape. The JSON must still be valid.

import (
	"strings"
	"unicode/utf8"
)

// partState is one content part, thinking part or reasoning detail being
// scanned: its fields, and bad once one of them had the wrong type.
type partState struct {
	typ, text, summary span
	think              []span // a content part's thinking pieces
	bad                bool
}

// Arrays of parts, by what their elements are.
const (
	arrContent = iota // delta.content's parts
	arrThink          // a thinking part's thinking
	arrDetails        // delta.reasoning_details
)

// contentValue decodes delta.content at b[i] into c: a string (the text),
// or an array of parts that replaces it (null leaves it as it is; any
// other type fails the chunk, as it always did).
func (s *chunkScanner) contentValue(i, depth int, c *choiceState) (int, error) {
	switch s.b[i] {
	case '"':
		sp, j, err := s.str0(i)
		if err == nil {
			c.content, c.parts, c.texts, c.thinks = sp, false, c.texts[:0], c.thinks[:0]
		}
		return j, err
	case 'n':
		return s.literal(i, "null")
	case '[':
		c.content, c.parts, c.texts, c.thinks = span{}, true, c.texts[:0], c.thinks[:0]
		return s.parts(i, depth, arrContent, c)
	}
	return i, s.typeError(i, depth, "content", "string")
}

// reasoningDetails decodes delta.reasoning_details at b[i] into c: an array
// replaces what c holds; null and other types leave it.
func (s *chunkScanner) reasoningDetails(i, depth int, c *choiceState) (int, error) {
	if s.b[i] != '[' {
		return s.skipValue(i, depth)
	}
	c.details = c.details[:0]
	return s.parts(i, depth, arrDetails, c)
}

// parts scans the array at b[i], a field of an object at depth, whose
// elements are of kind arr, keeping the pieces to show in c or s.part.
func (s *chunkScanner) parts(i, depth, arr int, c *choiceState) (int, error) {
	if depth+1 > maxNestingDepth {
		return i, &scanError{msg: "invalid character '[' exceeded max depth", off: i}
	}
	i = s.ws(i + 1)
	if i < len(s.b) && s.b[i] == ']' {
		return i + 1, nil
	}
	for {
		if i >= len(s.b) {
			return i, errUnexpectedEnd
		}
		var err error
		if s.b[i] == '{' {
			i, err = s.part1(i, depth+2, arr, c)
		} else {
			i, err = s.skipValue(i, depth+1) // not an object: skipped
		}
		if err != nil {
			return i, err
		}
		var done bool
		if i, done, err = s.arrayNext(i); err != nil || done {
			return i, err
		}
	}
}

// part1 scans one element (an object at depth) of an array of kind arr
// and keeps what it adds unless a field had the wrong type.
func (s *chunkScanner) part1(i, depth, arr int, c *choiceState) (int, error) {
	var err error
	switch arr {
	case arrContent:
		s.part = partState{think: s.part.think[:0]}
		if i, err = s.object(i, depth, objPart, c, nil); err != nil || s.part.bad {
			return i, err
		}
		switch p := &s.part; {
		case s.strEq(p.typ, "text"):
			c.texts = append(c.texts, p.text)
		case s.strEq(p.typ, "thinking"):
			c.thinks = append(c.thinks, p.think...)
		}
	case arrThink:
		s.inner = partState{}
		if i, err = s.object(i, depth, objThinkPart, c, nil); err != nil || s.inner.bad {
			return i, err
		}
		if s.strEq(s.inner.typ, "text") {
			s.part.think = append(s.part.think, s.inner.text)
		}
	default: // arrDetails
		s.inner = partState{}
		if i, err = s.object(i, depth, objDetail, c, nil); err != nil || s.inner.bad {
			return i, err
		}
		switch d := &s.inner; {
		case s.strEq(d.typ, "reasoning.text"):
			c.details = append(c.details, d.text)
		case s.strEq(d.typ, "reasoning.summary"):
			c.details = append(c.details, d.summary)
		}
	}
	return i, nil
}

// partField decodes field f of a content part, thinking part or reasoning
// detail (an object at depth) at b[i].
func (s *chunkScanner) partField(i, depth int, kind objKind, f int) (int, error) {
	p := &s.inner
	if kind == objPart {
		p = &s.part
		if f == fPartThinking {
			return s.thinking(i, depth)
		}
	}
	switch f {
	case fPartType:
		return s.lenientString(i, depth, &p.typ, &p.bad)
	case fPartText:
		return s.lenientString(i, depth, &p.text, &p.bad)
	}
	return s.lenientString(i, depth, &p.summary, &p.bad) // objDetail's summary
}

// thinking decodes a content part's thinking at b[i]: a string, or an
// array of text parts; either replaces what the part holds. null and
// other types leave it.
func (s *chunkScanner) thinking(i, depth int) (int, error) {
	switch s.b[i] {
	case '"':
		sp, j, err := s.str0(i)
		if err == nil {
			s.part.think = append(s.part.think[:0], sp)
		}
		return j, err
	case '[':
		s.part.think = s.part.think[:0]
		return s.parts(i, depth, arrThink, nil)
	}
	return s.skipValue(i, depth)
}

// lenientString decodes a string field at b[i] into dst: null leaves it,
// any other type sets bad (the part is skipped) and is skipped.
func (s *chunkScanner) lenientString(i, depth int, dst *span, bad *bool) (int, error) {
	switch s.b[i] {
	case '"':
		sp, j, err := s.str0(i)
		if err == nil {
			*dst = sp
		}
		return j, err
	case 'n':
		return s.literal(i, "null")
	}
	*bad = true
	return s.skipValue(i, depth)
}

// strEq reports whether the string sp holds is lit, without allocating in
// the common case of a plain span.
func (s *chunkScanner) strEq(sp span, lit string) bool {
	if sp.flags == 0 {
		return string(s.b[sp.start:sp.end]) == lit
	}
	return s.str(sp) == lit
}

// join returns the strings the spans hold, concatenated, in one buffer:
// a chunk may hold hundreds of thousands of parts, and joining them one by
// one would cost the square of that.
func (s *chunkScanner) join(sps []span) string {
	switch len(sps) {
	case 0:
		return ""
	case 1:
		return s.str(sps[0])
	}
	n := 0
	for _, sp := range sps {
		n += sp.end - sp.start // a hint: escapes shrink, invalid bytes grow
	}
	var sb strings.Builder
	sb.Grow(n)
	for _, sp := range sps {
		raw := s.b[sp.start:sp.end]
		if sp.flags == 0 || sp.flags == spanHigh && utf8.Valid(raw) {
			sb.Write(raw)
		} else {
			writeUnquoted(&sb, raw)
		}
	}
	return sb.String()
}
