package update

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"time"
)

// DefaultFeedURL is the release feed a fresh install checks (Settings can
// change it or turn the check off).
const DefaultFeedURL = "https://juncture.app/releases/feed.json"

// prefsKey is the settings row of the update preferences and the last
// check (JSON, prefs).
const prefsKey = "updates"

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
	Offer *Offer `json:"offer,omitempty"`
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

// prefs is the stored row.
type prefs struct {
	UpdateSettings
	LastCheck time.Time `json:"lastCheck"`
	Offer     *Offer    `json:"offer,omitempty"`
	Message   string    `json:"message,omitempty"`
}

// Rows is where the preferences row is kept (store.DB's settings).
type Rows interface {
	Settings(ctx context.Context) (map[string]string, error)
	SaveSettings(ctx context.Context, kv map[string]string) error
}

// Errors Apply returns before it tries anything.
var (
	ErrNoOffer = errors.New("there is no newer version to install; check for updates first")
	ErrOff     = errors.New("updates are turned off in Settings")
)

// Prefs is the app's side of updates: the person's choices and the last
// check, kept in a settings row, one check or apply at a time.
type Prefs struct {
	Rows    Rows
	Version string // this build's
	Key     string // the release feed's public key (base64); "" never checks
	Exe     string // the binary an update replaces; "" is this process's
	Log     *slog.Logger

	mu sync.Mutex // one check or apply at a time; guards the row
}

func (p *Prefs) load(ctx context.Context) prefs {
	r := prefs{UpdateSettings: UpdateSettings{FeedURL: DefaultFeedURL}}
	saved, err := p.Rows.Settings(ctx)
	if err != nil || saved[prefsKey] == "" {
		return r
	}
	if err := json.Unmarshal([]byte(saved[prefsKey]), &r); err != nil {
		p.Log.Warn("the saved update settings do not parse; using the defaults", "err", err)
		return prefs{UpdateSettings: UpdateSettings{FeedURL: DefaultFeedURL}}
	}
	if r.FeedURL == "" {
		r.FeedURL = DefaultFeedURL
	}
	return r
}

func (p *Prefs) save(ctx context.Context, r prefs) error {
	b, err := json.Marshal(r)
	if err != nil {
		return err
	}
	return p.Rows.SaveSettings(ctx, map[string]string{prefsKey: string(b)})
}

func (p *Prefs) updater(feed string) *Updater {
	u := &Updater{FeedURL: feed, Current: p.Version, Exe: p.Exe}
	if k, err := ParsePublicKey(p.Key); err == nil {
		u.PublicKey = k
	}
	return u
}

func (p *Prefs) exe() string {
	if p.Exe != "" {
		return p.Exe
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

func (p *Prefs) status(r prefs) UpdateStatus {
	st := UpdateStatus{Settings: r.UpdateSettings, Current: p.Version, Message: r.Message,
		Managed: Managed(p.exe()), CanUpdate: p.Key != ""}
	if !r.LastCheck.IsZero() {
		st.LastCheck = r.LastCheck.UTC().Format(time.RFC3339)
	}
	if r.Offer != nil && Compare(r.Offer.Version, p.Version) > 0 {
		st.Offer = r.Offer
	}
	return st
}

// Status is the settings and the last check's result; it contacts
// nothing.
func (p *Prefs) Status(ctx context.Context) UpdateStatus {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.status(p.load(ctx))
}

// Save stores the feed URL (checked by the caller: CheckFeedURL) and the
// off switch. A new feed URL may be checked at once (the daily limit is
// per feed).
func (p *Prefs) Save(ctx context.Context, s UpdateSettings) (UpdateStatus, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	r := p.load(ctx)
	if r.FeedURL != s.FeedURL {
		r.LastCheck, r.Offer, r.Message = time.Time{}, nil, ""
	}
	r.UpdateSettings = s
	if err := p.save(ctx, r); err != nil {
		return UpdateStatus{}, err
	}
	return p.status(r), nil
}

// Check asks the feed for a newer version, at most once a day (within a
// day it returns the last answer without a request), never when updates
// are off or this build has no key. Only the GET of the feed URL is sent.
// Its error is only a failure to save what it found.
func (p *Prefs) Check(ctx context.Context) (UpdateStatus, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	r := p.load(ctx)
	if r.Off || p.Key == "" || time.Since(r.LastCheck) < MinInterval {
		return p.status(r), nil
	}
	offer, err := p.updater(r.FeedURL).Check(ctx)
	r.LastCheck, r.Offer, r.Message = time.Now(), offer, ""
	switch reason := ReasonOf(err); {
	case err == nil && offer != nil:
		r.Message = fmt.Sprintf("Version %s is available.", offer.Version)
	case reason == ReasonNotNewer:
		r.Message = "Juncture is up to date."
	case err != nil:
		r.Message = err.Error()
		p.Log.Warn("update check", "reason", reason, "err", err)
	}
	if serr := p.save(ctx, r); serr != nil {
		return UpdateStatus{}, serr
	}
	return p.status(r), nil
}

// Apply downloads, verifies and installs the offered version; a refusal
// (ErrNoOffer, ErrOff, a *RefusedError) leaves this version as it is.
// installed runs with the new binary, its version and the status to
// return, before
// the next check or apply may start (the desktop restarts into it).
func (p *Prefs) Apply(ctx context.Context, installed func(exe, version string, st *UpdateStatus)) (UpdateStatus, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	r := p.load(ctx)
	st := p.status(r)
	if st.Offer == nil {
		return st, ErrNoOffer
	}
	if r.Off {
		return st, ErrOff
	}
	exe, err := p.updater(r.FeedURL).Apply(ctx, *st.Offer)
	if err != nil {
		p.Log.Warn("update refused", "version", st.Offer.Version, "reason", ReasonOf(err), "err", err)
		return st, err
	}
	newVersion := st.Offer.Version
	p.Log.Info("update installed", "from", p.Version, "to", newVersion, "exe", exe)
	r.Offer, r.Message = nil, fmt.Sprintf("Version %s is installed; it starts with the next launch.", newVersion)
	if serr := p.save(ctx, r); serr != nil {
		p.Log.Warn("saving the update state", "err", serr)
	}
	st = p.status(r)
	installed(exe, newVersion, &st)
	return st, nil
}
