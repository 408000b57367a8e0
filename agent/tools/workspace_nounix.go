//go:build !unix

package tools

// openNonblock is 0 where opening a file cannot block on a FIFO this way.
const openNonblock = 0
