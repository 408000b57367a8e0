package mcphost

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"time"

	"github.com/juncture-app/juncture/agent/mcp"
)

// signInURLKey carries, in a sign-in's context, where the authorization
// page's address goes (the window opens it: the desktop window in the
// system browser, the browser window in a new tab).
type signInURLKey struct{}

// WindowBrowser is the MCP manager's Browser: it hands the address to
// the SignIn call that started the sign-in.
type WindowBrowser struct{}

// Open hands url to the SignIn waiting in ctx.
func (WindowBrowser) Open(ctx context.Context, url string) error {
	ch, ok := ctx.Value(signInURLKey{}).(chan string)
	if !ok {
		return errors.New("no window is waiting to open the sign-in page")
	}
	select {
	case ch <- url:
		return nil
	default:
		return errors.New("the sign-in page was opened already")
	}
}

// signInStartWait bounds how long SignIn waits for discovery and
// registration before the page can open.
const signInStartWait = 30 * time.Second

// ErrSignInSlow: the server's sign-in gave no page to open in time.
var ErrSignInSlow = errors.New("the server's sign-in did not answer in time")

// SignIn starts a sign-in (start is the manager's SignIn for one server)
// and returns the page to open in the browser, once WindowBrowser has it;
// the rest goes on in the background. A sign-in that ends before giving
// a page returns its error ("" and nil: client credentials, nothing to
// open); none within 30 s is ErrSignInSlow.
func SignIn(start func(context.Context) error) (string, error) {
	urls := make(chan string, 1)
	done := make(chan error, 1)
	ctx := context.WithValue(context.Background(), signInURLKey{}, urls)
	go func() { done <- start(ctx) }()
	t := time.NewTimer(signInStartWait)
	defer t.Stop()
	select {
	case u := <-urls:
		return u, nil
	case err := <-done:
		return "", err
	case <-t.C:
		return "", ErrSignInSlow
	}
}

// ErrSignInLinkRefused: a sign-in link no waiting sign-in takes.
var ErrSignInLinkRefused = errors.New("app: this sign-in link is not one Juncture waits for")

// DeliverLink gives a juncture:// sign-in link's answer
// (links.ParseSignInURL's) to the sign-in waiting for its state (m nil:
// MCP is off). A link while none waits, with an unknown state, or used
// before, is refused and changes nothing. The code is never logged.
func DeliverLink(m *mcp.Manager, q url.Values, log *slog.Logger) error {
	if m == nil {
		return ErrSignInLinkRefused
	}
	if err := m.DeliverSignInLink(q); err != nil {
		if errors.Is(err, mcp.ErrNoSignInWaits) {
			log.Info("A juncture:// sign-in link no sign-in waits for was refused")
			return ErrSignInLinkRefused
		}
		return fmt.Errorf("taking the sign-in link: %w", err)
	}
	return nil
}
