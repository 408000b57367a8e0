package update

import (
	"context"
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
)

// Apply downloads the offer's artifact next to the running binary, checks
// its size, sha256 and signature, and renames it over the binary (one
// rename in one folder: the old file or the new, never half of one). On
// any refusal the download is removed and the binary is untouched.
// It returns the replaced binary's path.
func (u *Updater) Apply(ctx context.Context, o Offer) (string, error) {
	if len(u.PublicKey) != ed25519.PublicKeySize {
		return "", refuse(ReasonNoKey, "This build of Juncture has no update key; it cannot verify an update.")
	}
	if Compare(o.Version, u.Current) <= 0 {
		return "", refuse(ReasonNotNewer, "Version %s is not newer than this one (%s).", o.Version, u.Current)
	}
	exe := u.Exe
	if exe == "" {
		var err error
		if exe, err = os.Executable(); err == nil {
			exe, err = filepath.EvalSymlinks(exe)
		}
		if err != nil {
			return "", refuse(ReasonFileSystem, "Could not find Juncture's own program file: %v.", err)
		}
	}
	if Managed(exe) {
		return "", refuse(ReasonManaged, "Juncture was installed as a package (%s). Update it with your package manager, for example: sudo apt update && sudo apt install juncture", exe)
	}
	a := o.Artifact
	if a.Size <= 0 || a.Size > MaxArtifactBytes {
		return "", refuse(ReasonTooLarge, "The update's size (%d bytes) is outside the %d MiB budget.", a.Size, MaxArtifactBytes>>20)
	}
	sig, err := base64.StdEncoding.DecodeString(a.Signature)
	if err != nil || len(sig) != ed25519.SignatureSize {
		return "", refuse(ReasonBadSignature, "The update's signature is missing or malformed; nothing was downloaded.")
	}
	platform := u.Platform
	if platform == "" {
		platform = Platform()
	}
	// The hash is checked against the signed statement before a byte is
	// fetched, and the bytes against the hash after.
	if !ed25519.Verify(u.PublicKey, ArtifactStatement(platform, o.Version, a.SHA256), sig) {
		return "", refuse(ReasonBadSignature, "The update's signature does not match Juncture's key; nothing was installed.")
	}

	ctx, cancel := context.WithTimeout(ctx, DownloadTimeout)
	defer cancel()
	dir := filepath.Dir(exe)
	create := u.createTemp
	if create == nil {
		create = func(dir, pattern string) (tempFile, error) { return os.CreateTemp(dir, pattern) }
	}
	tmp, err := create(dir, ".juncture-update-*")
	if err != nil {
		return "", fsRefusal(err, dir)
	}
	keep := false
	defer func() {
		if !keep {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if err := u.download(ctx, a, tmp, dir); err != nil {
		return "", err
	}
	if err := tmp.Sync(); err != nil {
		return "", fsRefusal(err, dir)
	}
	if err := tmp.Close(); err != nil {
		return "", fsRefusal(err, dir)
	}
	if err := os.Chmod(tmp.Name(), 0o755); err != nil {
		return "", fsRefusal(err, dir)
	}
	if err := replace(tmp.Name(), exe); err != nil {
		return "", fsRefusal(err, dir)
	}
	keep = true
	return exe, nil
}

// download writes exactly a.Size bytes whose sha256 is a.SHA256 into w.
func (u *Updater) download(ctx context.Context, a Artifact, w io.Writer, dir string) error {
	resp, err := u.get(ctx, a.URL)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.ContentLength > a.Size {
		return refuse(ReasonTooLarge, "The download is %d bytes; the signed manifest says %d. Refused.", resp.ContentLength, a.Size)
	}
	h := sha256.New()
	n, err := io.Copy(io.MultiWriter(markWrites{w}, h), io.LimitReader(resp.Body, a.Size+1))
	var werr *writeError
	switch {
	case errors.As(err, &werr):
		return fsRefusal(werr.err, dir)
	case err != nil:
		return refuse(ReasonTruncated, "The download broke off after %d of %d bytes (%v). Nothing was installed.", n, a.Size, err)
	case n < a.Size:
		return refuse(ReasonTruncated, "The download is truncated: %d of %d bytes. Nothing was installed.", n, a.Size)
	case n > a.Size:
		return refuse(ReasonTooLarge, "The download is larger than the signed manifest says (%d bytes). Nothing was installed.", a.Size)
	}
	if got := hex.EncodeToString(h.Sum(nil)); !strings.EqualFold(got, a.SHA256) {
		return refuse(ReasonTampered, "The download does not match its signed checksum: it was changed on the way. Nothing was installed.")
	}
	return nil
}

// fsRefusal explains a file-system failure; a full disk says so.
func fsRefusal(err error, dir string) error {
	if errors.Is(err, syscall.ENOSPC) {
		return refuse(ReasonDiskFull, "Not enough disk space in %s for the update. Free some space and try again; this version keeps running.", dir)
	}
	return refuse(ReasonFileSystem, "Could not write the update next to Juncture (%v); this version keeps running.", err)
}

// writeError marks an error of the file being written (not the network).
type writeError struct{ err error }

func (e *writeError) Error() string { return e.err.Error() }

type markWrites struct{ w io.Writer }

func (m markWrites) Write(p []byte) (int, error) {
	n, err := m.w.Write(p)
	if err != nil {
		err = &writeError{err}
	}
	return n, err
}

// replace renames newPath over exe. Windows cannot rename over a running
// program but can rename it aside, so the old one goes to exe.old first
// (removed by the next update, or the uninstaller).
func replace(newPath, exe string) error {
	if runtime.GOOS != "windows" {
		return os.Rename(newPath, exe)
	}
	old := exe + ".old"
	_ = os.Remove(old)
	if err := os.Rename(exe, old); err != nil {
		return fmt.Errorf("moving the running program aside: %w", err)
	}
	if err := os.Rename(newPath, exe); err != nil {
		_ = os.Rename(old, exe)
		return err
	}
	return nil
}
