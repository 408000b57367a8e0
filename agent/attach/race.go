//go:build race

package attach

// raceBuild: this binary is race-instrumented (tests only). Its extractor
// children run several times slower, so their time budgets are scaled by
// raceScale; a release build is never race-instrumented.
const (
	raceBuild = true
	raceScale = 6
)
