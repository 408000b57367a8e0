package sandbox

import (
	"crypto/tls"
	"fmt"
	"io"
	"net/http"
	neturl "net/url"
	"os"
	"testing"
	"time"

	"github.com/juncture-app/juncture/agent/sandbox/sandboxtest"
)

// dialEnv makes this test binary a tiny client: it connects to the
// address in it, prints "connected" or the error, and exits. The tests
// run it confined to see what the sandbox lets through.
const dialEnv = "SANDBOX_TEST_DIAL"

// getEnv makes this test binary a tiny HTTP client that goes through the
// proxy in HTTP_PROXY (as curl does, for every host, loopback included):
// it prints the status and the body, or the error.
const getEnv = "SANDBOX_TEST_GET"

func get(url string) {
	tr := &http.Transport{
		Proxy:           func(*http.Request) (*neturl.URL, error) { return neturl.Parse(os.Getenv("HTTP_PROXY")) },
		TLSClientConfig: &tls.Config{InsecureSkipVerify: true}, // the test server's certificate names no host
	}
	resp, err := (&http.Client{Transport: tr, Timeout: 10 * time.Second}).Get(url)
	if err != nil {
		fmt.Println("get:", err)
		os.Exit(1)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	fmt.Printf("status %d: %s\n", resp.StatusCode, b)
	os.Exit(0)
}

func TestMain(m *testing.M) {
	MaybeRunChild()
	if url := os.Getenv(getEnv); url != "" {
		get(url)
	}
	sandboxtest.MaybeDial(dialEnv)
	os.Exit(m.Run())
}
