package importers

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// The budgets a parse is held to, whatever the bytes (issue 19 #5):
// memory allocated in all, in proportion to the input, and time.
const (
	fuzzAllocPerByte = 40                           // bytes allocated per byte of input …
	fuzzAllocFloor   = 16 << 20                     // … plus this
	fuzzTimeBudget   = timeScale * 60 * time.Second // wall time on a loaded 2-core CI; a parse takes < 3 s of CPU
)

// withinBudget runs parse on data and fails the test when it allocates
// more than the budget or runs past the time budget (the parse goes on
// in the background then; the test has failed already).
func withinBudget(t testing.TB, name string, data []byte, parse func([]byte) ([]Conversation, error)) ([]Conversation, error) {
	t.Helper()
	type result struct {
		convs []Conversation
		err   error
		alloc uint64
	}
	done := make(chan result, 1)
	go func() {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		convs, err := parse(data)
		runtime.ReadMemStats(&after)
		done <- result{convs, err, after.TotalAlloc - before.TotalAlloc}
	}()
	timer := time.NewTimer(fuzzTimeBudget)
	defer timer.Stop()
	select {
	case r := <-done:
		if budget := uint64(fuzzAllocPerByte*len(data) + fuzzAllocFloor); r.alloc > budget {
			t.Fatalf("%s (%d bytes): allocated %d MiB, over the budget of %d MiB", name, len(data), r.alloc>>20, budget>>20)
		}
		return r.convs, r.err
	case <-timer.C:
		t.Fatalf("%s (%d bytes): still parsing after %v", name, len(data), fuzzTimeBudget)
		return nil, nil
	}
}

// hostileFiles are the checked-in hostile exports (testdata/hostile) and
// the large ones generated here (too large to keep in the repository).
func hostileFiles(t testing.TB) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	paths, err := filepath.Glob("testdata/hostile/*.json")
	if err != nil || len(paths) == 0 {
		t.Fatalf("no hostile corpus: %v", err)
	}
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		files[filepath.Base(p)] = b
	}
	for name, b := range generatedHostile() {
		files[name] = b
	}
	return files
}

// generatedHostile builds the large hostile files: each is what one
// budget stops.
func generatedHostile() map[string][]byte {
	gen := func(n int, each func(b *bytes.Buffer, i int)) []byte {
		var b bytes.Buffer
		for i := range n {
			each(&b, i)
		}
		return b.Bytes()
	}
	node := func(b *bytes.Buffer, i int, parent string) {
		fmt.Fprintf(b, `"n%d":{"parent":%s,"message":{"author":{"role":"user"},"content":{"content_type":"text","parts":["m%d"]}}}`, i, parent, i)
	}
	return map[string][]byte{
		// The reported file: 8.9 MB, 300,000 conversations without a message.
		"gen-chatgpt-300k-empty.json": append(append([]byte("["), bytes.TrimSuffix(gen(300_000, func(b *bytes.Buffer, i int) {
			fmt.Fprintf(b, `{"id":"c%06d","mapping":{}},`, i)
		}), []byte(","))...), ']'),
		// A mapping of 300,000 nodes of two bytes each: decoded, hundreds of MB.
		"gen-chatgpt-dense-mapping.json": append(append([]byte(`[{"id":"c","mapping":{`), bytes.TrimSuffix(gen(300_000, func(b *bytes.Buffer, i int) {
			fmt.Fprintf(b, `"%x":{},`, i)
		}), []byte(","))...), "}}]"...),
		// 3,000,000 empty parts in one message.
		"gen-chatgpt-dense-parts.json": append(append([]byte(`[{"id":"c","mapping":{"a":{"parent":null,"message":{"author":{"role":"user"},"content":{"content_type":"text","parts":[`), bytes.Repeat([]byte(`"",`), 3_000_000)...), `"x"]}}}}}]`...),
		// A chain 100,000 messages deep (the most a conversation may hold).
		"gen-chatgpt-deep-chain.json": func() []byte {
			var b bytes.Buffer
			b.WriteString(`[{"id":"deep","mapping":{`)
			for i := range MaxMessages {
				if i > 0 {
					b.WriteByte(',')
				}
				parent := "null"
				if i > 0 {
					parent = fmt.Sprintf(`"n%d"`, i-1)
				}
				node(&b, i, parent)
			}
			b.WriteString(`}}]`)
			return b.Bytes()
		}(),
		// A message of 5 MiB of text.
		"gen-claude-huge-message.json": []byte(`[{"uuid":"c","chat_messages":[{"uuid":"1","sender":"human","text":"` + strings.Repeat("a", 5<<20) + `"}]}]`),
		// 200,000 messages of two bytes in one Claude conversation.
		"gen-claude-dense-messages.json": append(append([]byte(`[{"uuid":"c","chat_messages":[`), bytes.TrimSuffix(bytes.Repeat([]byte(`{},`), 200_000), []byte(","))...), "]}]"...),
	}
}

// Issue 19 #5: every hostile file is refused with a clear error, or
// imported, within the budgets; none makes empty threads.
func TestHostileExportsStayWithinBudget(t *testing.T) {
	wantRefused := map[string]string{
		"gen-chatgpt-300k-empty.json":           "more than 20000 conversations",
		"gen-chatgpt-dense-mapping.json":        "300000 messages; at most 100000",
		"gen-chatgpt-dense-parts.json":          "JSON values",
		"gen-claude-huge-message.json":          "at most 4 MiB",
		"gen-claude-dense-messages.json":        "200000 messages; at most 100000",
		"chatgpt-self-parent.json":              "cycle",
		"chatgpt-unreachable-cycle.json":        "cycle",
		"chatgpt-unknown-parent.json":           "unknown parent",
		"chatgpt-repeated-conversation-id.json": "same id as conversation 1",
		"chatgpt-long-node-id.json":             "at most 256",
		"chatgpt-long-conversation-id.json":     "at most 256",
		"chatgpt-duplicate-keys.json":           "cycle", // the last "a" wins
		"claude-parent-cycle.json":              "cycle",
		"claude-repeated-uuid.json":             "appears twice",
		"claude-long-time.json":                 "is not a time",
		"claude-self-parent.json":               "cycle",
	}
	for name, data := range hostileFiles(t) {
		t.Run(name, func(t *testing.T) {
			convs, err := withinBudget(t, name, data, func(b []byte) ([]Conversation, error) {
				c, _, err := Parse(FormatAuto, b)
				return c, err
			})
			checkParsed(t, convs, err)
			want, refused := wantRefused[name]
			switch {
			case refused && err == nil:
				t.Fatalf("imported %d conversations; want refused (%s)", len(convs), want)
			case refused && !strings.Contains(err.Error(), want):
				t.Fatalf("error %q; want it to say %q", err, want)
			case !refused && err != nil:
				t.Fatalf("refused: %v", err)
			case len(err2str(err)) > 400:
				t.Fatalf("an error of %d bytes: %.200s…", len(err.Error()), err)
			}
			for _, c := range convs {
				if n := len([]rune(c.Thread.Title)); n > MaxTitleRunes {
					t.Fatalf("a title of %d characters", n)
				}
			}
		})
	}
}

func err2str(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// Issue 19 #5: the 8.9 MB file of 300,000 empty conversations is refused
// at the first conversation over the budget, and says so.
func TestThreeHundredThousandEmptyConversationsAreRefused(t *testing.T) {
	data := generatedHostile()["gen-chatgpt-300k-empty.json"]
	_, err := ParseChatGPT(data)
	var e *Error
	if !errors.As(err, &e) || !strings.Contains(e.Msg, "more than 20000 conversations: at most 20000 can be imported from one file") {
		t.Fatalf("err = %v", err)
	}
	if e.Line != 1 || e.Column < 20000*28 {
		t.Fatalf("position %d:%d, not at conversation 20001", e.Line, e.Column)
	}
}

func TestShapeCountsValuesAndChildren(t *testing.T) {
	cases := []struct {
		in             string
		key            string
		values, childs int
	}{
		{`{}`, "k", 0, 0},
		{`[]`, "k", 0, 0},
		{`[1,2,3]`, "k", 3, 0},
		{`{"k":[1,[2,3],{"a":"]"}]}`, "k", 7, 3},
		{`{"a":{"k":[1,2]},"k":{"x":1,"y":{"z":2}}}`, "k", 8, 2},
		{`{"k":[],"k":[1,2,3]}`, "k", 5, 3},              // the decoder keeps the last "k": every one counts
		{`{"K":[1,2]}`, "k", 3, 2},                       // encoding/json ignores case
		{`{"\u006b":[1,2]}`, "k", 3, 2},                  // and unescapes names
		{`{"me\u017f\u017fages":[1]}`, "messages", 2, 1}, // ſ folds to s
		{`{"kk":[1],"k\"":[2]}`, "k", 4, 0},
		{`{"s":"a,b\",[{","k":["x,y"]}`, "k", 3, 1},
		{`{"k" : [ {} , {} ] }`, "k", 3, 2},
	}
	for _, c := range cases {
		v, n := Shape([]byte(c.in), c.key)
		if v != c.values || n != c.childs {
			t.Errorf("Shape(%s, %q) = %d, %d; want %d, %d", c.in, c.key, v, n, c.values, c.childs)
		}
	}
}
