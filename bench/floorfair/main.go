// Command floorfair is the dependency floor with Juncture's libraries: the
// bare Wails v2 window of ../shared/bench/floor (openai-go, modernc
// sqlite, adrg/xdg, santhosh-tekuri/jsonschema), plus what Juncture links
// today and that floor does not: the MCP go-sdk (client, server, stdio,
// command and streamable HTTP transports, oauthex), zalando/go-keyring
// (with godbus), ledongthuc/pdf, golang.org/x/image (webp, draw) and the
// standard library's image decoders, golang.org/x/oauth2, go-landlock,
// uritemplate and golang.org/x/text's collation. It is built from
// Juncture's own go.mod (same versions) with the same tags, so
// scripts/bench-desktop.sh compares binary size and idle memory against a
// floor that carries the same libraries and none of Juncture's code. Each
// library is reached from main (so the linker keeps what such a call
// needs) but run only when FLOORFAIR_EXERCISE=1; the window itself does
// what the bare floor does.
package main

import (
	"bytes"
	"context"
	"database/sql"
	"embed"
	"fmt"
	"image"
	"image/gif"
	"image/jpeg"
	"image/png"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/adrg/xdg"
	"github.com/godbus/dbus/v5"
	"github.com/landlock-lsm/go-landlock/landlock"
	"github.com/ledongthuc/pdf"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/wailsapp/wails/v2"
	"github.com/wailsapp/wails/v2/pkg/options"
	"github.com/wailsapp/wails/v2/pkg/options/assetserver"
	"github.com/yosida95/uritemplate/v3"
	"github.com/zalando/go-keyring"
	"golang.org/x/image/draw"
	"golang.org/x/image/webp"
	"golang.org/x/oauth2"
	"golang.org/x/oauth2/clientcredentials"
	"golang.org/x/text/collate"
	"golang.org/x/text/language"
	_ "modernc.org/sqlite"
)

//go:embed index.html
var assets embed.FS

func main() {
	dir := filepath.Join(xdg.DataHome, "floor")
	_ = os.MkdirAll(dir, 0o700)
	db, err := sql.Open("sqlite", filepath.Join(dir, "floor.db"))
	if err == nil {
		_, _ = db.Exec("CREATE TABLE IF NOT EXISTS t(x)")
	}
	c := openai.NewClient(option.WithBaseURL("http://127.0.0.1:1/v1"), option.WithAPIKey("x"))
	_ = jsonschema.NewCompiler()
	if os.Getenv("FLOORFAIR_EXERCISE") == "1" {
		exercise(context.Background(), dir)
	}
	err = wails.Run(&options.App{
		Title: "floor", Width: 1024, Height: 768,
		AssetServer: &assetserver.Options{Assets: assets},
		OnDomReady: func(ctx context.Context) {
			fmt.Println("floor window ready")
			_, _ = c.Models.List(ctx)
		},
	})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

// exercise calls into each library the way Juncture does (what it reaches
// is what the linker keeps); errors are printed, not acted on.
func exercise(ctx context.Context, dir string) {
	say := func(what string, err error) {
		if err != nil {
			fmt.Fprintln(os.Stderr, what+":", err)
		}
	}
	// MCP: a client over a command, over streamable HTTP, a server over
	// stdio and in memory, an HTTP handler, the OAuth discovery helpers.
	client := mcp.NewClient(&mcp.Implementation{Name: "floor", Version: "0"}, nil)
	if s, err := client.Connect(ctx, &mcp.CommandTransport{Command: exec.Command("true")}, nil); err == nil {
		_, err = s.ListTools(ctx, nil)
		say("mcp tools", err)
		_, _ = s.ListResources(ctx, nil)
		_, _ = s.ListPrompts(ctx, nil)
		_, _ = s.CallTool(ctx, &mcp.CallToolParams{Name: "x"})
		_, _ = s.ReadResource(ctx, &mcp.ReadResourceParams{URI: "x:y"})
		_ = s.Close()
	}
	_, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: "http://127.0.0.1:1/mcp"}, nil)
	say("mcp http", err)
	server := mcp.NewServer(&mcp.Implementation{Name: "floor", Version: "0"}, nil)
	st, ct := mcp.NewInMemoryTransports()
	go func() { _ = server.Run(ctx, st) }()
	_, _ = client.Connect(ctx, ct, nil)
	_ = server.Run(ctx, &mcp.StdioTransport{})
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server }, nil)
	go func() { _ = http.ListenAndServe("127.0.0.1:0", h) }()
	_, err = oauthex.GetProtectedResourceMetadata(ctx, "http://127.0.0.1:1/.well-known/oauth-protected-resource", "http://127.0.0.1:1/mcp", http.DefaultClient)
	say("oauthex", err)
	_, err = oauthex.GetAuthServerMeta(ctx, "http://127.0.0.1:1/.well-known/oauth-authorization-server", "http://127.0.0.1:1", http.DefaultClient)
	say("oauthex meta", err)
	_, err = oauthex.RegisterClient(ctx, "http://127.0.0.1:1/register", &oauthex.ClientRegistrationMetadata{RedirectURIs: []string{"http://127.0.0.1:1/cb"}}, http.DefaultClient)
	say("oauthex register", err)
	_, _ = oauthex.ParseWWWAuthenticate([]string{`Bearer resource_metadata="x"`})
	// OAuth 2.
	oc := &oauth2.Config{ClientID: "x", Endpoint: oauth2.Endpoint{AuthURL: "http://127.0.0.1:1/a", TokenURL: "http://127.0.0.1:1/t"}}
	_ = oc.AuthCodeURL("state", oauth2.S256ChallengeOption(oauth2.GenerateVerifier()))
	_, err = oc.Exchange(ctx, "code")
	say("oauth2", err)
	_, err = (&clientcredentials.Config{ClientID: "x", TokenURL: "http://127.0.0.1:1/t"}).Token(ctx)
	say("client credentials", err)
	// The keychain (Secret Service over D-Bus).
	say("keyring set", keyring.Set("floorfair", "x", "y"))
	_, err = keyring.Get("floorfair", "x")
	say("keyring get", err)
	say("keyring delete", keyring.Delete("floorfair", "x"))
	if conn, err := dbus.SessionBus(); err == nil {
		_ = conn.Close()
	}
	// PDF text.
	if f, err := os.Open(filepath.Join(dir, "x.pdf")); err == nil {
		if fi, err := f.Stat(); err == nil {
			if r, err := pdf.NewReader(f, fi.Size()); err == nil {
				for i := 1; i <= r.NumPage(); i++ {
					if t, err := r.Page(i).GetPlainText(nil); err == nil {
						fmt.Println(len(t))
					}
					for _, tx := range r.Page(i).Content().Text {
						_ = tx.S
					}
				}
			}
		}
		_ = f.Close()
	}
	// Images: decode, scale, encode.
	for _, dec := range []func([]byte) (image.Image, error){
		func(b []byte) (image.Image, error) { return png.Decode(bytes.NewReader(b)) },
		func(b []byte) (image.Image, error) { return jpeg.Decode(bytes.NewReader(b)) },
		func(b []byte) (image.Image, error) { return gif.Decode(bytes.NewReader(b)) },
		func(b []byte) (image.Image, error) { return webp.Decode(bytes.NewReader(b)) },
	} {
		if img, err := dec(nil); err == nil {
			dst := image.NewRGBA(image.Rect(0, 0, 8, 8))
			draw.ApproxBiLinear.Scale(dst, dst.Bounds(), img, img.Bounds(), draw.Src, nil)
			var buf bytes.Buffer
			_ = png.Encode(&buf, dst)
			_ = jpeg.Encode(&buf, dst, nil)
		}
	}
	_, _, _ = image.DecodeConfig(strings.NewReader(""))
	// The sandbox, URI templates, collation.
	say("landlock", landlock.V11.BestEffort().RestrictPaths(landlock.RODirs("/usr")))
	if t, err := uritemplate.New("file:///{+path}"); err == nil {
		_, _ = t.Expand(uritemplate.Values{})
		_ = t.Match("file:///x")
	}
	cl := collate.New(language.English, collate.IgnoreCase)
	_ = cl.CompareString("a", "B")
}
