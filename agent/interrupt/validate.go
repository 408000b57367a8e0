package interrupt

import (
	"bytes"
	"encoding/json"
	"fmt"
	"time"
)

// Pending is one stored item of a pending batch: the descriptor exactly as
// emitted, its opened binding, and what it is bound to.
type Pending struct {
	Descriptor Descriptor
	Binding    Binding
	// Request is the original first-party request (nil for tool items and
	// external generic items).
	Request *GenericRequest
	// ToolCall is the assistant tool call in the server-owned history that a
	// tool item is bound to. When set, its id, name and parsed arguments
	// must still match the binding (Juncture check; nil skips it).
	ToolCall *ToolCall
}

// BatchOptions is the context of ValidateResumeBatch.
type BatchOptions struct {
	// Correlation is what the batch must belong to: the thread, the
	// interrupted run (the continuation's parentRunId, or the stored run)
	// and the current generation of its batch.
	Correlation
	// Tools are the current tool definitions, by name.
	Tools []Tool
	// Schemas caches compiled schemas across calls (nil: per call).
	Schemas *SchemaCache
}

// ValidateResumeBatch is validateInterruptResumeBatch (§12.3) over a
// stored pending batch: all or nothing. On success it returns the resume
// state and the canonical resolutions; otherwise a *BatchError holding the
// item errors grouped by interrupt id (groups in localeCompare order), then
// "incomplete-batch" if an entry was missing or unknown, then
// "item-validation-failed" — the exact objects @tanstack/ai produces.
//
// In addition to the reference checks (which only validate Standard
// Schemas), every raw JSON Schema is enforced (D11): generic payloads
// against their response schema, edited arguments against the tool input
// schema, branch payloads against the approval schema, client-tool outputs
// against the output schema. Cancelling an expired interrupt is accepted
// (D9). The order of resume does not matter.
func ValidateResumeBatch(pending []Pending, resume []ResumeEntry, now time.Time, opts BatchOptions) (Accepted, *BatchError) {
	v := &batchValidator{opts: opts, now: now.UnixMilli(), state: newResumeState(), tools: map[string]Tool{}}
	if v.opts.Schemas == nil {
		v.opts.Schemas = NewSchemaCache(0)
	}
	for _, t := range opts.Tools {
		v.tools[t.Name] = t
	}

	// Step 1: duplicates. The first entry of an id is the one used.
	counts := map[string]int{}
	first := map[string]ResumeEntry{}
	var order []string
	for _, e := range resume {
		if counts[e.InterruptID] == 0 {
			first[e.InterruptID] = e
			order = append(order, e.InterruptID)
		}
		counts[e.InterruptID]++
	}
	for _, id := range order {
		if counts[id] > 1 {
			v.item(id, CodeConflict, SourceClient, fmt.Sprintf("Interrupt %s has duplicate resume entries.", id), nil)
		}
	}

	// Step 2: client-tool items may stay unanswered when every generic item
	// of the batch is answered (they wait for the resolution hook).
	genericCount, genericAnswered := 0, 0
	for _, p := range pending {
		if p.Binding.Kind == KindGeneric {
			genericCount++
			if _, ok := first[p.Descriptor.ID]; ok {
				genericAnswered++
			}
		}
	}
	genericBatchSatisfied := genericCount > 0 && genericCount == genericAnswered

	// Step 3: every pending record, in pending order.
	pendingIDs := map[string]bool{}
	allIDs := make([]string, 0, len(pending))
	for _, p := range pending {
		id := p.Descriptor.ID
		pendingIDs[id] = true
		allIDs = append(allIDs, id)
		entry, has := first[id]
		if !has {
			if genericBatchSatisfied && p.Binding.Kind == KindClientToolExecution {
				continue
			}
			v.item(id, CodeUnknownInterrupt, SourceClient, fmt.Sprintf("Missing resume entry for interrupt %s.", id), nil)
			v.incomplete = true
		}
		v.record(p, entry, has)
	}

	// Step 4: entries for ids that are not pending.
	for _, id := range order {
		if !pendingIDs[id] {
			v.item(id, CodeUnknownInterrupt, SourceClient, fmt.Sprintf("Resume entry references unknown interrupt %s.", id), nil)
			v.incomplete = true
		}
	}

	// Step 5: failure.
	if len(v.items) > 0 {
		return Accepted{}, &BatchError{Errors: v.finish(allIDs)}
	}
	// Step 6: success.
	res, err := CanonicalizeResolutions(resume)
	if err != nil { // payloads were checked in record; unknown ids failed above
		return Accepted{}, &BatchError{Errors: []Error{NewEngineError(opts.Correlation, CodeServer, err.Error(), allIDs)}}
	}
	return Accepted{State: v.state, Resolutions: res}, nil
}

type batchValidator struct {
	opts       BatchOptions
	now        int64
	tools      map[string]Tool
	state      ResumeState
	items      []Error
	incomplete bool
}

func (v *batchValidator) item(id string, code ErrorCode, src Source, msg string, path []any) {
	v.items = append(v.items, Error{
		Scope: ScopeItem, ThreadID: v.opts.ThreadID, InterruptedRunID: v.opts.InterruptedRunID,
		Generation: v.opts.Generation, InterruptID: id, Code: code, Message: msg, Source: src, Path: path,
	})
}

func (v *batchValidator) finish(allIDs []string) []Error {
	type group struct {
		id   string
		errs []Error
	}
	var groups []*group
	byID := map[string]*group{}
	for _, e := range v.items {
		g, ok := byID[e.InterruptID]
		if !ok {
			g = &group{id: e.InterruptID}
			byID[e.InterruptID] = g
			groups = append(groups, g)
		}
		g.errs = append(g.errs, e)
	}
	sortLocale(groups, func(g *group) string { return g.id })
	var out []Error
	for _, g := range groups {
		out = append(out, g.errs...)
	}
	batch := func(code ErrorCode, msg string) Error {
		return Error{Scope: ScopeBatch, ThreadID: v.opts.ThreadID, InterruptedRunID: v.opts.InterruptedRunID,
			Generation: v.opts.Generation, Code: code, Message: msg, Source: SourceClient,
			InterruptIDs: append([]string{}, allIDs...)}
	}
	if v.incomplete {
		out = append(out, batch(CodeIncompleteBatch, "Resume entries must resolve or cancel the complete interrupt batch."))
	}
	return append(out, batch(CodeItemValidationFailed, "One or more interrupt resolutions are invalid."))
}

// record runs step 3 (after the missing-entry check) for one pending item.
func (v *batchValidator) record(p Pending, entry ResumeEntry, has bool) {
	id, b := p.Descriptor.ID, p.Binding
	// 3.2 correlation.
	if b.InterruptedRunID != v.opts.InterruptedRunID || b.Generation != v.opts.Generation || b.InterruptID != id {
		v.item(id, CodeStale, SourceServer, fmt.Sprintf("Interrupt %s has stale correlation metadata.", id), nil)
	} else if msg := toolCallMismatch(p); msg != "" {
		v.item(id, CodeStale, SourceServer, msg, nil)
	}
	// 3.3 expiry; a cancel stays possible after expiry (D9).
	if b.ExpiresAt != "" {
		if ms, ok := ParseDate(b.ExpiresAt); !ok {
			v.item(id, CodeInvalidPayload, SourceServer, fmt.Sprintf("Interrupt %s has an invalid expiresAt.", id), nil)
		} else if ms <= v.now && !(has && entry.Status == StatusCancelled) {
			v.item(id, CodeExpired, SourceServer, fmt.Sprintf("Interrupt %s has expired.", id), nil)
		}
	}
	// 3.4 the emitted response schema must still match the binding.
	schemaOK := true
	if rs := p.Descriptor.ResponseSchema; (rs != nil) != (b.ResponseSchemaHash != "") || (rs != nil && !hashMatches(rs, b.ResponseSchemaHash)) {
		schemaOK = false
		v.item(id, CodeInvalidResponseSchema, SourceServer, fmt.Sprintf("Interrupt %s response schema no longer matches its binding.", id), nil)
	}
	// 3.5 status.
	if !has {
		return
	}
	if entry.Status != StatusResolved && entry.Status != StatusCancelled {
		v.item(id, CodeInvalidPayload, SourceClient, fmt.Sprintf("Interrupt %s has invalid status %s.", id, entry.Status), nil)
		return
	}
	if entry.Payload != nil {
		if _, err := CanonicalJSON(entry.Payload); err != nil {
			v.item(id, CodeInvalidPayload, SourceClient, fmt.Sprintf("Interrupt %s payload must be JSON-compatible: %s", id, err.Error()), nil)
			return
		}
	}
	switch b.Kind {
	case KindGeneric:
		v.generic(p, entry, schemaOK)
	case KindToolApproval, KindClientToolExecution:
		v.tool(p, entry, schemaOK)
	default:
		v.item(id, CodeStale, SourceServer, fmt.Sprintf("Interrupt %s has stale correlation metadata.", id), nil)
	}
}

func hashMatches(schema json.RawMessage, hash string) bool {
	h, err := DigestValue(schema)
	return err == nil && h == hash
}

// toolCallMismatch checks a tool item against the call it is bound to.
func toolCallMismatch(p Pending) string {
	b := p.Binding
	if b.Kind != KindToolApproval && b.Kind != KindClientToolExecution {
		return ""
	}
	id := p.Descriptor.ID
	if p.Descriptor.ToolCallID != "" && p.Descriptor.ToolCallID != b.ToolCallID {
		return fmt.Sprintf("Interrupt %s has stale correlation metadata.", id)
	}
	c := p.ToolCall
	if c == nil {
		return ""
	}
	if c.ID != b.ToolCallID || c.Name != b.ToolName {
		return fmt.Sprintf("Interrupt %s has stale correlation metadata.", id)
	}
	if b.Kind == KindToolApproval && b.OriginalArgs != nil {
		want, err1 := DigestValue(b.OriginalArgs)
		got, err2 := DigestValue(ParseToolArguments(c.Arguments))
		if err1 != nil || err2 != nil || want != got {
			return fmt.Sprintf("Interrupt %s was issued for different arguments of tool call %s.", id, c.ID)
		}
	}
	return ""
}

func compact(raw json.RawMessage) json.RawMessage {
	if raw == nil {
		return nil
	}
	var buf bytes.Buffer
	if json.Compact(&buf, raw) != nil {
		return raw
	}
	return json.RawMessage(buf.Bytes())
}
