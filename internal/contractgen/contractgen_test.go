package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/juncture-app/juncture/agent/contract"
	"github.com/juncture-app/juncture/agent/history"
)

// The committed file must be what the Go types generate now.
func TestCommittedFileIsUpToDate(t *testing.T) {
	want, err := Generate()
	if err != nil {
		t.Fatal(err)
	}
	root, err := moduleRoot()
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(filepath.Join(root, OutPath))
	if err != nil {
		t.Fatalf("%s is missing: run `make contract` (go run ./internal/contractgen) and commit it: %v", OutPath, err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("%s is out of date with the Go types: run `make contract` (go run ./internal/contractgen) and commit the result.\nFirst difference:\n%s",
			OutPath, firstDiff(string(got), string(want)))
	}
}

func firstDiff(got, want string) string {
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := 0; i < len(g) || i < len(w); i++ {
		var a, b string
		if i < len(g) {
			a = g[i]
		}
		if i < len(w) {
			b = w[i]
		}
		if a != b {
			return "line " + strconv.Itoa(i+1) + ":\n  committed: " + a + "\n  generated: " + b
		}
	}
	return "(none)"
}

func TestGenerateIsDeterministic(t *testing.T) {
	a, err := Generate()
	if err != nil {
		t.Fatal(err)
	}
	for range 3 {
		b, err := Generate()
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(a, b) {
			t.Fatal("two runs generated different output")
		}
	}
	if !bytes.HasPrefix(a, []byte(Header)) {
		t.Fatalf("output does not start with %q", Header)
	}
}

// Every tool state and CUSTOM event of the runtime reaches the file.
func TestAgentContractIsComplete(t *testing.T) {
	src, err := Generate()
	if err != nil {
		t.Fatal(err)
	}
	s := string(src)
	for _, st := range contract.ToolStates {
		if !strings.Contains(s, `"`+string(st)+`"`) {
			t.Errorf("tool state %q is missing", st)
		}
	}
	for _, n := range contract.CustomEventNames {
		if _, ok := customPayloads[n]; !ok {
			t.Errorf("CUSTOM event %q has no payload type in customPayloads", n)
		}
		if !strings.Contains(s, `"`+n+`": `) {
			t.Errorf("CUSTOM event %q is missing from CustomEventValues", n)
		}
	}
	if len(customPayloads) != len(contract.CustomEventNames) {
		t.Errorf("customPayloads has %d entries, contract.CustomEventNames %d", len(customPayloads), len(contract.CustomEventNames))
	}
	for _, want := range []string{
		"export interface Methods {",
		"  GetThread: { args: [string]; result: ThreadView };",
		"export interface ToolStateEvent {",
		"  state: ToolState;",
		"export interface ThreadListItem {",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("output lacks %q", want)
		}
	}
}

// ---- the mapping rules, on types declared here --------------------------------

type inner struct {
	Deep string `json:"deep"`
}

type Base struct {
	ID      string `json:"id"`
	Shadow  string `json:"shadow"`
	Created int64  `json:"createdAt"`
}

type Other struct {
	Clash string `json:"clash"`
}

type Another struct {
	Clash string `json:"clash"`
}

type Sample struct {
	Base
	*Other
	Another
	inner
	Shadow   int              `json:"shadow"`
	Name     string           `json:"name,omitempty"`
	Skipped  string           `json:"-"`
	Dash     string           `json:"-,"` //nolint:staticcheck // SA5008: the name "-" on purpose
	Raw      json.RawMessage  `json:"raw,omitempty"`
	Bytes    []byte           `json:"bytes"`
	Tags     map[string][]int `json:"tags"`
	Ptr      *Base            `json:"ptr"`
	OptPtr   *Base            `json:"optPtr,omitempty"`
	Any      any              `json:"any"`
	Quoted   int              `json:"quoted,string"`
	When     time.Time        `json:"when"`
	Untagged bool
	State    contract.ToolState `json:"state"`
	Anon     struct{ A int }    `json:"anon"`
	Nested   []map[string]bool  `json:"nested"`
	private  int
}

type api struct{}

func (api) Do(Sample, *Base, []string) (Sample, error) { return Sample{}, nil }
func (api) Fire(string) error                          { return nil }

func TestMappingFollowsEncodingJSON(t *testing.T) {
	_ = Sample{}.private
	g := newGenerator()
	if err := g.addMethods(reflect.TypeFor[api]()); err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if err := g.renderTypes(&b); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	want := `
/** contractgen.Sample */
export interface Sample {
  id: string;
  createdAt: number;
  deep: string;
  shadow: number;
  name?: string;
  "-": string;
  raw?: JsonValue;
  bytes: string;
  tags: Record<string, number[]>;
  ptr: Base | null;
  optPtr?: Base;
  any: unknown;
  quoted: string;
  when: string;
  Untagged: boolean;
  state: ToolState;
  anon: { A: number };
  nested: Record<string, boolean>[];
}
`
	if !strings.Contains(out, want) {
		t.Fatalf("Sample renders as:\n%s\nwant:\n%s", out, want)
	}
	if !strings.Contains(out, "export interface Base {") {
		t.Errorf("Base (embedded and referenced) is not declared:\n%s", out)
	}
	if strings.Contains(out, "clash") {
		t.Errorf("a name two embedded structs give at the same depth must be dropped:\n%s", out)
	}
	if got := g.signature(g.methods[0]); got != "{ args: [Sample, Base | null, string[]]; result: Sample }" {
		t.Errorf("Do: %s", got)
	}
	if got := g.signature(g.methods[1]); got != "{ args: [string]; result: null }" {
		t.Errorf("Fire: %s", got)
	}
	// The encoder agrees on the member names.
	enc, _ := json.Marshal(Sample{Other: &Other{}})
	var m map[string]any
	_ = json.Unmarshal(enc, &m)
	for _, k := range []string{"id", "createdAt", "deep", "shadow", "-", "bytes", "Untagged"} {
		if _, ok := m[k]; !ok {
			t.Errorf("encoding/json does not write %q: %s", k, enc)
		}
	}
	if _, ok := m["clash"]; ok {
		t.Errorf("encoding/json writes clash: %s", enc)
	}
}

type Thread struct {
	A string `json:"a"`
}

func TestSameNameInTwoPackagesIsQualified(t *testing.T) {
	g := newGenerator()
	g.addRoot(reflect.TypeFor[Thread]())
	g.addRoot(reflect.TypeFor[history.Thread]())
	var b strings.Builder
	if err := g.renderTypes(&b); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	if !strings.Contains(out, "export interface ContractgenThread {") || !strings.Contains(out, "export interface HistoryThread {") {
		t.Fatalf("colliding names are not qualified by package:\n%s", out)
	}
}
