// Package store is Juncture's history database: threads, messages, runs,
// tool executions, interrupts, client tool calls, permission rules and
// settings, in one SQLite file (modernc.org/sqlite, pure Go), with
// full-text search and export/import.
//
// The store does not import Wails nor any agent/ package but agent/history,
// whose record types it persists as they are.
package store
