package attach

import (
	"encoding/base64"
	"errors"
	"os"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/juncture-app/juncture/agent/history"
)

func storedBlob(data []byte) history.Attachment {
	return history.Attachment{Hash: "h", MimeType: "image/png", Size: int64(len(data)), Data: data}
}

// vmDataSlack is what a child maps beyond ChildMemory: the Go runtime's
// own share, and the race detector's shadow memory in a race build.
func vmDataSlack() int64 {
	if raceBuild {
		return 512 << 20
	}
	return 96 << 20
}

// The fuzz targets fail on time and memory, not only on panics: a PDF runs
// through the real extractor child, and must come back (text or a refusal)
// within the wall budget with the child under its memory budget; an
// image's in-process checks (header, budget) must take little time and
// allocate little, whatever the bytes. Both are seeded with the hostile
// corpus. Run: go test -fuzz FuzzPDFText ./agent/attach/

func FuzzPDFText(f *testing.F) {
	for name, data := range hostileCorpus(f) {
		if strings.HasSuffix(name, ".pdf") {
			f.Add(data)
		}
	}
	if good, err := os.ReadFile("../../store/testdata/attachments/two-pages.pdf"); err == nil {
		f.Add(good)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) == 0 || len(data) > MaxFileBytes {
			return
		}
		start := time.Now()
		r, st, err := extract(t.Context(), "pdf", data)
		if d := time.Since(start); d > wallBudget+5*time.Second {
			t.Fatalf("the extractor took %s; its wall budget is %s", d, wallBudget)
		}
		if st.MaxRSS > ChildMemory+vmDataSlack() {
			t.Fatalf("the child's peak resident memory was %d MB; its budget is %d MB", st.MaxRSS>>20, ChildMemory>>20)
		}
		if err == nil && len(r.Text) > MaxText+64 {
			t.Fatalf("%d bytes of text; at most %d are kept", len(r.Text), MaxText)
		}
		if err != nil && !errors.Is(err, errChildBudget) && !strings.Contains(err.Error(), "extractor") {
			t.Fatalf("unexpected error %v", err)
		}
	})
}

func FuzzImagePrepare(f *testing.F) {
	for name, data := range hostileCorpus(f) {
		if !strings.HasSuffix(name, ".pdf") {
			f.Add(data)
		}
	}
	png, _ := base64.StdEncoding.DecodeString("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==")
	f.Add(png)
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > MaxFileBytes {
			return
		}
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		start := time.Now()
		h, err := checkDecodable("f", data)
		_, _ = CheckStored("f", storedBlob(data))
		d := time.Since(start)
		runtime.ReadMemStats(&after)
		if d > 2*time.Second {
			t.Fatalf("the header checks took %s", d)
		}
		if grew := after.TotalAlloc - before.TotalAlloc; grew > 64<<20+2*uint64(len(data)) {
			t.Fatalf("the header checks allocated %d MB", grew>>20)
		}
		if err == nil && (h.Cost > DecodeBudget || h.Cost <= 0) {
			t.Fatalf("accepted an image costing %d bytes (%d × %d)", h.Cost, h.Width, h.Height)
		}
		var ae *Error
		if err != nil && !errors.As(err, &ae) {
			t.Fatalf("a refusal that is not an *Error: %v", err)
		}
	})
}
