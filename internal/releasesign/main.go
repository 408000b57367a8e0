// Command releasesign makes the update key pair and signs a release feed
// (app/update). The private key stays with whoever publishes releases:
// never commit it; commit only the public half as build/update-key.pub,
// which the Makefile links into the binary.
//
//	go run ./internal/releasesign keygen -out ~/juncture-release
//	go run ./internal/releasesign sign -key ~/juncture-release/update-key \
//	    -version 0.2.0 -notes "What's new" -notes-url https://… \
//	    -artifact linux-amd64=build/bin/juncture=https://…/juncture-0.2.0-linux-amd64 >feed.json
package main

import (
	"crypto/ed25519"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/juncture-app/juncture/app/update"
)

type artifacts []string

func (a *artifacts) String() string     { return strings.Join(*a, ",") }
func (a *artifacts) Set(s string) error { *a = append(*a, s); return nil }

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "releasesign:", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	if len(args) == 0 {
		return errors.New("usage: releasesign keygen|sign [flags]")
	}
	fs := flag.NewFlagSet(args[0], flag.ContinueOnError)
	switch args[0] {
	case "keygen":
		out := fs.String("out", "", "folder for update-key (private) and update-key.pub")
		if err := fs.Parse(args[1:]); err != nil {
			return err
		}
		if *out == "" {
			return errors.New("keygen: -out is required (a folder outside the repository)")
		}
		pub, priv, err := ed25519.GenerateKey(rand.Reader)
		if err != nil {
			return err
		}
		if err := os.MkdirAll(*out, 0o700); err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(*out, "update-key"), []byte(base64.StdEncoding.EncodeToString(priv)+"\n"), 0o600); err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(*out, "update-key.pub"), []byte(base64.StdEncoding.EncodeToString(pub)+"\n"), 0o644)
	case "sign":
		key := fs.String("key", "", "the private key file (keygen's update-key)")
		version := fs.String("version", "", "the release's version")
		notes := fs.String("notes", "", "what's new (plain text)")
		notesURL := fs.String("notes-url", "", "the release page")
		var arts artifacts
		fs.Var(&arts, "artifact", "platform=file=url (repeatable), e.g. linux-amd64=build/bin/juncture=https://…")
		if err := fs.Parse(args[1:]); err != nil {
			return err
		}
		b, err := os.ReadFile(*key)
		if err != nil {
			return err
		}
		raw, err := base64.StdEncoding.DecodeString(strings.TrimSpace(string(b)))
		if err != nil || len(raw) != ed25519.PrivateKeySize {
			return errors.New("the key file is not a base64 ed25519 private key")
		}
		priv := ed25519.PrivateKey(raw)
		m := update.Manifest{Product: "juncture", Version: *version, Notes: *notes, NotesURL: *notesURL, Artifacts: map[string]update.Artifact{}}
		for _, a := range arts {
			parts := strings.SplitN(a, "=", 3)
			if len(parts) != 3 {
				return fmt.Errorf("-artifact %q: want platform=file=url", a)
			}
			data, err := os.ReadFile(parts[1])
			if err != nil {
				return err
			}
			sum := sha256.Sum256(data)
			h := hex.EncodeToString(sum[:])
			m.Artifacts[parts[0]] = update.Artifact{URL: parts[2], Size: int64(len(data)), SHA256: h, Signature: update.SignArtifact(priv, parts[0], *version, h)}
		}
		feed, err := update.SignFeed(priv, m)
		if err != nil {
			return err
		}
		_, err = fmt.Println(string(feed))
		return err
	}
	return fmt.Errorf("unknown command %q", args[0])
}
