// Package update checks Juncture's release feed and replaces the running
// binary with a newer, signed one.
//
// The feed is a small JSON document: a manifest (base64) and an ed25519
// signature over it. The manifest names the newest version and, per
// platform, one artifact: its URL, size, sha256 and its own ed25519
// signature over a statement of (platform, version, sha256). The public key
// is built into the binary (internal/buildinfo.UpdateKey); the private key
// lives with whoever publishes releases, never in the repository
// (internal/releasesign makes and uses it).
//
// Nothing is sent but the requests themselves: a fixed User-Agent, no
// query, no cookies, no identifiers.
package update

import (
	"crypto/ed25519"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Feed is the document at the feed URL.
type Feed struct {
	Manifest  string `json:"manifest"`  // base64 of the manifest's JSON bytes
	Signature string `json:"signature"` // base64 ed25519 over manifestContext + those bytes
}

// Manifest describes the newest release.
type Manifest struct {
	Product   string              `json:"product"` // "juncture"
	Version   string              `json:"version"`
	Notes     string              `json:"notes,omitempty"`    // what's new, plain text
	NotesURL  string              `json:"notesUrl,omitempty"` // the release page
	Artifacts map[string]Artifact `json:"artifacts"`          // by Platform()
}

// Artifact is one platform's new binary.
type Artifact struct {
	URL       string `json:"url"`
	Size      int64  `json:"size"`
	SHA256    string `json:"sha256"`    // hex
	Signature string `json:"signature"` // base64 ed25519 over ArtifactStatement
}

// The signed messages start with what they are, so that a signature made
// for one can never pass as the other.
const manifestContext = "juncture update manifest v1\n"

// ArtifactStatement is what an artifact's signature signs: the platform and
// version bind it to this release (an old artifact cannot be replayed as a
// new one), the hash to its bytes.
func ArtifactStatement(platform, version, sha256hex string) []byte {
	return fmt.Appendf(nil, "juncture update artifact v1\nplatform %s\nversion %s\nsha256 %s\n", platform, version, strings.ToLower(sha256hex))
}

// SignFeed makes a feed from a manifest (internal/releasesign and tests).
func SignFeed(priv ed25519.PrivateKey, m Manifest) ([]byte, error) {
	body, err := json.Marshal(m)
	if err != nil {
		return nil, err
	}
	sig := ed25519.Sign(priv, append([]byte(manifestContext), body...))
	return json.Marshal(Feed{Manifest: base64.StdEncoding.EncodeToString(body), Signature: base64.StdEncoding.EncodeToString(sig)})
}

// SignArtifact is the Artifact.Signature for an artifact's hash.
func SignArtifact(priv ed25519.PrivateKey, platform, version, sha256hex string) string {
	return base64.StdEncoding.EncodeToString(ed25519.Sign(priv, ArtifactStatement(platform, version, sha256hex)))
}

// ParsePublicKey reads a base64 ed25519 public key (buildinfo.UpdateKey).
func ParsePublicKey(s string) (ed25519.PublicKey, error) {
	b, err := base64.StdEncoding.DecodeString(strings.TrimSpace(s))
	if err != nil || len(b) != ed25519.PublicKeySize {
		return nil, errors.New("the update key is not a base64 ed25519 public key")
	}
	return ed25519.PublicKey(b), nil
}

// openFeed verifies a feed's signature and returns its manifest.
func openFeed(pub ed25519.PublicKey, raw []byte) (Manifest, error) {
	var f Feed
	if err := json.Unmarshal(raw, &f); err != nil {
		return Manifest{}, refuse(ReasonBadFeed, "The release feed is not a Juncture feed (%v).", err)
	}
	body, err1 := base64.StdEncoding.DecodeString(f.Manifest)
	sig, err2 := base64.StdEncoding.DecodeString(f.Signature)
	if err1 != nil || err2 != nil || len(sig) != ed25519.SignatureSize {
		return Manifest{}, refuse(ReasonBadFeed, "The release feed is not a Juncture feed (its manifest or signature is not base64).")
	}
	if !ed25519.Verify(pub, append([]byte(manifestContext), body...), sig) {
		return Manifest{}, refuse(ReasonBadSignature, "The release feed's signature does not match Juncture's key: it was not published by Juncture, or it was changed on the way. Nothing was downloaded.")
	}
	var m Manifest
	if err := json.Unmarshal(body, &m); err != nil {
		return Manifest{}, refuse(ReasonBadFeed, "The release feed's manifest does not parse (%v).", err)
	}
	if m.Product != "juncture" {
		return Manifest{}, refuse(ReasonBadFeed, "The release feed is for %q, not Juncture.", m.Product)
	}
	if _, err := parseVersion(m.Version); err != nil {
		return Manifest{}, refuse(ReasonBadFeed, "The release feed's version %q is not a version number.", m.Version)
	}
	return m, nil
}

// version is MAJOR.MINOR.PATCH with an optional -prerelease, which sorts
// before the release it precedes (0.2.0-rc1 < 0.2.0).
type version struct {
	n   [3]int
	pre string
}

func parseVersion(s string) (version, error) {
	var v version
	s = strings.TrimPrefix(s, "v")
	core, pre, _ := strings.Cut(s, "-")
	v.pre = pre
	parts := strings.Split(core, ".")
	if len(parts) != 3 {
		return v, fmt.Errorf("version %q: want MAJOR.MINOR.PATCH", s)
	}
	for i, p := range parts {
		n, err := strconv.Atoi(p)
		if err != nil || n < 0 || len(p) > 9 {
			return v, fmt.Errorf("version %q: %q is not a number", s, p)
		}
		v.n[i] = n
	}
	return v, nil
}

// Compare is -1, 0 or 1 as a is older than, the same as, or newer than b;
// an unparsable version is the oldest.
func Compare(a, b string) int {
	va, ea := parseVersion(a)
	vb, eb := parseVersion(b)
	switch {
	case ea != nil && eb != nil:
		return 0
	case ea != nil:
		return -1
	case eb != nil:
		return 1
	}
	for i := range va.n {
		if va.n[i] != vb.n[i] {
			if va.n[i] < vb.n[i] {
				return -1
			}
			return 1
		}
	}
	switch {
	case va.pre == vb.pre:
		return 0
	case va.pre == "":
		return 1
	case vb.pre == "":
		return -1
	}
	return strings.Compare(va.pre, vb.pre)
}
