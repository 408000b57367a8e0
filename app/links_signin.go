package app

import (
	"net/url"

	"github.com/juncture-app/juncture/app/mcphost"
)

// The MCP sign-in's juncture:// redirect, juncture://oauth/callback?code=…
// &state=…&iss=…: the operating system hands it to Juncture like any
// juncture:// link; links.ParseSignInURL reads it and Service.SignInLink
// gives its answer to the sign-in waiting for its state. It is offered as
// a redirect only where the packages registered the scheme
// (links.SchemeRegistered, Config.SchemeRedirect).

// ErrSignInLinkRefused: a sign-in link no waiting sign-in takes.
var ErrSignInLinkRefused = mcphost.ErrSignInLinkRefused

// SignInLink gives a sign-in link's answer to the MCP sign-in waiting
// for its state (mcphost.DeliverLink).
func (s *Service) SignInLink(q url.Values) error { return mcphost.DeliverLink(s.app.mcp, q, s.app.log) }
