package app

import (
	"errors"
	"fmt"
	"net/url"

	"github.com/juncture-app/juncture/agent/mcp"
)

// The MCP sign-in's juncture:// redirect, juncture://oauth/callback?code=…
// &state=…&iss=…: the operating system hands it to Juncture like any
// juncture:// link; links.ParseSignInURL reads it and Service.SignInLink
// gives its answer to the sign-in waiting for its state. It is offered as
// a redirect only where the packages registered the scheme
// (links.SchemeRegistered, Config.SchemeRedirect).

// ErrSignInLinkRefused: a sign-in link no waiting sign-in takes.
var ErrSignInLinkRefused = errors.New("app: this sign-in link is not one Juncture waits for")

// SignInLink gives a sign-in link's answer (links.ParseSignInURL's) to the
// MCP sign-in waiting for its state. A link while none waits, with an
// unknown state, or used before, is refused and changes nothing. The code
// is never logged.
func (s *Service) SignInLink(q url.Values) error {
	a := s.app
	if a.mcp == nil {
		return ErrSignInLinkRefused
	}
	if err := a.mcp.DeliverSignInLink(q); err != nil {
		if errors.Is(err, mcp.ErrNoSignInWaits) {
			a.log.Info("A juncture:// sign-in link no sign-in waits for was refused")
			return ErrSignInLinkRefused
		}
		return fmt.Errorf("taking the sign-in link: %w", err)
	}
	return nil
}
