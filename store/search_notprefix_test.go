package store

import (
	"slices"
	"testing"
	"time"
)

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
	for _, in := range []string{"東", "東京", "kub", "error kub", "\"new kub"} {
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
