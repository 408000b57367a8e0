package main

import (
	"fmt"
	"os"
	"path/filepath"
	"text/template"
)

type nsisOptions struct {
	Root, WailsDir, Version, Out string
}

// The fields Wails' wails_tools.nsh template reads (its project.Project).
type nsisProtocol struct{ Scheme, Description, Role string }
type nsisAssoc struct{ Ext, Name, Description, IconName, Role string }
type nsisInfo struct {
	CompanyName, ProductName, ProductVersion, Copyright, Comments string
	FileAssociations                                              []nsisAssoc
	Protocols                                                     []nsisProtocol
}
type nsisProject struct {
	Name string
	Info nsisInfo
}

// stageNSIS lays out what makensis reads, as `wails build --nsis` would:
//
//	out/icon.ico
//	out/installer/project.nsi        (build/windows/installer, ours)
//	out/installer/wails_tools.nsh    (Wails' template, rendered)
//	out/installer/tmp/MicrosoftEdgeWebview2Setup.exe  (the bootstrapper Wails ships)
func stageNSIS(o nsisOptions) error {
	if o.WailsDir == "" || o.Out == "" || o.Version == "" {
		return fmt.Errorf("nsis: -wails, -version and -out are required")
	}
	inst := filepath.Join(o.Out, "installer")
	if err := os.MkdirAll(filepath.Join(inst, "tmp"), 0o755); err != nil {
		return err
	}
	tmpl, err := template.ParseFiles(filepath.Join(o.WailsDir, "pkg/buildassets/build/windows/installer/wails_tools.nsh"))
	if err != nil {
		return fmt.Errorf("reading Wails' NSIS template: %w", err)
	}
	f, err := os.Create(filepath.Join(inst, "wails_tools.nsh"))
	if err != nil {
		return err
	}
	err = tmpl.Execute(f, nsisProject{Name: "juncture", Info: nsisInfo{
		CompanyName: "Juncture", ProductName: "Juncture", ProductVersion: o.Version,
		Copyright: "Copyright © 2026 Juncture", Comments: "A desktop AI assistant that asks before it acts",
		Protocols: []nsisProtocol{{Scheme: "juncture", Description: "Juncture link", Role: "Viewer"}},
	}})
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("rendering wails_tools.nsh: %w", err)
	}
	copies := [][2]string{
		{filepath.Join(o.Root, "build/windows/icon.ico"), filepath.Join(o.Out, "icon.ico")},
		{filepath.Join(o.Root, "build/windows/installer/project.nsi"), filepath.Join(inst, "project.nsi")},
		{filepath.Join(o.WailsDir, "internal/webview2runtime/MicrosoftEdgeWebview2Setup.exe"), filepath.Join(inst, "tmp", "MicrosoftEdgeWebview2Setup.exe")},
	}
	for _, c := range copies {
		b, err := os.ReadFile(c[0])
		if err != nil {
			return err
		}
		if err := os.WriteFile(c[1], b, 0o644); err != nil {
			return err
		}
	}
	return nil
}
