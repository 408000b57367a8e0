package mcp

import "context"

// WaitFirstStart returns once no server is starting for the first time
// (each is ready, failed, disabled or waiting for a sign-in), or when ctx
// ends. A server restarting after a crash is not waited for: only the
// first turn after launch needs the servers that launch started.
func (m *Manager) WaitFirstStart(ctx context.Context) {
	for {
		changed := m.stateChanged()
		if !m.firstStarting() {
			return
		}
		select {
		case <-changed:
		case <-ctx.Done():
			return
		}
	}
}

func (m *Manager) firstStarting() bool {
	for _, s := range m.sorted() {
		if st := s.snapshot(); st.status == StatusStarting && st.restarts == 0 {
			return true
		}
	}
	return false
}

// stateChanged is closed at the next change of any server's state
// (broadcast, from notify).
func (m *Manager) stateChanged() <-chan struct{} {
	m.waitMu.Lock()
	defer m.waitMu.Unlock()
	if m.waitCh == nil {
		m.waitCh = make(chan struct{})
	}
	return m.waitCh
}

func (m *Manager) broadcast() {
	m.waitMu.Lock()
	defer m.waitMu.Unlock()
	if m.waitCh != nil {
		close(m.waitCh)
		m.waitCh = nil
	}
}
