package interrupt

import (
	"encoding/json"
	"fmt"
	"strconv"
)

// Definition is a first-party generic interrupt (defineInterrupt, §9.3,
// §14.1). ResponseSchema and PayloadSchema are JSON Schema exports; a
// top-level "$schema" is ignored for hashing and emission. ResponseSchema
// is required for the item to be answerable; PayloadSchema (optional)
// admits a request payload.
type Definition struct {
	ID             string
	ResponseSchema json.RawMessage
	PayloadSchema  json.RawMessage
}

// RequestError is a rejected definition.interrupt(...) input; Error() is the
// reference TypeError message.
type RequestError struct{ Message string }

func (e *RequestError) Error() string { return e.Message }

func requestErr(format string, args ...any) error {
	return &RequestError{Message: fmt.Sprintf(format, args...)}
}

// RequestInput is the argument of definition.interrupt(...). Payload is
// nil when absent; JSON text may be passed as json.RawMessage.
type RequestInput struct {
	Key       string
	Reason    string
	Message   string
	ExpiresAt string
	Payload   any
}

// ParseRequestInput reads the JSON form of a request input, refusing
// unknown fields like the reference ("Interrupt input field <name> is not
// allowed.").
func ParseRequestInput(raw json.RawMessage) (RequestInput, error) {
	keys, members, isObject, err := parseOrderedMembers(raw)
	if err != nil || !isObject {
		return RequestInput{}, requestErr("Interrupt input must be an object.")
	}
	var in RequestInput
	for _, k := range keys {
		switch k {
		case "key":
			in.Key, _ = strMember(members, k)
		case "reason":
			in.Reason, _ = strMember(members, k)
		case "message":
			in.Message, _ = strMember(members, k)
		case "expiresAt":
			s, ok := strMember(members, k)
			if !ok {
				return RequestInput{}, requestErr("Interrupt expiresAt must be a valid date string.")
			}
			in.ExpiresAt = s
		case "payload":
			in.Payload = members[k]
		default:
			return RequestInput{}, requestErr("Interrupt input field %s is not allowed.", k)
		}
	}
	return in, nil
}

// GenericRequest is a validated first-party request, ready to become a
// descriptor with NewGenericDescriptor.
type GenericRequest struct {
	Definition Definition
	Key        string
	Reason     string
	Message    string
	ExpiresAt  string
	Payload    json.RawMessage // canonical clone (keys sorted); nil = none
}

// Interrupt validates in like definition.interrupt(...) and returns the
// request. cache compiles the payload schema (nil: a throw-away cache).
func (d Definition) Interrupt(in RequestInput, cache *SchemaCache) (GenericRequest, error) {
	if jsTrim(d.ID) == "" {
		return GenericRequest{}, requestErr("Interrupt definition id must be a non-empty string.")
	}
	for _, f := range []struct{ name, value string }{{"key", in.Key}, {"reason", in.Reason}, {"message", in.Message}} {
		if jsTrim(f.value) == "" {
			return GenericRequest{}, requestErr("Interrupt %s must be a non-empty string.", f.name)
		}
	}
	if in.ExpiresAt != "" {
		if _, ok := ParseDate(in.ExpiresAt); !ok {
			return GenericRequest{}, requestErr("Interrupt expiresAt must be a valid date string.")
		}
	}
	req := GenericRequest{Definition: d, Key: in.Key, Reason: in.Reason, Message: in.Message, ExpiresAt: in.ExpiresAt}
	if in.Payload == nil {
		return req, nil
	}
	if d.PayloadSchema == nil {
		return GenericRequest{}, requestErr("This interrupt definition does not accept a payload.")
	}
	payload, err := CanonicalClone(in.Payload)
	if err != nil {
		return GenericRequest{}, requestErr("Interrupt payload must be JSON-compatible: %s", err.Error())
	}
	if cache == nil {
		cache = NewSchemaCache(1)
	}
	issues, err := cache.Validate(d.PayloadSchema, payload)
	if err != nil {
		return GenericRequest{}, fmt.Errorf("interrupt: definition %s payload schema: %w", d.ID, err)
	}
	if len(issues) > 0 {
		return GenericRequest{}, requestErr("Interrupt payload is invalid: %s", IssueMessages(issues))
	}
	req.Payload = payload
	return req, nil
}

// schemas returns the prepared response and payload schemas (nil when the
// definition has none).
func (d Definition) schemas() (resp, payload *DefinitionSchema, err error) {
	if d.ResponseSchema != nil {
		s, err := HashDefinitionSchema(d.ResponseSchema)
		if err != nil {
			return nil, nil, fmt.Errorf("interrupt: definition %s response schema: %w", d.ID, err)
		}
		resp = &s
	}
	if d.PayloadSchema != nil {
		s, err := HashDefinitionSchema(d.PayloadSchema)
		if err != nil {
			return nil, nil, fmt.Errorf("interrupt: definition %s payload schema: %w", d.ID, err)
		}
		payload = &s
	}
	return resp, payload, nil
}

// NewGenericDescriptor builds the unopened first-party descriptor of §5.3
// with the given id (see NewGenericInterruptID). Its responseSchema is the
// canonical (sorted) definition schema; batchIndex is fixed by BuildBatch.
func NewGenericDescriptor(id string, req GenericRequest) (Descriptor, error) {
	if id == "" {
		return Descriptor{}, fmt.Errorf("%w: id is required", ErrInvalidDescriptor)
	}
	resp, payload, err := req.Definition.schemas()
	if err != nil {
		return Descriptor{}, err
	}
	d := Descriptor{ID: id, Reason: req.Reason, Message: req.Message, ExpiresAt: req.ExpiresAt}
	b := Binding{Kind: KindGeneric, ExpiresAt: req.ExpiresAt, DefinitionID: req.Definition.ID, Key: req.Key}
	if resp != nil {
		d.ResponseSchema = json.RawMessage(resp.Canonical)
		b.ResponseSchemaHash = resp.Hash
	}
	if payload != nil {
		b.PayloadSchemaHash = payload.Hash
	}
	if req.Payload != nil {
		d.Metadata = Metadata{PayloadMetadataKey: req.Payload}
	}
	return WithBinding(d, b)
}

// Correlation identifies a pending batch: the thread, the interrupted
// request run and the batch generation.
type Correlation struct {
	ThreadID         string
	InterruptedRunID string
	Generation       int
}

// RequestRecord is the reference's internal pre-emission record of a
// first-party request (createInterruptBinding), useful for persistence.
// MarshalJSON writes the reference key order.
type RequestRecord struct {
	DefinitionID                string
	Key                         string
	Correlation                 Correlation
	BatchIndex                  int
	ExpiresAt                   string
	ResponseSchemaCanonicalJSON string
	PayloadSchemaCanonicalJSON  string
	PayloadSchemaHash           string
	ResponseSchemaHash          string
}

// CreateRequestRecord is createInterruptBinding(request, {threadId,
// interruptedRunId, generation, batchIndex}).
func CreateRequestRecord(req GenericRequest, c Correlation, batchIndex int) (RequestRecord, error) {
	resp, payload, err := req.Definition.schemas()
	if err != nil {
		return RequestRecord{}, err
	}
	r := RequestRecord{DefinitionID: req.Definition.ID, Key: req.Key, Correlation: c, BatchIndex: batchIndex, ExpiresAt: req.ExpiresAt}
	if resp != nil {
		r.ResponseSchemaCanonicalJSON, r.ResponseSchemaHash = resp.Canonical, resp.Hash
	}
	if payload != nil {
		r.PayloadSchemaCanonicalJSON, r.PayloadSchemaHash = payload.Canonical, payload.Hash
	}
	return r, nil
}

// MarshalJSON implements json.Marshaler.
func (r RequestRecord) MarshalJSON() ([]byte, error) {
	w := objWriter{}
	w.raw("v", []byte(strconv.Itoa(BindingVersion)))
	w.str("kind", string(KindGeneric))
	w.str("definitionId", r.DefinitionID)
	w.str("key", r.Key)
	w.str("threadId", r.Correlation.ThreadID)
	w.str("interruptedRunId", r.Correlation.InterruptedRunID)
	w.raw("generation", []byte(strconv.Itoa(r.Correlation.Generation)))
	w.raw("batchIndex", []byte(strconv.Itoa(r.BatchIndex)))
	w.optStr("expiresAt", r.ExpiresAt)
	w.optStr("responseSchemaCanonicalJson", r.ResponseSchemaCanonicalJSON)
	w.optStr("payloadSchemaCanonicalJson", r.PayloadSchemaCanonicalJSON)
	w.optStr("payloadSchemaHash", r.PayloadSchemaHash)
	w.optStr("responseSchemaHash", r.ResponseSchemaHash)
	return w.done(), nil
}
