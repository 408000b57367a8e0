package interrupt

import (
	"encoding/json"
	"reflect"
	"testing"
	"time"
)

func TestVectorApprovalSchemas(t *testing.T) {
	v := loadVectors(t)
	inputs := map[string]json.RawMessage{"none": nil, "raw": json.RawMessage(transferInput), "standard-json-schema": json.RawMessage(standardInput)}
	for _, c := range v.ApprovalSchemas {
		t.Run(c.Name, func(t *testing.T) {
			input, ok := inputs[c.InputSchemaKind]
			if !ok {
				t.Fatalf("unknown input kind %q", c.InputSchemaKind)
			}
			var approval json.RawMessage
			if string(c.ApprovalSchema) != "null" {
				approval = c.ApprovalSchema
			}
			a, err := ParseApprovalSchema(approval)
			if err != nil {
				t.Fatal(err)
			}
			n, err := NormalizeApprovalSchema(a, input)
			if err != nil {
				t.Fatal(err)
			}
			if got, want := string(n.ResponseSchema), compactJSON(t, c.ResponseSchema); got != want {
				t.Fatalf("responseSchema (wire order)\n got %s\nwant %s", got, want)
			}
			if got, _ := CanonicalJSON(n.ResponseSchema); got != c.ResponseSchemaCanonical {
				t.Fatalf("canonical\n got %s\nwant %s", got, c.ResponseSchemaCanonical)
			}
			if n.ResponseSchemaHash != c.ResponseSchemaHash || n.ApprovalSchemaHash != c.ApprovalSchemaHash {
				t.Fatalf("hashes %s %s", n.ResponseSchemaHash, n.ApprovalSchemaHash)
			}
			if Digest(c.ApprovalSchemaCanonical) != c.ApprovalSchemaHash {
				t.Fatal("approvalSchemaCanonical does not hash to approvalSchemaHash")
			}
			if h, _ := HashSchemaInput(input); h != c.InputSchemaHash {
				t.Fatalf("input hash %s", h)
			}
		})
	}
}

func reviewDefinition(t *testing.T, v vectorFile) Definition {
	t.Helper()
	return Definition{ID: v.FirstPartyGeneric.DefinitionID, ResponseSchema: v.FirstPartyGeneric.ResponseSchemaExport,
		PayloadSchema: json.RawMessage(reviewPayload)}
}

func TestVectorFirstPartyGeneric(t *testing.T) {
	v := loadVectors(t)
	fp := v.FirstPartyGeneric
	resp, err := HashDefinitionSchema(fp.ResponseSchemaExport)
	if err != nil || resp.Canonical != fp.ResponseCanonicalNoDraft || resp.Hash != fp.ResponseSchemaHash {
		t.Fatalf("response schema %+v %v", resp, err)
	}
	payload, err := HashDefinitionSchema(json.RawMessage(reviewPayload))
	if err != nil || payload.Hash != fp.PayloadSchemaHash {
		t.Fatalf("payload schema %+v %v", payload, err)
	}
	def := reviewDefinition(t, v)
	req, err := def.Interrupt(RequestInput{Key: "initial-plan", Reason: "review-required", Message: "Review the proposed plan.",
		Payload: json.RawMessage(`{"title":"Release plan","changes":["Add search","Add tests"]}`)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	rec, err := CreateRequestRecord(req, Correlation{ThreadID: "thread-1", InterruptedRunID: "run-42"}, 0)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := json.Marshal(rec)
	if want := compactJSON(t, fp.CreateInterruptBinding.Descriptor); string(got) != want {
		t.Fatalf("createInterruptBinding\n got %s\nwant %s", got, want)
	}
	if want := compactJSON(t, fp.CreateInterruptBinding.Payload); string(req.Payload) != want {
		t.Fatalf("payload %s, want %s", req.Payload, want)
	}

	cases := map[string]func() error{
		"unknown input field": func() error {
			_, err := ParseRequestInput(json.RawMessage(`{"key":"k","reason":"r","message":"m","extra":1}`))
			return err
		},
		"blank key": func() error {
			_, err := def.Interrupt(RequestInput{Key: "  ", Reason: "r", Message: "m"}, nil)
			return err
		},
		"bad expiresAt": func() error {
			_, err := def.Interrupt(RequestInput{Key: "k", Reason: "r", Message: "m", ExpiresAt: "nope"}, nil)
			return err
		},
		"non-JSON payload": func() error {
			_, err := def.Interrupt(RequestInput{Key: "k", Reason: "r", Message: "m",
				Payload: map[string]any{"title": "t", "changes": []any{}, "at": time.Unix(0, 0)}}, nil)
			return err
		},
	}
	if len(fp.RequestInputErrors) != len(cases) {
		t.Fatalf("%d cases, %d handled", len(fp.RequestInputErrors), len(cases))
	}
	for _, c := range fp.RequestInputErrors {
		f, ok := cases[c.Name]
		if !ok {
			t.Fatalf("unhandled case %q", c.Name)
		}
		if err := f(); err == nil || err.Error() != stripTypeError(c.Throws) {
			t.Errorf("%s: got %v, want %s", c.Name, err, c.Throws)
		}
	}
}

func TestVectorWithInterruptBinding(t *testing.T) {
	v := loadVectors(t)
	schema := json.RawMessage(`{"type":"object","properties":{"speed":{"type":"string"}},"required":["speed"]}`)
	hash, _ := DigestValue(schema)
	base := Descriptor{ID: "shipping-1", Reason: "confirmation", Message: "Which shipping speed?", ResponseSchema: schema}

	d, err := WithBinding(base, Binding{V: BindingVersion, Kind: KindGeneric, InterruptID: "shipping-1",
		InterruptedRunID: "run-42", Generation: 0, ResponseSchemaHash: hash})
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := json.Marshal(d); !sameJSON(t, got, v.WithInterruptBinding.DocsDescriptor) {
		t.Fatalf("docs descriptor\n got %s\nwant %s", got, v.WithInterruptBinding.DocsDescriptor)
	}
	// The same through the external-generic builder and BuildBatch.
	ext, err := NewExternalGeneric(base)
	if err != nil {
		t.Fatal(err)
	}
	batch, err := BuildBatch("run-42", 0, nil, nil, []Descriptor{ext})
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := json.Marshal(batch[0]); !sameJSON(t, got, v.WithInterruptBinding.DocsDescriptor) {
		t.Fatalf("built descriptor\n got %s\nwant %s", got, v.WithInterruptBinding.DocsDescriptor)
	}

	d, err = WithBinding(Descriptor{ID: "real-id", Reason: "r", Metadata: Metadata{"other": json.RawMessage("true")}},
		Binding{V: 2, Kind: KindGeneric, InterruptID: "wrong-id", InterruptedRunID: "run-42", ResponseSchemaHash: hash})
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := json.Marshal(d); !sameJSON(t, got, v.WithInterruptBinding.WithBindingOverridesIDAndV) {
		t.Fatalf("override\n got %s\nwant %s", got, v.WithInterruptBinding.WithBindingOverridesIDAndV)
	}
}

func TestVectorBindingMatrix(t *testing.T) {
	v := loadVectors(t)
	for _, c := range v.BindingMatrix {
		t.Run(c.Name, func(t *testing.T) {
			var d Descriptor
			raw := `{"id":"i-1","reason":"r","metadata":{"` + BindingMetadataKey + `":` + string(c.Binding) + `}}`
			if err := json.Unmarshal([]byte(raw), &d); err != nil {
				t.Fatal(err)
			}
			check := func(label string, b Binding, ok bool, want json.RawMessage) {
				if string(want) == "null" {
					if ok {
						t.Fatalf("%s: got %+v, want nothing", label, b)
					}
					return
				}
				if !ok {
					t.Fatalf("%s: got nothing, want %s", label, want)
				}
				got, err := json.Marshal(b)
				if err != nil {
					t.Fatal(err)
				}
				if string(got) != compactJSON(t, want) {
					t.Fatalf("%s\n got %s\nwant %s", label, got, compactJSON(t, want))
				}
			}
			ub, uok := ReadUnopenedBinding(d)
			check("readUnopenedInterruptBinding", ub, uok, c.ReadUnopened)
			ob, class := ReadBinding(d)
			check("readInterruptBinding", ob, class != ClassUnbound, c.Read)
			if class != ClassUnbound && string(class) != string(ob.Kind) {
				t.Fatalf("class %s for kind %s", class, ob.Kind)
			}
		})
	}
}

func TestVectorResolutions(t *testing.T) {
	v := loadVectors(t)
	r := v.Resolutions
	res, err := CanonicalizeResolutions(r.Input)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, e := range res.Entries {
		ids = append(ids, e.InterruptID)
	}
	if !reflect.DeepEqual(ids, r.SortedIDs) {
		t.Fatalf("localeCompare order %v, want %v", ids, r.SortedIDs)
	}
	if res.Canonical != r.CanonicalResolutions || res.Fingerprint != r.Fingerprint {
		t.Fatalf("canonical %s / %s", res.Canonical, res.Fingerprint)
	}
	units := append([]string(nil), ids...)
	sortStrings(units, compareUTF16)
	if !reflect.DeepEqual(units, r.CodeUnitSortedIDs) {
		t.Fatalf("code-unit order %v, want %v", units, r.CodeUnitSortedIDs)
	}
}

func sortStrings(s []string, cmp func(a, b string) int) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && cmp(s[j-1], s[j]) > 0; j-- {
			s[j-1], s[j] = s[j], s[j-1]
		}
	}
}

func TestVectorGenericContinuation(t *testing.T) {
	v := loadVectors(t)
	gc := v.GenericContinuation
	var d Descriptor
	if err := json.Unmarshal(gc.Descriptor, &d); err != nil {
		t.Fatal(err)
	}
	c, ok := ContinuationFromDescriptor(d)
	if !ok {
		t.Fatal("no continuation")
	}
	got, _ := json.Marshal(c)
	if want := compactJSON(t, gc.Continuation); string(got) != want {
		t.Fatalf("continuation\n got %s\nwant %s", got, want)
	}
	meta, err := c.ResumeMetadata()
	if err != nil || string(meta) != compactJSON(t, gc.ResumeItemMetadata) {
		t.Fatalf("resume metadata %s %v", meta, err)
	}
	for _, rc := range gc.ReadCases {
		t.Run(rc.Name, func(t *testing.T) {
			metadata := rc.Metadata
			if rc.Name == "absent (no metadata)" {
				metadata = nil // called with undefined, written as null
			}
			c, ok, err := ReadContinuation(metadata)
			switch rc.Result.Status {
			case "absent":
				if ok || err != nil {
					t.Fatalf("got %v %v", ok, err)
				}
			case "invalid":
				if err == nil || err.Error() != rc.Result.Message {
					t.Fatalf("got %v, want %s", err, rc.Result.Message)
				}
			case "ok":
				got, _ := json.Marshal(c)
				if !ok || err != nil || string(got) != compactJSON(t, rc.Result.Value) {
					t.Fatalf("got %s %v %v", got, ok, err)
				}
			default:
				t.Fatalf("unknown status %q", rc.Result.Status)
			}
		})
	}
}

// vectorPending is the README's base pending record for tool call id c.
func vectorPending(t *testing.T, v vectorFile, c string) Pending {
	t.Helper()
	rs := v.ApprovalSchemas[1]
	if rs.Name != "no approvalSchema, raw inputSchema" {
		t.Fatalf("fixture moved: %s", rs.Name)
	}
	return Pending{
		Descriptor: Descriptor{ID: "approval_" + c, ResponseSchema: rs.ResponseSchema},
		Binding: Binding{V: 1, Kind: KindToolApproval, InterruptID: "approval_" + c, InterruptedRunID: "run-1",
			ToolName: "transfer", ToolCallID: c, OriginalArgs: json.RawMessage(`{"amount":5,"recipient":"Ada"}`),
			InputSchemaHash:    "sha256:d069de0d80aa4d5b877bc5b717afce5e694c2f71455573964d63d8123dc7097e",
			ApprovalSchemaHash: "sha256:22f76d9a1c618a3cfaa891208a14f6e5e6ab1be4ff1c38cc8a8cd1e8fd0c0e4e",
			ResponseSchemaHash: "sha256:e70dfb0f03e7fe49c9e8bc8be9b2a17dd18046e855ded3d37676b467a80bb77b"},
	}
}

var (
	vectorNow      = time.UnixMilli(1767225600000)
	transferTool   = Tool{Name: "transfer", InputSchema: json.RawMessage(transferInput), OutputSchema: json.RawMessage(receiptOutput), NeedsApproval: true}
	vectorBatchOpt = BatchOptions{Correlation: Correlation{ThreadID: "thread-1", InterruptedRunID: "run-1"}, Tools: []Tool{transferTool}}
)

func TestVectorValidateInterruptResumeBatch(t *testing.T) {
	v := loadVectors(t)
	for _, c := range v.ValidateBatch {
		t.Run(c.Name, func(t *testing.T) {
			pending := []Pending{vectorPending(t, v, "call_1")}
			if c.Name == "missing entry -> unknown-interrupt + incomplete-batch" {
				pending = append(pending, vectorPending(t, v, "call_2"))
			}
			acc, berr := ValidateResumeBatch(pending, c.Resume, vectorNow, vectorBatchOpt)
			if len(c.Errors) > 0 {
				if berr == nil {
					t.Fatalf("accepted, want %d errors", len(c.Errors))
				}
				if len(berr.Errors) != len(c.Errors) {
					t.Fatalf("got %d errors %+v, want %d", len(berr.Errors), berr.Errors, len(c.Errors))
				}
				for i, e := range berr.Errors {
					got, _ := json.Marshal(e)
					if want := compactJSON(t, c.Errors[i]); string(got) != want {
						t.Fatalf("error %d\n got %s\nwant %s", i, got, want)
					}
				}
				return
			}
			if berr != nil {
				t.Fatalf("refused: %v", berr)
			}
			got, _ := json.Marshal(acc.State)
			if !sameJSON(t, got, c.ResumeToolState) {
				t.Fatalf("state\n got %s\nwant %s", got, c.ResumeToolState)
			}
			if acc.Resolutions.Canonical != c.CanonicalResolutions || acc.Resolutions.Fingerprint != c.Fingerprint {
				t.Fatalf("resolutions %s %s", acc.Resolutions.Canonical, acc.Resolutions.Fingerprint)
			}
		})
	}
}

// TestVectorCounts pins the number of cases per key, so that a regenerated
// file with new cases cannot be silently half-covered.
func TestVectorCounts(t *testing.T) {
	v := loadVectors(t)
	got := map[string]int{
		"canonical": len(v.Canonical), "rawDigests": len(v.RawDigests), "schemaHashes": len(v.SchemaHashes),
		"approvalSchemas": len(v.ApprovalSchemas), "requestInputErrors": len(v.FirstPartyGeneric.RequestInputErrors),
		"bindingMatrix": len(v.BindingMatrix), "resolutions.input": len(v.Resolutions.Input),
		"genericContinuation.readCases": len(v.GenericContinuation.ReadCases), "validateInterruptResumeBatch": len(v.ValidateBatch),
	}
	want := map[string]int{"canonical": 25, "rawDigests": 8, "schemaHashes": 5, "approvalSchemas": 6, "requestInputErrors": 4,
		"bindingMatrix": 32, "resolutions.input": 6, "genericContinuation.readCases": 7, "validateInterruptResumeBatch": 8}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("case counts %v, want %v", got, want)
	}
}
