//go:build unix && !freebsd && !dragonfly

package attach

// rlimVal is a limit as this system's Rlimit holds it (uint64 here).
func rlimVal(v uint64) uint64 { return v }
