//go:build unix

package plainfile

import "syscall"

// Flags are added to every open: O_NONBLOCK so a named pipe without a
// writer (or a terminal line) cannot hold it, O_NOCTTY so a terminal
// device never becomes the controlling terminal.
const Flags = syscall.O_NONBLOCK | syscall.O_NOCTTY
