package app

// juncture:// links are read by package links; the window takes the chat
// a launch link asked for here.

// SetLaunchThread keeps the chat a launch link asked for until the window
// takes it (TakeLaunchThread): the first launch's link arrives before the
// window listens.
func (s *Service) SetLaunchThread(threadID string) {
	s.app.linkMu.Lock()
	s.app.launchThread = threadID
	s.app.linkMu.Unlock()
}

// TakeLaunchThread returns, once, the chat a juncture:// link asked to
// open ("" when none).
func (a *App) TakeLaunchThread() string {
	a.linkMu.Lock()
	defer a.linkMu.Unlock()
	id := a.launchThread
	a.launchThread = ""
	return id
}
