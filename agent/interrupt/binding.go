package interrupt

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
)

// maxSafeInteger is Number.MAX_SAFE_INTEGER. Integers above it cannot be
// held exactly by Go ints read from doubles, so the readers refuse them (a
// documented divergence: the reference accepts any integral double).
const maxSafeInteger = 1<<53 - 1

// Binding is TanStack's ownership and correlation record of one interrupt
// (metadata["tanstack:interruptBinding"], spec §6). It is "opened" when
// InterruptedRunID is set (then Generation is meaningful too).
//
// MarshalJSON writes the normalised form in the reference reader's key
// order for the binding's kind, so a sanitised binding is byte-identical to
// what @tanstack/ai emits.
type Binding struct {
	V           int // BindingVersion; 0 is written as 1
	Kind        Kind
	InterruptID string

	// tool-approval and client-tool-execution
	ToolName   string
	ToolCallID string
	// tool-approval: the parsed call arguments the user is asked about
	// (nil = absent).
	OriginalArgs       json.RawMessage
	InputSchemaHash    string // tool-approval
	ApprovalSchemaHash string // tool-approval
	OutputSchemaHash   string // client-tool-execution

	ResponseSchemaHash string // required for tool kinds, optional for generic
	ExpiresAt          string

	// first-party generic (defineInterrupt) only
	DefinitionID      string
	Key               string
	BatchIndex        int
	PayloadSchemaHash string

	// opened bindings only
	InterruptedRunID string
	Generation       int
}

// Opened reports whether the binding carries its interrupted run.
func (b Binding) Opened() bool { return b.InterruptedRunID != "" }

// FirstParty reports whether b is a first-party generic binding.
func (b Binding) FirstParty() bool {
	return b.Kind == KindGeneric && (b.DefinitionID != "" || b.Key != "" || b.PayloadSchemaHash != "")
}

// MarshalJSON implements json.Marshaler.
func (b Binding) MarshalJSON() ([]byte, error) {
	w := objWriter{}
	v := b.V
	if v == 0 {
		v = BindingVersion
	}
	w.raw("v", []byte(strconv.Itoa(v)))
	w.str("kind", string(b.Kind))
	w.str("interruptId", b.InterruptID)
	switch b.Kind {
	case KindGeneric:
		w.optStr("responseSchemaHash", b.ResponseSchemaHash)
		w.optStr("expiresAt", b.ExpiresAt)
		if b.FirstParty() {
			w.optStr("definitionId", b.DefinitionID)
			w.optStr("key", b.Key)
			w.raw("batchIndex", []byte(strconv.Itoa(b.BatchIndex)))
			w.optStr("payloadSchemaHash", b.PayloadSchemaHash)
		}
	case KindClientToolExecution:
		w.str("toolName", b.ToolName)
		w.str("toolCallId", b.ToolCallID)
		w.str("outputSchemaHash", b.OutputSchemaHash)
		w.str("responseSchemaHash", b.ResponseSchemaHash)
		w.optStr("expiresAt", b.ExpiresAt)
	default: // tool-approval, and anything else field by field
		w.optStr("toolName", b.ToolName)
		w.optStr("toolCallId", b.ToolCallID)
		if b.OriginalArgs != nil {
			var buf bytes.Buffer
			if err := json.Compact(&buf, b.OriginalArgs); err != nil {
				return nil, fmt.Errorf("interrupt: binding originalArgs: %w", err)
			}
			w.raw("originalArgs", buf.Bytes())
		}
		w.optStr("inputSchemaHash", b.InputSchemaHash)
		w.optStr("approvalSchemaHash", b.ApprovalSchemaHash)
		w.optStr("outputSchemaHash", b.OutputSchemaHash)
		w.optStr("responseSchemaHash", b.ResponseSchemaHash)
		w.optStr("expiresAt", b.ExpiresAt)
	}
	if b.Opened() {
		w.str("interruptedRunId", b.InterruptedRunID)
		w.raw("generation", []byte(strconv.Itoa(b.Generation)))
	}
	return w.done(), nil
}

// UnmarshalJSON reads a binding with the reference reader (its own
// interruptId as the expected id); a binding the reader refuses is an error.
func (b *Binding) UnmarshalJSON(data []byte) error {
	members, isObject, err := parseMembers(data)
	if err != nil || !isObject {
		return errors.New("interrupt: binding is not a JSON object")
	}
	id, _ := strMember(members, "interruptId")
	got, unopened, _ := readBindingMembers(members, id)
	if !unopened {
		return errors.New("interrupt: binding is invalid or unsupported")
	}
	*b = got
	return nil
}

// ReadUnopenedBinding is readUnopenedInterruptBinding (§6.3): the
// normalised binding of d, or ok=false when d carries no valid binding
// ("not ours"). Opened fields are ignored.
func ReadUnopenedBinding(d Descriptor) (Binding, bool) {
	raw, present := d.Metadata[BindingMetadataKey]
	if !present {
		return Binding{}, false
	}
	members, isObject, err := parseMembers(raw)
	if err != nil || !isObject {
		return Binding{}, false
	}
	b, ok, _ := readBindingMembers(members, d.ID)
	b.InterruptedRunID, b.Generation = "", 0
	return b, ok
}

// ReadBinding is readInterruptBinding (§6.3, opened form) plus the item
// classification it implies: the binding's kind, or ClassUnbound (with a
// zero Binding) when the binding is missing, malformed, of another version
// or kind, or not opened. Unbound items are never resumable and never block.
func ReadBinding(d Descriptor) (Binding, Classification) {
	raw, present := d.Metadata[BindingMetadataKey]
	if !present {
		return Binding{}, ClassUnbound
	}
	members, isObject, err := parseMembers(raw)
	if err != nil || !isObject {
		return Binding{}, ClassUnbound
	}
	b, _, opened := readBindingMembers(members, d.ID)
	if !opened {
		return Binding{}, ClassUnbound
	}
	return b, Classification(b.Kind)
}

// readBindingMembers implements the normative reader on a parsed object.
func readBindingMembers(m map[string]json.RawMessage, descriptorID string) (b Binding, unopened, opened bool) {
	id, ok := strMember(m, "interruptId")
	if !ok || id != descriptorID || id == "" {
		return Binding{}, false, false
	}
	if raw, present := m["v"]; present {
		if v, isNum := numValue(raw); !isNum || v != BindingVersion {
			return Binding{}, false, false
		}
	}
	b = Binding{V: BindingVersion, InterruptID: id}
	if h, isStr := strMember(m, "responseSchemaHash"); isStr {
		if h == "" {
			return Binding{}, false, false
		}
		b.ResponseSchemaHash = h
	}
	if exp, isStr := strMember(m, "expiresAt"); isStr {
		if _, valid := ParseDate(exp); !valid {
			return Binding{}, false, false
		}
		b.ExpiresAt = exp
	}
	kind, _ := strMember(m, "kind")
	b.Kind = Kind(kind)
	switch b.Kind {
	case KindGeneric:
		if !readFirstParty(m, &b) {
			return Binding{}, false, false
		}
	case KindClientToolExecution, KindToolApproval:
		if b.ResponseSchemaHash == "" ||
			!nonEmpty(m, "toolName", &b.ToolName) || !nonEmpty(m, "toolCallId", &b.ToolCallID) {
			return Binding{}, false, false
		}
		if b.Kind == KindClientToolExecution {
			if !nonEmpty(m, "outputSchemaHash", &b.OutputSchemaHash) {
				return Binding{}, false, false
			}
			break
		}
		if !nonEmpty(m, "inputSchemaHash", &b.InputSchemaHash) ||
			!nonEmpty(m, "approvalSchemaHash", &b.ApprovalSchemaHash) {
			return Binding{}, false, false
		}
		if raw, present := m["originalArgs"]; present {
			var buf bytes.Buffer
			_ = json.Compact(&buf, raw) // raw was validated by the parser
			b.OriginalArgs = json.RawMessage(buf.Bytes())
		}
	default:
		return Binding{}, false, false
	}
	run, isStr := strMember(m, "interruptedRunId")
	gen, isInt := intMember(m, "generation")
	if isStr && run != "" && isInt {
		opened := b
		opened.InterruptedRunID, opened.Generation = run, gen
		return opened, true, true
	}
	return b, true, false
}

func readFirstParty(m map[string]json.RawMessage, b *Binding) bool {
	def, defIsStr := strMember(m, "definitionId")
	key, keyIsStr := strMember(m, "key")
	psh, pshIsStr := strMember(m, "payloadSchemaHash")
	_, hasIndex := m["batchIndex"]
	if !defIsStr && !keyIsStr && !pshIsStr && !hasIndex {
		return true // external / raw generic
	}
	idx, isInt := intMember(m, "batchIndex")
	if def == "" || key == "" || !isInt {
		return false
	}
	b.DefinitionID, b.Key, b.BatchIndex, b.PayloadSchemaHash = def, key, idx, psh
	return true
}

// strMember returns the member as a string when it is a JSON string.
func strMember(m map[string]json.RawMessage, k string) (string, bool) {
	raw, ok := m[k]
	if !ok || len(raw) == 0 || raw[0] != '"' {
		return "", false
	}
	v, err := Parse(raw)
	s, isStr := v.(string)
	return s, err == nil && isStr
}

func nonEmpty(m map[string]json.RawMessage, k string, dst *string) bool {
	s, ok := strMember(m, k)
	*dst = s
	return ok && s != ""
}

func numValue(raw json.RawMessage) (float64, bool) {
	v, err := Parse(raw)
	f, ok := v.(float64)
	return f, err == nil && ok
}

// intMember returns the member when it is a number that is an integer in
// [0, 2^53-1].
func intMember(m map[string]json.RawMessage, k string) (int, bool) {
	raw, ok := m[k]
	if !ok {
		return 0, false
	}
	f, isNum := numValue(raw)
	if !isNum || f < 0 || f != math.Trunc(f) || f > maxSafeInteger {
		return 0, false
	}
	return int(f), true
}

// WithBinding is withInterruptBinding: a copy of d whose metadata keeps
// every other key and holds b with v=1 and interruptId=d.ID (both always
// overwritten). It does not validate b; ReadBinding and SanitizeBinding do.
func WithBinding(d Descriptor, b Binding) (Descriptor, error) {
	b.V, b.InterruptID = BindingVersion, d.ID
	raw, err := b.MarshalJSON()
	if err != nil {
		return Descriptor{}, err
	}
	out := d
	out.Metadata = cloneMetadata(d.Metadata)
	out.Metadata[BindingMetadataKey] = raw
	return out, nil
}

// WithoutBinding is withoutInterruptBinding: a copy of d without the
// binding key (metadata is dropped when nothing else is left).
func WithoutBinding(d Descriptor) Descriptor {
	out := d
	out.Metadata = cloneMetadata(d.Metadata)
	delete(out.Metadata, BindingMetadataKey)
	if len(out.Metadata) == 0 {
		out.Metadata = nil
	}
	return out
}

// SanitizeBinding prepares d for emission (§6.4): a binding the opened
// reader refuses is deleted (the client sees an unbound item); a valid one
// is replaced by its normalised form (unknown fields dropped, reader order).
func SanitizeBinding(d Descriptor) Descriptor {
	if _, present := d.Metadata[BindingMetadataKey]; !present {
		return d
	}
	b, class := ReadBinding(d)
	if class == ClassUnbound {
		return WithoutBinding(d)
	}
	out, err := WithBinding(d, b)
	if err != nil { // cannot happen: b came from the reader
		return WithoutBinding(d)
	}
	return out
}

func cloneMetadata(m map[string]json.RawMessage) map[string]json.RawMessage {
	out := make(map[string]json.RawMessage, len(m)+1)
	for k, v := range m {
		out[k] = v
	}
	return out
}

// objWriter writes a JSON object with keys in call order.
type objWriter struct{ buf []byte }

func (w *objWriter) raw(k string, v []byte) {
	if len(w.buf) == 0 {
		w.buf = append(w.buf, '{')
	} else {
		w.buf = append(w.buf, ',')
	}
	w.buf = appendJSString(w.buf, k)
	w.buf = append(w.buf, ':')
	w.buf = append(w.buf, v...)
}

func (w *objWriter) str(k, v string) { w.raw(k, appendJSString(nil, v)) }

func (w *objWriter) optStr(k, v string) {
	if v != "" {
		w.str(k, v)
	}
}

func (w *objWriter) done() []byte {
	if len(w.buf) == 0 {
		return []byte("{}")
	}
	return append(w.buf, '}')
}
