// Package importers reads the conversation exports of other chat apps
// (ChatGPT's and Claude's conversations.json) into Juncture threads. The
// parsers only read: storing is store.DB.ImportConversations.
//
// Ids are stable ("chatgpt-…", "claude-…", from the export's own ids), so
// importing the same file twice gives the same threads, which the store
// then skips. Errors name where the first problem is, as
// "conversations.json:LINE:COLUMN: conversation N ("Title"): …".
package importers

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"

	"github.com/juncture-app/juncture/agent/history"
)

// Budgets of one import, checked before the work they bound (issue 19:
// an 8.9 MB file once made 300,000 threads). A file over any of them is
// refused whole with an *Error saying which and where; nothing is stored.
// With them, parsing a 64 MiB file takes at most a few hundred MB and a
// few seconds (FuzzParseChatGPT and FuzzParseClaude fail beyond
// fuzzAllocBudget and fuzzTimeBudget).
const (
	// MaxBytes: a larger file is refused before parsing.
	MaxBytes = 64 << 20
	// MaxConversations per file; the count stops at the first one over.
	MaxConversations = 20_000
	// MaxMessages per conversation: the nodes of ChatGPT's mapping (its
	// tree's depth is at most this, and it is walked without recursion)
	// or Claude's chat_messages, counted before they are decoded.
	MaxMessages = 100_000
	// MaxTotalMessages are the messages kept from one file (about 0.5 ms
	// each to store, all in one transaction).
	MaxTotalMessages = 500_000
	// MaxValues are the JSON values (array elements and object members,
	// at any depth) of one conversation, counted before it is decoded:
	// decoding "{}," costs hundreds of bytes, so this, not the file's
	// size, bounds the memory a conversation takes.
	MaxValues = 2_000_000
	// MaxIDBytes bounds the ids a conversation and its messages are known
	// by (they become Juncture's thread and message ids).
	MaxIDBytes = 256
	// MaxMessageBytes is the text of one message.
	MaxMessageBytes = 4 << 20
	// MaxTitleRunes: a longer title is cut (with "…"), not refused.
	MaxTitleRunes = 300
)

// Formats.
const (
	FormatChatGPT = "chatgpt"
	FormatClaude  = "claude"
	FormatAuto    = "auto"
)

// FileName is how errors name the file (both exports call it this).
const FileName = "conversations.json"

// Conversation is one imported conversation, Juncture-shaped.
type Conversation struct {
	Thread history.Thread
	// Messages are in tree order: every parent before its children,
	// siblings in the order they were made. Roles are user or assistant.
	Messages []history.Message
	// ActiveLeaf is the message the conversation showed last ("" for none).
	ActiveLeaf string
	// SourceID is the conversation's id in the export.
	SourceID string
	// Skipped counts the export's messages left out (system, hidden,
	// tool and non-text messages).
	Skipped int
}

// ErrInvalid is wrapped by every error about the file itself.
var ErrInvalid = errors.New("invalid conversations export")

// Error is a problem in the file, at Line:Column (1-based; the column
// counts bytes).
type Error struct {
	Offset       int64
	Line, Column int
	Msg          string
}

func (e *Error) Error() string {
	return fmt.Sprintf("%s:%d:%d: %s", FileName, e.Line, e.Column, e.Msg)
}

func (e *Error) Unwrap() error { return ErrInvalid }

// errorAt makes an Error at byte offset off of data.
func errorAt(data []byte, off int64, format string, args ...any) *Error {
	off = max(0, min(off, int64(len(data))))
	before := data[:off]
	line := bytes.Count(before, []byte{'\n'}) + 1
	col := int(off) - (bytes.LastIndexByte(before, '\n') + 1) + 1
	return &Error{Offset: off, Line: line, Column: col, Msg: fmt.Sprintf(format, args...)}
}

// Parse reads an export in format (FormatChatGPT, FormatClaude or
// FormatAuto, which tells them apart by shape) and says which it read.
func Parse(format string, data []byte) ([]Conversation, string, error) {
	if format == FormatAuto || format == "" {
		var err error
		if format, err = Detect(data); err != nil {
			return nil, "", err
		}
	}
	switch format {
	case FormatChatGPT:
		c, err := ParseChatGPT(data)
		return c, format, err
	case FormatClaude:
		c, err := ParseClaude(data)
		return c, format, err
	}
	return nil, "", fmt.Errorf("%w: unknown format %q (use chatgpt, claude or auto)", ErrInvalid, format)
}

// Detect tells a ChatGPT export (conversations with a "mapping") from a
// Claude one (with "chat_messages") by its first conversation. An empty
// list reads as ChatGPT (it imports nothing either way).
func Detect(data []byte) (string, error) {
	if err := checkSize(data); err != nil {
		return "", err
	}
	var probe struct {
		Format   *string         `json:"format"`
		Mapping  json.RawMessage `json:"mapping"`
		Messages json.RawMessage `json:"chat_messages"`
	}
	var found string
	err := eachElement(data, func(i int, start int64, raw []byte) error {
		if err := json.Unmarshal(raw, &probe); err != nil {
			return errorAt(data, start, "conversation %d is not an object", i+1)
		}
		switch {
		case probe.Mapping != nil:
			found = FormatChatGPT
		case probe.Messages != nil:
			found = FormatClaude
		default:
			return errorAt(data, start, `conversation %d has neither "mapping" (ChatGPT) nor "chat_messages" (Claude): not a ChatGPT or Claude conversations.json`, i+1)
		}
		return errStop
	})
	if err != nil && !errors.Is(err, errStop) {
		var e *Error
		if errors.As(err, &e) && bytes.HasPrefix(bytes.TrimSpace(data), []byte("{")) {
			if json.Unmarshal(data, &probe) == nil && probe.Format != nil {
				e.Msg = "this is a Juncture thread export: import it with Import thread"
			}
		}
		return "", err
	}
	if found == "" {
		found = FormatChatGPT
	}
	return found, nil
}

var errStop = errors.New("stop")

// checkShape refuses conversation i (raw, at start) when it holds more
// values, or more messages under key, than the budgets allow, before it
// is decoded.
func checkShape(data []byte, i int, start int64, raw []byte, key string) error {
	values, msgs := Shape(raw, key)
	switch {
	case msgs > MaxMessages:
		return errorAt(data, start, "conversation %d: %d messages; at most %d can be imported", i+1, msgs, MaxMessages)
	case values > MaxValues:
		return errorAt(data, start, "conversation %d: more than %d JSON values; at most %d can be imported (is it a conversations.json?)", i+1, MaxValues, MaxValues)
	}
	return nil
}

// tally is what a file's conversations add up to: ids seen and messages
// kept, against MaxTotalMessages.
type tally struct {
	ids      map[string]int // source id → conversation number
	messages int
}

// add counts conv (number i, at start) and refuses a repeated id or one
// message too many.
func (t *tally) add(data []byte, i int, start int64, conv Conversation) error {
	if t.ids == nil {
		t.ids = make(map[string]int)
	}
	if j, ok := t.ids[conv.SourceID]; ok {
		return errorAt(data, start, "conversation %d has the same id as conversation %d (%s)", i+1, j, clip(conv.SourceID, 60))
	}
	t.ids[conv.SourceID] = i + 1
	t.messages += len(conv.Messages)
	if t.messages > MaxTotalMessages {
		return errorAt(data, start, "conversation %d: more than %d messages in the file; at most %d can be imported at once (import a smaller export)", i+1, MaxTotalMessages, MaxTotalMessages)
	}
	return nil
}

// checkID refuses an empty or oversized id.
func checkID(what, id string) string {
	switch {
	case id == "":
		return what + " is empty"
	case len(id) > MaxIDBytes:
		return fmt.Sprintf("%s %s is %d bytes; at most %d", what, clip(id, 40), len(id), MaxIDBytes)
	}
	return ""
}

// checkText refuses a message whose text is over MaxMessageBytes.
func checkText(id string, text string) string {
	if len(text) > MaxMessageBytes {
		return fmt.Sprintf("message %s is %d MiB of text; at most %d MiB a message can be imported", clip(id, 40), len(text)>>20, MaxMessageBytes>>20)
	}
	return ""
}

func checkSize(data []byte) error {
	if len(data) > MaxBytes {
		return fmt.Errorf("%w: the file is %d MiB; at most %d MiB can be imported", ErrInvalid, len(data)>>20, MaxBytes>>20)
	}
	return nil
}

// eachElement calls fn with each element of the top-level JSON array of
// data and the byte offset where it starts. Syntax errors come back as an
// *Error at their position.
func eachElement(data []byte, fn func(i int, start int64, raw []byte) error) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	tok, err := dec.Token()
	if err != nil {
		return syntaxError(data, dec, err, "the file is empty or not JSON")
	}
	if d, ok := tok.(json.Delim); !ok || d != '[' {
		return errorAt(data, dec.InputOffset()-1, "expected a list of conversations ([…]); this is %s", describe(tok))
	}
	for i := 0; dec.More(); i++ {
		if i == MaxConversations {
			return errorAt(data, dec.InputOffset(), "more than %d conversations: at most %d can be imported from one file", MaxConversations, MaxConversations)
		}
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return syntaxError(data, dec, err, "")
		}
		end := dec.InputOffset()
		if err := fn(i, end-int64(len(raw)), raw); err != nil {
			return err
		}
	}
	if _, err := dec.Token(); err != nil {
		return syntaxError(data, dec, err, "")
	}
	// Only whitespace may follow the list.
	for off := dec.InputOffset(); off < int64(len(data)); off++ {
		switch data[off] {
		case ' ', '\t', '\r', '\n':
		default:
			return errorAt(data, off, "unexpected text after the list of conversations")
		}
	}
	return nil
}

func describe(tok json.Token) string {
	switch tok.(type) {
	case json.Delim:
		return "an object"
	case string:
		return "a string"
	case float64, json.Number:
		return "a number"
	case bool:
		return "a boolean"
	case nil:
		return "null"
	}
	return "not a list"
}

func syntaxError(data []byte, dec *json.Decoder, err error, eofMsg string) error {
	var se *json.SyntaxError
	switch {
	case errors.As(err, &se):
		// The decoder's offsets count from where it last started; a
		// whole-file scan gives the position in the file.
		var whole json.RawMessage
		if errors.As(json.Unmarshal(data, &whole), &se) {
			return errorAt(data, se.Offset-1, "%v", se)
		}
		return errorAt(data, dec.InputOffset(), "%v", err)
	case errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF):
		if eofMsg != "" && len(bytes.TrimSpace(data)) == 0 {
			return errorAt(data, int64(len(data)), "%s", eofMsg)
		}
		return errorAt(data, int64(len(data)), "the file ends in the middle of the JSON (is it complete?)")
	}
	return errorAt(data, dec.InputOffset(), "%v", err)
}

// typeError places an Unmarshal error of one element (starting at start).
func typeError(data []byte, start int64, raw []byte, err error, what string) error {
	var te *json.UnmarshalTypeError
	var se *json.SyntaxError
	switch {
	case errors.As(err, &te):
		field := te.Field
		if field == "" {
			field = "value"
		}
		// Offset is just after the value's first byte, or after a scalar:
		// back up to the scalar's start.
		off := start + te.Offset - 1
		if te.Value == "number" || te.Value == "bool" {
			for off > start && bytes.IndexByte([]byte("0123456789+-.eEtruefalsn"), data[off-1]) >= 0 {
				off--
			}
		}
		return errorAt(data, off, "%s: %s is %s; expected %s", what, field, article(te.Value), kind(te.Type))
	case errors.As(err, &se):
		return errorAt(data, start+se.Offset-1, "%s: %v", what, se)
	}
	return errorAt(data, start, "%s: %v", what, err)
}

// node is one message of an export before its tree is built.
type node struct {
	id, parent string
	kept       bool
	msg        history.Message
}

// buildTree orders the kept nodes parents first (children in the order of
// nodes), each kept node's parent being its nearest kept ancestor, and
// returns them with the active leaf: leaf or its nearest kept ancestor.
// Every parent must be a node's id or "" (a root). problem names the
// first node in a parent cycle.
func buildTree(nodes []node, leaf string) (msgs []history.Message, activeLeaf string, problem string) {
	index := make(map[string]int, len(nodes))
	for i, n := range nodes {
		index[n.id] = i
	}
	children := make(map[string][]int, len(nodes))
	for i, n := range nodes {
		children[n.parent] = append(children[n.parent], i)
	}
	kept := 0
	for _, n := range nodes {
		if n.kept {
			kept++
		}
	}
	msgs = make([]history.Message, 0, kept)
	reached := make([]bool, len(nodes))
	keptAs := make([]string, len(nodes)) // the kept message a node's children follow
	type frame struct {
		idx    int
		parent string
	}
	stack := make([]frame, 0, 16)
	roots := children[""]
	for i := len(roots) - 1; i >= 0; i-- {
		stack = append(stack, frame{roots[i], ""})
	}
	for len(stack) > 0 {
		f := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if reached[f.idx] {
			continue
		}
		reached[f.idx] = true
		n := nodes[f.idx]
		follow := f.parent
		if n.kept {
			m := n.msg
			m.ParentID = f.parent
			msgs = append(msgs, m)
			follow = m.ID
		}
		keptAs[f.idx] = follow
		kids := children[n.id]
		for i := len(kids) - 1; i >= 0; i-- {
			stack = append(stack, frame{kids[i], follow})
		}
	}
	for i, ok := range reached {
		if !ok {
			return nil, "", nodes[i].id
		}
	}
	if i, ok := index[leaf]; ok && leaf != "" {
		activeLeaf = keptAs[i]
	}
	return msgs, activeLeaf, ""
}

// kind names the JSON a Go type reads.
func kind(t reflect.Type) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Map, reflect.Struct:
		return "an object"
	case reflect.Slice, reflect.Array:
		return "a list"
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Float32, reflect.Float64, reflect.Int, reflect.Int64, reflect.Int32:
		return "a number"
	}
	return t.String()
}

func article(v string) string {
	switch v {
	case "array":
		return "a list"
	case "object":
		return "an object"
	case "number", "string", "bool":
		return "a " + v
	}
	return v
}
