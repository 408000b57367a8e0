package store

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/juncture-app/juncture/agent/history"
)

// typingCorpus has words sharing their first 3 letters ("fun"), oldest
// first.
func typingCorpus(t *testing.T) *DB {
	t.Helper()
	texts := []string{
		"the function returns",
		"fund the project",
		"Fünctional café",
		"fundamental funding, the funk",
		"kubectl rollout plan",
	}
	db := openTest(t)
	mustThread(t, db, "t", "")
	for i, text := range texts { // f1 … f5
		mustPut(t, db, userMsg("t", fmt.Sprint("f", i+1), text))
	}
	return db
}

// TestSearchTypingNarrowedMatchesExact: a word being typed past 3 letters
// is looked for among the newest matches of its first 3 letters (the
// prefix index) and checked in Go; whatever that scan finds or misses,
// the hits (ids, order, highlights) are those of FTS5's own prefix match.
func TestSearchTypingNarrowedMatchesExact(t *testing.T) {
	t.Parallel()
	db := typingCorpus(t)
	for _, c := range []struct {
		query string
		want  []string
	}{
		{"funct", []string{"f3", "f1"}},
		{"FUNC", []string{"f3", "f1"}},
		{"fund", []string{"f4", "f2"}},
		{"fundi", []string{"f4"}},
		{"funk", []string{"f4"}},
		{"funky", nil},
		{`"the funct`, []string{"f1"}},
		{`the funct`, []string{"f1"}},
		{"funct* -café ", []string{"f1"}},
		{"-café funct", []string{"f1"}},
		{"funct* café ", []string{"f3"}},
		{"kubectl OR funct", []string{"f5", "f3", "f1"}},
		{"fund -funct", []string{"f2"}},
		{"kubectl rollo", []string{"f5"}},
		{`"kubectl rollo`, []string{"f5"}},
		{`"rollout kubectl`, nil},
	} {
		db.narrowScan = 0 // FTS5 alone
		exact := search(t, db, c.query)
		if got := hitIDs(exact); !slices.Equal(got, c.want) {
			t.Fatalf("exact search %q = %v, want %v", c.query, got, c.want)
		}
		for _, scan := range []int{1, 2, 3, DefaultNarrowScan} {
			db.narrowScan = scan
			if got := search(t, db, c.query); !reflect.DeepEqual(got, exact) {
				t.Errorf("search %q scanning %d = %+v, want %+v", c.query, scan, got, exact)
			}
		}
	}
}

// TestSearchTypingRarePrefixBeyondScan: when the newest matches of the
// first 3 letters hold fewer than a page of the long prefix, the search
// asks FTS5 and still finds the old ones, newest first.
func TestSearchTypingRarePrefixBeyondScan(t *testing.T) {
	t.Parallel()
	db := openTest(t)
	mustThread(t, db, "t", "")
	msgs := []history.Message{userMsg("t", "old1", "a funky tune"), userMsg("t", "old2", "funkier still")}
	for i := range narrowProbe + 10 {
		msgs = append(msgs, userMsg("t", fmt.Sprint("fund", i), "fund raising"))
	}
	mustPut(t, db, msgs...)
	newest := fmt.Sprint("fund", narrowProbe+9)
	for _, scan := range []int{10, DefaultNarrowScan} { // past the scan; given up at narrowProbe
		db.narrowScan = scan
		if got := hitIDs(search(t, db, "funk")); !slices.Equal(got, []string{"old2", "old1"}) {
			t.Errorf("search \"funk\" scanning %d = %v, want [old2 old1]", scan, got)
		}
		if got := hitIDs(search(t, db, "fund")); len(got) != 20 || got[0] != newest {
			t.Errorf("search \"fund\" scanning %d = %v, want 20 from %s", scan, got, newest)
		}
	}
}

// TestSearchTypingHugeMessage: a scan stops reading past narrowBytes of
// text and asks FTS5, which still finds the word at the end.
func TestSearchTypingHugeMessage(t *testing.T) {
	t.Parallel()
	db := openTest(t)
	db.narrowBytes = 1000 // a 4 MiB message is slow to index under -race
	mustThread(t, db, "t", "")
	huge := strings.Repeat("fund ", db.narrowBytes/5+1) + "functional"
	mustPut(t, db, userMsg("t", "small", "the function"), toolMsg("t", "huge", "c1", "read_file", huge))
	if got := hitIDs(search(t, db, "funct")); !slices.Equal(got, []string{"huge", "small"}) {
		t.Errorf("search \"funct\" = %v, want [huge small]", got)
	}
}

func TestFoldedWords(t *testing.T) {
	t.Parallel()
	for in, want := range map[string][]string{
		"Fünctional café":          {"functional", "cafe"},
		"hotfix-xylophone, ZÜRICH": {"hotfix", "xylophone", "zurich"},
		"node.js C++ 🎉 日本語":        {"node", "js", "c", "日本語"},
		"e\u0301te\u0301":          {"ete"},
		"":                         nil,
	} {
		if got := foldedWords(in); !slices.Equal(got, want) {
			t.Errorf("foldedWords(%q) = %q, want %q", in, got, want)
		}
	}
}
