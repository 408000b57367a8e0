package attach

import (
	"os"
	"testing"
	"time"
)

// TestMain lets this test binary serve as the extractor child. The tests
// give children a lower CPU and wall budget than the app does (proving a
// hostile file is stopped then costs seconds of CI), except when
// JUNCTURE_HOSTILE_FIGURES=1 asks for the app's budgets and the figures.
func TestMain(m *testing.M) {
	MaybeRunExtractor()
	if os.Getenv("JUNCTURE_HOSTILE_FIGURES") != "1" {
		cpuBudget, wallBudget = 2, 10*time.Second
	}
	os.Exit(m.Run())
}
