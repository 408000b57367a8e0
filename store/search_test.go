package store

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/juncture-app/juncture/agent/history"
)

// searchCorpus is a small history with one thread per subject.
func searchCorpus(t *testing.T) *DB {
	t.Helper()
	db := openTest(t)
	mustThread(t, db, "k8s", "Kubernetes deployment")
	mustPut(t, db,
		userMsg("k8s", "k1", "How do I roll back a deployment in Kubernetes?"),
		assistantMsg("k8s", "k2", "Use kubectl rollout undo. The lazy dog sleeps.", history.ToolCall{ID: "kc", Name: "run_command", Arguments: `{"cmd":"kubectl rollout history"}`}),
		toolMsg("k8s", "k3", "kc", "run_command", "REVISION  CHANGE-CAUSE\n1 initial\n2 hotfix-xylophone"),
	)
	mustThread(t, db, "cafe", "Café recommendations")
	mustPut(t, db,
		userMsg("cafe", "c1", "Where is a good café in Zürich? café café"),
		assistantMsg("cafe", "c2", history.WithMarker("The dog lazy at the café…")),
		history.Message{ID: "c3", ThreadID: "cafe", Role: history.RoleSystem, Content: "secret system prompt", Status: history.StatusComplete},
		history.Message{ID: "c4", ThreadID: "cafe", Role: history.RoleAssistant, Content: "reasoned", Reasoning: "hidden thoughts", Status: history.StatusComplete},
		history.Message{ID: "c5", ThreadID: "cafe", Role: history.RoleAssistant, Content: "still streaming words", Status: history.StatusStreaming},
	)
	mustThread(t, db, "emoji", "Party 🎉 planning")
	mustPut(t, db, userMsg("emoji", "e1", "Bring 🎉 confetti and 日本語のテキスト too; C++ and node.js, error: ENOENT"))
	return db
}

func hitIDs(hits []SearchHit) []string {
	var out []string
	for _, h := range hits {
		if h.MessageID == "" {
			out = append(out, "title:"+h.ThreadID)
		} else {
			out = append(out, h.MessageID)
		}
	}
	return out
}

func TestSearchHistory(t *testing.T) {
	t.Parallel()
	db := searchCorpus(t)
	for _, c := range []struct {
		query string
		want  []string // in rank order; nil = no hits
	}{
		{"rollback ", nil},
		{"rollout ", []string{"k2"}},
		{"ROLLOUT ", []string{"k2"}},
		{"xylophone ", []string{"k3"}}, // tool results are searchable
		{"hotfix-xylophone", []string{"k3"}},
		{"kubernetes ", []string{"title:k8s", "k1"}},
		{"zurich ", []string{"c1"}}, // diacritics folded
		{"cafe ", []string{"title:cafe", "c1", "c2"}},
		{"café ", []string{"title:cafe", "c1", "c2"}},
		{"kube", []string{"title:k8s", "k2", "k1"}}, // still typing: prefix (kubectl, Kubernetes), newest first
		{"kube ", nil},                              // finished word: exact
		{"kube* ", []string{"title:k8s", "k2", "k1"}},
		{`"lazy dog"`, []string{"k2"}},
		{`"dog lazy"`, []string{"c2"}},
		{`"lazy dog`, []string{"k2"}},       // unbalanced quote
		{"lazy dog ", []string{"c2", "k2"}}, // the shorter message ranks first
		{"lazy -rollout ", []string{"c2"}},
		{"lazy NOT rollout ", []string{"c2"}},
		{"xylophone OR zurich ", []string{"k3", "c1"}},
		{"confetti 🎉", []string{"e1"}},
		{"日本語のテキスト", []string{"e1"}},
		{"node.js ", []string{"e1"}},
		{"error: ENOENT", []string{"e1"}},
		{"C++ ", []string{"e1"}},
		{"(rollout) ", []string{"k2"}},
		{"^rollout ", []string{"k2"}},
		{"NEAR(rollout undo) ", nil}, // just words: "near rollout" is not in any message
		{"interrupted ", nil},        // the marker is not indexed
		{"system ", nil},             // neither are system messages
		{"hidden ", nil},             // nor reasoning
		{"streaming ", nil},          // nor text still streaming
		{"", nil},
		{"   \t\n", nil},
		{`""`, nil},
		{`"`, nil},
		{"*", nil},
		{"🎉", nil},
		{"AND OR NOT", nil},
		{"-", nil},
	} {
		got := hitIDs(search(t, db, c.query))
		if !slices.Equal(got, c.want) {
			t.Errorf("search %q = %v, want %v", c.query, got, c.want)
		}
	}
}

func TestSearchHitDetails(t *testing.T) {
	t.Parallel()
	db := searchCorpus(t)
	hits := search(t, db, "rollout undo ")
	if len(hits) != 1 {
		t.Fatalf("hits = %+v", hits)
	}
	h := hits[0]
	if h.ThreadID != "k8s" || h.ThreadTitle != "Kubernetes deployment" || h.Role != "assistant" || h.CreatedAt != 300 || h.Rank >= 0 {
		t.Errorf("hit = %+v", h)
	}
	var text strings.Builder
	var matched []string
	for _, p := range h.Parts {
		text.WriteString(p.Text)
		if p.Match {
			matched = append(matched, p.Text)
		}
		if strings.ContainsAny(p.Text, "\uE000\uE001<>") {
			t.Errorf("markup left in part %q", p.Text)
		}
	}
	if text.String() != "Use kubectl rollout undo. The lazy dog sleeps." {
		t.Errorf("snippet text = %q", text.String())
	}
	if !slices.Equal(matched, []string{"rollout", "undo"}) {
		t.Errorf("matched parts = %q", matched)
	}
	titles := search(t, db, "planning")
	if len(titles) != 1 || titles[0].MessageID != "" || titles[0].Role != "" || titles[0].ThreadTitle != "Party 🎉 planning" {
		t.Fatalf("title hit = %+v", titles)
	}
	if p := titles[0].Parts; len(p) != 2 || p[1] != (SnippetPart{Text: "planning", Match: true}) {
		t.Errorf("title parts = %+v", p)
	}
}

func TestSearchRanksAndLimits(t *testing.T) {
	t.Parallel()
	db, ctx := openFixture(t, "t")
	// More than the rank window of matches: a common word must still
	// return a full page, best (and newest) first.
	var msgs []history.Message
	for i := range rankWindow + 300 {
		text := fmt.Sprintf("common filler %d", i)
		if i == rankWindow+250 {
			text = "common common common common needle"
		}
		msgs = append(msgs, userMsg("t", fmt.Sprint("m", i), text))
	}
	mustPut(t, db, msgs...)
	hits, err := db.SearchHistory(ctx, "common ", 7)
	if err != nil {
		t.Fatal(err)
	}
	if len(hits) != 7 {
		t.Fatalf("%d hits for limit 7", len(hits))
	}
	if hits[0].MessageID != fmt.Sprint("m", rankWindow+250) {
		t.Errorf("best match not first: %+v", hits[0])
	}
	for i := 1; i < len(hits); i++ {
		if hits[i].Rank < hits[i-1].Rank {
			t.Errorf("hits not in rank order at %d", i)
		}
	}
	if hits, _ := db.SearchHistory(ctx, "needle ", 0); len(hits) != 1 {
		t.Errorf("default limit: %d hits", len(hits))
	}
}

func TestFTSQuery(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ in, want string }{
		{"", ""},
		{"hello", `("hello" *)`},
		{"hello ", `("hello")`},
		{`say "hi there" now`, `("say" "hi there" "now" *)`},
		{`a"b`, `("a" "b")`},
		{"ab", `("ab")`}, // too short to expand while typing
		{"abc", `("abc" *)`},
		{"ab*", `("ab" *)`}, // asked for
		{"日本", `("日本" *)`},
		{`say "hello wor`, `("say" "hello wor" *)`},
		{`"quote""d"`, `("quote" "d")`},
		{`x OR y `, `("x") OR ("y")`},
		{`OR y `, `("OR" "y")`},
		{`x -y `, `(("x")) NOT ("y")`},
		{`-y `, `("y")`},
		{`col:val `, `("col:val")`},
		{`it's `, `("it's")`},
		{`"it""s"`, `("it" "s")`},
		{`say "he said ""hi"""`, `("say" "he said" "hi")`},
		{`NEAR(a b) `, `("NEAR(a" "b)")`},
		{strings.Repeat("w ", 40) + "last", "(" + strings.TrimSpace(strings.Repeat(`"w" `, maxTerms)) + ")"},
	} {
		if got := ftsQuery(c.in); got != c.want {
			t.Errorf("ftsQuery(%q) = %s, want %s", c.in, got, c.want)
		}
	}
}

func TestSearchPrefixOverBudgetFallsBackToThreeLetters(t *testing.T) {
	t.Parallel()
	db := searchCorpus(t)
	mustPut(t, db, userMsg("cafe", "c9", "a rolling stone"))
	db.prefixBudget = time.Nanosecond // every long prefix expansion is "too slow"
	if got := hitIDs(search(t, db, "rollou")); !slices.Equal(got, []string{"c9", "k2", "k1"}) {
		t.Errorf("search \"rollou\" over budget = %v, want the \"rol\" matches [c9 k2 k1] (rolling, rollout, roll)", got)
	}
	if got := hitIDs(search(t, db, "rollout ")); !slices.Equal(got, []string{"k2"}) {
		t.Errorf("search \"rollout \" over budget = %v, want [k2]", got)
	}
	db.prefixBudget = time.Minute
	if got := hitIDs(search(t, db, "rollou")); !slices.Equal(got, []string{"k2"}) {
		t.Errorf("search \"rollou\" within budget = %v, want [k2]", got)
	}
}

// TestSearchShortPrefixOverBudgetFallsBackToWord: "t*" asks FTS5 to
// merge the doclist of every word starting with t (no prefix index below
// 3 letters): seconds and a doclist of every message at 10 M messages.
// Past the prefix budget such a prefix is searched as the word itself.
func TestSearchShortPrefixOverBudgetFallsBackToWord(t *testing.T) {
	t.Parallel()
	db := searchCorpus(t)
	mustPut(t, db, userMsg("cafe", "c9", "ro ro, a river"))
	db.prefixBudget = time.Nanosecond // every short prefix expansion is "too slow"
	for q, want := range map[string][]string{
		"ro*":        {"c9"},
		"ro* river ": {"c9"},
		"ro* kubec":  nil, // the fallback's words: "ro" and "kub" as a prefix
		"rol* ":      {"k2", "k1"},
	} {
		if got := hitIDs(search(t, db, q)); !slices.Equal(got, want) {
			t.Errorf("search %q over budget = %v, want %v", q, got, want)
		}
	}
	db.prefixBudget = time.Minute
	got := hitIDs(search(t, db, "ro*"))
	slices.Sort(got)
	if want := []string{"c9", "k1", "k2"}; !slices.Equal(got, want) {
		t.Errorf("search \"ro*\" within budget = %v, want %v (ro, roll, rollout)", got, want)
	}
}

// TestSearchGivesUpPastItsBudget: a search that runs past searchBudget
// (a pasted run of common words took 5 s at 10,000,000 messages) ends with
// ErrSearchTooBroad; the caller's own cancellation is not called that.
func TestSearchGivesUpPastItsBudget(t *testing.T) {
	t.Parallel()
	db := searchCorpus(t)
	db.searchBudget = time.Nanosecond
	if _, err := db.SearchHistory(context.Background(), "kubernetes ", 20); !errors.Is(err, ErrSearchTooBroad) {
		t.Errorf("search past its budget: err = %v, want ErrSearchTooBroad", err)
	}
	db.searchBudget = time.Minute
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := db.SearchHistory(ctx, "kubernetes ", 20); err == nil || errors.Is(err, ErrSearchTooBroad) {
		t.Errorf("search with a cancelled context: err = %v, want the cancellation, not ErrSearchTooBroad", err)
	}
	if got := hitIDs(search(t, db, "kubernetes ")); !slices.Equal(got, []string{"title:k8s", "k1"}) {
		t.Errorf("search within its budget = %v", got)
	}
}

func TestCutLastWord(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"rollout": "rol", "ab": "ab", "abc": "abc", "node.js": "node.js", "hello world": "hello wor",
		"日本語のテキスト": "日本語", "trail!!": "tra", "": "",
	} {
		if got := cutLastWord(in, 3); got != want {
			t.Errorf("cutLastWord(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestSearchCommonWordsNewestFirst(t *testing.T) {
	t.Parallel()
	db := openTest(t)
	mustThread(t, db, "t", "")
	var msgs []history.Message
	for i := range 30 {
		text := "routine word"
		if i == 3 {
			text = "routine routine routine routine" // the best bm25 match, but old
		}
		msgs = append(msgs, userMsg("t", fmt.Sprint("m", i), text))
	}
	mustPut(t, db, msgs...)
	if got := hitIDs(search(t, db, "routine ")); len(got) != 20 || got[0] != "m3" {
		t.Fatalf("ranked search = %v, want m3 first", got)
	}
	// A word being typed (long prefix) lists newest first, whatever bm25 says.
	if got := hitIDs(search(t, db, "routi")); len(got) != 20 || got[0] != "m29" {
		t.Errorf("typing search = %v, want m29 first", got)
	}
	db.rankBudget = 10 // "routine" is now too common to rank
	hits := search(t, db, "routine ")
	if got := hitIDs(hits); len(got) != 20 || got[0] != "m29" || got[19] != "m10" {
		t.Errorf("common-word search = %v, want m29 … m10 (newest first)", got)
	}
	if hits[0].Rank != 0 {
		t.Errorf("rank of an unranked hit = %v", hits[0].Rank)
	}
}

// TestSearchExcludedShortPrefixOverBudgetStaysExcluded: over the prefix
// budget a prefix of 1 or 2 letters is searched as the word itself, which
// matches fewer messages: right for a word searched for (fewer hits, each
// still a match), wrong for one excluded ("-t*", "NOT t*"), where the
// word itself excludes fewer and the person got back the very messages
// they excluded ("apple tea" for "zebrafruit -t*").
func TestSearchExcludedShortPrefixOverBudgetStaysExcluded(t *testing.T) {
	t.Parallel()
	db := searchCorpus(t)
	mustThread(t, db, "fruit", "Fruit")
	mustPut(t, db, userMsg("fruit", "n1", "zebrafruit with tea"), userMsg("fruit", "n2", "zebrafruit pie"))
	for _, budget := range []time.Duration{time.Minute, time.Nanosecond} {
		db.prefixBudget = budget
		for _, q := range []string{"zebrafruit -t*", "zebrafruit NOT te*", "NOT t* zebrafruit"} {
			if got := hitIDs(search(t, db, q)); !slices.Equal(got, []string{"n2"}) {
				t.Errorf("search %q (prefix budget %v) = %v, want [n2]: n1 holds an excluded word", q, budget, got)
			}
		}
	}
	// Only exclusions are searched for: the short prefix still falls back.
	if q := parseQuery("-t*"); q.fallback == nil {
		t.Errorf("parseQuery(%q) has no fallback", "-t*")
	}
}

// TestSearchFallbackIsNeverTheQueryItself: a last word being typed that
// is already 3 letters or fewer ("kub", CJK "東京": every CJK character
// counts) cut to 3 letters is itself: as a fallback it ran the very query
// that had just gone over the prefix budget a second time.
func TestSearchFallbackIsNeverTheQueryItself(t *testing.T) {
	t.Parallel()
	for _, in := range []string{"東", "東京", "日本", "日本語", "abc", "kub", "error kub", "\"new kub"} {
		if q := parseQuery(in); q.fallback != nil && q.fallback.match == q.match {
			t.Errorf("parseQuery(%q): the fallback is the query itself: %s", in, q.match)
		}
	}
	for _, in := range []string{"kube", "東京都庁", "t*", "ro* kubec"} {
		if q := parseQuery(in); q.fallback == nil {
			t.Errorf("parseQuery(%q) has no fallback", in)
		}
	}
}

// TestSearchTooBroadOnlyWhenStoppedByItsBudget: a search whose budget ran
// out was told "too broad" whatever its error, so a corrupt page or a full
// disk meeting the deadline was hidden behind advice to add a rarer word.
// Only what a context's end gives (its error, SQLite's interrupt) counts.
func TestSearchTooBroadOnlyWhenStoppedByItsBudget(t *testing.T) {
	t.Parallel()
	db := openTest(t)
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	// a query that runs until its context interrupts it
	var n int
	interrupted := db.r.QueryRowContext(ctx, "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c) SELECT count(*) FROM c").Scan(&n)
	for _, tc := range []struct {
		name string
		err  error
		want bool
	}{
		{"the deadline", fmt.Errorf("query: %w", context.DeadlineExceeded), true},
		{"a cancellation", context.Canceled, true},
		{"SQLite interrupted by the context", interrupted, true},
		{"anything else", errors.New("database disk image is malformed"), false},
	} {
		if got := stoppedByContext(tc.err); got != tc.want {
			t.Errorf("%s (%v): stoppedByContext = %v, want %v", tc.name, tc.err, got, tc.want)
		}
	}
}
