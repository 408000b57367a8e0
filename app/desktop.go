package app

import (
	"strings"

	"github.com/juncture-app/juncture/agent"
)

// Desktop is what only the desktop window can do: native dialogs and
// notifications. main.go provides it through Wails; browser mode has none,
// and the frontend falls back to a download and the page title.
type Desktop interface {
	// SaveFile asks where to save a file; "" means the person cancelled.
	SaveFile(defaultName string) (path string, err error)
	// Notify shows a system notification.
	Notify(title, body string) error
}

// SetDesktop enables the desktop-only methods.
func (s *Service) SetDesktop(d Desktop) {
	s.app.emitMu.Lock()
	s.app.desktop = d
	s.app.emitMu.Unlock()
}

func (a *App) desktopOrNil() Desktop {
	a.emitMu.RLock()
	defer a.emitMu.RUnlock()
	return a.desktop
}

// SaveExport exports a thread to a file the person picks in a native save
// dialog (desktop only). It returns the path, or "" when cancelled.
func (a *App) SaveExport(threadID, format string) (string, error) {
	if a.desktopOrNil() == nil {
		return "", errorf(CodeUnavailable, "Saving through a dialog is only available in the desktop window.")
	}
	exp, err := a.ExportThread(threadID, format)
	if err != nil {
		return "", err
	}
	return a.saveText(exp.Filename, exp.Content, 0o644)
}

// Notify shows a system notification (desktop only; the frontend calls it
// when an approval or question arrives while the window is not focused).
func (a *App) Notify(title, body string) error {
	d := a.desktopOrNil()
	if d == nil {
		return errorf(CodeUnavailable, "System notifications are only available in the desktop window.")
	}
	if strings.TrimSpace(title) == "" {
		return errorf(CodeInvalidArgument, "The notification has no title.")
	}
	if err := d.Notify(agent.Clip(title, 120), agent.Clip(body, 500)); err != nil {
		return errorf(CodeUnavailable, "The system did not show the notification: "+err.Error())
	}
	return nil
}
