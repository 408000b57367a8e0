package store

import (
	"context"
	"database/sql"
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// DefaultNarrowScan is how many of the newest messages matching a word's
// first 3 letters a typing search reads to find those matching all of
// it (see narrowing). FTS5 answers a prefix longer than its prefix index
// by merging the doclists of every word that starts with it, in full,
// whatever the LIMIT: "func" over 10,000,000 messages merges a million
// entries (hundreds of ms). The 3-letter prefix is one doclist read
// newest first, and stops at the LIMIT.
const DefaultNarrowScan = 300

// narrowProbe: after this many candidates, a scan whose hits so far
// project to less than a page over the whole scan stops there (the long
// prefix is rare among its 3 letters' words, so FTS5's merge of its
// doclists is small).
const narrowProbe = 50

// DefaultNarrowBytes bounds the text a scan reads and splits into words
// (a tool result can be megabytes): past it, FTS5 is asked instead.
const DefaultNarrowBytes = 4 << 20

// narrowing is the cheap form of a search whose terms include prefixes
// longer than the prefix index (3): each cut to its first 3 letters,
// which FTS5 serves from the prefix index. Its matches are a superset of
// the search's; a message among them matches the search when each long
// prefix term matches its words (checked here, folded as FTS5's
// unicode61 tokenizer folds them). Only for a search of one AND group
// whose long prefixes are not excluded: then every other term is checked
// by FTS5 already.
type narrowing struct {
	match string      // the cheap MATCH expression
	long  [][]string  // each long prefix term: its folded words, the last a prefix
	words []queryWord // every positive word of the search, to correct highlights
}

type queryWord struct {
	text   string // folded
	prefix bool
}

// narrowQuery returns the narrowing of a search of one AND group (terms)
// with long prefixes, or nil.
func narrowQuery(group, excluded []searchTerm) *narrowing {
	for _, t := range excluded {
		if t.prefix && lastWordLen(t.text) > 3 {
			return nil
		}
	}
	n := &narrowing{}
	cheap := make([]searchTerm, 0, len(group)+len(excluded))
	for _, t := range group {
		words := foldedWords(t.text)
		if len(words) == 0 || !allFoldAsUnicode61(t.text) {
			return nil
		}
		for i, w := range words {
			n.words = append(n.words, queryWord{text: w, prefix: t.prefix && i == len(words)-1})
		}
		if t.prefix && lastWordLen(t.text) > 3 {
			n.long = append(n.long, words)
			t.text = cutLastWord(t.text, 3)
		}
		t.or, t.implicit = false, false
		cheap = append(cheap, t)
	}
	if len(n.long) == 0 {
		return nil
	}
	for _, t := range excluded {
		t.or = false
		cheap = append(cheap, t)
	}
	q := buildQuery(cheap)
	if q.longPrefix || q.match == "" {
		return nil
	}
	n.match = q.match
	return n
}

// searchNarrowed lists, newest first, the messages matching q among the
// newest scan matching its narrowing. ok is false when that was not
// enough to know the newest limit hits (the long prefixes are rare among
// the words sharing their first 3 letters), or a text holds a character
// Go may fold unlike FTS5 (foldsAsUnicode61): the caller asks FTS5.
func searchNarrowed(ctx context.Context, tx *sql.Tx, n *narrowing, limit, scan, maxBytes int) (hits []SearchHit, ok bool, err error) {
	rows, err := tx.QueryContext(ctx, `SELECT rowid, search_text FROM messages_fts
WHERE messages_fts MATCH ? ORDER BY rowid DESC LIMIT ?`, n.match, scan)
	if err != nil {
		return nil, false, err
	}
	var seqs []any
	scanned, read := 0, 0
	for len(seqs) < limit && rows.Next() {
		var seq int64
		var text string
		if err := rows.Scan(&seq, &text); err != nil {
			rows.Close()
			return nil, false, err
		}
		scanned++
		if read += len(text); read > maxBytes || !allFoldAsUnicode61(text) {
			rows.Close()
			return nil, false, nil
		}
		if n.matches(foldedWords(text)) {
			seqs = append(seqs, seq)
		}
		if scanned == narrowProbe && scan > narrowProbe && len(seqs)*scan < limit*scanned {
			scanned = scan // too rare to fill the page
			break
		}
	}
	if err := rows.Close(); err != nil {
		return nil, false, err
	}
	if err := rows.Err(); err != nil {
		return nil, false, err
	}
	if len(seqs) < limit && scanned == scan {
		return nil, false, nil
	}
	if len(seqs) == 0 {
		return nil, true, nil
	}
	// Snippets for the hits only, from the cheap query (a seek per hit in
	// the prefix index), their highlights then cut to the search's words.
	args := append([]any{n.match}, seqs...)
	drows, err := tx.QueryContext(ctx, `
SELECT m.id, m.thread_id, t.title, m.role, m.created_at, h.snip
FROM (SELECT rowid, `+snippetSQL+` AS snip FROM messages_fts
      WHERE messages_fts MATCH ? AND rowid IN (?`+strings.Repeat(", ?", len(seqs)-1)+`)) AS h
JOIN messages AS m ON m.seq = h.rowid
JOIN threads AS t ON t.id = m.thread_id
ORDER BY h.rowid DESC`, args...)
	if err != nil {
		return nil, false, err
	}
	defer drows.Close()
	for drows.Next() {
		var h SearchHit
		var snip string
		if err := drows.Scan(&h.MessageID, &h.ThreadID, &h.ThreadTitle, &h.Role, &h.CreatedAt, &snip); err != nil {
			return nil, false, err
		}
		h.Parts = n.highlights(snippetParts(snip))
		hits = append(hits, h)
	}
	return hits, true, drows.Err()
}

// matches reports whether every long prefix term of n is in words: its
// words in a row, the last as a prefix.
func (n *narrowing) matches(words []string) bool {
	for _, term := range n.long {
		if !containsPhrase(words, term) {
			return false
		}
	}
	return true
}

func containsPhrase(words, phrase []string) bool {
	last := len(phrase) - 1
outer:
	for i := 0; i+last < len(words); i++ {
		for j, p := range phrase {
			w := words[i+j]
			if j == last && !strings.HasPrefix(w, p) || j < last && w != p {
				continue outer
			}
		}
		return true
	}
	return false
}

// highlights unmarks the matched parts of a snippet of the cheap query
// that no word of the search matches ("fund" in a search for "func").
func (n *narrowing) highlights(parts []SnippetPart) []SnippetPart {
	out := parts[:0:0]
	for _, p := range parts {
		if p.Match && !n.highlighted(p.Text) {
			p.Match = false
		}
		if k := len(out); k > 0 && out[k-1].Match == p.Match {
			out[k-1].Text += p.Text
			continue
		}
		out = append(out, p)
	}
	return out
}

func (n *narrowing) highlighted(text string) bool {
	for _, w := range foldedWords(text) {
		for _, q := range n.words {
			if w == q.text || q.prefix && strings.HasPrefix(w, q.text) {
				return true
			}
		}
	}
	return false
}

// foldedWords splits text into words as FTS5's unicode61 tokenizer does
// (runs of letters, numbers, private-use characters and combining marks)
// and folds them as remove_diacritics 2 does: lower case, without
// diacritics.
func foldedWords(text string) []string {
	var words []string
	start := -1
	for i, r := range text {
		if tokenRune(r) {
			if start < 0 {
				start = i
			}
			continue
		}
		if start >= 0 {
			words = append(words, fold(text[start:i]))
			start = -1
		}
	}
	if start >= 0 {
		words = append(words, fold(text[start:]))
	}
	return words
}

func tokenRune(r rune) bool { return wordRune(r) || unicode.Is(unicode.Mn, r) }

func fold(word string) string {
	ascii := true
	for i := 0; i < len(word); i++ {
		if word[i] >= 0x80 {
			ascii = false
			break
		}
	}
	if ascii {
		return strings.ToLower(word)
	}
	var b strings.Builder
	for _, r := range norm.NFD.String(word) {
		if !unicode.Is(unicode.Mn, r) {
			b.WriteRune(unicode.ToLower(r))
		}
	}
	return b.String()
}

// foldsAsUnicode61 reports whether foldedWords splits and folds r as
// SQLite's unicode61 tokenizer does (TestFoldedWordsAgreesWithUnicode61):
// Latin letters and punctuation but a few. Its tables are older than Go's
// (a newer symbol such as U+20BD is a letter to it) and it strips
// diacritics from Latin letters only (not Greek tonos; NFD would also
// split Hangul syllables into jamo), so a text or query with any other
// character is left to FTS5.
func foldsAsUnicode61(r rune) bool {
	switch {
	case r < 0x250:
		return r != 0xB5 && r != 0x17F && (r < 0x1E0 || r > 0x1FF || r >= 0x1E4 && r < 0x1EE || r >= 0x1F0 && r < 0x1FC)
	case r >= 0x2000 && r < 0x2065:
		return true
	}
	return false
}

func allFoldAsUnicode61(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			for _, r := range s[i:] {
				if !foldsAsUnicode61(r) {
					return false
				}
			}
			return true
		}
	}
	return true
}
