package app

import (
	"context"
	"errors"
	"time"

	"github.com/juncture-app/juncture/app/links"
	"github.com/juncture-app/juncture/app/update"
)

// The release feed's preferences, check and install are package update's
// (update.Prefs); these methods map its errors and restart the desktop.

// UpdateSettings are the person's update choices (update.UpdateSettings).
type UpdateSettings = update.UpdateSettings

// UpdateStatus is what the window shows about updates (update.UpdateStatus).
type UpdateStatus = update.UpdateStatus

// Restarter is what the desktop window does after an update (update.Restarter).
type Restarter = update.Restarter

// GetUpdateStatus returns the update settings and the last check's
// result without contacting anything.
func (a *App) GetUpdateStatus() (UpdateStatus, error) {
	ctx, cancel := a.ctx()
	defer cancel()
	return a.upd.Status(ctx), nil
}

// SaveUpdateSettings stores the feed URL and the off switch. A new feed
// URL may be checked at once (the daily limit is per feed).
func (a *App) SaveUpdateSettings(s UpdateSettings) (UpdateStatus, error) {
	if s.FeedURL == "" {
		s.FeedURL = update.DefaultFeedURL
	}
	if err := update.CheckFeedURL(s.FeedURL); err != nil {
		return UpdateStatus{}, errorf(CodeInvalidSettings, "Update feed: "+err.Error()+".")
	}
	ctx, cancel := a.ctx()
	defer cancel()
	st, err := a.upd.Save(ctx, s)
	return st, asErrorOrNil(err)
}

// CheckForUpdate asks the feed for a newer version, at most once a day,
// never when updates are off or this build has no key (update.Prefs.Check).
func (a *App) CheckForUpdate() (UpdateStatus, error) {
	ctx, cancel := context.WithTimeout(a.bgCtx, update.CheckTimeout+5*time.Second)
	defer cancel()
	st, err := a.upd.Check(ctx)
	return st, asErrorOrNil(err)
}

// ApplyUpdate downloads, verifies and installs the offered version, then
// restarts into it with threadID's chat open (desktop); in browser mode
// the new binary is in place for the next start. A refusal leaves this
// version as it is and says why.
func (a *App) ApplyUpdate(threadID string) (UpdateStatus, error) {
	ctx, cancel := context.WithTimeout(a.bgCtx, update.DownloadTimeout)
	defer cancel()
	r, _ := a.desktopOrNil().(Restarter)
	openURL := ""
	if threadID != "" {
		openURL = links.ThreadURL(threadID)
	}
	st, err := a.upd.Apply(ctx, update.RestartInto(r, openURL))
	switch {
	case errors.Is(err, update.ErrNoOffer):
		return st, errorf(CodeConflict, "There is no newer version to install; check for updates first.")
	case errors.Is(err, update.ErrOff):
		return st, errorf(CodeConflict, "Updates are turned off in Settings.")
	case update.ReasonOf(err) == update.ReasonDiskFull:
		return st, errorf(CodeDiskFull, err.Error())
	case err != nil:
		return st, errorf(CodeConflict, err.Error())
	}
	return st, nil
}
