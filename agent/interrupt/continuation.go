package interrupt

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"strconv"
)

// Continuation is the generic continuation metadata of §11.4: the original
// first-party request, sent back on resume entries so a stateless server
// can rebuild it. Juncture keeps pending batches itself (D3) and needs it
// only to interoperate with stock TS clients.
type Continuation struct {
	DefinitionID       string
	Key                string
	BatchIndex         int
	Reason             string
	Message            string
	ExpiresAt          string
	ResponseSchemaHash string
	PayloadSchemaHash  string
	Payload            json.RawMessage // nil = absent
}

// ContinuationFromDescriptor is genericInterruptContinuationFromDescriptor:
// ok only for a first-party generic descriptor.
func ContinuationFromDescriptor(d Descriptor) (Continuation, bool) {
	b, ok := ReadUnopenedBinding(d)
	if !ok || !b.FirstParty() {
		return Continuation{}, false
	}
	c := Continuation{
		DefinitionID: b.DefinitionID, Key: b.Key, BatchIndex: b.BatchIndex,
		Reason: d.Reason, Message: d.Message, ExpiresAt: d.ExpiresAt,
		ResponseSchemaHash: b.ResponseSchemaHash, PayloadSchemaHash: b.PayloadSchemaHash,
	}
	if p, present := d.Metadata[PayloadMetadataKey]; present {
		var buf bytes.Buffer
		if json.Compact(&buf, p) == nil {
			c.Payload = json.RawMessage(buf.Bytes())
		}
	}
	return c, true
}

// MarshalJSON writes the reference key order.
func (c Continuation) MarshalJSON() ([]byte, error) {
	w := objWriter{}
	w.raw("v", []byte(strconv.Itoa(ContinuationVersion)))
	w.str("definitionId", c.DefinitionID)
	w.str("key", c.Key)
	w.raw("batchIndex", []byte(strconv.Itoa(c.BatchIndex)))
	w.str("reason", c.Reason)
	w.str("message", c.Message)
	w.optStr("expiresAt", c.ExpiresAt)
	w.optStr("responseSchemaHash", c.ResponseSchemaHash)
	w.optStr("payloadSchemaHash", c.PayloadSchemaHash)
	if c.Payload != nil {
		var buf bytes.Buffer
		if err := json.Compact(&buf, c.Payload); err != nil {
			return nil, err
		}
		w.raw("payload", buf.Bytes())
	}
	return w.done(), nil
}

// ResumeMetadata is wrapGenericInterruptContinuation: the resume entry
// metadata {"tanstack:interruptContinuation": c}.
func (c Continuation) ResumeMetadata() (json.RawMessage, error) {
	inner, err := c.MarshalJSON()
	if err != nil {
		return nil, err
	}
	w := objWriter{}
	w.raw(ContinuationMetadataKey, inner)
	return w.done(), nil
}

// Reader messages of readGenericInterruptContinuation.
//
//nolint:staticcheck // ST1005: the reference messages end with a period.
var (
	ErrContinuationMetadata = errors.New("Generic interrupt resume metadata must be an object.")
	ErrContinuationInvalid  = errors.New("Generic interrupt continuation is invalid.")
	ErrContinuationFields   = errors.New("Generic interrupt continuation contains invalid fields.")
)

// ReadContinuation is readGenericInterruptContinuation on a resume entry's
// metadata (nil = absent). It returns ok=false, err=nil when there is no
// continuation, and one of the ErrContinuation* errors when it is invalid
// (a protocol error that fails the whole request). Note that JSON null is
// not absent: it is "not an object".
func ReadContinuation(metadata json.RawMessage) (Continuation, bool, error) {
	if metadata == nil {
		return Continuation{}, false, nil
	}
	outer, isObject, err := parseMembers(metadata)
	if err != nil || !isObject {
		return Continuation{}, false, ErrContinuationMetadata
	}
	raw, present := outer[ContinuationMetadataKey]
	if !present {
		return Continuation{}, false, nil
	}
	m, isObject, err := parseMembers(raw)
	if err != nil || !isObject {
		return Continuation{}, false, ErrContinuationInvalid
	}
	if v, isNum := numMember(m, "v"); !isNum || v != ContinuationVersion {
		return Continuation{}, false, ErrContinuationFields
	}
	var c Continuation
	for _, f := range []struct {
		key string
		dst *string
	}{{"definitionId", &c.DefinitionID}, {"key", &c.Key}, {"reason", &c.Reason}, {"message", &c.Message}} {
		s, ok := strMember(m, f.key)
		if !ok {
			return Continuation{}, false, ErrContinuationFields
		}
		*f.dst = s
	}
	idx, isNum := numMember(m, "batchIndex")
	if !isNum || idx < 0 || idx != math.Trunc(idx) || idx > maxSafeInteger {
		return Continuation{}, false, ErrContinuationFields
	}
	c.BatchIndex = int(idx)
	for _, f := range []struct {
		key string
		dst *string
	}{{"responseSchemaHash", &c.ResponseSchemaHash}, {"expiresAt", &c.ExpiresAt}, {"payloadSchemaHash", &c.PayloadSchemaHash}} {
		if _, present := m[f.key]; !present {
			continue
		}
		s, ok := strMember(m, f.key)
		if !ok {
			return Continuation{}, false, ErrContinuationFields
		}
		*f.dst = s
	}
	if p, present := m["payload"]; present {
		var buf bytes.Buffer
		_ = json.Compact(&buf, p) // validated by the parser
		c.Payload = json.RawMessage(buf.Bytes())
	}
	return c, true, nil
}

func numMember(m map[string]json.RawMessage, k string) (float64, bool) {
	raw, ok := m[k]
	if !ok {
		return 0, false
	}
	return numValue(raw)
}
