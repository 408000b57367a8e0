package interrupt

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"
)

// approvalPending builds a stored, opened tool-approval item with Go's own
// builders (the runtime's path), bound to call.
func approvalPending(t *testing.T, tool Tool, call ToolCall, generation int, expiresAt string) Pending {
	t.Helper()
	d, err := NewToolApproval(call, tool, expiresAt)
	if err != nil {
		t.Fatal(err)
	}
	return openPending(t, d, generation, &call)
}

func openPending(t *testing.T, d Descriptor, generation int, call *ToolCall) Pending {
	t.Helper()
	batch, err := BuildBatch("run-1", generation, []Descriptor{d}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	b, class := ReadBinding(batch[0])
	if class == ClassUnbound {
		t.Fatalf("unbound after BuildBatch: %+v", batch[0])
	}
	return Pending{Descriptor: batch[0], Binding: b, ToolCall: call}
}

func clientPending(t *testing.T, tool Tool, call ToolCall) Pending {
	t.Helper()
	d, err := NewClientToolExecution(call, tool, "")
	if err != nil {
		t.Fatal(err)
	}
	batch, err := BuildBatch("run-1", 0, nil, []Descriptor{d}, nil)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := ReadBinding(batch[0])
	return Pending{Descriptor: batch[0], Binding: b, ToolCall: &call}
}

func externalPending(t *testing.T, id string, schema string) Pending {
	t.Helper()
	d := Descriptor{ID: id, Reason: "confirmation", Message: "Which shipping speed?"}
	if schema != "" {
		d.ResponseSchema = json.RawMessage(schema)
	}
	d, err := NewExternalGeneric(d)
	if err != nil {
		t.Fatal(err)
	}
	batch, err := BuildBatch("run-1", 0, nil, nil, []Descriptor{d})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := ReadBinding(batch[0])
	return Pending{Descriptor: batch[0], Binding: b}
}

func firstPartyPending(t *testing.T, def Definition, id string) Pending {
	t.Helper()
	req, err := def.Interrupt(RequestInput{Key: "k", Reason: "review", Message: "Review it."}, nil)
	if err != nil {
		t.Fatal(err)
	}
	d, err := NewGenericDescriptor(id, req)
	if err != nil {
		t.Fatal(err)
	}
	batch, err := BuildBatch("run-1", 0, nil, nil, []Descriptor{d})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := ReadBinding(batch[0])
	return Pending{Descriptor: batch[0], Binding: b, Request: &req}
}

var (
	call1   = ToolCall{ID: "call_1", Name: "transfer", Arguments: `{"amount":5,"recipient":"Ada"}`}
	call2   = ToolCall{ID: "call_2", Name: "transfer", Arguments: `{"amount":7,"recipient":"Bo"}`}
	pickCal = ToolCall{ID: "call_c", Name: "pick_color", Arguments: `{"hint":"warm"}`}
	pick    = Tool{Name: "pick_color", OutputSchema: json.RawMessage(`{"type":"object","properties":{"color":{"type":"string"}},"required":["color"]}`)}
	speed   = `{"type":"object","properties":{"speed":{"type":"string","enum":["express","ground"]}},"required":["speed"]}`
	review  = Definition{ID: "review-plan", ResponseSchema: json.RawMessage(`{"$schema":"http://json-schema.org/draft-07/schema#","type":"object","properties":{"approved":{"type":"boolean"},"note":{"type":"string"}},"required":["approved"]}`)}
	denying = Tool{Name: "transfer", InputSchema: json.RawMessage(transferInput), NeedsApproval: true,
		ApprovalSchema: ApprovalSchema{Reject: DenialReasonSchema}}
)

func entry(id string, status ResumeStatus, payload string) ResumeEntry {
	e := ResumeEntry{InterruptID: id, Status: status}
	if payload != "" {
		e.Payload = json.RawMessage(payload)
	}
	return e
}

type wantErr struct {
	id   string // "" for batch errors
	code ErrorCode
	msg  string // substring
	path []any
}

func TestValidateResumeBatchErrors(t *testing.T) {
	past := "2025-12-31T23:59:59Z"
	opts := BatchOptions{Correlation: Correlation{ThreadID: "thread-1", InterruptedRunID: "run-1"},
		Tools: []Tool{transferTool, pick}}
	optsDenying := opts
	optsDenying.Tools = []Tool{denying}
	changed := transferTool
	changed.InputSchema = json.RawMessage(`{"type":"object","properties":{"amount":{"type":"integer"}}}`)
	optsChanged := opts
	optsChanged.Tools = []Tool{changed, pick}
	optsNoTools := opts
	optsNoTools.Tools = nil
	optsGen1 := opts
	optsGen1.Generation = 1
	optsOtherRun := opts
	optsOtherRun.InterruptedRunID = "run-0"

	badSchema := externalPending(t, "ext-1", speed)
	badSchema.Descriptor.ResponseSchema = json.RawMessage(`{"type":"object"}`)
	uncompilable := externalPending(t, "ext-2", `{"type":"object","properties":{"speed":{"type":"text"}}}`)
	otherArgs := approvalPending(t, transferTool, call1, 0, "")
	otherArgs.ToolCall = &ToolCall{ID: "call_1", Name: "transfer", Arguments: `{"amount":500,"recipient":"Eve"}`}
	staleDef := firstPartyPending(t, review, "interrupt-1")
	staleDef.Request.Key = "other-key"
	changedDef := firstPartyPending(t, review, "interrupt-2")
	changedDef.Request.Definition.ResponseSchema = json.RawMessage(`{"type":"object"}`)

	cases := []struct {
		name    string
		pending []Pending
		resume  []ResumeEntry
		opts    BatchOptions
		want    []wantErr
	}{
		{"conflict: duplicate entries", []Pending{approvalPending(t, transferTool, call1, 0, "")},
			[]ResumeEntry{entry("approval_call_1", StatusResolved, "true"), entry("approval_call_1", StatusCancelled, "")}, opts,
			[]wantErr{{"approval_call_1", CodeConflict, "has duplicate resume entries", nil}}},
		{"unknown-interrupt: missing entry + incomplete-batch",
			[]Pending{approvalPending(t, transferTool, call1, 0, ""), approvalPending(t, transferTool, call2, 0, "")},
			[]ResumeEntry{entry("approval_call_2", StatusResolved, "true")}, opts,
			[]wantErr{{"approval_call_1", CodeUnknownInterrupt, "Missing resume entry for interrupt approval_call_1.", nil},
				{"", CodeIncompleteBatch, "complete interrupt batch", nil}}},
		{"unknown-interrupt: entry for an id that is not pending", []Pending{approvalPending(t, transferTool, call1, 0, "")},
			[]ResumeEntry{entry("approval_call_1", StatusResolved, "true"), entry("approval_call_9", StatusResolved, "true")}, opts,
			[]wantErr{{"approval_call_9", CodeUnknownInterrupt, "Resume entry references unknown interrupt approval_call_9.", nil},
				{"", CodeIncompleteBatch, "", nil}}},
		{"stale: generation re-issued", []Pending{approvalPending(t, transferTool, call1, 1, "")},
			[]ResumeEntry{entry("approval_call_1", StatusResolved, "true")}, opts,
			[]wantErr{{"approval_call_1", CodeStale, "has stale correlation metadata", nil}}},
		{"stale: other interrupted run", []Pending{approvalPending(t, transferTool, call1, 0, "")},
			[]ResumeEntry{entry("approval_call_1", StatusResolved, "true")}, optsOtherRun,
			[]wantErr{{"approval_call_1", CodeStale, "has stale correlation metadata", nil}}},
		{"stale: bound call has other arguments", []Pending{otherArgs},
			[]ResumeEntry{entry("approval_call_1", StatusResolved, "true")}, opts,
			[]wantErr{{"approval_call_1", CodeStale, "was issued for different arguments of tool call call_1", nil}}},
		{"stale: tool unavailable", []Pending{approvalPending(t, transferTool, call1, 0, "")},
			[]ResumeEntry{entry("approval_call_1", StatusResolved, "true")}, optsNoTools,
			[]wantErr{{"approval_call_1", CodeStale, "Tool transfer is unavailable for interrupt approval_call_1.", nil}}},
		{"stale: approval schema changed", []Pending{approvalPending(t, transferTool, call1, 0, "")},
			[]ResumeEntry{entry("approval_call_1", StatusResolved, "true")}, optsChanged,
			[]wantErr{{"approval_call_1", CodeStale, "Tool transfer approval schema has changed.", nil}}},
		{"stale: output schema changed", []Pending{clientPending(t, pick, pickCal)},
			[]ResumeEntry{entry("client_tool_call_c", StatusResolved, `{"color":"red"}`)},
			BatchOptions{Correlation: opts.Correlation, Tools: []Tool{{Name: "pick_color"}}},
			[]wantErr{{"client_tool_call_c", CodeStale, "Tool pick_color output schema has changed.", nil}}},
		{"stale: generic definition metadata", []Pending{staleDef},
			[]ResumeEntry{entry("interrupt-1", StatusResolved, `{"approved":true}`)}, opts,
			[]wantErr{{"interrupt-1", CodeStale, "Generic interrupt interrupt-1 has stale definition metadata.", nil}}},
		{"stale: generic definition changed", []Pending{changedDef},
			[]ResumeEntry{entry("interrupt-2", StatusResolved, `{"approved":true}`)}, opts,
			[]wantErr{{"interrupt-2", CodeStale, "does not match its definition", nil}}},
		{"expired: resolved after expiresAt", []Pending{approvalPending(t, transferTool, call1, 0, past)},
			[]ResumeEntry{entry("approval_call_1", StatusResolved, "true")}, opts,
			[]wantErr{{"approval_call_1", CodeExpired, "Interrupt approval_call_1 has expired.", nil}}},
		{"invalid-payload: invalid expiresAt (server)", []Pending{func() Pending {
			p := approvalPending(t, transferTool, call1, 0, "")
			p.Binding.ExpiresAt = "soon"
			return p
		}()}, []ResumeEntry{entry("approval_call_1", StatusResolved, "true")}, opts,
			[]wantErr{{"approval_call_1", CodeInvalidPayload, "has an invalid expiresAt", nil}}},
		{"invalid-payload: invalid status", []Pending{approvalPending(t, transferTool, call1, 0, "")},
			[]ResumeEntry{entry("approval_call_1", "approved", "true")}, opts,
			[]wantErr{{"approval_call_1", CodeInvalidPayload, "Interrupt approval_call_1 has invalid status approved.", nil}}},
		{"invalid-payload: cancel with payload", []Pending{externalPending(t, "ship-1", speed)},
			[]ResumeEntry{entry("ship-1", StatusCancelled, "null")}, opts,
			[]wantErr{{"ship-1", CodeInvalidPayload, "Cancelled interrupt ship-1 must not include a payload.", nil}}},
		{"invalid-payload: generic payload violates raw responseSchema (D11)", []Pending{externalPending(t, "ship-1", speed)},
			[]ResumeEntry{entry("ship-1", StatusResolved, `{"speed":"teleport"}`)}, opts,
			[]wantErr{{"ship-1", CodeInvalidPayload, `Interrupt ship-1 payload is invalid: speed must be one of "express", "ground"`, []any{"speed"}}}},
		{"invalid-payload: first-party payload", []Pending{firstPartyPending(t, review, "interrupt-3")},
			[]ResumeEntry{entry("interrupt-3", StatusResolved, `{"approved":"yes"}`)}, opts,
			[]wantErr{{"interrupt-3", CodeInvalidPayload, "Interrupt interrupt-3 payload is invalid: approved must be a boolean", []any{"approved"}}}},
		{"invalid-payload: reject requires its branch payload", []Pending{approvalPending(t, denying, call1, 0, "")},
			[]ResumeEntry{entry("approval_call_1", StatusResolved, "false")}, optsDenying,
			[]wantErr{{"approval_call_1", CodeInvalidPayload, "Approval approval_call_1 requires a payload for the reject decision.", nil}}},
		{"invalid-payload: reject payload violates the branch schema", []Pending{approvalPending(t, denying, call1, 0, "")},
			[]ResumeEntry{entry("approval_call_1", StatusResolved, `{"approved":false,"payload":{"reason":5}}`)}, optsDenying,
			[]wantErr{{"approval_call_1", CodeInvalidPayload, "Approval approval_call_1 payload is invalid: reason must be a string", []any{"reason"}}}},
		{"invalid-edited-args: schema violation", []Pending{approvalPending(t, transferTool, call1, 0, "")},
			[]ResumeEntry{entry("approval_call_1", StatusResolved, `{"approved":true,"editedArgs":{"amount":"all"}}`)}, opts,
			[]wantErr{{"approval_call_1", CodeInvalidEditedArgs, "amount must be a number", []any{"amount"}},
				{"approval_call_1", CodeInvalidEditedArgs, "recipient is required", []any{"recipient"}}}},
		{"invalid-edited-args: no input schema", []Pending{approvalPending(t, Tool{Name: "wipe", NeedsApproval: true}, ToolCall{ID: "call_w", Name: "wipe"}, 0, "")},
			[]ResumeEntry{entry("approval_call_w", StatusResolved, `{"approved":true,"editedArgs":{}}`)},
			BatchOptions{Correlation: opts.Correlation, Tools: []Tool{{Name: "wipe", NeedsApproval: true}}},
			[]wantErr{{"approval_call_w", CodeInvalidEditedArgs, "cannot edit arguments without an input schema", nil}}},
		{"invalid-tool-output", []Pending{clientPending(t, pick, pickCal)},
			[]ResumeEntry{entry("client_tool_call_c", StatusResolved, `{"colour":"red"}`)}, opts,
			[]wantErr{{"client_tool_call_c", CodeInvalidToolOutput, "Tool pick_color output is invalid: color is required", []any{"color"}}}},
		{"invalid-response-schema: descriptor no longer matches its binding", []Pending{badSchema},
			[]ResumeEntry{entry("ext-1", StatusResolved, `{"speed":"express"}`)}, opts,
			[]wantErr{{"ext-1", CodeInvalidResponseSchema, "response schema no longer matches its binding", nil}}},
		{"invalid-response-schema: schema does not compile", []Pending{uncompilable},
			[]ResumeEntry{entry("ext-2", StatusResolved, `{"speed":"x"}`)}, opts,
			[]wantErr{{"ext-2", CodeInvalidResponseSchema, "Interrupt ext-2 payload could not be validated", nil}}},
		{"groups are sorted by localeCompare of ids (D8)",
			[]Pending{externalPending(t, "a-b", speed), externalPending(t, "a_b", speed)},
			[]ResumeEntry{entry("a-b", StatusResolved, `{}`), entry("a_b", StatusResolved, `{}`)}, opts,
			[]wantErr{{"a_b", CodeInvalidPayload, "speed is required", []any{"speed"}},
				{"a-b", CodeInvalidPayload, "speed is required", []any{"speed"}}}},
		{"generation mismatch against a re-issued batch", []Pending{approvalPending(t, transferTool, call1, 0, "")},
			[]ResumeEntry{entry("approval_call_1", StatusResolved, "true")}, optsGen1,
			[]wantErr{{"approval_call_1", CodeStale, "stale correlation metadata", nil}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, berr := ValidateResumeBatch(c.pending, c.resume, vectorNow, c.opts)
			if berr == nil {
				t.Fatal("accepted")
			}
			errs := berr.Errors
			last := errs[len(errs)-1]
			if last.Code != CodeItemValidationFailed || last.Scope != ScopeBatch || last.Source != SourceClient || last.Retryable {
				t.Fatalf("last error %+v", last)
			}
			var pendingIDs []string
			for _, p := range c.pending {
				pendingIDs = append(pendingIDs, p.Descriptor.ID)
			}
			if !reflect.DeepEqual(last.InterruptIDs, pendingIDs) {
				t.Fatalf("batch interruptIds %v, want %v", last.InterruptIDs, pendingIDs)
			}
			errs = errs[:len(errs)-1]
			if len(errs) != len(c.want) {
				t.Fatalf("got %d errors %+v, want %d", len(errs), errs, len(c.want))
			}
			for i, w := range c.want {
				e := errs[i]
				if e.InterruptID != w.id || e.Code != w.code || !strings.Contains(e.Message, w.msg) || !reflect.DeepEqual(e.Path, w.path) {
					t.Fatalf("error %d = %+v, want %+v", i, e, w)
				}
				wantSource := SourceClient
				switch {
				case e.Code == CodeStale || e.Code == CodeExpired || e.Code == CodeInvalidResponseSchema:
					wantSource = SourceServer
				case strings.Contains(e.Message, "invalid expiresAt"):
					wantSource = SourceServer
				}
				if e.Source != wantSource || e.Retryable || e.ThreadID != "thread-1" {
					t.Fatalf("error %d source/retryable/thread %+v", i, e)
				}
			}
			term := berr.Terminal("run-2", "thread-1", vectorNow)
			if term.Code != string(berr.Errors[0].Code) || term.Metadata.Tanstack.RunID != "run-2" ||
				len(term.Metadata.Tanstack.InterruptErrors) != len(berr.Errors) {
				t.Fatalf("terminal %+v", term)
			}
		})
	}
}

// A stale, a duplicate and an other-arguments resume are refused; then the
// right one is accepted, and nothing of the refused attempts leaks into the
// accepted state.
func TestValidateResumeBatchRefusedThenAccepted(t *testing.T) {
	p := approvalPending(t, transferTool, call1, 1, "") // re-issued batch: generation 1
	opts := BatchOptions{Correlation: Correlation{ThreadID: "thread-1", InterruptedRunID: "run-1", Generation: 1},
		Tools: []Tool{transferTool}, Schemas: NewSchemaCache(8)}
	approve := entry("approval_call_1", StatusResolved, `{"approved":true,"editedArgs":{"amount":1,"recipient":"Bo"}}`)

	stale := opts
	stale.Generation = 0 // an answer to the older batch
	if _, berr := ValidateResumeBatch([]Pending{p}, []ResumeEntry{approve}, vectorNow, stale); berr == nil || berr.Code() != CodeStale {
		t.Fatalf("stale resume: %v", berr)
	}
	if _, berr := ValidateResumeBatch([]Pending{p}, []ResumeEntry{approve, approve}, vectorNow, opts); berr == nil || berr.Code() != CodeConflict {
		t.Fatalf("duplicate resume: %v", berr)
	}
	moved := p
	moved.ToolCall = &ToolCall{ID: "call_1", Name: "transfer", Arguments: `{"amount":5000,"recipient":"Eve"}`}
	if _, berr := ValidateResumeBatch([]Pending{moved}, []ResumeEntry{approve}, vectorNow, opts); berr == nil || berr.Code() != CodeStale {
		t.Fatalf("other-arguments resume: %v", berr)
	}
	// Key order and whitespace of the stored arguments do not matter.
	p.ToolCall = &ToolCall{ID: "call_1", Name: "transfer", Arguments: ` {"recipient": "Ada", "amount": 5.0} `}
	acc, berr := ValidateResumeBatch([]Pending{p}, []ResumeEntry{approve}, vectorNow, opts)
	if berr != nil {
		t.Fatalf("refused: %v", berr)
	}
	a := acc.State.Approvals["call_1"]
	if !a.Approved || string(a.EditedArgs) != `{"amount":1,"recipient":"Bo"}` || len(acc.State.Approvals) != 1 {
		t.Fatalf("state %+v", acc.State)
	}
	if _, ok := acc.State.ToolResult("call_1"); ok {
		t.Fatal("an approved call has no synthetic result")
	}
}

func TestValidateResumeBatchAccepts(t *testing.T) {
	opts := BatchOptions{Correlation: Correlation{ThreadID: "thread-1", InterruptedRunID: "run-1"},
		Tools: []Tool{denying, pick}}
	expired := approvalPending(t, denying, call2, 0, "2025-01-01T00:00:00Z")
	pending := []Pending{
		approvalPending(t, denying, call1, 0, ""),
		expired,
		clientPending(t, pick, pickCal),
		externalPending(t, "ship-1", speed),
		firstPartyPending(t, review, "interrupt-1"),
	}
	resume := []ResumeEntry{ // any order is fine
		entry("interrupt-1", StatusResolved, `{"approved":true,"note":"ok"}`),
		entry("ship-1", StatusResolved, `{"speed":"express"}`),
		entry("client_tool_call_c", StatusResolved, `{"color":"red"}`),
		entry("approval_call_2", StatusCancelled, ""), // expired, but a cancel is accepted (D9)
		entry("approval_call_1", StatusResolved, `{"approved":false,"payload":{"reason":"too much"}}`),
	}
	acc, berr := ValidateResumeBatch(pending, resume, vectorNow, opts)
	if berr != nil {
		t.Fatalf("refused: %v", berr)
	}
	s := acc.State
	if a := s.Approvals["call_1"]; a.Approved || a.Reason() != "too much" {
		t.Fatalf("approval %+v", a)
	}
	if r, ok := s.ToolResult("call_1"); !ok || string(r) != `{"reason":"too much"}` {
		t.Fatalf("denied result %s", r)
	}
	if r, ok := s.ToolResult("call_2"); !ok || string(r) != CancelledToolResult {
		t.Fatalf("cancelled result %s", r)
	}
	if string(s.ClientToolResults["call_c"]) != `{"color":"red"}` {
		t.Fatalf("client result %s", s.ClientToolResults["call_c"])
	}
	if g := s.GenericInterrupts["ship-1"]; g.Status != StatusResolved || string(g.Payload) != `{"speed":"express"}` {
		t.Fatalf("generic %+v", g)
	}
	if g := s.GenericInterrupts["interrupt-1"]; g.Status != StatusResolved {
		t.Fatalf("first-party %+v", g)
	}
	if acc.Resolutions.Entries[0].InterruptID != "approval_call_1" {
		t.Fatalf("resolutions not sorted: %+v", acc.Resolutions.Entries)
	}

	// Bare false without a reject schema: the default denial result (D1).
	p := approvalPending(t, transferTool, call1, 0, "")
	acc, berr = ValidateResumeBatch([]Pending{p}, []ResumeEntry{entry("approval_call_1", StatusResolved, "false")}, vectorNow,
		BatchOptions{Correlation: opts.Correlation, Tools: []Tool{transferTool}})
	if berr != nil {
		t.Fatal(berr)
	}
	if r, ok := acc.State.ToolResult("call_1"); !ok || string(r) != DeniedToolResult {
		t.Fatalf("default denial %s", r)
	}

	// A client tool's failure report is accepted without its output schema.
	acc, berr = ValidateResumeBatch([]Pending{clientPending(t, pick, pickCal)},
		[]ResumeEntry{entry("client_tool_call_c", StatusResolved, `{"error":"no display"}`)}, vectorNow, opts)
	if berr != nil || string(acc.State.ClientToolResults["call_c"]) != `{"error":"no display"}` {
		t.Fatalf("%v %+v", berr, acc.State)
	}
}

// When every generic item is answered, client-tool items may stay without an
// entry (they wait for the resolution hook, §14.4).
func TestValidateResumeBatchGenericSatisfiedSkipsClientTools(t *testing.T) {
	pending := []Pending{clientPending(t, pick, pickCal), externalPending(t, "ship-1", speed)}
	opts := BatchOptions{Correlation: Correlation{ThreadID: "thread-1", InterruptedRunID: "run-1"}, Tools: []Tool{pick}}
	if _, berr := ValidateResumeBatch(pending, []ResumeEntry{entry("ship-1", StatusCancelled, "")}, vectorNow, opts); berr != nil {
		t.Fatalf("refused: %v", berr)
	}
	_, berr := ValidateResumeBatch(pending[:1], nil, vectorNow, opts)
	if berr == nil || berr.Code() != CodeUnknownInterrupt {
		t.Fatalf("a lone client tool must be answered: %v", berr)
	}
}

func TestFailureTerminalShape(t *testing.T) {
	p1 := approvalPending(t, transferTool, call1, 0, "")
	p2 := approvalPending(t, transferTool, call2, 0, "")
	_, berr := ValidateResumeBatch([]Pending{p1, p2}, []ResumeEntry{entry("approval_call_1", StatusResolved, "true")}, vectorNow,
		BatchOptions{Correlation: Correlation{ThreadID: "thread-1", InterruptedRunID: "run-1"}, Tools: []Tool{transferTool}})
	if berr == nil {
		t.Fatal("accepted")
	}
	got, err := json.Marshal(berr.Terminal("run-2", "thread-1", vectorNow))
	if err != nil {
		t.Fatal(err)
	}
	want := `{"type":"RUN_ERROR","timestamp":1767225600000,` +
		`"message":"Missing resume entry for interrupt approval_call_2. Resume entries must resolve or cancel the complete interrupt batch. One or more interrupt resolutions are invalid.",` +
		`"code":"unknown-interrupt","metadata":{"tanstack":{"runId":"run-2","threadId":"thread-1","interruptErrors":[` +
		`{"scope":"item","threadId":"thread-1","interruptedRunId":"run-1","generation":0,"interruptId":"approval_call_2","code":"unknown-interrupt","message":"Missing resume entry for interrupt approval_call_2.","source":"client","retryable":false},` +
		`{"scope":"batch","threadId":"thread-1","interruptedRunId":"run-1","generation":0,"code":"incomplete-batch","message":"Resume entries must resolve or cancel the complete interrupt batch.","source":"client","retryable":false,"interruptIds":["approval_call_1","approval_call_2"]},` +
		`{"scope":"batch","threadId":"thread-1","interruptedRunId":"run-1","generation":0,"code":"item-validation-failed","message":"One or more interrupt resolutions are invalid.","source":"client","retryable":false,"interruptIds":["approval_call_1","approval_call_2"]}]}}}`
	if string(got) != want {
		t.Fatalf("terminal\n got %s\nwant %s", got, want)
	}

	e := MissingParentRunError(Correlation{ThreadID: "thread-1", InterruptedRunID: "run-1"}, []string{"approval_call_1"})
	got, _ = json.Marshal(e)
	want = `{"scope":"batch","threadId":"thread-1","interruptedRunId":"run-1","generation":0,"interruptIds":["approval_call_1"],"code":"stale","message":"Interrupt continuation requires parentRunId to identify the interrupted run.","source":"server","retryable":false}`
	if string(got) != want {
		t.Fatalf("engine error\n got %s\nwant %s", got, want)
	}
	got, _ = json.Marshal(ServerFailureTerminal("run-2", "thread-1", "store unavailable", time.UnixMilli(5)))
	if want := `{"type":"RUN_ERROR","timestamp":5,"message":"store unavailable","code":"server","metadata":{"tanstack":{"runId":"run-2","threadId":"thread-1"}}}`; string(got) != want {
		t.Fatalf("server terminal %s", got)
	}
}
