package interrupt

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
)

// Schema hashes (spec §9). All schemas in Go are raw JSON Schemas carried as
// JSON text; nil means "no schema" (JavaScript undefined).

// ErrInvalidSchema reports a schema argument that is not usable.
var ErrInvalidSchema = errors.New("interrupt: invalid schema")

// errApprovalSchema is the reference message of normalizeApprovalSchema.
//
//nolint:staticcheck // ST1005: the reference message ends with a period.
var errApprovalSchema = errors.New("approvalSchema must be a SchemaInput or a nonempty map containing approve or reject.")

// UndefinedSchemaHash is hashSchemaInput(undefined): the digest of the
// literal text "undefined".
var UndefinedSchemaHash = Digest("undefined")

// UnserializedSchemaHash is what the reference gives every Standard Schema
// without a JSON-Schema converter (defect D12). Juncture never produces it;
// it is exported so callers can recognise such bindings from TS producers.
var UnserializedSchemaHash = Digest(`{"` + unserializedStandardSchemaField + `":"unserialized"}`)

// rawSchemaKeys are the keys that make a plain object a raw JSON Schema for
// the reference (§9.1).
var rawSchemaKeys = []string{"$schema", "$id", "$ref", "$defs", "type", "properties", "required",
	"additionalProperties", "items", "oneOf", "anyOf", "allOf", "enum", "const", "format",
	"minimum", "maximum", "minLength", "maxLength", "pattern"}

// IsRawJSONSchema reports whether the reference treats schema as a raw JSON
// Schema: a JSON object with at least one of the keys of §9.1. A schema that
// fails this test (for example {}) is hashed differently by a TS peer, so
// Juncture refuses it for tools (see NewToolApproval).
func IsRawJSONSchema(schema json.RawMessage) bool {
	members, isObject, err := parseMembers(schema)
	if err != nil || !isObject {
		return false
	}
	for _, k := range rawSchemaKeys {
		if _, ok := members[k]; ok {
			return true
		}
	}
	return false
}

// HashSchemaInput is hashSchemaInput for raw JSON Schemas:
// Digest(CanonicalJSON(schema)), or UndefinedSchemaHash when schema is nil.
func HashSchemaInput(schema json.RawMessage) (string, error) {
	if schema == nil {
		return UndefinedSchemaHash, nil
	}
	return DigestValue(schema)
}

// ApprovalSchema is the approvalSchema option of a tool: a schema for the
// payload that accompanies an approve and/or a reject decision. The zero
// value means "no approval schema".
type ApprovalSchema struct {
	Approve json.RawMessage
	Reject  json.RawMessage
}

// SingleApprovalSchema uses one schema for both decisions.
func SingleApprovalSchema(schema json.RawMessage) ApprovalSchema {
	return ApprovalSchema{Approve: schema, Reject: schema}
}

// IsZero reports whether neither branch has a schema.
func (a ApprovalSchema) IsZero() bool { return a.Approve == nil && a.Reject == nil }

// ParseApprovalSchema reads the JSON form of a TS approvalSchema option:
// null/absent, a single raw JSON Schema (used for both branches), or a
// nonempty object whose keys are only "approve" and/or "reject".
func ParseApprovalSchema(raw json.RawMessage) (ApprovalSchema, error) {
	raw = append(json.RawMessage(nil), raw...) // results must not alias the argument
	if len(raw) == 0 || string(bytes.TrimSpace(raw)) == "null" {
		return ApprovalSchema{}, nil
	}
	if IsRawJSONSchema(raw) {
		return SingleApprovalSchema(raw), nil
	}
	members, isObject, err := parseMembers(raw)
	if err != nil || !isObject || len(members) == 0 {
		return ApprovalSchema{}, errApprovalSchema
	}
	var a ApprovalSchema
	for k, v := range members {
		switch k {
		case "approve":
			a.Approve = v
		case "reject":
			a.Reject = v
		default:
			return ApprovalSchema{}, errApprovalSchema
		}
	}
	return a, nil
}

// NormalizedApproval is the result of NormalizeApprovalSchema.
type NormalizedApproval struct {
	// ResponseSchema is the descriptor's responseSchema in the reference
	// (insertion) key order.
	ResponseSchema     json.RawMessage
	ResponseSchemaHash string
	ApprovalSchemaHash string
}

// NormalizeApprovalSchema is normalizeApprovalSchema(approvalSchema,
// inputSchema) for raw JSON Schemas (§9.2):
//
//	{"oneOf":[envelope(true), envelope(false)]}
//	envelope(approved) = {"type":"object","properties":{"approved":{"const":approved},
//	   "editedArgs":<input schema> (approve only, when there is one),
//	   "payload":<branch schema> (when the branch has one)},
//	   "required":["approved"(,"payload")],"additionalProperties":false}
func NormalizeApprovalSchema(a ApprovalSchema, inputSchema json.RawMessage) (NormalizedApproval, error) {
	input, err := compactSchema(inputSchema, "input schema")
	if err != nil {
		return NormalizedApproval{}, err
	}
	approve, err := compactSchema(a.Approve, "approve schema")
	if err != nil {
		return NormalizedApproval{}, err
	}
	reject, err := compactSchema(a.Reject, "reject schema")
	if err != nil {
		return NormalizedApproval{}, err
	}
	var rs []byte
	rs = append(rs, `{"oneOf":[`...)
	rs = appendEnvelope(rs, true, input, approve)
	rs = append(rs, ',')
	rs = appendEnvelope(rs, false, nil, reject)
	rs = append(rs, "]}"...)
	out := NormalizedApproval{ResponseSchema: rs}
	if out.ResponseSchemaHash, err = DigestValue(json.RawMessage(rs)); err != nil {
		return NormalizedApproval{}, err
	}
	branches := []byte(`{"approve":`)
	branches = appendOrNull(branches, approve)
	branches = append(branches, `,"reject":`...)
	branches = appendOrNull(branches, reject)
	branches = append(branches, '}')
	if out.ApprovalSchemaHash, err = DigestValue(json.RawMessage(branches)); err != nil {
		return NormalizedApproval{}, err
	}
	return out, nil
}

func appendEnvelope(dst []byte, approved bool, editedArgs, payload []byte) []byte {
	dst = append(dst, `{"type":"object","properties":{"approved":{"const":`...)
	dst = strconv.AppendBool(dst, approved)
	dst = append(dst, '}')
	if editedArgs != nil {
		dst = append(dst, `,"editedArgs":`...)
		dst = append(dst, editedArgs...)
	}
	if payload != nil {
		dst = append(dst, `,"payload":`...)
		dst = append(dst, payload...)
	}
	dst = append(dst, `},"required":["approved"`...)
	if payload != nil {
		dst = append(dst, `,"payload"`...)
	}
	return append(dst, `],"additionalProperties":false}`...)
}

func appendOrNull(dst, v []byte) []byte {
	if v == nil {
		return append(dst, "null"...)
	}
	return append(dst, v...)
}

// compactSchema checks that schema is nil or a JSON object and returns it
// without insignificant whitespace (key order kept).
func compactSchema(schema json.RawMessage, what string) ([]byte, error) {
	if schema == nil {
		return nil, nil
	}
	_, isObject, err := parseMembers(schema)
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %w", ErrInvalidSchema, what, err)
	}
	if !isObject {
		return nil, fmt.Errorf("%w: %s must be a JSON object", ErrInvalidSchema, what)
	}
	var buf bytes.Buffer
	if err := json.Compact(&buf, schema); err != nil {
		return nil, fmt.Errorf("%w: %s: %w", ErrInvalidSchema, what, err)
	}
	return buf.Bytes(), nil
}

// DefinitionSchema is a first-party definition schema prepared as the
// reference does (§9.3): the exported JSON Schema without its top-level
// "$schema" key, in canonical text, and its hash.
type DefinitionSchema struct {
	Canonical string
	Hash      string
}

// HashDefinitionSchema is hashInterruptDefinitionSchema: the export must be
// a JSON object; only the top-level "$schema" is dropped.
func HashDefinitionSchema(export json.RawMessage) (DefinitionSchema, error) {
	parsed, err := Parse(export)
	if err != nil {
		return DefinitionSchema{}, fmt.Errorf("%w: could not export compatible JSON Schema: %w", ErrInvalidSchema, err)
	}
	obj, ok := parsed.(map[string]any)
	if !ok {
		return DefinitionSchema{}, fmt.Errorf("%w: could not export compatible JSON Schema: not an object", ErrInvalidSchema)
	}
	delete(obj, "$schema")
	c, err := CanonicalJSON(obj)
	if err != nil {
		return DefinitionSchema{}, fmt.Errorf("%w: %w", ErrInvalidSchema, err)
	}
	return DefinitionSchema{Canonical: c, Hash: Digest(c)}, nil
}

// ClientToolSchemas are the schemas and hashes of a client-tool execution
// descriptor (§5.2, §9.4).
type ClientToolSchemas struct {
	ResponseSchema     json.RawMessage // the output schema, or {}
	OutputSchemaHash   string          // HashSchemaInput(output schema)
	ResponseSchemaHash string          // Digest(CanonicalJSON(ResponseSchema))
}

// ClientToolResponseSchema computes ClientToolSchemas for a raw output
// schema (nil = none); for a raw schema both hashes are equal.
func ClientToolResponseSchema(outputSchema json.RawMessage) (ClientToolSchemas, error) {
	out, err := compactSchema(outputSchema, "output schema")
	if err != nil {
		return ClientToolSchemas{}, err
	}
	if out == nil {
		out = []byte("{}")
	}
	s := ClientToolSchemas{ResponseSchema: out}
	if s.OutputSchemaHash, err = HashSchemaInput(outputSchema); err != nil {
		return ClientToolSchemas{}, err
	}
	if s.ResponseSchemaHash, err = DigestValue(json.RawMessage(out)); err != nil {
		return ClientToolSchemas{}, err
	}
	return s, nil
}
