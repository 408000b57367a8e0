// Command edgeserver is a small, deterministic MCP server for agent/mcp's
// edge-case tests: a crash mid-call, a call that never answers, floods of
// progress, elicitation, sampling, roots, unusual content and a corrupt
// frame on stdout. Test code builds it with edgeServerCommand
// (agent/mcp/testbins_test.go).
//
// It serves stdio by default; -http ADDR serves Streamable HTTP at /mcp and
// prints "listening on http://ADDR/mcp" to stderr once it accepts
// connections. Start-up behaviour, each flag with an environment fallback
// (for configurations that can set env but not args):
//
//	-stderr-lines N   EDGE_STDERR_LINES  write N numbered lines to stderr first
//	-fail-start MSG   EDGE_FAIL_START    then print MSG to stderr and exit 1
//	-slow-start D     EDGE_SLOW_START    then sleep D (a Go duration) before serving
//
// EDGE_LEGACY=1 makes it an older server (2025-11-25 only): its tools ask
// with requests during the call instead of input_required results.
//
// The tools and their exact answers are in tools.go.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strconv"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func main() {
	httpAddr := flag.String("http", "", "serve Streamable HTTP at http://ADDR/mcp (e.g. 127.0.0.1:0) instead of stdio")
	stderrLines := flag.Int("stderr-lines", envInt("EDGE_STDERR_LINES"), "write this many numbered lines to stderr at start")
	failStart := flag.String("fail-start", os.Getenv("EDGE_FAIL_START"), "print this message to stderr and exit 1 before serving")
	slowStart := flag.Duration("slow-start", envDuration("EDGE_SLOW_START"), "sleep this long before serving")
	flag.Parse()

	for i := 1; i <= *stderrLines; i++ {
		fmt.Fprintf(os.Stderr, "edgeserver stderr line %d of %d\n", i, *stderrLines)
	}
	if *failStart != "" {
		fmt.Fprintln(os.Stderr, *failStart)
		os.Exit(1)
	}
	time.Sleep(*slowStart)

	var err error
	if *httpAddr != "" {
		err = serveHTTP(*httpAddr)
	} else {
		err = serveStdio()
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "edgeserver:", err)
		os.Exit(1)
	}
}

// serveStdio serves one session on stdin/stdout until stdin closes. Frames
// go through a frameWriter so the garbage tool can put a line between them.
func serveStdio() error {
	out := &frameWriter{w: os.Stdout}
	e := &edge{stdout: out, cancels: newCancelLog()}
	t := e.cancels.observe(&mcp.IOTransport{Reader: os.Stdin, Writer: out})
	err := e.server().Run(context.Background(), t)
	if errors.Is(err, io.EOF) {
		return nil
	}
	return err
}

// serveHTTP serves Streamable HTTP at /mcp on addr (port 0: any free port).
func serveHTTP(addr string) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	e := &edge{cancels: newCancelLog()}
	srv := e.server()
	mux := http.NewServeMux()
	mux.Handle("/mcp", e.cancels.observeHTTP(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil)))
	fmt.Fprintf(os.Stderr, "listening on http://%s/mcp\n", ln.Addr())
	return (&http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}).Serve(ln)
}

func envInt(name string) int {
	n, _ := strconv.Atoi(os.Getenv(name))
	return n
}

func envDuration(name string) time.Duration {
	d, _ := time.ParseDuration(os.Getenv(name))
	return d
}
