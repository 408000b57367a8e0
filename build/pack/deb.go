package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/goreleaser/nfpm/v2"
	"github.com/goreleaser/nfpm/v2/deb"
	"github.com/goreleaser/nfpm/v2/files"
)

type debOptions struct {
	Root, Binary, Version, Arch, Out string
}

// debDepends are the runtime libraries the desktop build links
// (webkit2_41 tag): WebKitGTK 4.1 and GTK 3. Debian 13 renamed GTK's
// package for the 64-bit time_t move, hence the alternative.
var debDepends = []string{
	"libwebkit2gtk-4.1-0",
	"libgtk-3-0 | libgtk-3-0t64",
	"libc6",
}

// buildDeb writes build/dist/juncture_<version>_<arch>.deb and returns its path.
func buildDeb(o debOptions) (string, error) {
	if o.Version == "" {
		return "", fmt.Errorf("deb: -version is required")
	}
	stage, err := os.MkdirTemp("", "juncture-deb-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(stage)
	root := func(p string) string { return filepath.Join(o.Root, p) }

	if err := writeIcons(root("build/appicon.png"), filepath.Join(stage, "icons")); err != nil {
		return "", err
	}
	meta, err := os.ReadFile(root("build/linux/app.juncture.Juncture.metainfo.xml"))
	if err != nil {
		return "", err
	}
	date := mtime().Format("2006-01-02")
	meta = []byte(strings.NewReplacer("@VERSION@", o.Version, "@DATE@", date).Replace(string(meta)))
	metaPath := filepath.Join(stage, "app.juncture.Juncture.metainfo.xml")
	if err := os.WriteFile(metaPath, meta, 0o644); err != nil {
		return "", err
	}

	contents := files.Contents{
		{Source: root(o.Binary), Destination: "/usr/bin/juncture", FileInfo: &files.ContentFileInfo{Mode: 0o755}},
		{Source: root("build/linux/juncture.desktop"), Destination: "/usr/share/applications/juncture.desktop", FileInfo: &files.ContentFileInfo{Mode: 0o644}},
		{Source: metaPath, Destination: "/usr/share/metainfo/app.juncture.Juncture.metainfo.xml", FileInfo: &files.ContentFileInfo{Mode: 0o644}},
	}
	for _, n := range iconSizes {
		size := fmt.Sprintf("%dx%d", n, n)
		contents = append(contents, &files.Content{
			Source:      filepath.Join(stage, "icons", size, "apps", "juncture.png"),
			Destination: "/usr/share/icons/hicolor/" + size + "/apps/juncture.png",
			FileInfo:    &files.ContentFileInfo{Mode: 0o644},
		})
	}
	info := nfpm.WithDefaults(&nfpm.Info{
		Name:        "juncture",
		Arch:        o.Arch,
		Platform:    "linux",
		Version:     o.Version,
		Section:     "utils",
		Priority:    "optional",
		Maintainer:  "Juncture <team@juncture.app>",
		Description: "Desktop AI assistant that asks before it acts\nJuncture talks to the model you choose (a local server such as Ollama or\nLM Studio, or a provider with your key) and asks before it runs a command\nor changes a file. Conversations stay on your computer.",
		Vendor:      "Juncture",
		Homepage:    "https://juncture.app",
		License:     "MIT",
		MTime:       mtime(),
		Overridables: nfpm.Overridables{
			Depends:  debDepends,
			Contents: contents,
		},
	})
	if err := os.MkdirAll(root(o.Out), 0o755); err != nil {
		return "", err
	}
	path := filepath.Join(root(o.Out), deb.Default.ConventionalFileName(info))
	f, err := os.Create(path)
	if err != nil {
		return "", err
	}
	if err := deb.Default.Package(info, f); err != nil {
		f.Close()
		os.Remove(path)
		return "", fmt.Errorf("building the .deb: %w", err)
	}
	return path, f.Close()
}

// mtime is SOURCE_DATE_EPOCH when set (reproducible builds), else now.
func mtime() time.Time {
	var sec int64
	if _, err := fmt.Sscan(os.Getenv("SOURCE_DATE_EPOCH"), &sec); err == nil && sec > 0 {
		return time.Unix(sec, 0).UTC()
	}
	return time.Now().UTC()
}
