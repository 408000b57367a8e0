//go:build race

package importers

// timeScale stretches the time budget under the race detector, which
// runs a parse about ten times slower.
const timeScale = 10
