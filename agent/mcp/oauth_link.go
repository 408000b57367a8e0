package mcp

import (
	"context"
	"errors"
	"net/url"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/oauthex"
)

// The juncture:// redirect: where the packages register Juncture for the
// juncture:// scheme (the app sets Options.SchemeRedirect), a sign-in
// registered dynamically asks the authorization server to come back to
// SchemeRedirectURI; the operating system hands that link to Juncture
// (a launch argument, a second instance, a macOS event) and the app
// passes its query to DeliverSignInLink. It is the loopback callback's
// twin: one answer, for the sign-in whose state it names (compared in
// constant time), taken only while that sign-in waits.

// SchemeRedirectURI is the juncture:// redirect a registration asks for.
const SchemeRedirectURI = "juncture://oauth/callback"

// ErrNoSignInWaits: a juncture:// sign-in answer no waiting sign-in
// expects (an unknown or replayed state, or no sign-in under way).
var ErrNoSignInWaits = errors.New("mcp: no sign-in waits for this answer")

// linkBook holds the sign-ins waiting for a juncture:// answer.
type linkBook struct {
	mu  sync.Mutex
	cbs map[*callback]struct{}
}

func (b *linkBook) add(cb *callback) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.cbs == nil {
		b.cbs = map[*callback]struct{}{}
	}
	b.cbs[cb] = struct{}{}
}

func (b *linkBook) remove(cb *callback) {
	b.mu.Lock()
	defer b.mu.Unlock()
	delete(b.cbs, cb)
}

// DeliverSignInLink hands a juncture://oauth/callback answer (its query:
// code, state, iss or error) to the sign-in waiting for its state. It
// returns ErrNoSignInWaits when none does; nothing changes then. The
// code is never logged nor returned.
func (m *Manager) DeliverSignInLink(q url.Values) error {
	m.links.mu.Lock()
	cbs := make([]*callback, 0, len(m.links.cbs))
	for cb := range m.links.cbs {
		cbs = append(cbs, cb)
	}
	m.links.mu.Unlock()
	for _, cb := range cbs {
		if ok, _ := cb.deliver(q); ok {
			m.links.remove(cb)
			return nil
		}
	}
	return ErrNoSignInWaits
}

// callbackFor picks the sign-in's redirect and client: the juncture://
// redirect when it is set and a dynamic registration accepts it, else a
// loopback listener on 127.0.0.1 (the default).
func (m *Manager) callbackFor(ctx context.Context, asm *oauthex.AuthServerMeta, cfg ServerConfig) (*callback, clientRecord, string, error) {
	own := cfg.Auth != nil && cfg.Auth.ClientID != ""
	cimd := m.o.ClientMetadataURL != "" && asm.ClientIDMetadataDocumentSupported
	if m.o.SchemeRedirect != "" && !own && !cimd && asm.RegistrationEndpoint != "" {
		// Only a registration Juncture makes itself is known to hold the
		// juncture:// redirect; one that refuses it falls back to loopback.
		if cl, err := m.registerClient(ctx, asm, cfg, m.o.SchemeRedirect); err == nil {
			cb := &callback{got: make(chan callbackResult, 1)}
			m.links.add(cb)
			cb.done = func() { m.links.remove(cb) }
			return cb, cl, m.o.SchemeRedirect, nil
		}
	}
	var stored clientRecord
	m.vault().getJSON(oauthClientAccount(asm.Issuer), &stored)
	ln, err := listenLoopback(stored.RedirectURI)
	if err != nil {
		return nil, clientRecord{}, "", err
	}
	redirect := "http://" + ln.Addr().String() + "/callback"
	cb := serveCallback(ln)
	cl, err := m.registerClient(ctx, asm, cfg, redirect)
	if err != nil {
		cb.close()
		return nil, clientRecord{}, "", err
	}
	return cb, cl, redirect, nil
}
