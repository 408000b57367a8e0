package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"net"
	"net/http"
	"os"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// edge is one server process: the tools and what they need of the process.
type edge struct {
	stdout  *frameWriter // nil when serving HTTP
	cancels *cancelLog
}

// Tool inputs. Fields without omitempty are required by the input schema.
type (
	textIn struct {
		Text string `json:"text" jsonschema:"the text"`
	}
	dialIn struct {
		Addr string `json:"addr" jsonschema:"host:port to open a TCP connection to"`
	}
	crashIn struct {
		AfterMs int `json:"afterMs,omitempty" jsonschema:"milliseconds to wait before the process exits with status 3 (default 0)"`
	}
	floodIn struct {
		Count int `json:"count,omitempty" jsonschema:"how many progress notifications to send (default 100)"`
	}
	slowIn struct {
		Steps  int `json:"steps,omitempty" jsonschema:"how many steps (default 3)"`
		StepMs int `json:"stepMs,omitempty" jsonschema:"milliseconds per step (default 100)"`
	}
	elicitIn struct {
		Message string `json:"message,omitempty" jsonschema:"the question to show the person"`
	}
	sampleIn struct {
		Prompt    string `json:"prompt" jsonschema:"the user message to sample a reply to"`
		MaxTokens int64  `json:"maxTokens,omitempty" jsonschema:"the reply's token limit (default 100)"`
	}
	noteExtraIn struct {
		Text  string `json:"text" jsonschema:"the text"`
		Extra string `json:"extra,omitempty" jsonschema:"an extra field"`
	}
	none struct{}
)

// weather is the structured tool's output; its schema is the outputSchema.
type weather struct {
	Temperature int    `json:"temperature"`
	Unit        string `json:"unit"`
}

// envNames are the variables the env tool reports, when set: the app's
// secrets (which must not reach a server) and the server's own (which must).
var envNames = []string{"PATH", "HOME", "OPENAI_API_KEY", "JUNCTURE_TOKEN", "EDGE_SECRET", "EDGE_OWN"}

// hints returns tool annotations: readOnlyHint as given, destructiveHint
// spelled out (the spec's default for a non-read-only tool is true), and
// openWorldHint false: no tool here reaches outside the process.
func hints(readOnly, destructive bool) *mcp.ToolAnnotations {
	openWorld := false
	return &mcp.ToolAnnotations{ReadOnlyHint: readOnly, DestructiveHint: &destructive, OpenWorldHint: &openWorld}
}

func (e *edge) server() *mcp.Server {
	var opts *mcp.ServerOptions
	if os.Getenv("EDGE_LEGACY") == "1" {
		// An older server: no multi round-trip requests; its questions are
		// requests during the call.
		opts = &mcp.ServerOptions{SupportedProtocolVersions: []string{"2025-11-25"}}
	}
	s := mcp.NewServer(&mcp.Implementation{Name: "edgeserver", Title: "Juncture edge-case test server", Version: "1.0.0"}, opts)
	ro := hints(true, false)

	mcp.AddTool(s, &mcp.Tool{Name: "echo", Title: "Echo", Description: "Returns the text unchanged.", Annotations: ro},
		func(_ context.Context, _ *mcp.CallToolRequest, in textIn) (*mcp.CallToolResult, any, error) {
			return text(in.Text), nil, nil
		})
	if nt, extra := noteTool(); extra {
		mcp.AddTool(s, nt, func(_ context.Context, _ *mcp.CallToolRequest, in noteExtraIn) (*mcp.CallToolResult, any, error) {
			return text("noted: " + in.Text), nil, nil
		})
	} else {
		mcp.AddTool(s, nt, func(_ context.Context, _ *mcp.CallToolRequest, in textIn) (*mcp.CallToolResult, any, error) {
			return text("noted: " + in.Text), nil, nil
		})
	}
	flipRO := os.Getenv("EDGE_FLIP_READONLY") == "1"
	mcp.AddTool(s, &mcp.Tool{Name: "flip", Title: "Flip", Description: "Returns \"flipped\"; readOnlyHint is true when the server runs with EDGE_FLIP_READONLY=1.", Annotations: hints(flipRO, !flipRO)},
		func(context.Context, *mcp.CallToolRequest, none) (*mcp.CallToolResult, any, error) {
			return text("flipped"), nil, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "crash", Title: "Crash", Description: "Waits afterMs, then the server process exits with status 3 without answering.", Annotations: ro},
		func(ctx context.Context, _ *mcp.CallToolRequest, in crashIn) (*mcp.CallToolResult, any, error) {
			if err := sleep(ctx, in.AfterMs); err != nil {
				return nil, nil, err
			}
			os.Exit(3)
			return nil, nil, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "hang", Title: "Hang", Description: "Never answers. When the client cancels the call, appends \"cancelled <request id>\" to the file $EDGE_CANCEL_LOG.", Annotations: ro},
		e.hang)
	mcp.AddTool(s, &mcp.Tool{Name: "flood", Title: "Flood", Description: `Sends count progress notifications as fast as it can, then returns "flooded <count>".`, Annotations: ro},
		flood)
	mcp.AddTool(s, &mcp.Tool{Name: "slow", Title: "Slow", Description: `Takes steps*stepMs, with a progress notification "step i of n" per step, then returns "done".`, Annotations: ro},
		slow)
	mcp.AddTool(s, &mcp.Tool{Name: "image", Title: "Image", Description: "Returns a 1x1 red PNG and a text block.", Annotations: ro},
		func(context.Context, *mcp.CallToolRequest, none) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{
				&mcp.ImageContent{Data: redPixel, MIMEType: "image/png"},
				&mcp.TextContent{Text: "a 1x1 red pixel"},
			}}, nil, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "structured", Title: "Structured", Description: "Returns structured content with an output schema, and a text block.", Annotations: ro},
		func(context.Context, *mcp.CallToolRequest, none) (*mcp.CallToolResult, weather, error) {
			return text("21 C"), weather{Temperature: 21, Unit: "C"}, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "links", Title: "Links", Description: "Returns a resource link to https://example.com/doc and a text block.", Annotations: ro},
		func(context.Context, *mcp.CallToolRequest, none) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{
				&mcp.ResourceLink{URI: "https://example.com/doc", Name: "doc", Title: "Example document", MIMEType: "text/html"},
				&mcp.TextContent{Text: "see the linked document"},
			}}, nil, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "dial", Title: "Dial", Description: `Opens a TCP connection to addr and closes it; returns "connected", or the error (isError true). The sandbox tests use it.`, Annotations: ro},
		func(_ context.Context, _ *mcp.CallToolRequest, in dialIn) (*mcp.CallToolResult, any, error) {
			c, err := net.DialTimeout("tcp", in.Addr, 5*time.Second)
			if err != nil {
				res := text("dial: " + err.Error())
				res.IsError = true
				return res, nil, nil
			}
			c.Close()
			return text("connected"), nil, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "fetch", Title: "Fetch", Description: `GETs url through the proxy in HTTP_PROXY/HTTPS_PROXY when set; returns "status <code>: <body>", or the error (isError true). The sandbox tests use it.`, Annotations: ro},
		func(ctx context.Context, _ *mcp.CallToolRequest, in fetchIn) (*mcp.CallToolResult, any, error) {
			body, err := fetch(ctx, in.URL)
			if err != nil {
				res := text("fetch: " + err.Error())
				res.IsError = true
				return res, nil, nil
			}
			return text(body), nil, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "fails", Title: "Fails", Description: "Returns a tool error (isError true).", Annotations: ro},
		func(context.Context, *mcp.CallToolRequest, none) (*mcp.CallToolResult, any, error) {
			res := text("the edge server failed on purpose")
			res.IsError = true
			return res, nil, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "elicit", Title: "Elicit", Description: `Asks the person for a name (required) and an age (form elicitation); returns "action=<action> content=<json>".`, Annotations: ro},
		elicit)
	mcp.AddTool(s, &mcp.Tool{Name: "sample", Title: "Sample", Description: `Asks the client's model to reply to prompt (sampling); returns "sampled: <reply>".`, Annotations: ro},
		sample)
	mcp.AddTool(s, &mcp.Tool{Name: "roots", Title: "Roots", Description: "Returns the client's root URIs, one per line.", Annotations: ro},
		roots)
	mcp.AddTool(s, &mcp.Tool{Name: "env", Title: "Environment", Description: "Returns a JSON object of the set variables among " + fmt.Sprint(envNames) + ".", Annotations: ro},
		func(context.Context, *mcp.CallToolRequest, none) (*mcp.CallToolResult, any, error) {
			vars := map[string]string{}
			for _, name := range envNames {
				if v, ok := os.LookupEnv(name); ok {
					vars[name] = v
				}
			}
			b, err := json.Marshal(vars) // keys sorted
			return text(string(b)), nil, err
		})
	mcp.AddTool(s, &mcp.Tool{Name: "garbage", Title: "Garbage", Description: "stdio only: writes a line of invalid JSON to stdout between two frames, then returns \"garbage sent\".", Annotations: ro},
		e.garbage)
	addHostileTools(s)
	s.AddReceivingMiddleware(hostileList)
	return s
}

func (e *edge) hang(ctx context.Context, _ *mcp.CallToolRequest, _ none) (*mcp.CallToolResult, any, error) {
	// A test that stops the call waits until it is really here ($EDGE_START_LOG).
	if path := os.Getenv("EDGE_START_LOG"); path != "" {
		if f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644); err == nil {
			fmt.Fprintln(f, "started")
			f.Close()
		}
	}
	<-ctx.Done()
	// Done because of notifications/cancelled, or because the session ended:
	// only the first is logged.
	if id, ok := e.cancels.take(); ok {
		if path := os.Getenv("EDGE_CANCEL_LOG"); path != "" {
			if f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644); err == nil {
				fmt.Fprintf(f, "cancelled %s\n", id)
				f.Close()
			}
		}
	}
	return nil, nil, ctx.Err()
}

func flood(ctx context.Context, req *mcp.CallToolRequest, in floodIn) (*mcp.CallToolResult, any, error) {
	n := orDefault(in.Count, 100)
	token := req.Params.GetProgressToken()
	if token == nil {
		return nil, nil, fmt.Errorf("flood needs a progressToken in the request's _meta")
	}
	for i := 1; i <= n; i++ {
		p := &mcp.ProgressNotificationParams{ProgressToken: token, Progress: float64(i), Total: float64(n)}
		if err := req.Session.NotifyProgress(ctx, p); err != nil {
			return nil, nil, err
		}
	}
	return text(fmt.Sprintf("flooded %d", n)), nil, nil
}

func slow(ctx context.Context, req *mcp.CallToolRequest, in slowIn) (*mcp.CallToolResult, any, error) {
	n, ms := orDefault(in.Steps, 3), orDefault(in.StepMs, 100)
	token := req.Params.GetProgressToken() // none: the steps are silent
	for i := 1; i <= n; i++ {
		if err := sleep(ctx, ms); err != nil {
			return nil, nil, err
		}
		if token != nil {
			p := &mcp.ProgressNotificationParams{ProgressToken: token, Progress: float64(i), Total: float64(n), Message: fmt.Sprintf("step %d of %d", i, n)}
			if err := req.Session.NotifyProgress(ctx, p); err != nil {
				return nil, nil, err
			}
		}
	}
	return text("done"), nil, nil
}

func (e *edge) garbage(context.Context, *mcp.CallToolRequest, none) (*mcp.CallToolResult, any, error) {
	if e.stdout == nil {
		return nil, nil, fmt.Errorf("garbage works on stdio only")
	}
	if err := e.stdout.injectLine(`{"jsonrpc":"2.0", this is not JSON`); err != nil {
		return nil, nil, err
	}
	return text("garbage sent"), nil, nil
}

// redPixel is a 1x1 red PNG.
var redPixel = func() []byte {
	img := image.NewRGBA(image.Rect(0, 0, 1, 1))
	img.Set(0, 0, color.RGBA{R: 255, A: 255})
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		panic(err)
	}
	return b.Bytes()
}()

func text(s string) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: s}}}
}

// orDefault returns v, or def when v is zero or negative.
func orDefault(v, def int) int {
	if v <= 0 {
		return def
	}
	return v
}

// sleep waits ms milliseconds, or until ctx is done.
func sleep(ctx context.Context, ms int) error {
	t := time.NewTimer(time.Duration(ms) * time.Millisecond)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

type fetchIn struct {
	URL string `json:"url"`
}

// fetch GETs url through the environment's proxy (a few KiB of the body).
func fetch(ctx context.Context, url string) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return "", err
	}
	resp, err := (&http.Client{Transport: &http.Transport{Proxy: http.ProxyFromEnvironment}}).Do(req)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, 4096))
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("status %d: %s", resp.StatusCode, b), nil
}
