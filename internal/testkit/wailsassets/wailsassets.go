// Wails' asset server pulls in its cgo web view package, which needs
// webkit2gtk: it builds without cgo, or with -tags webkit2_41.

//go:build !cgo || webkit2_41

// Package wailsassets starts Wails' own asset server (the one the desktop
// window's custom scheme is answered by) for tests, with a stand-in for the
// runtime scripts it injects, so a test sees what the window would get.
package wailsassets

import (
	"testing"

	"github.com/wailsapp/wails/v2/pkg/assetserver"
	aso "github.com/wailsapp/wails/v2/pkg/options/assetserver"
)

type fakeRuntime struct{}

func (fakeRuntime) DesktopIPC() []byte       { return []byte("/*ipc*/") }
func (fakeRuntime) WebsocketIPC() []byte     { return nil }
func (fakeRuntime) RuntimeDesktopJS() []byte { return []byte("/*runtime*/") }

// New is Wails' asset server over opts (assets, middleware), as the
// desktop build starts it; a failure to start fails the test.
func New(t testing.TB, opts aso.Options) *assetserver.AssetServer {
	t.Helper()
	srv, err := assetserver.NewAssetServer("", opts, false, nil, fakeRuntime{})
	if err != nil {
		t.Fatalf("starting Wails' asset server: %v", err)
	}
	return srv
}
