package app

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/juncture-app/juncture/agent/mcp"
)

// MCPSignIn is a sign-in under way: the authorization page the window
// opens in the person's browser. The page's address holds no secret (a
// state and a PKCE challenge, never the verifier); the tokens come back
// to Juncture's loopback address, not to the window.
type MCPSignIn struct {
	URL string `json:"url"`
}

// signInURLKey carries, in a sign-in's context, where the authorization
// page's address goes (the window opens it: the desktop window in the
// system browser, the browser window in a new tab).
type signInURLKey struct{}

// windowBrowser is the MCP manager's Browser: it hands the address to
// the SignInMCPServer call that started the sign-in.
type windowBrowser struct{}

func (windowBrowser) Open(ctx context.Context, url string) error {
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

// signInStartWait bounds how long SignInMCPServer waits for discovery and
// registration before the page can open.
const signInStartWait = 30 * time.Second

// SignInMCPServer starts signing in to an HTTP server with OAuth and
// returns the page to open in the browser; the rest (the answer on the
// loopback address, the tokens into the key storage, the restart) goes
// on in the background and shows in the server's status.
func (a *App) SignInMCPServer(name string) (MCPSignIn, error) {
	urls := make(chan string, 1)
	done := make(chan error, 1)
	ctx := context.WithValue(context.Background(), signInURLKey{}, urls)
	go func() { done <- a.mcp.SignIn(ctx, name) }()
	t := time.NewTimer(signInStartWait)
	defer t.Stop()
	select {
	case u := <-urls:
		return MCPSignIn{URL: u}, nil
	case err := <-done:
		if err == nil {
			return MCPSignIn{}, nil // client credentials: nothing to open
		}
		if errors.Is(err, mcp.ErrUnknownServer) {
			return MCPSignIn{}, errorf(CodeNotFound, fmt.Sprintf("No server called %q is configured.", name))
		}
		return MCPSignIn{}, errorf(CodeUnavailable, err.Error())
	case <-t.C:
		return MCPSignIn{}, errorf(CodeUnavailable, "The server's sign-in did not answer in time.")
	}
}

// SignOutMCPServer deletes a server's tokens from the key storage.
func (a *App) SignOutMCPServer(name string) error {
	if err := a.mcp.SignOut(name); err != nil {
		if errors.Is(err, mcp.ErrUnknownServer) {
			return errorf(CodeNotFound, fmt.Sprintf("No server called %q is configured.", name))
		}
		return asError(err)
	}
	return nil
}

// mcpVault is where sign-in tokens are kept: the key storage every key
// uses (nil when there is none).
func (a *App) mcpVault() mcp.TokenVault {
	if a.keys == nil {
		return nil
	}
	return a.keys
}

// forgetMCPSignIn deletes a removed server's tokens.
func (a *App) forgetMCPSignIn(name string) {
	if err := a.mcp.ForgetSignIn(name); err != nil {
		a.log.Warn("Could not delete a removed MCP server's sign-in", "server", name, "error", err.Error())
	}
}
