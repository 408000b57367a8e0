// Package interrupt is Juncture's TanStack-AI-compatible interrupt model.
package interrupt
