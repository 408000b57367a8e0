package app

import "testing"

// TestEveryWriterIsACall: callTable wraps each writers name with the guard
// whether or not the method table has it; a misspelt or removed name would
// leave a guard around nil (a panic in a writable database) and the real
// method, under its right name, unguarded.
func TestEveryWriterIsACall(t *testing.T) {
	calls := (&App{}).methodCalls()
	for name := range writers {
		if calls[name] == nil {
			t.Errorf("writers names %q, which the method table does not have", name)
		}
	}
}
