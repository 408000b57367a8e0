package benchprobe

import (
	"strings"
	"testing"
	"time"

	"github.com/juncture-app/juncture/internal/testkit"
)

// FuzzParseSmaps: any text in place of /proc/<pid>/smaps (a kernel with
// other fields, a line cut short, binary junk, a name with spaces) parses
// without a panic, the same way twice, in linear time and memory: budget
// 2 s and 16 bytes of allocation per byte of input plus 1 MiB.
func FuzzParseSmaps(f *testing.F) {
	for _, s := range []string{
		"",
		"7f0000000000-7f0000100000 rw-p 00000000 00:00 0 \nPss: 30 kB\nAnonymous: 30 kB\n",
		"55d0c1000000-55d0c2000000 rw-p 00000000 00:00 0 [heap]\nPss: 100 kB\n",
		"7f0000100000-7f0000200000 rw-s 00000000 00:01 1234 /memfd:WebKitSharedMemory (deleted)\nPss: 50 kB\n",
		"7f00-7f01 rw-s 0 00:01 9 /dev/zero (deleted)\nPss: -3 kB\nPss:\nAnonymous: x kB\n",
		"a-b\nPss: 99999999999999999999 kB\n" + strings.Repeat("-", 70000) + "\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		var m MemParts
		testkit.Budget(t, "parseSmaps", 2*time.Second, 16*uint64(len(text))+1<<20, func() { m = parseSmaps(strings.NewReader(text)) })
		if again := parseSmaps(strings.NewReader(text)); again != m {
			t.Fatalf("parsed twice: %+v then %+v", m, again)
		}
	})
}
