package app

import (
	"context"
	"testing"

	"github.com/juncture-app/juncture/agent/fakellm"
)

// Closing the window asks first while a decision waits, and not when
// nothing runs or waits (main.go's OnBeforeClose reads Busy).
func TestBusyWhileADecisionWaits(t *testing.T) {
	f := newFixture(t, nil)
	ctx := context.Background()
	if busy, err := f.svc.Busy(ctx); err != nil || busy {
		t.Fatalf("an idle app is busy: %v %v", busy, err)
	}
	f.enableWriteTools()
	f.script(fakellm.Reply(writeCall("call-b", "b.txt", "x")), fakellm.Reply(fakellm.Text("Done.")))
	sent := f.send("", "write b.txt")
	v := f.waitPending(sent.ThreadID, 1)
	if busy, err := f.svc.Busy(ctx); err != nil || !busy {
		t.Fatalf("an approval waits but Busy = %v %v", busy, err)
	}
	f.approve(sent.ThreadID, v.Interrupts[0].ID)
	f.waitIdle(sent.ThreadID)
	if busy, err := f.svc.Busy(ctx); err != nil || busy {
		t.Fatalf("after the answer Busy = %v %v", busy, err)
	}
}
