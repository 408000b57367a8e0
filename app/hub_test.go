package app

import (
	"fmt"
	"strings"
	"testing"
)

func frameIDs(frames [][]byte) []string {
	var out []string
	for _, f := range frames {
		s := string(f)
		if strings.Contains(s, `"resync"`) {
			out = append(out, "resync")
			continue
		}
		id := strings.TrimPrefix(strings.SplitN(s, "\n", 2)[0], "id: ")
		out = append(out, id[strings.IndexByte(id, '.')+1:])
	}
	return out
}

func TestHubReplaysWhatAReconnectingPageMissed(t *testing.T) {
	t.Parallel()
	h := NewHub()
	for i := 1; i <= 5; i++ {
		h.Emit("agui", i)
	}
	cases := []struct {
		name, last string
		want       string
	}{
		{"fresh page: nothing replayed", "", ""},
		{"missed two", h.boot + ".3", "4 5"},
		{"missed nothing", h.boot + ".5", ""},
		{"server restarted: everything of this boot", "otherboot.42", "1 2 3 4 5"},
		{"an id from the future", h.boot + ".99", "resync"},
		{"garbage", "nonsense", "resync"},
	}
	for _, tc := range cases {
		c := h.join(tc.last)
		got := strings.Join(frameIDs(c.drain()), " ")
		h.leave(c)
		if got != tc.want {
			t.Errorf("%s: replayed %q, want %q", tc.name, got, tc.want)
		}
	}
	// Live frames follow the replayed ones, in order.
	c := h.join(h.boot + ".4")
	h.Emit("agui", 6)
	if got := strings.Join(frameIDs(c.drain()), " "); got != "5 6" {
		t.Fatalf("replay then live: %q", got)
	}
}

func TestHubAsksForAResyncWhenFramesAreGone(t *testing.T) {
	t.Parallel()
	h := NewHub()
	for i := 0; i < hubRing+10; i++ {
		h.Emit("agui", i)
	}
	c := h.join(fmt.Sprintf("%s.%d", h.boot, 5))
	if got := frameIDs(c.drain()); len(got) != 1 || got[0] != "resync" {
		t.Fatalf("got %v", got)
	}
	c = h.join("otherboot.1") // restarted, but the new boot's first frames are gone
	if got := frameIDs(c.drain()); len(got) != 1 || got[0] != "resync" {
		t.Fatalf("after restart with a full ring: %v", got)
	}
}
