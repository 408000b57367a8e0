package sandbox

import (
	"fmt"
	"net"
	"os"
	"testing"
	"time"
)

// dialEnv makes this test binary a tiny client: it connects to the
// address in it, prints "connected" or the error, and exits. The tests
// run it confined to see what the sandbox lets through.
const dialEnv = "SANDBOX_TEST_DIAL"

func TestMain(m *testing.M) {
	MaybeRunChild()
	if addr := os.Getenv(dialEnv); addr != "" {
		c, err := net.DialTimeout("tcp", addr, 5*time.Second)
		if err != nil {
			fmt.Println("dial:", err)
			os.Exit(1)
		}
		c.Close()
		fmt.Println("connected")
		os.Exit(0)
	}
	os.Exit(m.Run())
}
