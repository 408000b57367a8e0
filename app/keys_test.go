package app

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/godbus/dbus/v5"
	"github.com/zalando/go-keyring"

	"github.com/juncture-app/juncture/agent/fakellm"
	"github.com/juncture-app/juncture/agent/mcp"
	"github.com/juncture-app/juncture/app/config"
	"github.com/juncture-app/juncture/app/secrets"
	"github.com/juncture-app/juncture/internal/testkit"
	"github.com/juncture-app/juncture/store"
)

// The app's tests keep keys in the fallback file under their own
// XDG_CONFIG_HOME (TestMain): never in the person's keychain. The tests
// named Keychain use a real OS keychain under their own service name
// (`make test` runs them inside a D-Bus session with gnome-keyring).
func init() { os.Setenv("JUNCTURE_KEY_STORAGE", "file") }

// requireKeychain skips when there is no keychain here, unless
// JUNCTURE_REQUIRE_KEYCHAIN=1 (then it fails).
func requireKeychain(t *testing.T) {
	t.Helper()
	t.Setenv("JUNCTURE_KEY_STORAGE", "")
	svc := secrets.KeychainService
	secrets.KeychainService = "Juncture test"
	t.Cleanup(func() {
		_ = keyring.DeleteAll(secrets.KeychainService)
		secrets.KeychainService = svc
		closeSessionBus()
	})
	reason := secrets.KeychainUnavailable()
	if reason == "" {
		if err := secrets.Probe(secrets.Keyring(secrets.KeychainService)); err != nil {
			reason = err.Error()
		}
	}
	if reason == "" {
		return
	}
	if os.Getenv("JUNCTURE_REQUIRE_KEYCHAIN") == "1" {
		t.Fatalf("JUNCTURE_REQUIRE_KEYCHAIN=1 but there is no keychain: %s", reason)
	}
	t.Skipf("no OS keychain: %s", reason)
}

// closeSessionBus ends go-keyring's shared D-Bus connection (its
// goroutines would outlive the test).
func closeSessionBus() {
	if runtime.GOOS != "linux" || os.Getenv("DBUS_SESSION_BUS_ADDRESS") == "" {
		return
	}
	if c, err := dbus.SessionBus(); err == nil {
		_ = c.Close()
	}
}

// TestKeychainAppKeepsItsKeys: an app keeps its keys in the real OS
// keychain across a restart (the store itself: secrets'
// TestKeychainSecretService).
func TestKeychainAppKeepsItsKeys(t *testing.T) {
	requireKeychain(t)
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	f := newFixture(t, map[string]string{})
	const key = "sk-keychain-test-0123456789"
	f.saveKeyed(key)
	if v := f.svc.App().GetSettings(); v.KeyStorage.Kind != "keychain" || v.KeyStorage.Detail != "OS keychain ("+secrets.KeychainName()+")" || v.Settings.APIKey != config.MaskKey(key) {
		t.Fatalf("settings %+v", v)
	}
	f.stop()
	f.start(map[string]string{})
	f.checkKeyUsed(key)
	f.stop()
	if p, _ := secrets.FilePath(); fileExists(p) {
		t.Fatalf("the fallback file %s was written while the keychain works", p)
	}
	assertNowhere(t, f.dir, "", key)
}

// saveKeyed saves the fake model as the default endpoint, with key.
func (f *fixture) saveKeyed(key string) {
	f.t.Helper()
	if _, err := f.svc.App().SaveSettings(Settings{BaseURL: f.fake.URL, APIKey: key, Model: "fake-model", LoopGuard: 25, Theme: "system"}); err != nil {
		f.t.Fatal(err)
	}
}

// checkKeyUsed sends a message and checks the model request carried key.
func (f *fixture) checkKeyUsed(key string) {
	f.t.Helper()
	answerAll(f.fake, "ok")
	text := "hello " + time.Now().Format("150405.000000")
	r, err := f.svc.App().SendInput("", text, nil)
	if err != nil {
		f.t.Fatal(err)
	}
	f.waitIdle(r.ThreadID)
	reqs := userRequests(f.fake, text)
	if len(reqs) == 0 || reqs[0].Header.Get("Authorization") != "Bearer "+key {
		f.t.Fatalf("model request without the key: %s", describe(reqs))
	}
}

func fileExists(p string) bool { _, err := os.Stat(p); return err == nil }

// assertNowhere fails if any file under dir (but skip) holds a secret.
func assertNowhere(t *testing.T, dir, skip string, secrets ...string) {
	t.Helper()
	n := 0
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || p == skip {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		n++
		for _, s := range secrets {
			if bytes.Contains(b, []byte(s)) {
				t.Errorf("%s holds the key %q", p, s)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n == 0 && skip == "" {
		t.Fatalf("no file under %s", dir)
	}
}

// TestKeyStorageFallsBackToAFileApp: without a keychain an app keeps its
// keys in secrets.json across a restart (the store itself: secrets'
// TestKeyStorageFallsBackToAFile).
func TestKeyStorageFallsBackToAFileApp(t *testing.T) {
	t.Run("app", func(t *testing.T) {
		cfgDir := t.TempDir()
		t.Setenv("XDG_CONFIG_HOME", cfgDir)
		f := newFixture(t, map[string]string{})
		const key = "sk-fallback-app-key-987654"
		f.saveKeyed(key)
		v := f.svc.App().GetSettings()
		if v.KeyStorage.Kind != "file" || !strings.Contains(v.KeyStorage.Path, cfgDir) {
			t.Fatalf("key storage %+v", v.KeyStorage)
		}
		f.stop()
		f.start(map[string]string{})
		f.checkKeyUsed(key)
		f.stop()
		file := filepath.Join(cfgDir, "juncture", "secrets.json")
		if b, err := os.ReadFile(file); err != nil || !bytes.Contains(b, []byte(key)) {
			t.Fatalf("secrets.json lacks the key: %v", err)
		}
		assertNowhere(t, f.dir, "", key)
	})
}

// TestKeysMoveOutOfAnOldDatabase: a database whose settings hold keys (and
// backups that hold them too) keeps none after Start, in any file the app
// wrote, its exports, its log or its errors; the model still gets them.
func TestKeysMoveOutOfAnOldDatabase(t *testing.T) {
	cfgDir := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", cfgDir)
	dir := t.TempDir()
	path := DatabasePath(dir)
	main, second := fakellm.Start(t), fakellm.Start(t)
	answerAll(main, "from main")
	answerAll(second, "from second")
	const (
		k1 = "sk-general-key-AAAA1111"
		k2 = "sk-endpoint-key-BBBB2222"
		k3 = "ghp_token-CCCC3333"
		k4 = "sk-later-key-DDDD4444"
	)
	// A v4 database (store/testdata) with keys in its settings.
	b, err := os.ReadFile("../store/testdata/v4.db")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := store.WriteSettingsFile(context.Background(), path, map[string]string{
		"baseUrl": main.URL, "apiKey": k1, "model": "fake-model", "githubToken": k3,
		"endpoints": `[{"id":"endpoint-second","name":"Second","baseUrl":"` + second.URL + `","apiKey":"` + k2 + `","models":["m2"],"prices":{},"source":"saved","extra":"kept"}]`,
	}); err != nil {
		t.Fatal(err)
	}
	// An earlier migration's backup (a copy) and one that is not a database.
	testkit.CopyFile(t, path, path+".pre-v2.bak")
	if err := os.WriteFile(path+".pre-v3.bak", []byte("not a database "+k1), 0o600); err != nil {
		t.Fatal(err)
	}

	var logs testkit.SyncBuffer
	start := func() *Service {
		return mustStart(t, Config{DataDir: dir, Mode: "browser", MCPConfigPath: filepath.Join(dir, "mcp.json"),
			Getenv: func(k string) string { return map[string]string{"JUNCTURE_WORKSPACE": t.TempDir()}[k] },
			Logger: slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))})
	}
	svc := start()
	a := svc.App()
	var shown []string // everything returned to the window
	v := a.GetSettings()
	if v.Settings.APIKey != config.MaskKey(k1) || v.KeyStorage.Kind != "file" {
		t.Fatalf("settings %+v", v)
	}
	eps, err := a.ListEndpoints()
	if err != nil {
		t.Fatal(err)
	}
	sec, ok := endpointWithID(eps, "endpoint-second")
	if !ok || sec.APIKey != config.MaskKey(k2) {
		t.Fatalf("endpoints %+v", eps)
	}
	// The model calls carry the keys.
	wait := func(id string) {
		waitFor(t, func() bool { running, _ := svc.Runtime().Running(id); return !running })
		time.Sleep(50 * time.Millisecond)
	}
	r1, err := a.SendInput("", "first chat", nil)
	if err != nil {
		t.Fatal(err)
	}
	wait(r1.ThreadID)
	th, err := a.NewThread("")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.SetThreadOptions(th.ID, ThreadOptionsInput{EndpointID: ptr("endpoint-second"), Model: ptr("m2")}); err != nil {
		t.Fatal(err)
	}
	if _, err := a.SendInput(th.ID, "second chat", nil); err != nil {
		t.Fatal(err)
	}
	wait(th.ID)
	for _, c := range []struct {
		s    *fakellm.Server
		text string
		key  string
	}{{main, "first chat", k1}, {second, "second chat", k2}} {
		reqs := userRequests(c.s, c.text)
		if len(reqs) == 0 || reqs[0].Header.Get("Authorization") != "Bearer "+c.key {
			t.Fatalf("%s: %s", c.text, describe(reqs))
		}
	}
	// A key saved now, and errors that concern keyed endpoints.
	bad, err := a.SaveEndpoint(Endpoint{Name: "Down", BaseURL: "http://127.0.0.1:1/v1", APIKey: k4})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.ListModels(bad.ID); err == nil {
		t.Fatal("ListModels of a closed port worked")
	} else {
		shown = append(shown, err.Error())
	}
	shown = append(shown, a.TestConnection(Settings{BaseURL: "http://127.0.0.1:1/v1", APIKey: k4}).Message)
	if _, err := a.SaveSettings(Settings{BaseURL: "nope", APIKey: k4, LoopGuard: 25, Theme: "system"}); err == nil {
		t.Fatal("an invalid base URL saved")
	} else {
		shown = append(shown, err.Error())
	}
	for _, id := range []string{r1.ThreadID, th.ID} {
		for _, format := range []string{"json", "markdown"} {
			ex, err := a.ExportThread(id, format)
			if err != nil {
				t.Fatal(err)
			}
			shown = append(shown, ex.Content)
		}
	}
	eps, _ = a.ListEndpoints()
	for _, e := range eps {
		shown = append(shown, e.APIKey)
	}
	stopService(t, svc)

	// A restart reads the keys back from the secret store, also when one
	// row holds a key in clear again (the others, moved, stay where they are).
	if err := store.WriteSettingsFile(context.Background(), path, map[string]string{"githubToken": k3}); err != nil {
		t.Fatal(err)
	}
	svc = start()
	if got := svc.App().GetSettings().Settings.APIKey; got != config.MaskKey(k1) {
		t.Fatalf("after restart: %q", got)
	}
	if e, ok, err := svc.App().conf.EndpointByID(context.Background(), bad.ID); err != nil || !ok || e.APIKey != k4 {
		t.Fatalf("the later key after restart: %v %v", ok, err)
	}
	stopService(t, svc)

	// Backups: the one Open made (v4 → v5) and the older copy are kept
	// without keys; the unreadable one is gone.
	for _, p := range []string{store.BackupPath(path, 5), path + ".pre-v2.bak"} {
		if !fileExists(p) {
			t.Fatalf("backup %s is gone", p)
		}
		m, err := store.ReadSettingsFile(context.Background(), p)
		if err != nil || m["model"] != "fake-model" || m["apiKey"] != "" || !strings.Contains(m["endpoints"], `"extra":"kept"`) || !strings.Contains(m["endpoints"], `"apiKeyRef"`) {
			t.Fatalf("backup %s settings %v (%v)", p, m, err)
		}
	}
	if fileExists(path + ".pre-v3.bak") {
		t.Fatal("the backup that is not a database is still there")
	}
	all := []string{k1, k2, k3, k4}
	assertNowhere(t, dir, "", all...)
	assertNowhere(t, cfgDir, filepath.Join(cfgDir, "juncture", "secrets.json"), all...)
	for _, s := range append(shown, logs.String()) {
		for _, k := range all {
			if strings.Contains(s, k) {
				t.Errorf("the key %q shows in %q", k, s)
			}
		}
	}
	if !strings.Contains(logs.String(), "keys moved out of the database") {
		t.Errorf("the move is not logged: %s", logs.String())
	}
}

// MCP header and env secrets move from mcp.json to the key storage (at
// start and on import); the file keeps references, the servers get values.
func TestMCPSecretsMoveToTheKeyStorage(t *testing.T) {
	cfgDir := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", cfgDir)
	const (
		header = "Bearer sk-mcp-header-AAAA1111"
		token  = "ghp_import-token-BBBB2222"
	)
	f := newMCPFixture(t, `{"mcpServers":{"remote":{"url":"http://127.0.0.1:1/mcp","headers":{"Authorization":"`+header+`"}}}}`)
	mcpPath := filepath.Join(f.dir, "mcp.json")
	resolved := func() map[string]mcp.ServerConfig {
		return f.svc.app.mcpCfg.Running().Servers
	}
	onDisk := func() string { b, _ := os.ReadFile(mcpPath); return string(b) }
	if got := resolved()["remote"].Headers["Authorization"]; got != header {
		t.Fatalf("the running configuration has %q", got)
	}
	if d := onDisk(); strings.Contains(d, header) || !strings.Contains(d, mcp.SecretRef(mcp.SecretAccount("remote", "header", "Authorization"))) {
		t.Fatalf("mcp.json after start: %s", d)
	}
	var sum mcp.ImportSummary
	f.must(&sum, "ImportClaudeConfig", `{"mcpServers":{"gh":{"command":"/nonexistent/juncture-test-server","env":{"GITHUB_TOKEN":"`+token+`","LOG":"1"}}}}`)
	if d := onDisk(); strings.Contains(d, token) || !strings.Contains(d, `"LOG": "1"`) {
		t.Fatalf("mcp.json after import: %s", d)
	}
	var view MCPConfigView
	f.must(&view, "GetMCPConfig")
	if strings.Contains(view.Text, "AAAA1111") || strings.Contains(view.Text, token) || !strings.Contains(view.Text, mcp.Mask) {
		t.Fatalf("the window sees %s", view.Text)
	}
	f.stop()
	f.start(f.env)
	if got := resolved()["gh"].Env["GITHUB_TOKEN"]; got != token {
		t.Fatalf("after restart the token is %q", got)
	}
	f.stop()
	assertNowhere(t, f.dir, "", header, token)
	if b, _ := os.ReadFile(filepath.Join(cfgDir, "juncture", "secrets.json")); !bytes.Contains(b, []byte(token)) {
		t.Fatal("secrets.json lacks the token")
	}
}

// TestMCPReferenceNeverReachesTheAppKey: mcp.json naming the app's own
// model key in a ${keychain:…} reference (under a variable name that does
// not look secret) does not get it: not in the server's environment, not
// in Settings, not in mcp.json after a form save; and secrets in a URL
// query or the arguments of an imported Claude Desktop file are masked and
// moved out of the file (issue 19, defects 12 and 15). A Claude Desktop
// import carrying the reference is refused as a mistake in that file.
func TestMCPReferenceNeverReachesTheAppKey(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	const (
		appKey   = "sk-app-model-key-ZZZZ9999"
		urlToken = "qtok-url-query-YYYY8888"
		argToken = "atok-argument-XXXX7777"
	)
	f := newMCPFixture(t, `{"mcpServers":{}}`)
	a := f.svc.App()
	if _, err := a.SaveSettings(Settings{BaseURL: f.fake.URL, APIKey: appKey, Model: "fake-model", LoopGuard: 25, Theme: "system"}); err != nil {
		t.Fatal(err)
	}
	mcpPath := filepath.Join(f.dir, "mcp.json")
	const leak = `{"mcpServers":{
		"leak":{"command":"/nonexistent/juncture-test-server","env":{"LOG_LEVEL":"${keychain:setting:apiKey}","MODE":"x"}}}}`
	var refused *Error
	if _, err := a.ImportClaudeConfig(leak); !errors.As(err, &refused) || refused.Code != CodeInvalidArgument {
		t.Fatalf("a Claude Desktop import with a keychain reference: %v", err)
	}
	if _, err := a.SaveMCPConfigText(leak); err != nil {
		t.Fatal(err)
	}
	if _, err := a.ImportClaudeConfig(`{"mcpServers":{
		"remote":{"url":"http://127.0.0.1:1/mcp?api_key=` + urlToken + `&v=2"},
		"cli":{"command":"/nonexistent/juncture-test-server","args":["--token", "` + argToken + `"]}}}`); err != nil {
		t.Fatal(err)
	}
	check := func(when string) {
		t.Helper()
		running := a.mcpCfg.Running().Servers["leak"].Env["LOG_LEVEL"]
		if running == appKey {
			t.Fatalf("%s: the app's key reaches the server's environment", when)
		}
		v, err := a.GetMCPConfig()
		if err != nil {
			t.Fatal(err)
		}
		disk, _ := os.ReadFile(mcpPath)
		for _, s := range []string{v.Text, string(disk)} {
			for _, k := range []string{appKey, urlToken, argToken} {
				if strings.Contains(s, k) {
					t.Fatalf("%s: %q shows in %s", when, k, s)
				}
			}
		}
		for _, e := range v.Servers {
			b, _ := json.Marshal(e)
			for _, k := range []string{appKey, urlToken, argToken} {
				if strings.Contains(string(b), k) {
					t.Fatalf("%s: %q shows in the form %s", when, k, b)
				}
			}
		}
	}
	check("after import")
	// The form saves each server back as it was shown.
	v, _ := a.GetMCPConfig()
	for _, e := range v.Servers {
		if _, err := a.SaveMCPServer(e.Name, e.Name, e.Config); err != nil {
			t.Fatalf("saving %s as shown: %v", e.Name, err)
		}
	}
	check("after form saves")
	remote, cli := a.mcpCfg.Running().Servers["remote"], a.mcpCfg.Running().Servers["cli"]
	if !strings.Contains(remote.URL, "api_key="+urlToken) || strings.Join(cli.Args, " ") != "--token "+argToken {
		t.Fatalf("the servers run without their secrets: %q %q", remote.URL, cli.Args)
	}
	// A renamed server keeps its (moved) secret.
	for _, e := range v.Servers {
		if e.Name == "cli" {
			if _, err := a.SaveMCPServer("cli", "cli2", e.Config); err != nil {
				t.Fatal(err)
			}
		}
	}
	cli = a.mcpCfg.Running().Servers["cli2"]
	if strings.Join(cli.Args, " ") != "--token "+argToken {
		t.Fatalf("the renamed server lost its secret: %q", cli.Args)
	}
	check("after a rename")
	f.stop()
	assertNowhere(t, f.dir, "", appKey, urlToken, argToken)
}

// TestMCPHeaderStaysWithItsOrigin: a server's token saved for one host is
// not sent to another when the form saves the server back, masked, with
// another host in its URL: the save asks for the value again and the
// server keeps running where it was.
func TestMCPHeaderStaysWithItsOrigin(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	f := newMCPFixture(t, `{"mcpServers":{}}`)
	a := f.svc.App()
	const token = "Bearer hdr-token-WWWW6666"
	cfg := mcp.ServerConfig{Type: "http", URL: "http://127.0.0.1:1/mcp", Headers: map[string]string{"Authorization": token}}
	if _, err := a.SaveMCPServer("", "remote", cfg); err != nil {
		t.Fatal(err)
	}
	v, err := a.GetMCPConfig()
	if err != nil {
		t.Fatal(err)
	}
	shown := v.Servers[0].Config
	shown.URL = "http://127.0.0.2:1/mcp"
	if _, err := a.SaveMCPServer("remote", "remote", shown); err == nil {
		t.Fatal("the masked token was saved for another host")
	}
	running := a.mcpCfg.Running().Servers["remote"]
	if running.URL != cfg.URL || running.Headers["Authorization"] != token {
		t.Fatalf("running %q with %q", running.URL, running.Headers["Authorization"])
	}
	shown.URL = "http://127.0.0.1:1/other"
	if _, err := a.SaveMCPServer("remote", "remote", shown); err != nil {
		t.Fatalf("same origin, other path: %v", err)
	}
	f.stop()
}

// TestMCPDeletedServerSecretsGo: removing a server deletes its stored
// secrets, so a new server given the same name and a reference to the old
// one's account (a pasted configuration) does not send the old token to
// its own URL.
func TestMCPDeletedServerSecretsGo(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	f := newMCPFixture(t, `{"mcpServers":{}}`)
	a := f.svc.App()
	const token = "Bearer hdr-token-VVVV5555"
	if _, err := a.SaveMCPServer("", "remote", mcp.ServerConfig{Type: "http", URL: "http://127.0.0.1:1/mcp", Headers: map[string]string{"Authorization": token}}); err != nil {
		t.Fatal(err)
	}
	account := mcp.SecretAccount("remote", "header", "Authorization")
	if got, _ := a.keys.Get(account); got != token {
		t.Fatalf("stored %q", got)
	}
	if _, err := a.DeleteMCPServer("remote"); err != nil {
		t.Fatal(err)
	}
	if got, _ := a.keys.Get(account); got != "" {
		t.Fatal("the removed server's token is still stored")
	}
	if _, err := a.SaveMCPServer("", "remote", mcp.ServerConfig{Type: "http", URL: "http://127.0.0.2:1/mcp", Headers: map[string]string{"Authorization": mcp.SecretRef(account)}}); err != nil {
		t.Fatal(err)
	}
	running := a.mcpCfg.Running().Servers["remote"].Headers["Authorization"]
	if running == token {
		t.Fatal("a new server of the same name got the removed one's token")
	}
	f.stop()
}
