package store

import (
	"database/sql"
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

// TestSearchTypingNarrowedFoldsAsFTS5: whatever Unicode a message holds
// (Hangul syllables, Greek tonos, compatibility letters, spacing marks),
// the narrowed scan's hits are FTS5's own.
func TestSearchTypingNarrowedFoldsAsFTS5(t *testing.T) {
	t.Parallel()
	texts := []string{
		"한국어삭 문서", "한국어사 문서",
		"αλφά βήτα", "Ωμέγα ωμεγαλο",
		"\u212Aelvin kelvins", "straße STRASSE",
		"İstanbul istanbul", "कारण कारोबार",
		"ǅungla džungla", "ﬁnance finance",
		"x\u0301yzw xyzw", "Ⅻabcd ⅻabcd",
		"abcd\u00ADef abcdef", "ｆｕｌｌｗｉｄｔｈ fullwidth",
		"ĳssel ijssel", "ŀlama llama",
		"øster oster", "đorđe dorde", "łodz lodz", "ħamrun hamrun",
		"the \u20BD function", "the \u2066 funding", "µmeter", "ſtrange",
	}
	queries := []string{
		"한국어사", "αλφα", "αλφά", "ωμεγα", "kelv", "stra", "straß", "ista", "istanb",
		"कारो", "कार", "ǆung", "džun", "dzun", "fina", "ﬁna", "xyzw", "ⅻab", "xiiab",
		"abcde", "ｆｕｌｌ", "full", "ijss", "ĳss", "llam", "ŀlam", "oste", "øste",
		"dord", "đorđ", "lodz", "łodz", "hamr", "ħamr",
		`"the funct`, `"the fundi`, "μmet", "µmet", "stran", "ſtran",
	}
	db := openTest(t)
	mustThread(t, db, "t", "")
	for i, text := range texts {
		mustPut(t, db, userMsg("t", fmt.Sprint("m", i), text))
	}
	for _, q := range queries {
		db.narrowScan = 0
		exact := search(t, db, q)
		db.narrowScan = DefaultNarrowScan
		if got := search(t, db, q); !reflect.DeepEqual(hitIDs(got), hitIDs(exact)) {
			t.Errorf("search %q narrowed = %v, FTS5 = %v", q, hitIDs(got), hitIDs(exact))
		} else if !reflect.DeepEqual(got, exact) {
			t.Errorf("search %q narrowed = %+v, FTS5 = %+v", q, got, exact)
		}
	}
}

// TestFoldedWordsAgreesWithUnicode61: for every character of the Basic
// Multilingual Plane the narrowed scan trusts (foldsAsUnicode61), foldedWords splits and folds "a<c>a" into the words
// FTS5's unicode61 remove_diacritics 2 tokenizer indexes, so a narrowed
// scan checks exactly what FTS5 would match.
func TestFoldedWordsAgreesWithUnicode61(t *testing.T) {
	t.Parallel()
	conn, err := sql.Open("sqlite", ":memory:")
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	conn.SetMaxOpenConns(1)
	for _, s := range []string{
		`CREATE VIRTUAL TABLE f USING fts5(x, tokenize = 'unicode61 remove_diacritics 2')`,
		`CREATE VIRTUAL TABLE v USING fts5vocab(f, instance)`,
		`BEGIN`,
	} {
		if _, err := conn.Exec(s); err != nil {
			t.Fatal(err)
		}
	}
	ins, err := conn.Prepare(`INSERT INTO f(rowid, x) VALUES (?, ?)`)
	if err != nil {
		t.Fatal(err)
	}
	for r := rune(1); r < 0x10000; r++ {
		if !foldsAsUnicode61(r) {
			continue
		}
		if _, err := ins.Exec(r, "a"+string(r)+"a"); err != nil {
			t.Fatal(err)
		}
	}
	ins.Close()
	if _, err := conn.Exec(`COMMIT`); err != nil {
		t.Fatal(err)
	}
	rows, err := conn.Query(`SELECT doc, term FROM v ORDER BY doc, offset`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	got := make(map[rune][]string)
	for rows.Next() {
		var doc int64
		var term string
		if err := rows.Scan(&doc, &term); err != nil {
			t.Fatal(err)
		}
		got[rune(doc)] = append(got[rune(doc)], term)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	bad := 0
	for r := rune(1); r < 0x10000; r++ {
		if !foldsAsUnicode61(r) {
			continue
		}
		if want, have := got[r], foldedWords("a"+string(r)+"a"); !slices.Equal(want, have) {
			if bad++; bad <= 40 {
				t.Errorf("foldedWords(a%ca) U+%04X = %q, unicode61 = %q", r, r, have, want)
			}
		}
	}
	if bad > 0 {
		t.Errorf("%d characters fold unlike unicode61", bad)
	}
}
