//go:build freebsd || dragonfly

package attach

// rlimVal is a limit as this system's Rlimit holds it (int64 here).
func rlimVal(v uint64) int64 { return int64(v) }
