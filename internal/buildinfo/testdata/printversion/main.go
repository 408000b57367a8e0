// Command printversion prints buildinfo.String(), for the link-time stamp test.
package main

import (
	"fmt"

	"github.com/juncture-app/juncture/internal/buildinfo"
)

func main() { fmt.Println(buildinfo.String()) }
