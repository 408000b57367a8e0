package app

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"github.com/juncture-app/juncture/app/links"
	"github.com/juncture-app/juncture/app/update"
)

type restartRecorder struct {
	Desktop
	exe, url string
}

func (r *restartRecorder) Restart(exe, openURL string) error {
	r.exe, r.url = exe, openURL
	return nil
}

// updateFixture is an app at version 1.0.0 whose binary is a file in a temp
// folder, and a local feed offering 1.1.0 signed with the test's key.
func updateFixture(t *testing.T, artifact []byte) (*App, string, *atomic.Int32) {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("POSIX rename semantics")
	}
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	good := []byte("juncture 1.1.0")
	var hits atomic.Int32
	var srv *httptest.Server
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		switch r.URL.Path {
		case "/feed.json":
			sum := sha256.Sum256(good)
			h := hex.EncodeToString(sum[:])
			feed, _ := update.SignFeed(priv, update.Manifest{Product: "juncture", Version: "1.1.0", Notes: "New things.",
				Artifacts: map[string]update.Artifact{update.Platform(): {URL: srv.URL + "/bin", Size: int64(len(good)), SHA256: h,
					Signature: update.SignArtifact(priv, update.Platform(), "1.1.0", h)}}})
			w.Write(feed)
		case "/bin":
			w.Write(artifact)
		}
	}))
	t.Cleanup(srv.Close)
	dir := t.TempDir()
	exe := filepath.Join(dir, "juncture")
	if err := os.WriteFile(exe, []byte("juncture 1.0.0"), 0o755); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"JUNCTURE_WORKSPACE": t.TempDir()}
	svc, err := Start(context.Background(), Config{DataDir: t.TempDir(), Mode: "browser", Getenv: func(k string) string { return env[k] },
		MCPConfigPath: filepath.Join(dir, "mcp.json"), Version: "1.0.0", UpdateKey: base64.StdEncoding.EncodeToString(pub), UpdateExe: exe})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_ = svc.Shutdown(ctx)
	})
	if _, err := svc.app.SaveUpdateSettings(UpdateSettings{FeedURL: srv.URL + "/feed.json"}); err != nil {
		t.Fatal(err)
	}
	return svc.app, exe, &hits
}

// Version N updates to N+1 through the bound methods, and the desktop
// restarts into it with the open chat.
func TestApplyUpdateRestartsIntoOpenChat(t *testing.T) {
	a, exe, hits := updateFixture(t, []byte("juncture 1.1.0"))
	st, err := a.CheckForUpdate()
	if err != nil || st.Offer == nil || st.Offer.Version != "1.1.0" {
		t.Fatalf("check: %+v %v", st, err)
	}
	// Within a day a second check sends nothing.
	before := hits.Load()
	if st2, _ := a.CheckForUpdate(); hits.Load() != before || st2.Offer == nil {
		t.Fatalf("a second check the same day reached the feed (%d → %d requests)", before, hits.Load())
	}
	rec := &restartRecorder{}
	a.desktop = rec
	st, err = a.ApplyUpdate("thread-42")
	if err != nil || !st.Restarting || st.Offer != nil {
		t.Fatalf("apply: %+v %v", st, err)
	}
	if b, _ := os.ReadFile(exe); string(b) != "juncture 1.1.0" {
		t.Fatalf("binary is %q", b)
	}
	if rec.exe != exe || rec.url != "juncture://thread/thread-42" {
		t.Fatalf("restart(%q, %q)", rec.exe, rec.url)
	}
	if id, ok := links.ParseOpenURL(rec.url); !ok || id != "thread-42" {
		t.Fatalf("the restart link does not open the chat: %q %v", id, ok)
	}
}

// A tampered download is refused through the bound method with its reason;
// the binary stays version N.
func TestApplyUpdateTamperedKeepsVersion(t *testing.T) {
	a, exe, _ := updateFixture(t, []byte("juncture 6.6.6"))
	if _, err := a.CheckForUpdate(); err != nil {
		t.Fatal(err)
	}
	_, err := a.ApplyUpdate("")
	if err == nil {
		t.Fatal("a tampered update was installed")
	}
	if b, _ := os.ReadFile(exe); string(b) != "juncture 1.0.0" {
		t.Fatalf("binary is %q", b)
	}
}

// Off means off: no request at all.
func TestUpdateCheckOffSendsNothing(t *testing.T) {
	a, _, hits := updateFixture(t, nil)
	st, _ := a.GetUpdateStatus()
	st.Settings.Off = true
	if _, err := a.SaveUpdateSettings(st.Settings); err != nil {
		t.Fatal(err)
	}
	if st, err := a.CheckForUpdate(); err != nil || st.Offer != nil || hits.Load() != 0 {
		t.Fatalf("off: %+v %v, %d requests", st, err, hits.Load())
	}
	if _, err := a.SaveUpdateSettings(UpdateSettings{FeedURL: "http://example.com/feed"}); err == nil {
		t.Fatal("a plain-http feed was accepted")
	}
}
