package store

import (
	"bytes"
	"context"
	"os"
	"testing"
)

// TestReadOnlyCopyShowsAnotherVersionWithoutWriting: in a read-only copy
// the version arrows still switch what is shown (SelectBranch), held in
// the copy's memory: the copy's file and the original are not written,
// the thread reads (and exports) as the version chosen, and a message of
// no thread is refused as in the live database.
func TestReadOnlyCopyShowsAnotherVersionWithoutWriting(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	live := openTest(t)
	branchCorpus(t, live)
	mustThread(t, live, "other", "Untouched")
	mustPut(t, live, userMsg("other", "o1", "a plain question"))
	ro, copyPath, err := OpenReadOnlyCopy(ctx, live.Path())
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	before, err := os.ReadFile(copyPath)
	if err != nil {
		t.Fatal(err)
	}

	for _, c := range []struct {
		name, selectID, wantLeaf, wantPath string
	}{
		// Where the person last was in that version, as the live app goes.
		{"previous question version", "q1", "a1b", "q1,a1b"},
		{"older answer", "a1", "a2", "q1,a1,q2,a2"},
		{"newest version again", "q1b", "a1c", "q1b,a1c"},
		{"the older answer once more", "a2", "a2", "q1,a1,q2,a2"},
	} {
		leaf, err := ro.SelectBranch(ctx, "t", c.selectID)
		if err != nil {
			t.Fatalf("%s: SelectBranch in a read-only copy: %v", c.name, err)
		}
		if leaf != c.wantLeaf {
			t.Errorf("%s: leaf %s, want %s", c.name, leaf, c.wantLeaf)
		}
		if got := ids(mustMessages(t, ro, "t")); got != c.wantPath {
			t.Errorf("%s: shown %s, want %s", c.name, got, c.wantPath)
		}
		if _, msgs, shownLeaf, err := ro.threadWithMessages(ctx, "t", true); err != nil || ids(msgs) != c.wantPath || shownLeaf != c.wantLeaf {
			t.Errorf("%s: exported %s (leaf %s), %v; want %s", c.name, ids(msgs), shownLeaf, err, c.wantPath)
		}
	}
	if got := ids(mustMessages(t, ro, "other")); got != "o1" {
		t.Errorf("another thread shows %s, want o1", got)
	}
	if _, err := ro.SelectBranch(ctx, "t", "o1"); !isNotFound(err) {
		t.Errorf("selecting another thread's message = %v, want ErrNotFound", err)
	}
	if _, err := ro.SelectBranch(ctx, "nope", "q1"); !isNotFound(err) {
		t.Errorf("selecting in no thread = %v, want ErrNotFound", err)
	}

	after, err := os.ReadFile(copyPath)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(before, after) {
		t.Error("the copy's file changed")
	}
	if got := ids(mustMessages(t, live, "t")); got != "q1b,a1c" {
		t.Errorf("the live database shows %s, want q1b,a1c (a copy's choice is its own)", got)
	}
}

// TestReadOnlyCopyKeepsTheVersionShownWhenAMessageOnItIsSelected: as in
// the live database, selecting a message already on the path shown (a
// search hit on it) changes nothing. The copy's stored clock does not
// know the version viewed, so going by it alone jumped to the branch the
// live app was last at.
func TestReadOnlyCopyKeepsTheVersionShownWhenAMessageOnItIsSelected(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	live := openTest(t)
	branchCorpus(t, live)
	ro, _, err := OpenReadOnlyCopy(ctx, live.Path())
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	for _, c := range []struct {
		name, view, selectID, wantLeaf, wantPath string
	}{
		{"the first question of an older version", "a1", "q1", "a2", "q1,a1,q2,a2"},
		{"the answer of an older version", "a1", "a1", "a2", "q1,a1,q2,a2"},
		{"the leaf itself", "a1", "a2", "a2", "q1,a1,q2,a2"},
		{"the newest version's question", "q1b", "q1b", "a1c", "q1b,a1c"},
		// Off the path shown: where the live app was last in that version.
		{"another version of the question", "q1b", "q1", "a1b", "q1,a1b"},
	} {
		if _, err := ro.SelectBranch(ctx, "t", c.view); err != nil {
			t.Fatalf("%s: viewing %s: %v", c.name, c.view, err)
		}
		leaf, err := ro.SelectBranch(ctx, "t", c.selectID)
		if err != nil {
			t.Fatalf("%s: SelectBranch: %v", c.name, err)
		}
		if got := ids(mustMessages(t, ro, "t")); leaf != c.wantLeaf || got != c.wantPath {
			t.Errorf("%s: leaf %s, shown %s; want %s, %s", c.name, leaf, got, c.wantLeaf, c.wantPath)
		}
	}
}
