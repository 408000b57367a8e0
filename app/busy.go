package app

import "context"

// Busy says whether closing now would cut something short: a turn running
// or a decision (approval, question, client tool) waiting in any thread.
// The desktop window asks before it quits when it is (main.go OnBeforeClose).
func (s *Service) Busy(ctx context.Context) (bool, error) {
	a := s.app
	cursor := ""
	for {
		p, err := a.db.ListThreads(ctx, cursor, 500)
		if err != nil {
			return false, err
		}
		ids := make([]string, len(p.Threads))
		for i, t := range p.Threads {
			ids[i] = t.ID
			if running, _ := a.rt.Running(t.ID); running {
				return true, nil
			}
		}
		waiting, err := a.db.PendingCounts(ctx, ids)
		if err != nil {
			return false, err
		}
		if len(waiting) > 0 {
			return true, nil
		}
		if p.NextCursor == "" {
			return false, nil
		}
		cursor = p.NextCursor
	}
}
