package attach

import (
	"bytes"
	"errors"
	"os"
	"testing"
)

// TestInspectPDFSaysWhenNoTextIsFound: the composer asks before sending
// what the model will get of a PDF. A scanned page (an image, no text) has
// one page and no text, so the chip can say the model will not read it;
// a PDF with text says it has some; what a send would refuse, InspectPDF
// refuses with the same words, and the extractor child is run once.
func TestInspectPDFSaysWhenNoTextIsFound(t *testing.T) {
	t.Parallel()
	read := func(path string) []byte {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	scan := read("testdata/image-only.pdf")
	for _, c := range []struct {
		name    string
		data    []byte
		pages   int
		hasText bool
	}{
		{"scan.pdf", scan, 1, false},
		{"report.pdf", read("../../store/testdata/attachments/two-pages.pdf"), 2, true},
		{"birds.pdf", ligaturePDF(`\001amingo`), 1, true},
	} {
		got, err := InspectPDF(t.Context(), c.name, c.data)
		if err != nil || got.Pages != c.pages || got.HasText != c.hasText {
			t.Errorf("%s: %+v, %v; want %d pages, text %v", c.name, got, err, c.pages, c.hasText)
		}
	}
	// What the model receives of the scan is the note the chip warns of.
	files, err := Prepare(t.Context(), []Input{{Name: "scan.pdf", Data: scan}}, false)
	if err != nil || files[0].Blob.Text != "" || files[0].Ref.Pages != 1 {
		t.Fatalf("Prepare: %+v, %v", files, err)
	}

	big := append([]byte("%PDF-1.4\n"), bytes.Repeat([]byte(" "), MaxFileBytes)...)
	for name, data := range map[string][]byte{
		"bad.pdf":   []byte("%PDF-1.4 not really"),
		"big.pdf":   big,
		"empty.pdf": nil,
		"notes.txt": []byte("plain text"),
	} {
		_, err := InspectPDF(t.Context(), name, data)
		var ae *Error
		if !errors.As(err, &ae) || ae.Name != name || ae.Reason == "" {
			t.Errorf("%s: err = %v", name, err)
			continue
		}
		if name == "notes.txt" {
			continue
		}
		_, sendErr := Prepare(t.Context(), []Input{{Name: name, Data: data}}, false)
		if sendErr == nil || sendErr.Error() != err.Error() {
			t.Errorf("%s: InspectPDF says %q, a send says %v", name, err, sendErr)
		}
	}
}
