package store

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// maxTerms bounds the words and phrases taken from one search text.
const maxTerms = 32

// searchTerm is one word or phrase of a person's search text.
type searchTerm struct {
	text     string // the words, as typed (never FTS5 syntax)
	prefix   bool   // match words starting with the last word
	implicit bool   // prefix only because the word is still being typed
	not      bool   // exclude messages containing it
	or       bool   // joined to the previous term with OR rather than AND
}

// searchQuery is a person's search text turned into FTS5 MATCH expressions.
type searchQuery struct {
	match   string   // "" when there is nothing to search for
	phrases []string // each positive term alone, for cost estimates
	// longPrefix is set when a term is a prefix longer than the prefix
	// index (3): FTS5 then merges the doclists of every word starting with
	// it, in every query that uses the term.
	longPrefix bool
	// fallback is the cheap form of a query whose last word is being typed
	// (that word cut to its first 3 letters, still a prefix, served by the
	// prefix index) or that holds a prefix of fewer than 3 letters (taken
	// as a word), searched instead when the query is over the prefix
	// budget. nil when it has neither.
	fallback *searchQuery
	// narrow is the cheap form of a search with long prefixes (see
	// narrowing); nil when it has none, or is not one AND group.
	narrow *narrowing
}

// ftsQuery returns the MATCH expression for input (see parseQuery).
func ftsQuery(input string) string { return parseQuery(input).match }

// parseQuery turns anything a person can type into a safe FTS5 MATCH
// expression.
//
// The person's text is never given to FTS5 as syntax: every word or phrase
// becomes a double-quoted FTS5 string (embedded quotes doubled), so FTS5
// operators, column filters, parentheses, carets and stray quotes are just
// text. On top of that, a small, forgiving syntax is understood:
//
//	"exact words"   a phrase (an unclosed quote runs to the end)
//	word*  "a b"*   prefix: words starting with word
//	a OR b          either (upper-case OR between two terms)
//	-word, NOT word exclude (only when something else is searched for)
//	AND             ignored (terms are AND-ed anyway)
//
// The last word, when the text does not end in a space, is also matched as
// a prefix, as it is probably still being typed: if it has at least 3
// characters (or is CJK text, which has no spaces between words), so that
// "a" does not ask for every word starting with a.
func parseQuery(input string) searchQuery {
	terms := parseSearch(input)
	q := buildQuery(terms)
	cheap := slices.Clone(terms)
	// An excluded term stays a prefix: the word alone would exclude fewer
	// messages and give back ones the person excluded. Only when every
	// term is excluded are they searched for (buildQuery), and may narrow.
	allNot := !slices.ContainsFunc(terms, func(t searchTerm) bool { return !t.not })
	for i, t := range terms {
		switch {
		case t.implicit:
			cheap[i].text = cutLastWord(t.text, 3)
			cheap[i].implicit = false
		case t.prefix && (!t.not || allNot) && lastWordLen(t.text) < 3:
			// "t*": below the prefix index, FTS5 merges the doclist of
			// every word starting with t, in full (seconds at 10,000,000
			// messages); over budget, the word itself.
			cheap[i].prefix = false
		}
	}
	// No cheaper form (nothing above applies), or one that is the query
	// itself (a word of up to 3 letters being typed, "日本"): no fallback,
	// which would only run the same query a second time after the budget.
	if f := buildQuery(cheap); f.match != q.match {
		q.fallback = &f
	}
	return q
}

func buildQuery(terms []searchTerm) searchQuery {
	if len(terms) == 0 {
		return searchQuery{}
	}
	var groups [][]searchTerm // OR of AND-groups
	var excluded []searchTerm
	for _, t := range terms {
		switch {
		case t.not:
			excluded = append(excluded, t)
		case t.or && len(groups) > 0:
			groups = append(groups, []searchTerm{t})
		case len(groups) == 0:
			groups = append(groups, []searchTerm{t})
		default:
			groups[len(groups)-1] = append(groups[len(groups)-1], t)
		}
	}
	if len(groups) == 0 {
		// Only exclusions: FTS5 cannot express "everything but"; search
		// for the words instead, as a person typing "-foo" half expects.
		for _, t := range excluded {
			t.not = false
			groups = append(groups, []searchTerm{t})
		}
		excluded = nil
		if len(groups) > 1 {
			groups = [][]searchTerm{concat(groups)}
		}
	}
	var q searchQuery
	var b strings.Builder
	for i, g := range groups {
		if i > 0 {
			b.WriteString(" OR ")
		}
		b.WriteByte('(')
		for j, t := range g {
			if j > 0 {
				b.WriteByte(' ')
			}
			writeTerm(&b, t)
			if t.prefix && lastWordLen(t.text) > 3 {
				q.longPrefix = true
			}
			var one strings.Builder
			writeTerm(&one, t)
			q.phrases = append(q.phrases, one.String())
		}
		b.WriteByte(')')
	}
	if len(excluded) > 0 {
		s := "(" + b.String() + ") NOT ("
		b.Reset()
		b.WriteString(s)
		for i, t := range excluded {
			if i > 0 {
				b.WriteString(" OR ")
			}
			writeTerm(&b, t)
		}
		b.WriteByte(')')
	}
	q.match = b.String()
	if q.longPrefix && len(groups) == 1 {
		q.narrow = narrowQuery(groups[0], excluded)
	}
	return q
}

func concat(groups [][]searchTerm) []searchTerm {
	var all []searchTerm
	for _, g := range groups {
		all = append(all, g...)
	}
	return all
}

func writeTerm(b *strings.Builder, t searchTerm) {
	b.WriteByte('"')
	b.WriteString(strings.ReplaceAll(t.text, `"`, `""`))
	b.WriteByte('"')
	if t.prefix {
		b.WriteString(" *")
	}
}

// parseSearch splits the person's text into terms (see ftsQuery). Terms
// with nothing the FTS5 tokenizer would index (punctuation, emoji) are
// dropped.
func parseSearch(input string) []searchTerm {
	if !utf8.ValidString(input) {
		input = strings.ToValidUTF8(input, " ")
	}
	input = strings.ReplaceAll(input, "\x00", " ")
	var terms []searchTerm
	pendingOr, pendingNot := false, false
	add := func(t searchTerm) {
		t.text = strings.TrimSpace(t.text)
		if !searchable(t.text) {
			return
		}
		if len(terms) == maxTerms {
			return // a pasted page is not a query: keep its cost bounded
		}
		t.or = pendingOr && len(terms) > 0
		t.not = t.not || pendingNot
		pendingOr, pendingNot = false, false
		terms = append(terms, t)
	}
	rs := []rune(input)
	for i := 0; i < len(rs); {
		r := rs[i]
		switch {
		case unicode.IsSpace(r):
			i++
		case r == '"':
			j := i + 1
			for j < len(rs) && rs[j] != '"' {
				j++
			}
			t := searchTerm{text: string(rs[i+1 : j])}
			if j >= len(rs) { // unclosed: still being typed
				words := strings.Fields(t.text)
				if len(words) > 0 && typing(words[len(words)-1]) {
					t.prefix, t.implicit = true, true
				}
				i = j
			} else {
				i = j + 1
				if i < len(rs) && rs[i] == '*' {
					t.prefix = true
					for i < len(rs) && rs[i] == '*' {
						i++
					}
				}
			}
			add(t)
		default:
			j := i
			for j < len(rs) && !unicode.IsSpace(rs[j]) && rs[j] != '"' {
				j++
			}
			word := string(rs[i:j])
			atEnd := j == len(rs)
			i = j
			switch word {
			case "OR":
				if len(terms) > 0 {
					pendingOr = true
					continue
				}
			case "AND":
				continue
			case "NOT":
				pendingNot = true
				continue
			}
			t := searchTerm{}
			if strings.HasPrefix(word, "-") && len(word) > 1 {
				t.not = true
				word = strings.TrimLeft(word, "-")
			}
			if strings.HasSuffix(word, "*") {
				t.prefix = true
				word = strings.TrimRight(word, "*")
			}
			if atEnd && !t.prefix && typing(word) {
				t.prefix, t.implicit = true, true
			}
			t.text = word
			add(t)
		}
	}
	return terms
}

// lastWordLen is the number of letters and digits of the last word of text.
func lastWordLen(text string) int {
	rs := []rune(text)
	end := len(rs)
	for end > 0 && !wordRune(rs[end-1]) {
		end--
	}
	n := 0
	for end > 0 && wordRune(rs[end-1]) {
		end--
		n++
	}
	return n
}

// cutLastWord shortens the last word of text to n letters or digits.
func cutLastWord(text string, n int) string {
	rs := []rune(text)
	end := len(rs)
	for end > 0 && !wordRune(rs[end-1]) {
		end--
	}
	start := end
	for start > 0 && wordRune(rs[start-1]) {
		start--
	}
	if end-start <= n {
		return text
	}
	return string(rs[:start+n])
}

func wordRune(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsNumber(r) || unicode.Is(unicode.Co, r)
}

// typing reports whether a last word is long enough to be matched as a
// prefix while it is being typed.
func typing(word string) bool {
	n := 0
	for _, r := range word {
		if unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul) {
			return true
		}
		if unicode.IsLetter(r) || unicode.IsNumber(r) {
			n++
		}
	}
	return n >= 3
}

// searchable reports whether s holds a character the unicode61 tokenizer
// treats as part of a word (letters, numbers, private-use characters).
func searchable(s string) bool {
	for _, r := range s {
		if unicode.IsLetter(r) || unicode.IsNumber(r) || unicode.Is(unicode.Co, r) {
			return true
		}
	}
	return false
}
