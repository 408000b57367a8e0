//go:build desktop

// Command floorstream is the floor for the desktop streaming bench
// (scripts/bench-desktop.sh): a bare Wails v2 window whose Go side reads the
// same Chat Completions stream as Juncture (OPENAI_BASE_URL, bench/mdfake.mjs)
// and emits one Wails event per token, and whose page appends each token to
// one text node — the least a window can do to show a streamed answer. The
// page keeps the same "bench <chars> <state> <runs>" window title as
// Juncture's bench counter, so the script drives and reads both alike:
// Return in the page starts a run.
package main

import (
	"bufio"
	"bytes"
	"context"
	"embed"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"strings"
	"sync"

	"github.com/wailsapp/wails/v2"
	"github.com/wailsapp/wails/v2/pkg/options"
	"github.com/wailsapp/wails/v2/pkg/options/assetserver"
	"github.com/wailsapp/wails/v2/pkg/runtime"
)

//go:embed index.html
var assets embed.FS

type chunk struct {
	Choices []struct {
		Delta struct {
			Content string `json:"content"`
		} `json:"delta"`
	} `json:"choices"`
}

// stream reads one streamed answer and emits every non-empty delta as a "d" event, then "end".
func stream(ctx context.Context, base string) error {
	body := []byte(`{"model":"fake-model","stream":true,"messages":[{"role":"user","content":"go"}]}`)
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, strings.TrimSuffix(base, "/")+"/chat/completions", bytes.NewReader(body))
	if err != nil {
		return fmt.Errorf("building the request: %w", err)
	}
	req.Header.Set("Content-Type", "application/json")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return fmt.Errorf("posting to %s: %w", base, err)
	}
	defer res.Body.Close()
	sc := bufio.NewScanner(res.Body)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		line := sc.Bytes()
		if !bytes.HasPrefix(line, []byte("data: ")) || bytes.Equal(line, []byte("data: [DONE]")) {
			continue
		}
		var c chunk
		if err := json.Unmarshal(line[6:], &c); err != nil {
			return fmt.Errorf("decoding a chunk: %w", err)
		}
		if len(c.Choices) > 0 && c.Choices[0].Delta.Content != "" {
			runtime.EventsEmit(ctx, "d", c.Choices[0].Delta.Content)
		}
	}
	return sc.Err()
}

// follow answers the page's GET /follow with BENCH_FLOOR_FOLLOW: how the page
// keeps the end of the text on the screen. "" (the floor the issue names):
// it does not; the text runs off the bottom of the window and nothing more
// is drawn. "box": the text is in a scrolled box filling the window, and
// each frame scrolls the box to its end (what Juncture's list does).
// "page": the document itself scrolls to its end each frame. Both following
// pages have a bar with a Stop button that Esc turns into Send (the floor
// of Stop on the screen, scripts/bench-desktop.sh floor_stop_bench).
func follow(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != "/follow" {
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Content-Type", "text/plain")
	fmt.Fprint(w, os.Getenv("BENCH_FLOOR_FOLLOW"))
}

func main() {
	base := os.Getenv("OPENAI_BASE_URL")
	err := wails.Run(&options.App{
		Title: "floorstream", Width: 1024, Height: 768,
		AssetServer: &assetserver.Options{Assets: assets, Handler: http.HandlerFunc(follow)},
		OnStartup: func(ctx context.Context) {
			var mu sync.Mutex
			cancel := context.CancelFunc(func() {})
			runtime.EventsOn(ctx, "go", func(...any) {
				run, stop := context.WithCancel(ctx)
				mu.Lock()
				cancel = stop
				mu.Unlock()
				go func() {
					defer stop()
					state := "done"
					if err := stream(run, base); err != nil {
						if run.Err() != nil {
							state = "cancelled"
						} else {
							fmt.Fprintln(os.Stderr, err)
							state = "error"
						}
					}
					runtime.EventsEmit(ctx, "end", state)
				}()
			})
			// Esc in the page with the Stop bar (BENCH_FLOOR_FOLLOW set): end the stream.
			runtime.EventsOn(ctx, "stop", func(...any) {
				mu.Lock()
				defer mu.Unlock()
				cancel()
			})
		},
		OnDomReady: func(context.Context) { fmt.Println("desktop window ready") },
	})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
