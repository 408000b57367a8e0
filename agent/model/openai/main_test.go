package openai

import (
	"testing"

	"go.uber.org/goleak"
)

// TestMain fails the package if any test leaves a goroutine behind (a
// stream reader, an HTTP connection of a body nobody closed).
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}
