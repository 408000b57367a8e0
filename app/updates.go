package app

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/juncture-app/juncture/app/update"
)

// DefaultFeedURL is the release feed a fresh install checks (Settings can
// change it or turn the check off).
const DefaultFeedURL = "https://juncture.app/releases/feed.json"

// updatesKey is the settings row of the update preferences and the last
// check (JSON, updatePrefs).
const updatesKey = "updates"

// UpdateSettings are the person's update choices.
type UpdateSettings struct {
	FeedURL string `json:"feedUrl"`
	// Off turns every check off: Juncture then never contacts the feed.
	Off bool `json:"off"`
}

// UpdateStatus is what the window shows about updates.
type UpdateStatus struct {
	Settings UpdateSettings `json:"settings"`
	Current  string         `json:"current"`
	// Offer is a newer version from the last check, if any.
	Offer *update.Offer `json:"offer,omitempty"`
	// LastCheck is when the feed was last asked (RFC 3339), "" never.
	LastCheck string `json:"lastCheck,omitempty"`
	// Message says what the last check or update found, in words.
	Message string `json:"message,omitempty"`
	// Managed: a package manager installed this binary; it updates it.
	Managed bool `json:"managed,omitempty"`
	// CanUpdate is false for a build without the release key (a source
	// build), which never checks.
	CanUpdate bool `json:"canUpdate"`
	// Restarting: the new version is in place and starts now.
	Restarting bool `json:"restarting,omitempty"`
}

// updatePrefs is the stored row.
type updatePrefs struct {
	UpdateSettings
	LastCheck time.Time     `json:"lastCheck"`
	Offer     *update.Offer `json:"offer,omitempty"`
	Message   string        `json:"message,omitempty"`
}

type updateState struct {
	mu sync.Mutex // one check or apply at a time; guards the row
}

// Restarter is what the desktop window does after an update: start the
// new binary on openURL and quit (main.go).
type Restarter interface {
	Restart(exe, openURL string) error
}

func (a *App) loadUpdatePrefs(ctx context.Context) updatePrefs {
	p := updatePrefs{UpdateSettings: UpdateSettings{FeedURL: DefaultFeedURL}}
	saved, err := a.db.Settings(ctx)
	if err != nil || saved[updatesKey] == "" {
		return p
	}
	if err := json.Unmarshal([]byte(saved[updatesKey]), &p); err != nil {
		a.log.Warn("the saved update settings do not parse; using the defaults", "err", err)
		return updatePrefs{UpdateSettings: UpdateSettings{FeedURL: DefaultFeedURL}}
	}
	if p.FeedURL == "" {
		p.FeedURL = DefaultFeedURL
	}
	return p
}

func (a *App) saveUpdatePrefs(ctx context.Context, p updatePrefs) error {
	b, err := json.Marshal(p)
	if err != nil {
		return err
	}
	return a.db.SaveSettings(ctx, map[string]string{updatesKey: string(b)})
}

func (a *App) updater(feed string) *update.Updater {
	u := &update.Updater{FeedURL: feed, Current: a.cfg.Version, Exe: a.cfg.UpdateExe}
	if k, err := update.ParsePublicKey(a.cfg.UpdateKey); err == nil {
		u.PublicKey = k
	}
	return u
}

func (a *App) updateExe() string {
	if a.cfg.UpdateExe != "" {
		return a.cfg.UpdateExe
	}
	exe, err := os.Executable()
	if err != nil {
		return ""
	}
	if r, err := filepath.EvalSymlinks(exe); err == nil {
		exe = r
	}
	return exe
}

func (a *App) updateStatus(p updatePrefs) UpdateStatus {
	st := UpdateStatus{Settings: p.UpdateSettings, Current: a.cfg.Version, Message: p.Message,
		Managed: update.Managed(a.updateExe()), CanUpdate: a.cfg.UpdateKey != ""}
	if !p.LastCheck.IsZero() {
		st.LastCheck = p.LastCheck.UTC().Format(time.RFC3339)
	}
	if p.Offer != nil && update.Compare(p.Offer.Version, a.cfg.Version) > 0 {
		st.Offer = p.Offer
	}
	return st
}

// GetUpdateStatus returns the update settings and the last check's
// result without contacting anything.
func (a *App) GetUpdateStatus() (UpdateStatus, error) {
	ctx, cancel := a.ctx()
	defer cancel()
	a.upd.mu.Lock()
	defer a.upd.mu.Unlock()
	return a.updateStatus(a.loadUpdatePrefs(ctx)), nil
}

// SaveUpdateSettings stores the feed URL and the off switch. A new feed
// URL may be checked at once (the daily limit is per feed).
func (a *App) SaveUpdateSettings(s UpdateSettings) (UpdateStatus, error) {
	if s.FeedURL == "" {
		s.FeedURL = DefaultFeedURL
	}
	if err := update.CheckFeedURL(s.FeedURL); err != nil {
		return UpdateStatus{}, errorf(CodeInvalidSettings, "Update feed: "+err.Error()+".")
	}
	ctx, cancel := a.ctx()
	defer cancel()
	a.upd.mu.Lock()
	defer a.upd.mu.Unlock()
	p := a.loadUpdatePrefs(ctx)
	if p.FeedURL != s.FeedURL {
		p.LastCheck, p.Offer, p.Message = time.Time{}, nil, ""
	}
	p.UpdateSettings = s
	if err := a.saveUpdatePrefs(ctx, p); err != nil {
		return UpdateStatus{}, asError(err)
	}
	return a.updateStatus(p), nil
}

// CheckForUpdate asks the feed for a newer version, at most once a day
// (within a day it returns the last answer without a request), never
// when updates are off or this build has no key. Only the GET of the feed
// URL is sent.
func (a *App) CheckForUpdate() (UpdateStatus, error) {
	ctx, cancel := context.WithTimeout(a.bgCtx, update.CheckTimeout+5*time.Second)
	defer cancel()
	a.upd.mu.Lock()
	defer a.upd.mu.Unlock()
	p := a.loadUpdatePrefs(ctx)
	if p.Off || a.cfg.UpdateKey == "" || time.Since(p.LastCheck) < update.MinInterval {
		return a.updateStatus(p), nil
	}
	offer, err := a.updater(p.FeedURL).Check(ctx)
	p.LastCheck, p.Offer, p.Message = time.Now(), offer, ""
	switch reason := update.ReasonOf(err); {
	case err == nil && offer != nil:
		p.Message = fmt.Sprintf("Version %s is available.", offer.Version)
	case reason == update.ReasonNotNewer:
		p.Message = "Juncture is up to date."
	case err != nil:
		p.Message = err.Error()
		a.log.Warn("update check", "reason", reason, "err", err)
	}
	if serr := a.saveUpdatePrefs(ctx, p); serr != nil {
		return UpdateStatus{}, asError(serr)
	}
	return a.updateStatus(p), nil
}

// ApplyUpdate downloads, verifies and installs the offered version, then
// restarts into it with threadID's chat open (desktop); in browser mode
// the new binary is in place for the next start. A refusal leaves this
// version as it is and says why.
func (a *App) ApplyUpdate(threadID string) (UpdateStatus, error) {
	ctx, cancel := context.WithTimeout(a.bgCtx, update.DownloadTimeout)
	defer cancel()
	a.upd.mu.Lock()
	defer a.upd.mu.Unlock()
	p := a.loadUpdatePrefs(ctx)
	st := a.updateStatus(p)
	if st.Offer == nil {
		return st, errorf(CodeConflict, "There is no newer version to install; check for updates first.")
	}
	if p.Off {
		return st, errorf(CodeConflict, "Updates are turned off in Settings.")
	}
	exe, err := a.updater(p.FeedURL).Apply(ctx, *st.Offer)
	if err != nil {
		a.log.Warn("update refused", "version", st.Offer.Version, "reason", update.ReasonOf(err), "err", err)
		code := CodeConflict
		if update.ReasonOf(err) == update.ReasonDiskFull {
			code = CodeDiskFull
		}
		return st, errorf(code, err.Error())
	}
	newVersion := st.Offer.Version
	a.log.Info("update installed", "from", a.cfg.Version, "to", newVersion, "exe", exe)
	p.Offer, p.Message = nil, fmt.Sprintf("Version %s is installed; it starts with the next launch.", newVersion)
	if serr := a.saveUpdatePrefs(ctx, p); serr != nil {
		a.log.Warn("saving the update state", "err", serr)
	}
	st = a.updateStatus(p)
	if r, ok := a.desktopOrNil().(Restarter); ok {
		openURL := ""
		if threadID != "" {
			openURL = ThreadURL(threadID)
		}
		if err := r.Restart(exe, openURL); err != nil {
			st.Message = fmt.Sprintf("Version %s is installed, but restarting failed (%v): close and open Juncture.", newVersion, err)
			return st, nil
		}
		st.Restarting = true
	}
	return st, nil
}
