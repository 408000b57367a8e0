//go:build !(desktop && linux && cgo)

// Command xstop needs X11 (Linux, cgo): see main.go.
package main

import (
	"fmt"
	"os"
)

func main() {
	fmt.Fprintln(os.Stderr, "xstop: needs X11 on Linux, built with cgo")
	os.Exit(2)
}
