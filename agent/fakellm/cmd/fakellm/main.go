// Command fakellm serves Juncture's offline demo model: a fake
// OpenAI-compatible API on 127.0.0.1 whose answers are scripted by
// fakellm.Demo. Point the app at the printed base URL (any API key works).
//
//	go run ./agent/fakellm/cmd/fakellm -addr 127.0.0.1:11435
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/juncture-app/juncture/agent/fakellm"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:11435", "address to listen on")
	flag.Parse()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := fakellm.Serve(ctx, *addr); err != nil {
		fmt.Fprintln(os.Stderr, "fakellm:", err)
		os.Exit(1)
	}
}
