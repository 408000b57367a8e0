package openai

// Why a hand-written scanner and not encoding/json or openai-go's own
// stream decoding. Measured with BenchmarkDecodeChunk (-benchtime=5000x)
// and BenchmarkStream (-benchtime=10x), go1.26, 2 AMD EPYC cores shared
// with other jobs (load 5-9, so single runs moved by up to 3x), best of 9
// runs in three -count=3 batches; µs, bytes and allocations:
//
//	per chunk        scan                 encoding/json          openai-go
//	text             0.36 µs   4 B  1     2.27 µs  512 B 11      13.5 µs  6976 B 58
//	tool-args        0.47 µs  88 B  2     3.53 µs  872 B 16      22.1 µs 10160 B 83
//	reasoning        0.27 µs   8 B  1     1.98 µs  512 B 11      12.7 µs  8448 B 57
//	usage            0.64 µs  32 B  1     6.44 µs  720 B 18      17.2 µs  8088 B 84
//	20,000-token stream through Client.Deltas from an httptest server
//	(wall clock, server in the same process):
//	per token        0.56 µs  13 B  1     3.02 µs  519 B 11      13.3 µs  7300 B 59
//
// "encoding/json" is decodeChunk (chunkjson_test.go): json.Unmarshal into
// a struct of only the fields the product uses. "openai-go" is what its
// ssestream does per event (a gjson look-up of "error", then json.Unmarshal
// into openai.ChatCompletionChunk; reasoning from ExtraFields), end to end
// Chat.Completions.NewStreaming. The scanner is 6-7x faster than
// encoding/json per chunk and saves 2.5 µs of CPU a token end to end: more
// than half of the 4.5 µs a token the transports benchmark allows the
// whole server (bench/README.md: at most 1/8 of the TanStack anchor's
// 36 µs; 8.5 µs measured), so it stays. encoding/json remains its
// reference: TestScanChunk and FuzzScanChunk compare the two.

import (
	"math"
	"strconv"

	"github.com/juncture-app/juncture/agent/model"
)

// scanChunk extracts from one chat.completion.chunk exactly what
// decodeChunk extracts (json.Unmarshal into chunk), in a single pass over
// the bytes without reflection: choices[0].delta's content, reasoning
// (reasoning_content, else reasoning), tool_calls, choices[0].finish_reason,
// the top-level error.message and usage. Every other value is validated
// and skipped.
//
// It follows encoding/json to the letter, so that the stream behaves as it
// did with json.Unmarshal (FuzzScanChunk holds it to that):
//   - the input must be one valid JSON value (RFC 8259, nesting ≤ 10000);
//   - keys match exactly, else case-insensitively with encoding/json's
//     folding, after unescaping;
//   - a value of the wrong type for a decoded field is an error, null is a
//     no-op except for slices and the error pointer, which it resets;
//     usage is the exception (see usageValue): a wrong type anywhere in it
//     drops the usage, as decodeChunk's lenient chunkUsage does;
//   - a repeated key decodes into what is already there: objects merge,
//     arrays reuse their elements (including ones a shorter array cut off)
//     and an empty array resets the slice;
//   - strings are unescaped as encoding/json does: invalid UTF-8 and lone
//     surrogates become U+FFFD.
//
// Strings are kept as spans of b while scanning and converted once at the
// end, so a chunk costs one small allocation per non-empty field.
func scanChunk(b []byte) (model.Delta, *model.EndpointError, error) {
	s := chunkScanner{b: b}
	if err := s.document(); err != nil {
		return model.Delta{}, nil, err
	}
	if s.errSet {
		return model.Delta{}, &model.EndpointError{Message: s.str(s.errMsg)}, nil
	}
	var d model.Delta
	if s.usageSet && !s.usageBad {
		u := &s.usage
		d.Usage = &model.Usage{PromptTokens: tokens(u.prompt), CompletionTokens: tokens(u.completion), TotalTokens: tokens(u.total), ReasoningTokens: tokens(u.reasoning)}
	}
	if !s.haveChoices {
		return d, nil, nil // OpenAI's usage chunk, or nothing
	}
	c := &s.c0
	d.Text, d.FinishReason, d.Reasoning = s.str(c.content), s.str(c.finish), s.str(c.reasoningContent)
	if d.Reasoning == "" {
		d.Reasoning = s.str(c.reasoning)
	}
	if c.ntc > 0 {
		d.ToolCalls = make([]model.ToolCallDelta, c.ntc)
		for k := range c.ntc {
			tc := c.tc(k)
			d.ToolCalls[k] = model.ToolCallDelta{Index: tc.index, ID: s.str(tc.id), Name: s.str(tc.name), Arguments: s.str(tc.args)}
		}
	}
	return d, nil, nil
}

// maxNestingDepth is encoding/json's limit on nested arrays and objects.
const maxNestingDepth = 10000

// span is the raw content of a JSON string, between its quotes.
type span struct {
	start, end int
	flags      uint8 // spanEscaped, spanHigh
}

const (
	spanEscaped uint8 = 1 << iota // contains a backslash escape
	spanHigh                      // contains a byte ≥ 0x80
)

type toolCallState struct {
	index          int
	id, name, args span
}

// choiceState mirrors one element of chunk.Choices.
type choiceState struct {
	content, reasoningContent, reasoning, finish span
	// The tool_calls elements used since the slice was last reset (nAll of
	// them: tcFix, then tcMore), of which the slice holds the first ntc. As
	// with reflect, an element a shorter array cut off comes back, stale,
	// when a later array is longer again.
	tcFix  [2]toolCallState
	tcMore []toolCallState
	nAll   int
	ntc    int
}

// tc returns tool_calls element k < c.nAll.
func (c *choiceState) tc(k int) *toolCallState {
	if k < len(c.tcFix) {
		return &c.tcFix[k]
	}
	return &c.tcMore[k-len(c.tcFix)]
}

// resetToolCalls makes tool_calls a new empty (or nil) slice.
func (c *choiceState) resetToolCalls() {
	c.nAll, c.ntc, c.tcMore = 0, 0, c.tcMore[:0]
}

// reset makes c a new zero element.
func (c *choiceState) reset() {
	more := c.tcMore[:0]
	*c = choiceState{tcMore: more}
}

// usageState is the usage object's counts, read as float64 (so 12.0 or
// 1e3 count too).
type usageState struct {
	prompt, completion, total, reasoning float64
}

type chunkScanner struct {
	b           []byte
	c0          choiceState // choices[0]
	other       choiceState // choices[1:], type-checked and dropped
	haveChoices bool        // len(choices) > 0
	errSet      bool        // error != nil
	errMsg      span
	// The last usage value: usageSet unless it was null or absent;
	// usageBad if it (or a count in it) had the wrong type, which drops
	// the usage instead of failing the chunk.
	usageSet, usageBad bool
	usage              usageState
}

// tokens converts a reported count, clamping what no real count can be.
func tokens(f float64) int {
	if !(f > 0) {
		return 0
	}
	if f > math.MaxInt32 {
		return math.MaxInt32
	}
	return int(f)
}

// scanError is a syntax or type error; its text follows encoding/json's.
type scanError struct {
	msg string
	off int
}

func (e *scanError) Error() string {
	if e.off < 0 {
		return e.msg
	}
	return e.msg + " (offset " + strconv.Itoa(e.off) + ")"
}

var errUnexpectedEnd = &scanError{msg: "unexpected end of JSON input", off: -1}

func (s *chunkScanner) syntax(i int, context string) error {
	if i >= len(s.b) {
		return errUnexpectedEnd
	}
	return &scanError{msg: "invalid character " + quoteChar(s.b[i]) + " " + context, off: i}
}

func quoteChar(c byte) string {
	if c == '\'' {
		return `'\''`
	}
	if c == '"' {
		return `'"'`
	}
	q := strconv.Quote(string(rune(c)))
	return "'" + q[1:len(q)-1] + "'"
}

// typeError reports a JSON value of the wrong type for a field. The value
// is still checked first, so that a syntax error wins as in encoding/json.
func (s *chunkScanner) typeError(i, depth int, field, want string) error {
	if _, err := s.skipValue(i, depth); err != nil {
		return err
	}
	kind := "number"
	switch s.b[i] {
	case '"':
		kind = "string"
	case '{':
		kind = "object"
	case '[':
		kind = "array"
	case 't', 'f':
		kind = "bool"
	}
	return &scanError{msg: "json: cannot unmarshal " + kind + " into chunk field " + field + " of type " + want, off: i}
}

func (s *chunkScanner) ws(i int) int {
	for i < len(s.b) {
		switch s.b[i] {
		case ' ', '\t', '\n', '\r':
			i++
		default:
			return i
		}
	}
	return i
}

func (s *chunkScanner) document() error {
	i := s.ws(0)
	if i >= len(s.b) {
		return errUnexpectedEnd
	}
	var err error
	switch s.b[i] {
	case '{':
		i, err = s.object(i, 1, objTop, nil, nil)
	case 'n':
		i, err = s.literal(i, "null") // null into a struct: nothing
	default:
		return s.typeError(i, 0, "(top level)", "chunk")
	}
	if err != nil {
		return err
	}
	if i = s.ws(i); i < len(s.b) {
		return s.syntax(i, "after top-level value")
	}
	return nil
}

// Objects the scanner decodes, and their fields.
type objKind uint8

const (
	objTop objKind = iota
	objChoice
	objDelta
	objToolCall
	objFunction
	objError
	objUsage
	objUsageDetails
)

const (
	fNone = iota - 1
	// objTop
	fChoices = 0
	fError   = 1
	fUsage   = 2
	// objChoice
	fDelta        = 0
	fFinishReason = 1
	// objDelta
	fContent          = 0
	fReasoningContent = 1
	fReasoning        = 2
	fToolCalls        = 3
	// objToolCall
	fIndex    = 0
	fID       = 1
	fFunction = 2
	// objFunction
	fName      = 0
	fArguments = 1
	// objError: message is its only field
	// objUsage
	fPromptTokens     = 0
	fCompletionTokens = 1
	fTotalTokens      = 2
	fDetails          = 3
	// objUsageDetails: reasoning_tokens is its only field
)

var fieldNames = [...][]string{
	objTop:          {"choices", "error", "usage"},
	objChoice:       {"delta", "finish_reason"},
	objDelta:        {"content", "reasoning_content", "reasoning", "tool_calls"},
	objToolCall:     {"index", "id", "function"},
	objFunction:     {"name", "arguments"},
	objError:        {"message"},
	objUsage:        {"prompt_tokens", "completion_tokens", "total_tokens", "completion_tokens_details"},
	objUsageDetails: {"reasoning_tokens"},
}

// object scans the object at b[i] (a '{') at nesting depth depth, decoding
// the fields of kind into c (choice, delta) or tc (tool call, function).
func (s *chunkScanner) object(i, depth int, kind objKind, c *choiceState, tc *toolCallState) (int, error) {
	if depth > maxNestingDepth {
		return i, &scanError{msg: "invalid character '{' exceeded max depth", off: i}
	}
	i = s.ws(i + 1)
	if i < len(s.b) && s.b[i] == '}' {
		return i + 1, nil
	}
	for {
		if i >= len(s.b) || s.b[i] != '"' {
			return i, s.syntax(i, "looking for beginning of object key string")
		}
		key, j, err := s.str0(i)
		if err != nil {
			return j, err
		}
		i = s.ws(j)
		if i >= len(s.b) || s.b[i] != ':' {
			return i, s.syntax(i, "after object key")
		}
		i = s.ws(i + 1)
		if i >= len(s.b) {
			return i, errUnexpectedEnd
		}
		f := s.field(key, fieldNames[kind])
		if f == fNone {
			i, err = s.skipValue(i, depth)
		} else {
			i, err = s.fieldValue(i, depth, kind, f, c, tc)
		}
		if err != nil {
			return i, err
		}
		i = s.ws(i)
		if i >= len(s.b) {
			return i, errUnexpectedEnd
		}
		switch s.b[i] {
		case ',':
			i = s.ws(i + 1)
		case '}':
			return i + 1, nil
		default:
			return i, s.syntax(i, "after object key:value pair")
		}
	}
}

// fieldValue decodes the value at b[i] into field f of an object of kind.
func (s *chunkScanner) fieldValue(i, depth int, kind objKind, f int, c *choiceState, tc *toolCallState) (int, error) {
	b := s.b
	name := fieldNames[kind][f]
	switch kind {
	case objTop:
		switch f {
		case fChoices:
			return s.choices(i, depth)
		case fUsage:
			return s.usageValue(i, depth)
		}
		switch b[i] {
		case '{':
			if !s.errSet {
				s.errSet, s.errMsg = true, span{} // a new *struct
			}
			return s.object(i, depth+1, objError, nil, nil)
		case 'n':
			s.errSet, s.errMsg = false, span{} // null sets the pointer to nil
			return s.literal(i, "null")
		}
		return i, s.typeError(i, depth, name, "*struct")
	case objChoice:
		if f == fDelta {
			switch b[i] {
			case '{':
				return s.object(i, depth+1, objDelta, c, nil)
			case 'n':
				return s.literal(i, "null")
			}
			return i, s.typeError(i, depth, name, "struct")
		}
		return s.stringField(i, depth, name, &c.finish)
	case objDelta:
		switch f {
		case fContent:
			return s.stringField(i, depth, name, &c.content)
		case fReasoningContent:
			return s.stringField(i, depth, name, &c.reasoningContent)
		case fReasoning:
			return s.stringField(i, depth, name, &c.reasoning)
		}
		return s.toolCalls(i, depth, c)
	case objToolCall:
		switch f {
		case fIndex:
			return s.intField(i, depth, name, &tc.index)
		case fID:
			return s.stringField(i, depth, name, &tc.id)
		}
		switch b[i] {
		case '{':
			return s.object(i, depth+1, objFunction, nil, tc)
		case 'n':
			return s.literal(i, "null")
		}
		return i, s.typeError(i, depth, name, "struct")
	case objFunction:
		if f == fName {
			return s.stringField(i, depth, name, &tc.name)
		}
		return s.stringField(i, depth, name, &tc.args)
	case objUsage:
		switch f {
		case fPromptTokens:
			return s.countField(i, depth, &s.usage.prompt)
		case fCompletionTokens:
			return s.countField(i, depth, &s.usage.completion)
		case fTotalTokens:
			return s.countField(i, depth, &s.usage.total)
		}
		switch b[i] {
		case '{':
			return s.object(i, depth+1, objUsageDetails, nil, nil)
		case 'n':
			s.usage.reasoning = 0 // null sets the pointer to nil
			return s.literal(i, "null")
		}
		s.usageBad = true
		return s.skipValue(i, depth)
	case objUsageDetails:
		return s.countField(i, depth, &s.usage.reasoning)
	default: // objError
		return s.stringField(i, depth, name, &s.errMsg)
	}
}

// usageValue decodes the usage value at b[i]. Each value starts afresh (a
// repeated "usage" key replaces, it does not merge), null removes it, and
// a value of the wrong shape is dropped without failing the chunk: the
// answer matters more than its token count.
func (s *chunkScanner) usageValue(i, depth int) (int, error) {
	switch s.b[i] {
	case 'n':
		s.usageSet = false
		return s.literal(i, "null")
	case '{':
		s.usageSet, s.usageBad, s.usage = true, false, usageState{}
		return s.object(i, depth+1, objUsage, nil, nil)
	}
	s.usageSet, s.usageBad = true, true
	return s.skipValue(i, depth)
}

// countField decodes a token count: a number as float64 (null leaves it
// as it is); anything else, or a number beyond float64, marks the usage
// bad.
func (s *chunkScanner) countField(i, depth int, dst *float64) (int, error) {
	switch c := s.b[i]; {
	case c == 'n':
		return s.literal(i, "null")
	case c == '-' || '0' <= c && c <= '9':
		j, err := s.number(i)
		if err != nil {
			return j, err
		}
		if f, err := strconv.ParseFloat(string(s.b[i:j]), 64); err != nil {
			s.usageBad = true
		} else {
			*dst = f
		}
		return j, nil
	}
	s.usageBad = true
	return s.skipValue(i, depth)
}

// choices decodes the choices array (or null) at b[i].
func (s *chunkScanner) choices(i, depth int) (int, error) {
	switch s.b[i] {
	case 'n':
		s.haveChoices = false
		s.c0.reset()
		return s.literal(i, "null")
	case '[':
	default:
		return i, s.typeError(i, depth, "choices", "[]struct")
	}
	if depth+1 > maxNestingDepth {
		return i, &scanError{msg: "invalid character '[' exceeded max depth", off: i}
	}
	n := 0
	i = s.ws(i + 1)
	if i < len(s.b) && s.b[i] == ']' {
		i++
	} else {
		for {
			if i >= len(s.b) {
				return i, errUnexpectedEnd
			}
			c := &s.c0
			if n > 0 {
				c = &s.other
				c.reset()
			}
			var err error
			switch s.b[i] {
			case '{':
				i, err = s.object(i, depth+2, objChoice, c, nil)
			case 'n':
				i, err = s.literal(i, "null")
			default:
				err = s.typeError(i, depth+1, "choices", "struct")
			}
			if err != nil {
				return i, err
			}
			n++
			var done bool
			if i, done, err = s.arrayNext(i); err != nil || done {
				if err != nil {
					return i, err
				}
				break
			}
		}
	}
	if n == 0 {
		s.haveChoices = false
		s.c0.reset() // a new empty slice
	} else {
		s.haveChoices = true
	}
	return i, nil
}

// toolCalls decodes the tool_calls array (or null) at b[i] into c.
func (s *chunkScanner) toolCalls(i, depth int, c *choiceState) (int, error) {
	switch s.b[i] {
	case 'n':
		c.resetToolCalls()
		return s.literal(i, "null")
	case '[':
	default:
		return i, s.typeError(i, depth, "tool_calls", "[]struct")
	}
	if depth+1 > maxNestingDepth {
		return i, &scanError{msg: "invalid character '[' exceeded max depth", off: i}
	}
	n := 0
	i = s.ws(i + 1)
	if i < len(s.b) && s.b[i] == ']' {
		i++
	} else {
		for {
			if i >= len(s.b) {
				return i, errUnexpectedEnd
			}
			if n == c.nAll {
				c.nAll++
				if n < len(c.tcFix) {
					c.tcFix[n] = toolCallState{}
				} else {
					c.tcMore = append(c.tcMore[:n-len(c.tcFix)], toolCallState{})
				}
			}
			var err error
			switch s.b[i] {
			case '{':
				i, err = s.object(i, depth+2, objToolCall, nil, c.tc(n))
			case 'n':
				i, err = s.literal(i, "null")
			default:
				err = s.typeError(i, depth+1, "tool_calls", "struct")
			}
			if err != nil {
				return i, err
			}
			n++
			var done bool
			if i, done, err = s.arrayNext(i); err != nil || done {
				if err != nil {
					return i, err
				}
				break
			}
		}
	}
	c.ntc = n
	if n == 0 {
		c.resetToolCalls() // a new empty slice
	}
	return i, nil
}

// arrayNext consumes what follows an array element: ',' (and the space
// before the next element) or ']' (done).
func (s *chunkScanner) arrayNext(i int) (int, bool, error) {
	i = s.ws(i)
	if i >= len(s.b) {
		return i, false, errUnexpectedEnd
	}
	switch s.b[i] {
	case ',':
		return s.ws(i + 1), false, nil
	case ']':
		return i + 1, true, nil
	}
	return i, false, s.syntax(i, "after array element")
}

func (s *chunkScanner) stringField(i, depth int, name string, dst *span) (int, error) {
	switch s.b[i] {
	case '"':
		sp, j, err := s.str0(i)
		if err == nil {
			*dst = sp
		}
		return j, err
	case 'n':
		return s.literal(i, "null") // null leaves a string as it is
	}
	return i, s.typeError(i, depth, name, "string")
}

func (s *chunkScanner) intField(i, depth int, name string, dst *int) (int, error) {
	b := s.b
	switch c := b[i]; {
	case c == 'n':
		return s.literal(i, "null")
	case c == '-' || '0' <= c && c <= '9':
	default:
		return i, s.typeError(i, depth, name, "int")
	}
	j, err := s.number(i)
	if err != nil {
		return j, err
	}
	// strconv.ParseInt(item, 10, 64): an integer within int64.
	k := i
	neg := b[k] == '-'
	if neg {
		k++
	}
	const cutoff = 1 << 63
	var u uint64
	for ; k < j; k++ {
		c := b[k]
		if c < '0' || c > '9' || u > cutoff/10 {
			return j, &scanError{msg: "json: cannot unmarshal number " + string(b[i:j]) + " into chunk field " + name + " of type int", off: i}
		}
		u = u*10 + uint64(c-'0')
		if u > cutoff {
			return j, &scanError{msg: "json: cannot unmarshal number " + string(b[i:j]) + " into chunk field " + name + " of type int", off: i}
		}
	}
	if !neg && u == cutoff {
		return j, &scanError{msg: "json: cannot unmarshal number " + string(b[i:j]) + " into chunk field " + name + " of type int", off: i}
	}
	if neg {
		*dst = int(-int64(u)) // -(1<<63) wraps to itself
	} else {
		*dst = int(u)
	}
	return j, nil
}
