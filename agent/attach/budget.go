package attach

import "time"

// Budgets for parsing files someone else wrote, decided before any byte is
// parsed (docs/architecture.md, "Untrusted files"). PDF text extraction
// and image decoding run in an extractor child (extract.go) under the
// child budgets; in process only headers are read, linearly in the file's
// size.
const (
	// ChildMemory bounds the heap an extractor child may add to what the
	// Go runtime had mapped when it started (RLIMIT_DATA on Linux, a Job
	// Object on Windows; the soft memory limit everywhere). RLIMIT_AS
	// cannot be used: the Go runtime reserves about 1.2 GB of address
	// space before main, so a 512 MiB RLIMIT_AS kills every child at
	// its first allocation.
	ChildMemory = 512 << 20
	// ChildCPU is the CPU time of one child, in seconds (RLIMIT_CPU,
	// soft = hard: the kernel sends SIGKILL).
	ChildCPU = 10
	// ChildWall is how long a child may take before it is killed.
	ChildWall = 15 * time.Second
	// childStack bounds a goroutine's stack in the child: a PDF whose
	// objects nest without end fails fast instead of growing a 1 GB stack.
	childStack = 64 << 20
	// childOutput caps what a child may write on stdout: a PDF's text
	// (MaxText) or a downscaled image (at most MaxImageSide² pixels,
	// PNG-encoded), JSON-encoded.
	childOutput = 32 << 20
	// childStderr caps the child's diagnostics kept by the parent.
	childStderr = 8 << 10
	// maxChildren bounds the extractor children running at once, process
	// wide: every thread's turns share it, so ten threads sending large
	// images cost two children's memory, not ten.
	maxChildren = 2

	// DecodeBudget bounds one image decode, in bytes: width × height ×
	// the bytes per pixel the decoder allocates (decodeCost), read from
	// the header before anything is decoded. An image over it is refused
	// at the door and never decoded later.
	DecodeBudget = 256 << 20
)
