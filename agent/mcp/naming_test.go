package mcp

import (
	"crypto/sha256"
	"encoding/hex"
	"math/rand/v2"
	"reflect"
	"regexp"
	"strings"
	"testing"
)

// modelToolName is what the model APIs accept as a tool name.
var modelToolName = regexp.MustCompile(`^[a-zA-Z0-9_-]{1,64}$`)

// safeForm is the expected safe form: base plus "_" and the first 10 hex
// digits of sha256(server NUL tool).
func safeForm(base, server, tool string) string {
	sum := sha256.Sum256([]byte(server + "\x00" + tool))
	return base + "_" + hex.EncodeToString(sum[:])[:10]
}

func TestToolName(t *testing.T) {
	t.Parallel()
	s30, t40 := strings.Repeat("s", 30), strings.Repeat("t", 40)
	s31, t31, t32 := strings.Repeat("s", 31), strings.Repeat("t", 31), strings.Repeat("t", 32)
	tests := []struct {
		name, server, tool, want string
	}{
		{"plain", "github", "create_issue", "github__create_issue"},
		{"plain with hyphen and single underscores", "my_server-1", "get-data_2", "my_server-1__get-data_2"},
		{"tool starting with an underscore", "a", "_b", "a___b"},
		{"tool holding a double underscore", "a", "b__c", "a__b__c"},
		{"exactly 64 bytes", s31, t31, s31 + "__" + t31},
		{"65 bytes", s31, t32, safeForm((s31 + "__" + t32)[:53], s31, t32)},
		{"very long names", s30, t40, safeForm((s30 + "__" + t40)[:53], s30, t40)},
		{"dots", "my.server", "get.data", safeForm("my_server__get_data", "my.server", "get.data")},
		{"spaces", "My Server", "do  it", safeForm("My_Server__do_it", "My Server", "do  it")},
		{"unicode", "café", "naïve tool", safeForm("caf__na_ve_tool", "café", "naïve tool")},
		{"unicode only", "файлы", "读取", safeForm("__", "файлы", "读取")},
		{"server holding a double underscore", "a__b", "c", safeForm("a_b__c", "a__b", "c")},
		{"server starting with an underscore", "_a", "b", safeForm("a__b", "_a", "b")},
		{"server ending with an underscore", "a_", "b", safeForm("a__b", "a_", "b")},
		{"empty tool", "a", "", safeForm("a__", "a", "")},
		{"empty server", "", "t", safeForm("__t", "", "t")},
		{"NUL and newline", "a\x00b", "c\nd", safeForm("a_b__c_d", "a\x00b", "c\nd")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got := ToolName(tt.server, tt.tool)
			if got != tt.want {
				t.Errorf("ToolName(%q, %q) = %q, want %q", tt.server, tt.tool, got, tt.want)
			}
			if !modelToolName.MatchString(got) {
				t.Errorf("ToolName(%q, %q) = %q is not a valid model tool name", tt.server, tt.tool, got)
			}
			if again := ToolName(tt.server, tt.tool); again != got {
				t.Errorf("ToolName is not stable: %q then %q", got, again)
			}
		})
	}
}

func TestToolNameSeparatorIsUnambiguous(t *testing.T) {
	t.Parallel()
	tests := []struct{ a, b ToolRef }{
		{ToolRef{"a__b", "c"}, ToolRef{"a", "b__c"}},
		{ToolRef{"a_", "_b"}, ToolRef{"a", "__b"}},
		{ToolRef{"a_b", "c"}, ToolRef{"a", "b_c"}},
		{ToolRef{"a_", "b"}, ToolRef{"_a", "b"}},
		{ToolRef{"a.b", "c"}, ToolRef{"a", "b.c"}},
	}
	for _, tt := range tests {
		na, nb := ToolName(tt.a.Server, tt.a.Tool), ToolName(tt.b.Server, tt.b.Tool)
		if na == nb {
			t.Errorf("%v and %v are both named %q", tt.a, tt.b, na)
		}
	}
}

// randomName draws from characters that stress the naming rules.
func randomName(r *rand.Rand) string {
	pieces := []string{"a", "B", "z", "0", "9", "-", "_", "__", ".", " ", "é", "日", "\x00", "/", "x"}
	n := r.IntN(12)
	if r.IntN(20) == 0 {
		n = 30 + r.IntN(40) // long ones too
	}
	var b strings.Builder
	for range n {
		b.WriteString(pieces[r.IntN(len(pieces))])
	}
	return b.String()
}

func TestToolNameProperties(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(1, 2))
	refs := make([]ToolRef, 0, 20000)
	for range cap(refs) {
		refs = append(refs, ToolRef{randomName(r), randomName(r)})
	}
	for _, ref := range refs {
		name := ToolName(ref.Server, ref.Tool)
		if !modelToolName.MatchString(name) {
			t.Fatalf("ToolName(%q, %q) = %q is not a valid model tool name", ref.Server, ref.Tool, name)
		}
		// A plain name splits back at its first "__".
		if plainServer(ref.Server) && plainTool(ref.Tool) && len(name) <= MaxToolNameLen && name == ref.Server+"__"+ref.Tool {
			if s, tool, _ := strings.Cut(name, "__"); s != ref.Server || tool != ref.Tool {
				t.Fatalf("plain name %q splits into %q, %q, want %q, %q", name, s, tool, ref.Server, ref.Tool)
			}
		}
	}
	names := AssignNames(refs)
	byName := map[string]ToolRef{}
	for ref, name := range names {
		if !modelToolName.MatchString(name) {
			t.Fatalf("AssignNames gave %v the name %q, not a valid model tool name", ref, name)
		}
		if other, dup := byName[name]; dup {
			t.Fatalf("AssignNames gave %v and %v the same name %q", ref, other, name)
		}
		byName[name] = ref
	}
	for _, ref := range refs {
		if _, ok := names[ref]; !ok {
			t.Fatalf("AssignNames left out %v", ref)
		}
	}
}

func TestAssignNamesResolvesCollisions(t *testing.T) {
	t.Parallel()
	// A safe form equal to another tool's plain form: ("a.b", "c") is
	// named a_b__c_<hash>, which is also the plain name of ("a_b",
	// "c_<hash>").
	safe := ToolRef{"a.b", "c"}
	safeName := ToolName(safe.Server, safe.Tool)
	_, hash, _ := strings.Cut(safeName, "a_b__c_")
	plain := ToolRef{"a_b", "c_" + hash}
	if ToolName(plain.Server, plain.Tool) != safeName {
		t.Fatalf("test setup: %q and %q differ", ToolName(plain.Server, plain.Tool), safeName)
	}
	bystander := ToolRef{"github", "create_issue"}
	names := AssignNames([]ToolRef{safe, plain, bystander, bystander})
	if len(names) != 3 {
		t.Fatalf("AssignNames = %v, want 3 names", names)
	}
	if names[safe] == names[plain] {
		t.Fatalf("colliding refs share %q", names[safe])
	}
	for _, ref := range []ToolRef{safe, plain} {
		name := names[ref]
		if name == safeName || !modelToolName.MatchString(name) {
			t.Errorf("%v named %q, want a valid name other than %q", ref, name, safeName)
		}
		if i := strings.LastIndexByte(name, '_'); len(name)-i-1 != 11 {
			t.Errorf("%v named %q, want an 11-digit hash", ref, name)
		}
	}
	if names[bystander] != "github__create_issue" {
		t.Errorf("a tool without a collision was renamed to %q", names[bystander])
	}
}

func TestAssignNamesOrderIndependent(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(3, 4))
	safe := ToolRef{"a.b", "c"}
	_, hash, _ := strings.Cut(ToolName(safe.Server, safe.Tool), "a_b__c_")
	refs := []ToolRef{safe, {"a_b", "c_" + hash}, {"x", "y"}, {"x y", "z"}}
	for range 200 {
		refs = append(refs, ToolRef{randomName(r), randomName(r)})
	}
	want := AssignNames(refs)
	for range 20 {
		shuffled := append([]ToolRef(nil), refs...)
		r.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
		if got := AssignNames(shuffled); !reflect.DeepEqual(got, want) {
			t.Fatal("AssignNames depends on the order of its input")
		}
	}
}

func TestAssignNamesEmpty(t *testing.T) {
	t.Parallel()
	if got := AssignNames(nil); got == nil || len(got) != 0 {
		t.Errorf("AssignNames(nil) = %#v, want an empty map", got)
	}
}

func TestToolNameLevels(t *testing.T) {
	t.Parallel()
	ref := ToolRef{strings.Repeat("s", 40), strings.Repeat("t", 40)}
	for level := 1; level <= maxLevel; level++ {
		name := nameAtLevel(ref, level)
		if !modelToolName.MatchString(name) {
			t.Fatalf("level %d: %q is not a valid model tool name", level, name)
		}
		if i := strings.LastIndexByte(name, '_'); len(name)-i-1 != toolHashLen+level {
			t.Fatalf("level %d: %q has a %d-digit hash, want %d", level, name, len(name)-i-1, toolHashLen+level)
		}
	}
}
