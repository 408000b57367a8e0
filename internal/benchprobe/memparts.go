package benchprobe

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
)

// MemParts splits the memory of a process that is not a mapped file by
// where it lives, so a soak that grows says which allocator holds the
// growth. KiB of PSS, from /proc/<pid>/smaps (Linux only; zero elsewhere).
// The parts add up to about smaps_rollup's Pss_Anon + Pss_Shmem.
type MemParts struct {
	// CHeap is [heap], the C allocator's main arena: in the app, GTK and
	// the UI side of WebKit (on the main thread); in WebKit's processes,
	// their own C++ allocations made by the main thread.
	CHeap int64
	// Shm is shared memory (memfd, /dev/shm, SysV, shared anonymous
	// mappings): the bitmaps WebKit paints into and passes between its
	// web process and the app.
	Shm int64
	// Anon is every other anonymous mapping: the Go runtime's heap and
	// stacks, SQLite's allocator (modernc's libc maps its own), the C
	// allocator's other threads' arenas and large blocks, and in the web
	// process JavaScriptCore's heap.
	Anon int64
	// Other is thread stacks ([stack]) and the private, written pages of
	// mapped files (relocated data), which are not the file's.
	Other int64
}

// String is the parts as log fields named with prefix ("app_cheap=…").
func (m MemParts) String(prefix string) string {
	return fmt.Sprintf("%s_cheap=%d %s_shm=%d %s_anonx=%d %s_otherx=%d", prefix, m.CHeap, prefix, m.Shm, prefix, m.Anon, prefix, m.Other)
}

// Add is the parts of two processes together.
func (m MemParts) Add(o MemParts) MemParts {
	return MemParts{CHeap: m.CHeap + o.CHeap, Shm: m.Shm + o.Shm, Anon: m.Anon + o.Anon, Other: m.Other + o.Other}
}

// memParts reads /proc/<pid>/smaps; zero when unreadable.
func memParts(pid int) MemParts {
	f, err := os.Open(fmt.Sprintf("/proc/%d/smaps", pid))
	if err != nil {
		return MemParts{}
	}
	defer f.Close()
	return parseSmaps(f)
}

// parseSmaps sums each mapping of an smaps listing into its part: a
// mapping's header line ("start-end perms offset dev inode [name]") is
// followed by "Key: value kB" lines, of which Pss and Anonymous are read.
func parseSmaps(r io.Reader) MemParts {
	var m MemParts
	var name string
	var pss, anon int64
	started := false
	flush := func() {
		if !started {
			return
		}
		switch {
		case name == "[heap]":
			m.CHeap += pss
		case strings.HasPrefix(name, "/memfd:"), strings.HasPrefix(name, "/dev/shm/"), strings.HasPrefix(name, "/SYSV"),
			// Shared anonymous memory (MAP_SHARED|MAP_ANONYMOUS) is shmem
			// too, named so by the kernel (or [anon_shmem:name] when named
			// with PR_SET_VMA); its Anonymous is 0, so it is no mapped file.
			name == "/dev/zero (deleted)", strings.HasPrefix(name, "[anon_shmem:"):
			m.Shm += pss
		case name == "" || strings.HasPrefix(name, "[anon"):
			m.Anon += pss
		case strings.HasPrefix(name, "[stack"):
			m.Other += pss
		case strings.HasPrefix(name, "["): // [vdso], [vvar], [vsyscall]: the kernel's
		default: // a mapped file: only the pages this process wrote are its own
			m.Other += anon
		}
	}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		if !strings.HasSuffix(f[0], ":") && strings.Contains(f[0], "-") {
			flush()
			started, pss, anon, name = true, 0, 0, ""
			name = mappingName(line)
			continue
		}
		if len(f) < 2 {
			continue
		}
		switch f[0] {
		case "Pss:":
			pss, _ = strconv.ParseInt(f[1], 10, 64)
		case "Anonymous:":
			anon, _ = strconv.ParseInt(f[1], 10, 64)
		}
	}
	flush()
	return m
}

// mappingName is what follows the fifth field (the inode) of an smaps
// header line: the mapped file or [heap], [stack], …; it may hold spaces
// ("/memfd:name (deleted)"). Empty for an anonymous mapping.
func mappingName(line string) string {
	rest := line
	for range 5 {
		rest = strings.TrimLeft(rest, " \t")
		i := strings.IndexAny(rest, " \t")
		if i < 0 {
			return ""
		}
		rest = rest[i:]
	}
	return strings.TrimSpace(rest)
}
