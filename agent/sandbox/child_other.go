//go:build !linux

package sandbox

import "errors"

// errUnsupportedChild is what a confining child says where only the
// parent's mechanism (sandbox-exec) or none exists.
var errUnsupportedChild = errors.New("a confining child is only used on Linux")
