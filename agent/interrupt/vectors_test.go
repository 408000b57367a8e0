package interrupt

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"math"
	"math/big"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

// The vectors were produced by the published @tanstack/ai 0.58.0. The
// committed copy in testdata/ is preferred; the sibling shared folder
// (../../../shared, as laid out in CI) is only a fallback.
const (
	vectorsLocal   = "testdata/tanstack-interrupts.json"
	vectorsSibling = "../../../shared/vectors/tanstack-interrupts.json"
)

type vectorFile struct {
	Package   string          `json:"package"`
	Constants json.RawMessage `json:"constants"`
	Canonical []struct {
		Name               string  `json:"name"`
		JS                 string  `json:"js"`
		InputJSONStringify *string `json:"inputJsonStringify"`
		Canonical          *string `json:"canonical"`
		CanonicalUTF8Hex   string  `json:"canonicalUtf8Hex"`
		Digest             string  `json:"digest"`
		Throws             string  `json:"throws"`
	} `json:"canonical"`
	RawDigests []struct {
		Name     string `json:"name"`
		TextJSON string `json:"textJson"`
		Digest   string `json:"digest"`
	} `json:"rawDigests"`
	DigestNonStringInput struct {
		OK    bool   `json:"ok"`
		Error string `json:"error"`
	} `json:"digestNonStringInput"`
	SchemaHashes []struct {
		Name string `json:"name"`
		Hash string `json:"hash"`
	} `json:"schemaHashes"`
	ApprovalSchemas []struct {
		Name                    string          `json:"name"`
		ApprovalSchema          json.RawMessage `json:"approvalSchema"`
		InputSchemaKind         string          `json:"inputSchemaKind"`
		InputSchemaHash         string          `json:"inputSchemaHash"`
		ResponseSchema          json.RawMessage `json:"responseSchema"`
		ResponseSchemaCanonical string          `json:"responseSchemaCanonical"`
		ResponseSchemaHash      string          `json:"responseSchemaHash"`
		ApprovalSchemaCanonical string          `json:"approvalSchemaCanonical"`
		ApprovalSchemaHash      string          `json:"approvalSchemaHash"`
	} `json:"approvalSchemas"`
	FirstPartyGeneric struct {
		DefinitionID             string          `json:"definitionId"`
		ResponseSchemaExport     json.RawMessage `json:"responseSchemaExport"`
		ResponseCanonicalNoDraft string          `json:"responseSchemaCanonical_afterStripping$schema"`
		ResponseSchemaHash       string          `json:"responseSchemaHash"`
		PayloadSchemaHash        string          `json:"payloadSchemaHash"`
		CreateInterruptBinding   struct {
			Descriptor json.RawMessage `json:"descriptor"`
			Payload    json.RawMessage `json:"payload"`
		} `json:"createInterruptBinding"`
		RequestInputErrors []struct {
			Name   string `json:"name"`
			Throws string `json:"throws"`
		} `json:"requestInputErrors"`
	} `json:"firstPartyGeneric"`
	WithInterruptBinding struct {
		DocsDescriptor             json.RawMessage `json:"docsDescriptor"`
		WithBindingOverridesIDAndV json.RawMessage `json:"withBindingOverridesIdAndV"`
	} `json:"withInterruptBinding"`
	BindingMatrix []struct {
		Name         string          `json:"name"`
		Binding      json.RawMessage `json:"binding"`
		ReadUnopened json.RawMessage `json:"readUnopenedInterruptBinding"`
		Read         json.RawMessage `json:"readInterruptBinding"`
	} `json:"bindingMatrix"`
	Resolutions struct {
		Input                []ResumeEntry `json:"input"`
		SortedIDs            []string      `json:"sortedIds"`
		CodeUnitSortedIDs    []string      `json:"codeUnitSortedIds"`
		CanonicalResolutions string        `json:"canonicalResolutions"`
		Fingerprint          string        `json:"fingerprint"`
	} `json:"resolutions"`
	GenericContinuation struct {
		Descriptor         json.RawMessage `json:"descriptor"`
		Continuation       json.RawMessage `json:"continuation"`
		ResumeItemMetadata json.RawMessage `json:"resumeItemMetadata"`
		ReadCases          []struct {
			Name     string          `json:"name"`
			Metadata json.RawMessage `json:"metadata"`
			Result   struct {
				Status  string          `json:"status"`
				Message string          `json:"message"`
				Value   json.RawMessage `json:"value"`
			} `json:"result"`
		} `json:"readCases"`
	} `json:"genericContinuation"`
	ValidateBatch []struct {
		Name                 string            `json:"name"`
		Resume               []ResumeEntry     `json:"resume"`
		Errors               []json.RawMessage `json:"errors"`
		ResumeToolState      json.RawMessage   `json:"resumeToolState"`
		CanonicalResolutions string            `json:"canonicalResolutions"`
		Fingerprint          string            `json:"fingerprint"`
	} `json:"validateInterruptResumeBatch"`
}

func loadVectors(t *testing.T) vectorFile {
	t.Helper()
	data, err := os.ReadFile(vectorsLocal)
	if err != nil {
		t.Logf("no committed copy (%v); reading %s", err, vectorsSibling)
		if data, err = os.ReadFile(filepath.FromSlash(vectorsSibling)); err != nil {
			t.Fatalf("vectors not found: %v", err)
		}
	} else if sibling, err := os.ReadFile(filepath.FromSlash(vectorsSibling)); err == nil && !bytes.Equal(sibling, data) {
		t.Logf("note: %s differs from the committed testdata copy", vectorsSibling)
	}
	var v vectorFile
	if err := json.Unmarshal(data, &v); err != nil {
		t.Fatal(err)
	}
	if v.Package != "@tanstack/ai@0.58.0" {
		t.Fatalf("unexpected vector package %q", v.Package)
	}
	return v
}

// compactJSON returns raw without insignificant whitespace, key order kept.
func compactJSON(t *testing.T, raw []byte) string {
	t.Helper()
	var buf bytes.Buffer
	if err := json.Compact(&buf, raw); err != nil {
		t.Fatalf("compact %s: %v", raw, err)
	}
	return buf.String()
}

// sameJSON compares two JSON texts as values (key order ignored).
func sameJSON(t *testing.T, got, want []byte) bool {
	t.Helper()
	g, err1 := CanonicalJSON(json.RawMessage(got))
	w, err2 := CanonicalJSON(json.RawMessage(want))
	if err1 != nil || err2 != nil {
		t.Fatalf("canonical: %v / %v", err1, err2)
	}
	return g == w
}

func stripTypeError(s string) string { return strings.TrimPrefix(s, "TypeError: ") }

func TestVectorConstants(t *testing.T) {
	v := loadVectors(t)
	got, err := json.Marshal(map[string]any{
		"INTERRUPT_BINDING_METADATA_KEY":      BindingMetadataKey,
		"INTERRUPT_BINDING_VERSION":           BindingVersion,
		"INTERRUPT_PAYLOAD_METADATA_KEY":      PayloadMetadataKey,
		"INTERRUPT_CONTINUATION_METADATA_KEY": ContinuationMetadataKey,
		"INTERRUPT_CONTINUATION_VERSION":      ContinuationVersion,
		"INTERRUPT_BOUNDARY_PHASES":           BoundaryPhases,
		"INTERRUPT_TOOL_RESUMES":              ToolResumes,
	})
	if err != nil {
		t.Fatal(err)
	}
	if !sameJSON(t, got, v.Constants) {
		t.Fatalf("constants\n got %s\nwant %s", got, v.Constants)
	}
}

// canonicalInputs are the Go analogues of the JavaScript inputs that JSON
// cannot carry (undefined is a nil json.RawMessage, a Date is time.Time,
// a bigint is *big.Int). Every other case is decoded from its
// JSON.stringify text with Parse.
func canonicalInputs() map[string]any {
	cycle := map[string]any{"a": 1.0}
	cycle["self"] = cycle
	shared := map[string]any{"k": 1.0}
	return map[string]any{
		"floats and number formatting": []any{1.0, 1.5, math.Copysign(0, -1), 0.0, 1e21, 1e20, 123456789012345680000.0,
			1e-6, 1e-7, 0.1, 0.30000000000000004, -1.5e-10, math.Pow(2, 53), math.Pow(2, 53) + 2, 5e-324,
			1.7976931348623157e308, 100, 1e2},
		"lone surrogates are escaped as lowercase \\\\uXXXX": []any{"\xed\xa0\x80", "x\xed\xbf\xbfy", "\xed\xa0\xbd\xed\xb8\x80"},
		"undefined at top level -> throws":                   json.RawMessage(nil),
		"undefined object value -> throws (NOT omitted)":     map[string]any{"a": json.RawMessage(nil)},
		"undefined inside array -> throws":                   []any{1, json.RawMessage(nil)},
		"array hole -> throws":                               []any{1, json.RawMessage(nil), 3},
		"NaN -> throws":                                      math.NaN(),
		"Infinity -> throws":                                 map[string]any{"x": math.Inf(1)},
		"Date -> throws (non-plain object)":                  time.Unix(0, 0),
		"function -> throws":                                 map[string]any{"f": func() {}},
		"bigint -> throws":                                   big.NewInt(1),
		"cycle -> throws":                                    cycle,
		"shared (non-cyclic) reference is fine":              map[string]any{"a": shared, "b": shared},
	}
}

func TestVectorCanonical(t *testing.T) {
	v := loadVectors(t)
	inputs := canonicalInputs()
	used := 0
	for _, c := range v.Canonical {
		t.Run(c.Name, func(t *testing.T) {
			var candidates []any
			if in, ok := inputs[c.Name]; ok {
				candidates = append(candidates, in)
				used++
			}
			if c.InputJSONStringify != nil {
				candidates = append(candidates, json.RawMessage(*c.InputJSONStringify))
				parsed, err := Parse([]byte(*c.InputJSONStringify))
				if err != nil {
					t.Fatalf("parse input: %v", err)
				}
				candidates = append(candidates, parsed)
			}
			if len(candidates) == 0 {
				t.Fatalf("no Go input for case %q", c.Name)
			}
			for i, in := range candidates {
				got, err := CanonicalJSON(in)
				if c.Throws != "" {
					if err == nil || err.Error() != stripTypeError(c.Throws) {
						t.Fatalf("input %d: got (%q, %v), want error %q", i, got, err, c.Throws)
					}
					continue
				}
				if err != nil {
					t.Fatalf("input %d: %v", i, err)
				}
				if got != *c.Canonical {
					t.Fatalf("input %d:\n got %s\nwant %s", i, got, *c.Canonical)
				}
				if hex.EncodeToString([]byte(got)) != c.CanonicalUTF8Hex {
					t.Fatalf("utf-8 bytes differ")
				}
				if d := Digest(got); d != c.Digest {
					t.Fatalf("digest %s, want %s", d, c.Digest)
				}
			}
		})
	}
	if used != len(inputs) {
		t.Fatalf("%d hand-built inputs, %d used: a case was renamed", len(inputs), used)
	}
}

func TestVectorRawDigests(t *testing.T) {
	v := loadVectors(t)
	for _, c := range v.RawDigests {
		parsed, err := Parse([]byte(c.TextJSON))
		if err != nil {
			t.Fatal(err)
		}
		if got := Digest(parsed.(string)); got != c.Digest {
			t.Errorf("%s: got %s, want %s", c.Name, got, c.Digest)
		}
	}
}

// The reference throws when the digest argument is not a string; in Go the
// parameter type makes that input impossible, which is what this checks.
func TestVectorDigestNonStringInput(t *testing.T) {
	v := loadVectors(t)
	if v.DigestNonStringInput.OK || !strings.Contains(v.DigestNonStringInput.Error, "require canonical JSON text") {
		t.Fatalf("unexpected vector %+v", v.DigestNonStringInput)
	}
	if typ := reflect.TypeOf(Digest); typ.NumIn() != 1 || typ.In(0).Kind() != reflect.String {
		t.Fatalf("Digest must take a string, got %v", typ)
	}
}

const (
	transferInput = `{"type":"object","properties":{"amount":{"type":"number"},"recipient":{"type":"string"}},"required":["amount","recipient"]}`
	receiptOutput = `{"type":"object","properties":{"receiptId":{"type":"string"}},"required":["receiptId"]}`
	// standardInput is the Standard JSON Schema transfer input exported for
	// draft-2020-12; in Go it is simply a raw schema.
	standardInput = `{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","properties":{"recipient":{"type":"string"},"amount":{"type":"number"}},"required":["recipient","amount"],"additionalProperties":false}`
	reviewPayload = `{"$schema":"http://json-schema.org/draft-07/schema#","type":"object","properties":{"title":{"type":"string"},"changes":{"type":"array","items":{"type":"string"}}},"required":["title","changes"]}`
)

func TestVectorSchemaHashes(t *testing.T) {
	v := loadVectors(t)
	want := map[string]func() (string, error){
		"hashSchemaInput(undefined)":          func() (string, error) { return HashSchemaInput(nil) },
		"hashSchemaInput(raw transfer input)": func() (string, error) { return HashSchemaInput(json.RawMessage(transferInput)) },
		"hashSchemaInput(raw receipt output)": func() (string, error) { return HashSchemaInput(json.RawMessage(receiptOutput)) },
		"hashSchemaInput(Standard JSON Schema; target draft-2020-12, $schema kept)": func() (string, error) {
			return HashSchemaInput(json.RawMessage(standardInput))
		},
		`hashSchemaInput(Standard Schema without jsonSchema -> {standardValidator:"unserialized"})`: func() (string, error) {
			return UnserializedSchemaHash, nil
		},
	}
	if len(v.SchemaHashes) != len(want) {
		t.Fatalf("%d cases, %d handled", len(v.SchemaHashes), len(want))
	}
	for _, c := range v.SchemaHashes {
		f, ok := want[c.Name]
		if !ok {
			t.Fatalf("unhandled case %q", c.Name)
		}
		got, err := f()
		if err != nil || got != c.Hash {
			t.Errorf("%s: got %s (%v), want %s", c.Name, got, err, c.Hash)
		}
	}
}
