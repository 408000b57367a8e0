package store

import (
	"database/sql"
	"fmt"
	"reflect"
	"slices"
	"testing"
)

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
