//go:build unix && !linux

package tools

import "syscall"

// setParentDeathSignal does nothing here: only Linux can tie a child's
// life to its parent. KillAll at shutdown ends running commands.
func setParentDeathSignal(*syscall.SysProcAttr) {}
