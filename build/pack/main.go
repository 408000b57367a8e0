// Command pack builds Juncture's packages for `make dist` (scripts/dist.sh):
//
//	pack icons  -src build/appicon.png -out DIR      hicolor PNGs, 16–512 px
//	pack deb    -bin BIN -version V -out DIR         the .deb (nfpm as a library)
//	pack nsis   -wails DIR -version V -out DIR       stage the Windows installer's makensis inputs
//
// It is its own module (build/pack/go.mod) so nfpm's dependencies stay out
// of the app's go.mod. Paths are relative to the repository root (-root).
package main

import (
	"flag"
	"fmt"
	"os"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: pack icons|deb|nsis [flags]")
		os.Exit(2)
	}
	var err error
	switch cmd, args := os.Args[1], os.Args[2:]; cmd {
	case "icons":
		fs := flag.NewFlagSet(cmd, flag.ExitOnError)
		src := fs.String("src", "build/appicon.png", "the 1024 px app icon")
		out := fs.String("out", "", "folder for hicolor/<N>x<N>/apps/juncture.png")
		_ = fs.Parse(args)
		err = writeIcons(*src, *out)
	case "deb":
		fs := flag.NewFlagSet(cmd, flag.ExitOnError)
		var o debOptions
		fs.StringVar(&o.Root, "root", ".", "repository root")
		fs.StringVar(&o.Binary, "bin", "build/bin/juncture", "the desktop binary")
		fs.StringVar(&o.Version, "version", "", "package version (wails.json's productVersion)")
		fs.StringVar(&o.Arch, "arch", "amd64", "Debian architecture")
		fs.StringVar(&o.Out, "out", "build/dist", "output folder")
		_ = fs.Parse(args)
		var path string
		path, err = buildDeb(o)
		if err == nil {
			fmt.Println(path)
		}
	case "nsis":
		fs := flag.NewFlagSet(cmd, flag.ExitOnError)
		var o nsisOptions
		fs.StringVar(&o.Root, "root", ".", "repository root")
		fs.StringVar(&o.WailsDir, "wails", "", "the Wails module's folder (go list -m -f '{{.Dir}}' github.com/wailsapp/wails/v2)")
		fs.StringVar(&o.Version, "version", "", "product version")
		fs.StringVar(&o.Out, "out", "", "staging folder for makensis")
		_ = fs.Parse(args)
		err = stageNSIS(o)
	default:
		err = fmt.Errorf("unknown command %q", cmd)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "pack:", err)
		os.Exit(1)
	}
}
