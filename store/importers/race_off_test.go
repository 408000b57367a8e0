//go:build !race

package importers

const timeScale = 1
