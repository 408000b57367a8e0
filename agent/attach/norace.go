//go:build !race

package attach

const (
	raceBuild = false
	raceScale = 1
)
