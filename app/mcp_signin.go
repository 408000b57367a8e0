package app

import (
	"context"
	"errors"
	"fmt"

	"github.com/juncture-app/juncture/agent/mcp"
	"github.com/juncture-app/juncture/app/mcphost"
)

// MCPSignIn is a sign-in under way: the authorization page the window
// opens in the person's browser. The page's address holds no secret (a
// state and a PKCE challenge, never the verifier); the tokens come back
// to Juncture's loopback address, not to the window.
type MCPSignIn struct {
	URL string `json:"url"`
}

// SignInMCPServer starts signing in to an HTTP server with OAuth and
// returns the page to open in the browser; the rest (the answer on the
// loopback address, the tokens into the key storage, the restart) goes
// on in the background and shows in the server's status.
func (a *App) SignInMCPServer(name string) (MCPSignIn, error) {
	if err := a.writable("SignInMCPServer"); err != nil {
		return MCPSignIn{}, err
	}
	u, err := mcphost.SignIn(func(ctx context.Context) error { return a.mcp.SignIn(ctx, name) })
	switch {
	case err == nil:
		return MCPSignIn{URL: u}, nil // "" for client credentials: nothing to open
	case errors.Is(err, mcphost.ErrSignInSlow):
		return MCPSignIn{}, errorf(CodeUnavailable, "The server's sign-in did not answer in time.")
	case errors.Is(err, mcp.ErrUnknownServer):
		return MCPSignIn{}, errorf(CodeNotFound, fmt.Sprintf("No server called %q is configured.", name))
	}
	return MCPSignIn{}, errorf(CodeUnavailable, err.Error())
}

// SignOutMCPServer deletes a server's tokens from the key storage.
func (a *App) SignOutMCPServer(name string) error {
	if err := a.writable("SignOutMCPServer"); err != nil {
		return err
	}
	if err := a.mcp.SignOut(name); err != nil {
		if errors.Is(err, mcp.ErrUnknownServer) {
			return errorf(CodeNotFound, fmt.Sprintf("No server called %q is configured.", name))
		}
		return asError(err)
	}
	return nil
}

// forgetMCPSignIn deletes a removed server's tokens.
func (a *App) forgetMCPSignIn(name string) {
	if err := a.mcp.ForgetSignIn(name); err != nil {
		a.log.Warn("Could not delete a removed MCP server's sign-in", "server", name, "error", err.Error())
	}
}
