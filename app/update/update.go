package update

import (
	"context"
	"crypto/ed25519"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"runtime"
	"strings"
	"time"
)

// Budgets, decided before any byte arrives.
const (
	MaxFeedBytes     = 64 << 10  // the feed is a few hundred bytes
	MaxArtifactBytes = 512 << 20 // a Juncture binary is ~30 MB
	CheckTimeout     = 20 * time.Second
	DownloadTimeout  = 15 * time.Minute
	MinInterval      = 24 * time.Hour // never more than daily
	maxRedirects     = 5
)

// UserAgent is the same for every Juncture: it names the program, not the
// person or the install.
const UserAgent = "Juncture-Updater"

// Reasons for a refusal, for the window and the tests.
const (
	ReasonBadFeed      = "bad-feed"
	ReasonBadSignature = "bad-signature"
	ReasonNotNewer     = "not-newer"
	ReasonNoArtifact   = "no-artifact"
	ReasonTampered     = "tampered"
	ReasonTruncated    = "truncated"
	ReasonTooLarge     = "too-large"
	ReasonDiskFull     = "disk-full"
	ReasonNetwork      = "network"
	ReasonManaged      = "package-managed"
	ReasonNoKey        = "no-key"
	ReasonFileSystem   = "file-system"
)

// RefusedError is an update that was not applied; the running version is
// untouched. Message says why in the person's words.
type RefusedError struct {
	Reason  string
	Message string
}

func (e *RefusedError) Error() string { return e.Message }

func refuse(reason, format string, args ...any) error {
	return &RefusedError{Reason: reason, Message: fmt.Sprintf(format, args...)}
}

// ReasonOf is the refusal's reason, or "" for another error.
func ReasonOf(err error) string {
	var r *RefusedError
	if errors.As(err, &r) {
		return r.Reason
	}
	return ""
}

// Offer is a newer version the feed offers for this platform.
type Offer struct {
	Version  string   `json:"version"`
	Notes    string   `json:"notes,omitempty"`
	NotesURL string   `json:"notesUrl,omitempty"`
	Artifact Artifact `json:"artifact"`
}

// Updater checks one feed for one running binary.
type Updater struct {
	FeedURL   string
	PublicKey ed25519.PublicKey
	Current   string // the running version
	Platform  string // Platform() unless a test says otherwise
	// Exe is the binary to replace (os.Executable, symlinks resolved).
	Exe string
	// Client makes the requests; nil is a client with no cookie jar and
	// the redirect rule below.
	Client *http.Client
	// createTemp makes the download's file next to Exe (tests swap it for
	// a full disk).
	createTemp func(dir, pattern string) (tempFile, error)
}

type tempFile interface {
	io.Writer
	Name() string
	Sync() error
	Close() error
}

// Platform is this build's key in a manifest's artifacts.
func Platform() string { return runtime.GOOS + "-" + runtime.GOARCH }

// CheckFeedURL refuses a feed URL the updater would not fetch: https, or
// http to a loopback address (a local test feed).
func CheckFeedURL(raw string) error {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return fmt.Errorf("%q is not a URL", raw)
	}
	if u.User != nil {
		return fmt.Errorf("the feed URL must not carry a user name or password")
	}
	switch u.Scheme {
	case "https":
		return nil
	case "http":
		if isLoopback(u.Hostname()) {
			return nil
		}
	}
	return fmt.Errorf("the feed URL must be https:// (http:// only for this computer)")
}

func isLoopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

func (u *Updater) client() *http.Client {
	if u.Client != nil {
		return u.Client
	}
	return &http.Client{CheckRedirect: func(req *http.Request, via []*http.Request) error {
		if len(via) >= maxRedirects {
			return errors.New("too many redirects")
		}
		if via[0].URL.Scheme == "https" && req.URL.Scheme != "https" {
			// An https feed's server must not send the updater to a
			// service on this computer over plain http.
			return errors.New("a redirect from https must stay on https")
		}
		return CheckFeedURL(req.URL.String()) // never down to plain http
	}}
}

// get sends a bare GET: the URL and a fixed User-Agent, nothing else.
func (u *Updater) get(ctx context.Context, rawURL string) (*http.Response, error) {
	if err := CheckFeedURL(rawURL); err != nil {
		return nil, refuse(ReasonBadFeed, "Not fetching %s: %v.", rawURL, err)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, rawURL, nil)
	if err != nil {
		return nil, refuse(ReasonBadFeed, "Not fetching %s: %v.", rawURL, err)
	}
	req.Header.Set("User-Agent", UserAgent)
	resp, err := u.client().Do(req)
	if err != nil {
		return nil, refuse(ReasonNetwork, "Could not reach %s: %v.", req.URL.Host, err)
	}
	if resp.StatusCode != http.StatusOK {
		resp.Body.Close()
		return nil, refuse(ReasonNetwork, "%s answered %s.", req.URL.Host, resp.Status)
	}
	return resp, nil
}

// Check fetches the feed and returns the offer, or nil when the running
// version is the newest. A feed offering an older or equal version is not
// an offer (ReasonNotNewer is returned to say so).
func (u *Updater) Check(ctx context.Context) (*Offer, error) {
	if len(u.PublicKey) != ed25519.PublicKeySize {
		return nil, refuse(ReasonNoKey, "This build of Juncture has no update key, so it cannot check for signed updates. Update it the way you installed it.")
	}
	ctx, cancel := context.WithTimeout(ctx, CheckTimeout)
	defer cancel()
	resp, err := u.get(ctx, u.FeedURL)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, MaxFeedBytes+1))
	if err != nil {
		return nil, refuse(ReasonNetwork, "Reading the release feed failed: %v.", err)
	}
	if len(raw) > MaxFeedBytes {
		return nil, refuse(ReasonBadFeed, "The release feed is larger than %d KiB; a Juncture feed is a few hundred bytes.", MaxFeedBytes>>10)
	}
	m, err := openFeed(u.PublicKey, raw)
	if err != nil {
		return nil, err
	}
	if Compare(m.Version, u.Current) <= 0 {
		return nil, refuse(ReasonNotNewer, "The release feed offers version %s; this is %s. Nothing to update.", m.Version, u.Current)
	}
	platform := u.Platform
	if platform == "" {
		platform = Platform()
	}
	art, ok := m.Artifacts[platform]
	if !ok {
		return nil, refuse(ReasonNoArtifact, "Version %s has no download for %s.", m.Version, platform)
	}
	return &Offer{Version: m.Version, Notes: m.Notes, NotesURL: m.NotesURL, Artifact: art}, nil
}

// Managed says whether exe belongs to a package manager (the .deb puts it
// in /usr/bin): replacing it would leave dpkg's records wrong, so the person
// updates through the package manager instead.
func Managed(exe string) bool {
	return runtime.GOOS == "linux" && strings.HasPrefix(exe, "/usr/")
}
