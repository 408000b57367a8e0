//go:build race

package attach

const raceBuild = true
