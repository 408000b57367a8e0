package app

import (
	"bytes"
	"io/fs"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/juncture-app/juncture/agent/mcp"
	"github.com/juncture-app/juncture/internal/oauthtest"
	"github.com/juncture-app/juncture/internal/testkit"
)

// followSignIn is the person's browser: the test authorization server
// approves at once and redirects to Juncture's loopback address.
func followSignIn(t *testing.T, authURL string) {
	t.Helper()
	c := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := c.Get(authURL)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	back, err := http.Get(resp.Header.Get("Location"))
	if err != nil {
		t.Fatal(err)
	}
	back.Body.Close()
	if back.StatusCode != http.StatusOK {
		t.Fatalf("the loopback answer: %d", back.StatusCode)
	}
}

// The sign-in through the bound methods, with the app's real database and
// log: afterwards every token, code and verifier the test servers handled
// is in the key storage or nowhere; not in the SQLite files, mcp.json,
// the log, the statuses.
func TestMCPSignInTokensOnlyInKeyStorage(t *testing.T) {
	keys := &testkit.Vault{}
	set := newSignInSetup(t, keys)
	as, dir, logs := set.as, set.dir, set.logs
	svc := mustStart(t, set.cfg)
	stopped := false
	defer func() {
		if !stopped {
			stopService(t, svc)
		}
	}()
	a := svc.app
	wait := func(what string, ok func(mcp.ServerStatus) bool) mcp.ServerStatus {
		t.Helper()
		deadline := time.Now().Add(20 * time.Second)
		for {
			list, _ := a.ListMCPServers()
			for _, s := range list {
				if s.Name == "notes" && ok(s) {
					return s
				}
			}
			if time.Now().After(deadline) {
				t.Fatalf("notes never %s: %+v", what, list)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	wait("asks for a sign-in", func(s mcp.ServerStatus) bool { return s.Auth != nil && s.Auth.State == mcp.AuthSignIn })
	si, err := a.SignInMCPServer("notes")
	if err != nil || si.URL == "" {
		t.Fatalf("SignInMCPServer = %+v, %v", si, err)
	}
	followSignIn(t, si.URL)
	wait("ready", func(s mcp.ServerStatus) bool { return s.Status == mcp.StatusReady })
	statuses, _ := a.ListMCPServers()
	if !keys.Holds("at-") || !keys.Holds("rt-") {
		t.Error("the tokens are not in the key storage")
	}
	if err := a.SignOutMCPServer("notes"); err != nil {
		t.Fatal(err)
	}
	stopService(t, svc)
	stopped = true

	secrets := as.Secrets()
	if len(secrets) < 4 {
		t.Fatalf("the test servers handled only %d secrets", len(secrets))
	}
	var files []string
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			files = append(files, p)
		}
		return nil
	})
	for _, s := range secrets {
		for _, p := range files {
			if data, _ := os.ReadFile(p); bytes.Contains(data, []byte(s)) {
				t.Errorf("a secret (%.6s…) is in %s", s, filepath.Base(p))
			}
		}
		if strings.Contains(logs.String(), s) {
			t.Errorf("a secret (%.6s…) is in the log", s)
		}
		if strings.Contains(string(mustJSON(t, statuses)), s) {
			t.Errorf("a secret (%.6s…) is in the statuses", s)
		}
	}
	if keys.Holds("at-") {
		t.Error("Sign out left an access token in the key storage")
	}
	if !keys.Holds("client-") {
		t.Error("the registered client is not in the key storage by issuer")
	}
}

// signInSetup is what both sign-in tests start from: internal/oauthtest's
// authorization and protected servers (closed at the end of the test), a
// data folder whose mcp.json holds one OAuth server "notes", and the
// app's configuration with a debug log kept in logs for scanning.
type signInSetup struct {
	as   *oauthtest.AS
	dir  string
	logs *testkit.SyncBuffer
	cfg  Config
}

func newSignInSetup(t *testing.T, keys SecretStore) signInSetup {
	t.Helper()
	as := oauthtest.NewAS()
	t.Cleanup(as.Close)
	rs := oauthtest.NewRS(as)
	t.Cleanup(rs.Close)
	dir := t.TempDir()
	cfgPath := filepath.Join(dir, "mcp.json")
	if err := os.WriteFile(cfgPath, []byte(`{"mcpServers":{"notes":{"url":"`+rs.URL+`","auth":{"type":"oauth"}}}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	logs := &testkit.SyncBuffer{}
	return signInSetup{as: as, dir: dir, logs: logs, cfg: Config{DataDir: dir, Mode: "browser", Getenv: func(string) string { return "" }, MCPConfigPath: cfgPath,
		Secrets: keys, Logger: slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))}}
}
