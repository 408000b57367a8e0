package interrupt

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

func TestToolApprovalDescriptor(t *testing.T) {
	d, err := NewToolApproval(call1, transferTool, "")
	if err != nil {
		t.Fatal(err)
	}
	batch, err := BuildBatch("run-1", 0, []Descriptor{d}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := json.Marshal(batch[0])
	want := `{"id":"approval_call_1","reason":"tool_call","message":"Approval required to run transfer","toolCallId":"call_1",` +
		`"responseSchema":{"oneOf":[{"type":"object","properties":{"approved":{"const":true},"editedArgs":` + transferInput +
		`},"required":["approved"],"additionalProperties":false},{"type":"object","properties":{"approved":{"const":false}},"required":["approved"],"additionalProperties":false}]},` +
		`"metadata":{"input":{"amount":5,"recipient":"Ada"},"kind":"approval",` +
		`"tanstack:interruptBinding":{"v":1,"kind":"tool-approval","interruptId":"approval_call_1","toolName":"transfer","toolCallId":"call_1",` +
		`"originalArgs":{"amount":5,"recipient":"Ada"},` +
		`"inputSchemaHash":"sha256:d069de0d80aa4d5b877bc5b717afce5e694c2f71455573964d63d8123dc7097e",` +
		`"approvalSchemaHash":"sha256:22f76d9a1c618a3cfaa891208a14f6e5e6ab1be4ff1c38cc8a8cd1e8fd0c0e4e",` +
		`"responseSchemaHash":"sha256:e70dfb0f03e7fe49c9e8bc8be9b2a17dd18046e855ded3d37676b467a80bb77b",` +
		`"interruptedRunId":"run-1","generation":0},"toolName":"transfer"}}`
	if string(got) != want {
		t.Fatalf("descriptor\n got %s\nwant %s", got, want)
	}
	if _, err := NewToolApproval(call1, Tool{Name: "x", InputSchema: json.RawMessage(`{}`)}, ""); !errors.Is(err, ErrInvalidSchema) {
		t.Fatalf("{} input schema must be refused (D12): %v", err)
	}
	if _, err := NewToolApproval(call1, transferTool, "tomorrow"); !errors.Is(err, ErrInvalidDescriptor) {
		t.Fatalf("bad expiresAt: %v", err)
	}
}

func TestClientToolAndGenericDescriptors(t *testing.T) {
	receipt := Tool{Name: "print", OutputSchema: json.RawMessage(receiptOutput)}
	d, err := NewClientToolExecution(ToolCall{ID: "call_c", Name: "print", Arguments: "not json"}, receipt, "")
	if err != nil {
		t.Fatal(err)
	}
	b, ok := ReadUnopenedBinding(d)
	const receiptHash = "sha256:e00a9764517dae32e4bdeffc66185f3459a502fe89b6852ed932bb68d829fa57"
	if !ok || b.OutputSchemaHash != receiptHash || b.ResponseSchemaHash != receiptHash || d.ID != "client_tool_call_c" ||
		d.Reason != ReasonClientToolExecution || d.Message != "Client tool print is ready to run" || string(d.Metadata["input"]) != "{}" {
		t.Fatalf("client tool %+v %+v", d, b)
	}
	s, _ := ClientToolResponseSchema(nil)
	if string(s.ResponseSchema) != "{}" || s.OutputSchemaHash != UndefinedSchemaHash || s.ResponseSchemaHash != Digest("{}") {
		t.Fatalf("no output schema %+v", s)
	}

	// First-party generic, as emitted: equal to the reference descriptor.
	v := loadVectors(t)
	req, err := reviewDefinition(t, v).Interrupt(RequestInput{Key: "initial-plan", Reason: "review-required",
		Message: "Review the proposed plan.", Payload: map[string]any{"title": "Release plan", "changes": []string{"Add search", "Add tests"}}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	g, err := NewGenericDescriptor("interrupt-1", req)
	if err != nil {
		t.Fatal(err)
	}
	approval, _ := NewToolApproval(call1, transferTool, "")
	batch, err := BuildBatch("run-42", 0, []Descriptor{approval}, nil, []Descriptor{g})
	if err != nil {
		t.Fatal(err)
	}
	gb, _ := ReadBinding(batch[1])
	if gb.BatchIndex != 1 {
		t.Fatalf("batchIndex must count the items before it: %d", gb.BatchIndex)
	}
	batch, _ = BuildBatch("run-42", 0, nil, nil, []Descriptor{g})
	got, _ := json.Marshal(batch[0])
	if !sameJSON(t, got, v.GenericContinuation.Descriptor) {
		t.Fatalf("generic descriptor\n got %s\nwant %s", got, v.GenericContinuation.Descriptor)
	}
	if _, err := BuildBatch("run-42", 0, []Descriptor{approval, approval}, nil, nil); err == nil ||
		!strings.Contains(err.Error(), "Duplicate interrupt id in final batch: approval_call_1") {
		t.Fatalf("duplicate ids: %v", err)
	}
}

func TestSanitizeBinding(t *testing.T) {
	d := Descriptor{ID: "i-1", Reason: "r", Metadata: Metadata{
		"keep":             json.RawMessage(`1`),
		BindingMetadataKey: json.RawMessage(`{"kind":"generic","interruptId":"i-1","interruptedRunId":"run-1","generation":0,"extra":true}`),
	}}
	s := SanitizeBinding(d)
	if got := string(s.Metadata[BindingMetadataKey]); got != `{"v":1,"kind":"generic","interruptId":"i-1","interruptedRunId":"run-1","generation":0}` {
		t.Fatalf("normalised %s", got)
	}
	d.Metadata[BindingMetadataKey] = json.RawMessage(`{"v":2,"kind":"generic","interruptId":"i-1"}`)
	s = SanitizeBinding(d)
	if _, present := s.Metadata[BindingMetadataKey]; present || string(s.Metadata["keep"]) != "1" {
		t.Fatalf("invalid binding must be deleted, other metadata kept: %+v", s.Metadata)
	}
	if _, present := d.Metadata[BindingMetadataKey]; !present {
		t.Fatal("input was modified")
	}
}

func TestClassifyBatch(t *testing.T) {
	approval := approvalPending(t, transferTool, call1, 0, "").Descriptor
	client := clientPending(t, pick, pickCal).Descriptor
	ext := externalPending(t, "ship-1", speed).Descriptor
	foreign := Descriptor{ID: "wf-1", Reason: "workflow", Message: "Waiting for the release manager"}
	malformed := Descriptor{ID: "x-1", Reason: "tool_call", Metadata: Metadata{BindingMetadataKey: json.RawMessage(`{"v":1,"kind":"tool-approval","interruptId":"x-1"}`)}}
	legacy := Descriptor{ID: "approval_call_9", Reason: ReasonLegacyApprovalRequired, Metadata: Metadata{
		"kind": json.RawMessage(`"approval"`), "toolName": json.RawMessage(`"transfer"`), "input": json.RawMessage(`{}`)}}
	moved := approval
	moved.ToolCallID = "call_other"

	items := ClassifyBatch([]Descriptor{approval, client, ext, foreign, malformed, legacy, moved}, "run-1")
	want := []struct {
		class     Classification
		resumable bool
		hidden    bool
		problem   string
	}{
		{ClassToolApproval, true, false, ""},
		{ClassClientToolExecution, true, true, ""},
		{ClassGeneric, true, false, ""},
		{ClassUnbound, false, false, ""},
		{ClassUnbound, false, false, ProblemInvalidBinding},
		{ClassGeneric, true, false, ""},
		{ClassGeneric, true, false, ""}, // a tool item failing its checks degrades to generic
	}
	for i, w := range want {
		it := items[i]
		if it.Class != w.class || it.Resumable != w.resumable || it.Hidden != w.hidden || it.Problem != w.problem {
			t.Errorf("item %d (%s): %+v, want %+v", i, it.Descriptor.ID, it, w)
		}
	}
	if !items[5].Legacy || items[0].Typed != true || items[6].Typed {
		t.Fatal("legacy / typed flags")
	}
	// Unbound items never block (D2); a batch with resumable items does.
	if Blocking(items[3:5]) {
		t.Fatal("unbound items must not block")
	}
	if !Blocking(items) || len(ResumableIDs(items)) != 5 {
		t.Fatalf("resumable ids %v", ResumableIDs(items))
	}
	// Another run's pause is shown but cannot be answered.
	other := ClassifyBatch([]Descriptor{ext}, "run-2")
	if other[0].Resumable || other[0].Problem != ProblemRunMismatch || Blocking(other) {
		t.Fatalf("run mismatch %+v", other[0])
	}
}

func TestBindingJSONRoundTrip(t *testing.T) {
	p := approvalPending(t, transferTool, call1, 3, "2030-01-01T00:00:00Z")
	raw, err := json.Marshal(p.Binding)
	if err != nil {
		t.Fatal(err)
	}
	var back Binding
	if err := json.Unmarshal(raw, &back); err != nil {
		t.Fatal(err)
	}
	again, _ := json.Marshal(back)
	if !bytes.Equal(raw, again) || back.Generation != 3 || back.ExpiresAt == "" {
		t.Fatalf("round trip %s vs %s", raw, again)
	}
	if err := json.Unmarshal([]byte(`{"v":1,"kind":"nope","interruptId":"a"}`), &back); err == nil {
		t.Fatal("invalid binding must not decode")
	}
}

// FuzzReadBinding: the readers never panic; whatever they refuse is
// unbound and blocks nothing; whatever they accept is a fixed point of
// sanitisation and re-reads identically.
func FuzzReadBinding(f *testing.F) {
	f.Add([]byte(`{"v":1,"kind":"generic","interruptId":"i-1","interruptedRunId":"run-1","generation":0}`), "i-1")
	f.Add([]byte(`{"kind":"tool-approval","interruptId":"i-1","toolName":"t","toolCallId":"c","inputSchemaHash":"a","approvalSchemaHash":"b","responseSchemaHash":"c","originalArgs":[1,{"x":null}],"interruptedRunId":"r","generation":1e3}`), "i-1")
	f.Add([]byte(`[]`), "i-1")
	f.Fuzz(func(t *testing.T, binding []byte, id string) {
		d := Descriptor{ID: id, Reason: "r", Metadata: Metadata{BindingMetadataKey: json.RawMessage(binding)}}
		ub, uok := ReadUnopenedBinding(d)
		ob, class := ReadBinding(d)
		items := ClassifyBatch([]Descriptor{d}, "run-1")
		if class == ClassUnbound {
			if ob.Kind != "" || ob.InterruptID != "" {
				t.Fatalf("unbound result carries a binding: %+v", ob)
			}
			if items[0].Class != ClassUnbound || items[0].Resumable || Blocking(items) {
				t.Fatalf("malformed binding %q classified %+v", binding, items[0])
			}
			if s := SanitizeBinding(d); s.Metadata != nil {
				t.Fatalf("sanitised metadata kept %v", s.Metadata)
			}
		} else {
			if !uok || Classification(ob.Kind) != class || ob.InterruptID != id || !ob.Opened() {
				t.Fatalf("opened %+v / unopened %v", ob, uok)
			}
			s := SanitizeBinding(d)
			first, _ := json.Marshal(s)
			twice, _ := json.Marshal(SanitizeBinding(s))
			if !bytes.Equal(first, twice) {
				t.Fatalf("sanitise not idempotent: %s vs %s", first, twice)
			}
			rb, rclass := ReadBinding(s)
			a, _ := json.Marshal(rb)
			b, _ := json.Marshal(ob)
			if rclass != class || !bytes.Equal(a, b) {
				t.Fatalf("re-read %s != %s", a, b)
			}
		}
		if uok {
			raw, err := json.Marshal(ub)
			if err != nil || !json.Valid(raw) {
				t.Fatalf("unopened marshal %q %v", raw, err)
			}
			back, ok := ReadUnopenedBinding(Descriptor{ID: id, Metadata: Metadata{BindingMetadataKey: raw}})
			again, _ := json.Marshal(back)
			if !ok || !bytes.Equal(raw, again) {
				t.Fatalf("unopened re-read %s != %s", again, raw)
			}
		}
	})
}
