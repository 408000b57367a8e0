// Command oauthtestd runs the test authorization server and the
// protected MCP server of package oauthtest on loopback, for the
// Playwright story e2e/mcp-oauth.test.mjs. It prints one JSON line,
// {"issuer": …, "mcp": …, "control": …}, then serves until stdin closes.
// The control address answers GET /secrets (every token, code and
// verifier the servers handled, for the test to look for elsewhere),
// POST /revoke and POST /require?scope=… (step-up).
package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strings"

	"github.com/juncture-app/juncture/internal/oauthtest"
)

func main() {
	as := oauthtest.NewAS()
	defer as.Close()
	rs := oauthtest.NewRS(as)
	defer rs.Close()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, "oauthtestd:", err)
		os.Exit(1)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /secrets", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(as.Secrets())
	})
	mux.HandleFunc("POST /revoke", func(w http.ResponseWriter, _ *http.Request) { as.Revoke() })
	mux.HandleFunc("POST /require", func(w http.ResponseWriter, r *http.Request) {
		rs.Require(strings.Fields(r.URL.Query().Get("scope"))...)
	})
	go func() { _ = http.Serve(ln, mux) }()
	line, _ := json.Marshal(map[string]string{"issuer": as.URL, "mcp": rs.URL, "control": "http://" + ln.Addr().String()})
	fmt.Println(string(line))
	_, _ = io.Copy(io.Discard, os.Stdin)
}
