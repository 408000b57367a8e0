package update

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"
)

// release is a local feed: version N+1's "binary" (a shell script that
// prints its version) behind a manifest signed with the test's own key.
type release struct {
	priv     ed25519.PrivateKey
	pub      ed25519.PublicKey
	srv      *httptest.Server
	mu       sync.Mutex
	feed     []byte
	artifact []byte
	reqs     []*http.Request
}

const platform = "test-os-arch"

func script(version string) []byte {
	return []byte("#!/bin/sh\necho juncture " + version + "\n")
}

func newRelease(t *testing.T) *release {
	t.Helper()
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	r := &release{priv: priv, pub: pub}
	r.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		r.mu.Lock()
		r.reqs = append(r.reqs, req.Clone(context.Background()))
		feed, art := r.feed, r.artifact
		r.mu.Unlock()
		switch req.URL.Path {
		case "/feed.json":
			w.Write(feed)
		case "/juncture":
			w.Write(art)
		default:
			http.NotFound(w, req)
		}
	}))
	t.Cleanup(r.srv.Close)
	r.publish(t, "1.1.0", script("1.1.0"), nil)
	return r
}

// publish signs a manifest for version whose artifact is served as body;
// edit, when given, changes the signed artifact entry first.
func (r *release) publish(t *testing.T, version string, body []byte, edit func(*Artifact)) {
	t.Helper()
	sum := sha256.Sum256(body)
	a := Artifact{URL: r.srv.URL + "/juncture", Size: int64(len(body)), SHA256: hex.EncodeToString(sum[:])}
	a.Signature = SignArtifact(r.priv, platform, version, a.SHA256)
	if edit != nil {
		edit(&a)
	}
	feed, err := SignFeed(r.priv, Manifest{Product: "juncture", Version: version, Notes: "Faster answers.", Artifacts: map[string]Artifact{platform: a}})
	if err != nil {
		t.Fatal(err)
	}
	r.mu.Lock()
	r.feed, r.artifact = feed, body
	r.mu.Unlock()
}

func (r *release) serveArtifact(body []byte) {
	r.mu.Lock()
	r.artifact = body
	r.mu.Unlock()
}

// installed writes version N's "binary" into a fresh folder.
func installed(t *testing.T) string {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("the stand-in binaries are shell scripts")
	}
	exe := filepath.Join(t.TempDir(), "juncture")
	if err := os.WriteFile(exe, script("1.0.0"), 0o755); err != nil {
		t.Fatal(err)
	}
	return exe
}

func (r *release) updater(exe string) *Updater {
	return &Updater{FeedURL: r.srv.URL + "/feed.json", PublicKey: r.pub, Current: "1.0.0", Platform: platform, Exe: exe}
}

func runs(t *testing.T, exe string) string {
	t.Helper()
	out, err := exec.Command(exe).Output()
	if err != nil {
		t.Fatalf("running %s: %v", exe, err)
	}
	return strings.TrimSpace(string(out))
}

// Version N updates to N+1 from a local feed with a good signature, and the
// restart command reopens the chat that was open.
func TestUpdateGoodSignatureReplacesBinary(t *testing.T) {
	r := newRelease(t)
	exe := installed(t)
	u := r.updater(exe)
	offer, err := u.Check(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if offer.Version != "1.1.0" || offer.Notes != "Faster answers." {
		t.Fatalf("offer %+v", offer)
	}
	got, err := u.Apply(context.Background(), *offer)
	if err != nil {
		t.Fatal(err)
	}
	if got != exe || runs(t, exe) != "juncture 1.1.0" {
		t.Fatalf("after the update %s prints %q", got, runs(t, exe))
	}
	if left, _ := filepath.Glob(filepath.Join(filepath.Dir(exe), ".juncture-update-*")); len(left) != 0 {
		t.Errorf("download left behind: %v", left)
	}
	cmd := RestartCommand(exe, "juncture://thread/t1")
	if cmd.Args[1] != "juncture://thread/t1" || !strings.Contains(strings.Join(cmd.Env, "\n"), WaitPIDEnv+"=") {
		t.Errorf("restart %v does not reopen the chat after this process", cmd.Args)
	}
}

// Every refused case says why and leaves version N in place, byte for byte.
func TestUpdateRefusalsLeaveRunningVersion(t *testing.T) {
	cases := []struct {
		name   string
		setup  func(*testing.T, *release, *Updater)
		reason string
	}{
		{"tampered download", func(t *testing.T, r *release, _ *Updater) {
			bad := script("1.1.0")
			bad[len(bad)-2] = 'X'
			r.serveArtifact(bad)
		}, ReasonTampered},
		{"truncated download", func(t *testing.T, r *release, _ *Updater) {
			r.serveArtifact(script("1.1.0")[:10])
		}, ReasonTruncated},
		{"longer download", func(t *testing.T, r *release, _ *Updater) {
			r.serveArtifact(append(script("1.1.0"), "rm -rf ~\n"...))
		}, ReasonTooLarge},
		{"feed signed by another key", func(t *testing.T, r *release, _ *Updater) {
			_, priv, _ := ed25519.GenerateKey(rand.Reader)
			r.priv = priv
			r.publish(t, "1.1.0", script("1.1.0"), nil)
		}, ReasonBadSignature},
		{"artifact signature for another version", func(t *testing.T, r *release, _ *Updater) {
			r.publish(t, "1.1.0", script("1.1.0"), func(a *Artifact) {
				a.Signature = SignArtifact(r.priv, platform, "0.9.0", a.SHA256)
			})
		}, ReasonBadSignature},
		{"feed offers an older version", func(t *testing.T, r *release, _ *Updater) {
			r.publish(t, "0.9.0", script("0.9.0"), nil)
		}, ReasonNotNewer},
		{"feed offers the same version", func(t *testing.T, r *release, _ *Updater) {
			r.publish(t, "1.0.0", script("1.0.0"), nil)
		}, ReasonNotNewer},
		{"full disk", func(t *testing.T, r *release, u *Updater) {
			u.createTemp = func(dir, pattern string) (tempFile, error) {
				f, err := os.CreateTemp(dir, pattern)
				return enospcFile{f}, err
			}
		}, ReasonDiskFull},
		{"package-managed install", func(t *testing.T, r *release, u *Updater) {
			if runtime.GOOS != "linux" {
				t.Skip("the .deb is Linux's")
			}
			u.Exe = "/usr/bin/juncture"
		}, ReasonManaged},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := newRelease(t)
			exe := installed(t)
			u := r.updater(exe)
			c.setup(t, r, u)
			offer, err := u.Check(context.Background())
			if err == nil {
				_, err = u.Apply(context.Background(), *offer)
			}
			if ReasonOf(err) != c.reason {
				t.Fatalf("got %v (reason %q), want reason %q", err, ReasonOf(err), c.reason)
			}
			if msg := err.Error(); len(msg) < 20 {
				t.Errorf("message %q does not say why", msg)
			}
			if got := runs(t, exe); got != "juncture 1.0.0" {
				t.Fatalf("the running version changed: %q", got)
			}
			if left, _ := filepath.Glob(filepath.Join(filepath.Dir(exe), ".juncture-update-*")); len(left) != 0 {
				t.Errorf("download left behind: %v", left)
			}
		})
	}
}

// enospcFile is a disk that fills up at the first write.
type enospcFile struct{ *os.File }

func (f enospcFile) Write(p []byte) (int, error) {
	return 0, &os.PathError{Op: "write", Path: f.Name(), Err: syscall.ENOSPC}
}

// Nothing is sent but the request itself: the fixed User-Agent, no query,
// no cookies, no identifying header.
func TestUpdateCheckSendsNothingElse(t *testing.T) {
	r := newRelease(t)
	u := r.updater(installed(t))
	if _, err := u.Check(context.Background()); err != nil {
		t.Fatal(err)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.reqs) != 1 {
		t.Fatalf("%d requests for one check", len(r.reqs))
	}
	req := r.reqs[0]
	if req.URL.RawQuery != "" || req.Method != http.MethodGet {
		t.Errorf("%s %s", req.Method, req.URL)
	}
	for name := range req.Header {
		switch name {
		case "User-Agent", "Accept-Encoding":
		default:
			t.Errorf("sent header %s: %v", name, req.Header[name])
		}
	}
	if ua := req.Header.Get("User-Agent"); ua != UserAgent {
		t.Errorf("User-Agent %q", ua)
	}
}

func TestUpdateNoKeyRefuses(t *testing.T) {
	u := &Updater{FeedURL: "https://example.invalid/feed.json", Current: "1.0.0"}
	if _, err := u.Check(context.Background()); ReasonOf(err) != ReasonNoKey {
		t.Fatalf("got %v", err)
	}
}

func TestFeedURLRules(t *testing.T) {
	for raw, ok := range map[string]bool{
		"https://juncture.app/feed.json": true,
		"http://127.0.0.1:8080/feed":     true,
		"http://localhost/feed":          true,
		"http://juncture.app/feed.json":  false,
		"file:///etc/passwd":             false,
		"https://u:p@juncture.app/feed":  false,
		"not a url":                      false,
	} {
		if err := CheckFeedURL(raw); (err == nil) != ok {
			t.Errorf("%s: %v", raw, err)
		}
	}
}

func TestCompareVersions(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want int
	}{
		{"1.0.0", "1.0.0", 0}, {"1.0.1", "1.0.0", 1}, {"1.10.0", "1.9.9", 1},
		{"0.2.0-rc1", "0.2.0", -1}, {"0.2.0", "0.1.0-dev", 1}, {"v2.0.0", "1.9.0", 1},
		{"garbage", "0.0.1", -1},
	} {
		if got := Compare(c.a, c.b); got != c.want {
			t.Errorf("Compare(%s, %s) = %d, want %d", c.a, c.b, got, c.want)
		}
	}
}
