package app

import "context"

// Busy says whether closing now would cut something short: a turn running
// or a decision (approval, question, client tool) waiting in any thread.
// The desktop window asks before it quits when it is (main.go OnBeforeClose).
func (s *Service) Busy(ctx context.Context) (bool, error) { return s.app.threads.Busy(ctx) }
