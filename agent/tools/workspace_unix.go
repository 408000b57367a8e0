//go:build unix

package tools

import "syscall"

// openNonblock keeps opening a FIFO from waiting for a writer. It changes
// nothing for regular files and folders.
const openNonblock = syscall.O_NONBLOCK
