package store

import (
	"context"
	"sync"
	"testing"
)

// TestReadOnlyCopyVersionChosenUnderConcurrentReaders: version arrows
// clicked while the window reads and exports the thread (and another
// thread's arrows at once): every read is one whole version, an export's
// leaf is the end of the path it exports, and nothing errs. Run with -race.
func TestReadOnlyCopyVersionChosenUnderConcurrentReaders(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	live := openTest(t)
	branchCorpus(t, live)
	mustThread(t, live, "other", "Untouched")
	mustPut(t, live, userMsg("other", "o1", "a plain question"))
	ro, _, err := OpenReadOnlyCopy(ctx, live.Path())
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	versions := map[string]bool{"q1,a1b": true, "q1,a1,q2,a2": true, "q1b,a1c": true}
	var wg sync.WaitGroup
	errs := make(chan string, 64)
	for g := 0; g < 6; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for i := 0; i < 40; i++ {
				switch g % 3 {
				case 0:
					pick := []string{"q1", "a1", "q1b", "a2", "a1b"}[(g+i)%5]
					if _, err := ro.SelectBranch(ctx, "t", pick); err != nil {
						errs <- "SelectBranch: " + err.Error()
						return
					}
					if _, err := ro.SelectBranch(ctx, "other", "o1"); err != nil {
						errs <- "SelectBranch other: " + err.Error()
						return
					}
				case 1:
					msgs, err := ro.Messages(ctx, "t")
					if err != nil || !versions[ids(msgs)] {
						errs <- "Messages shows " + ids(msgs)
						return
					}
				case 2:
					_, msgs, leaf, err := ro.threadWithMessages(ctx, "t", true)
					if err != nil || !versions[ids(msgs)] || msgs[len(msgs)-1].ID != leaf {
						errs <- "export shows " + ids(msgs) + " leaf " + leaf
						return
					}
				}
			}
		}(g)
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}
