package interrupt

import (
	"encoding/json"
	"sort"
	"strconv"

	"golang.org/x/text/collate"
	"golang.org/x/text/language"
)

// ResumeStatus is AG-UI's ResumeEntry.status.
type ResumeStatus string

// Resume statuses.
const (
	StatusResolved  ResumeStatus = "resolved"
	StatusCancelled ResumeStatus = "cancelled"
)

// ResumeEntry is AG-UI's ResumeEntry. Payload and Metadata are nil when
// absent; JSON null is a present value.
type ResumeEntry struct {
	InterruptID string          `json:"interruptId"`
	Status      ResumeStatus    `json:"status"`
	Payload     json.RawMessage `json:"payload,omitempty"`
	Metadata    json.RawMessage `json:"metadata,omitempty"`
}

// MarshalJSON implements json.Marshaler (so CanonicalJSON accepts it).
func (r ResumeEntry) MarshalJSON() ([]byte, error) {
	type plain ResumeEntry
	return json.Marshal(plain(r))
}

// sortLocale sorts ids like String.prototype.localeCompare in Node's
// default en-US locale (ICU collation, not code units: "a_b" < "a-b",
// "approval_call_a" < "approval_call_B"). The sort is stable (V8's is).
// This is the deterministic answer to defect D8.
func sortLocale[T any](items []T, id func(T) string) {
	c := collate.New(language.English)
	var buf collate.Buffer
	keys := make([][]byte, len(items))
	for i, it := range items {
		keys[i] = append([]byte(nil), c.KeyFromString(&buf, jsNormalize(id(it)))...)
		buf.Reset()
	}
	idx := make([]int, len(items))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return string(keys[idx[a]]) < string(keys[idx[b]]) })
	sorted := make([]T, len(items))
	for i, j := range idx {
		sorted[i] = items[j]
	}
	copy(items, sorted)
}

// SortIDsLocale returns ids sorted like localeCompare (see sortLocale).
func SortIDsLocale(ids []string) []string {
	out := append([]string(nil), ids...)
	sortLocale(out, func(s string) string { return s })
	return out
}

// Resolutions is canonicalizeInterruptResolutions: the entries sorted by
// interruptId (localeCompare), their canonical JSON, and its digest (the
// client-local fingerprint; never sent or checked by the server).
type Resolutions struct {
	Entries     []ResumeEntry
	Canonical   string
	Fingerprint string
}

// CanonicalizeResolutions sorts and fingerprints resume entries.
func CanonicalizeResolutions(entries []ResumeEntry) (Resolutions, error) {
	sorted := append([]ResumeEntry(nil), entries...)
	sortLocale(sorted, func(e ResumeEntry) string { return e.InterruptID })
	c, err := CanonicalJSON(sorted)
	if err != nil {
		return Resolutions{}, err
	}
	return Resolutions{Entries: sorted, Canonical: c, Fingerprint: Digest(c)}, nil
}

// Approval is the decision on one tool call (resumeToolState.approvals).
type Approval struct {
	Approved bool
	// Envelope is true when the payload was an object; false for a bare
	// boolean payload (then EditedArgs and Payload are nil).
	Envelope bool
	// EditedArgs (approve only) fully replaces the call arguments.
	EditedArgs json.RawMessage
	// Payload is the decision branch payload: audit data on approve, the
	// reject payload (e.g. {"reason": "..."}) on reject.
	Payload json.RawMessage
}

// MarshalJSON writes true/false for a bare decision, otherwise
// {"approved", "editedArgs"?, "payload"?}.
func (a Approval) MarshalJSON() ([]byte, error) {
	if !a.Envelope {
		return strconv.AppendBool(nil, a.Approved), nil
	}
	w := objWriter{}
	w.raw("approved", strconv.AppendBool(nil, a.Approved))
	if a.Approved && a.EditedArgs != nil {
		w.raw("editedArgs", a.EditedArgs)
	}
	if a.Payload != nil {
		w.raw("payload", a.Payload)
	}
	return w.done(), nil
}

// Reason returns a denial reason carried as payload.reason (see
// DenialReasonSchema), or "".
func (a Approval) Reason() string {
	if a.Approved || a.Payload == nil {
		return ""
	}
	members, isObject, err := parseMembers(a.Payload)
	if err != nil || !isObject {
		return ""
	}
	s, _ := strMember(members, "reason")
	return s
}

// DenialReasonSchema is the reject-branch schema Juncture uses to carry an
// optional free-text denial reason the TanStack way: use
// ApprovalSchema{Reject: DenialReasonSchema}. The reject answer is then
// {"approved":false,"payload":{"reason"?: "..."}}; the reference shape makes
// the payload object itself required on reject. A TS client types the
// approval only if its tool declares the same raw approvalSchema.
var DenialReasonSchema = json.RawMessage(`{"type":"object","properties":{"reason":{"type":"string","maxLength":2000}},"additionalProperties":false}`)

// GenericResolution is one entry of resumeToolState.genericInterrupts.
type GenericResolution struct {
	InterruptID string
	Status      ResumeStatus
	Payload     json.RawMessage // resolved only
}

// MarshalJSON writes {interruptId, status, payload?}.
func (g GenericResolution) MarshalJSON() ([]byte, error) {
	w := objWriter{}
	w.str("interruptId", g.InterruptID)
	w.str("status", string(g.Status))
	if g.Status == StatusResolved && g.Payload != nil {
		w.raw("payload", g.Payload)
	}
	return w.done(), nil
}

// ResumeState is the validated resumeToolState (§12.3 step 6).
type ResumeState struct {
	Approvals         map[string]Approval          // by toolCallId
	ClientToolResults map[string]json.RawMessage   // by toolCallId
	GenericInterrupts map[string]GenericResolution // by interruptId
	// DeniedToolResults maps every rejected toolCallId to its reject payload
	// (nil when the rejection carried none).
	DeniedToolResults    map[string]json.RawMessage
	CancelledToolCallIDs []string // in pending order
}

func newResumeState() ResumeState {
	return ResumeState{
		Approvals:         map[string]Approval{},
		ClientToolResults: map[string]json.RawMessage{},
		GenericInterrupts: map[string]GenericResolution{},
		DeniedToolResults: map[string]json.RawMessage{},
	}
}

// MarshalJSON writes the reference's shape (maps as objects, the set as
// an array, rejections without payload omitted like undefined).
func (s ResumeState) MarshalJSON() ([]byte, error) {
	denied := map[string]json.RawMessage{}
	for k, v := range s.DeniedToolResults {
		if v != nil {
			denied[k] = v
		}
	}
	cancelled := s.CancelledToolCallIDs
	if cancelled == nil {
		cancelled = []string{}
	}
	return json.Marshal(struct {
		Approvals            map[string]Approval          `json:"approvals"`
		ClientToolResults    map[string]json.RawMessage   `json:"clientToolResults"`
		GenericInterrupts    map[string]GenericResolution `json:"genericInterrupts"`
		DeniedToolResults    map[string]json.RawMessage   `json:"deniedToolResults"`
		CancelledToolCallIDs []string                     `json:"cancelledToolCallIds"`
	}{nonNil(s.Approvals), nonNil(s.ClientToolResults), nonNil(s.GenericInterrupts), denied, cancelled})
}

func nonNil[V any](m map[string]V) map[string]V {
	if m == nil {
		return map[string]V{}
	}
	return m
}

// ToolResult returns the single tool result the model must see for a
// decided tool call (defects D1, §12.5): the cancellation result, the
// validated reject payload or the default denial result; ok is false when
// the call was approved or is not in the state (it must execute). Callers
// replace any placeholder or synthetic denial message for the call.
func (s ResumeState) ToolResult(toolCallID string) (result json.RawMessage, ok bool) {
	for _, id := range s.CancelledToolCallIDs {
		if id == toolCallID {
			return json.RawMessage(CancelledToolResult), true
		}
	}
	if p, denied := s.DeniedToolResults[toolCallID]; denied {
		if p != nil {
			return p, true
		}
		return json.RawMessage(DeniedToolResult), true
	}
	return nil, false
}

// Accepted is a validated resume batch.
type Accepted struct {
	State       ResumeState
	Resolutions Resolutions
}
