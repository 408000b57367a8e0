package errmap

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/juncture-app/juncture/agent/mcp"
	"github.com/juncture-app/juncture/app/web"
	"github.com/juncture-app/juncture/internal/testkit"
)

var knownCodes = map[string]bool{
	web.CodeNotImplemented: true, web.CodeNotConfigured: true, web.CodeNotFound: true, web.CodeInvalidArgument: true,
	web.CodeInvalidSettings: true, web.CodeConflict: true, web.CodeInternal: true, web.CodeUnavailable: true,
	web.CodePending: true, web.CodeDiskFull: true,
}

// FuzzMapsWhatAServerSays: an error's text comes from outside (an MCP
// server's message, a model endpoint's body, a file's name), wrapped or
// not around the errors errmap knows. Every mapping gives a *web.Error
// with one of web's codes, an unknown error keeps its own text, and the
// work is linear: budget 1 s and 16 bytes of allocation per byte of the
// text plus 64 KiB.
func FuzzMapsWhatAServerSays(f *testing.F) {
	for _, s := range [][2]string{{"github", "boom"}, {"", ""}, {"a\"b", "mcp: line 1\x00\n"}, {"ünï", strings.Repeat("%v", 100)}} {
		f.Add(s[0], s[1])
	}
	kinds := []error{nil, mcp.ErrUnknownServer, mcp.ErrNotReady, mcp.ErrNotOffered}
	f.Fuzz(func(t *testing.T, server, msg string) {
		for _, kind := range kinds {
			err := errors.New(msg)
			if kind != nil {
				err = fmt.Errorf("%s: %w", msg, kind)
			}
			testkit.Budget(t, "mapping", time.Second, 16*uint64(len(msg)+len(server))+64<<10, func() {
				for _, got := range []error{Map(err), MCPEdit(err), MCPOffer(server, err), Branch(err)} {
					var we *web.Error
					if !errors.As(got, &we) || !knownCodes[we.Code] {
						t.Fatalf("%v mapped to %#v", err, got)
					}
				}
			})
			if kind == nil && Map(err).Message != msg {
				t.Fatalf("Map(%q) lost its text: %q", msg, Map(err).Message)
			}
		}
	})
}
