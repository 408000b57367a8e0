package attach

import (
	"fmt"
	"strings"
	"testing"
)

// ligaturePDF is one page whose font maps code 1 to U+FB02 (ﬂ) through a
// ToUnicode CMap, as PDFs set in fonts with ligatures do.
func ligaturePDF(text string) []byte {
	cmap := "/CIDInit /ProcSet findresource begin 12 dict begin begincmap\n" +
		"/CMapName /Lig def 1 begincodespacerange <00> <FF> endcodespacerange\n" +
		"1 beginbfchar <01> <FB02> endbfchar\n" +
		"1 beginbfrange <20> <7E> <0020> endbfrange\n" +
		"endcmap CMapName currentdict /CMap defineresource pop end end"
	content := fmt.Sprintf("BT /F1 12 Tf 72 720 Td (%s) Tj ET", text)
	return pdfDoc(
		"<< /Type /Catalog /Pages 2 0 R >>",
		"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
		"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>",
		"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /ToUnicode 6 0 R >>",
		pdfStream("", []byte(content)),
		pdfStream("", []byte(cmap)),
	)
}

// TestPDFTextHasNoLigatures: a PDF that says "ﬂamingo" with the U+FB02
// ligature is read as "flamingo", so search finds it and the model reads
// plain letters; other compatibility characters (x², ①) are left as they are.
func TestPDFTextHasNoLigatures(t *testing.T) {
	files, err := Prepare(t.Context(), []Input{{Name: "birds.pdf", Data: ligaturePDF(`\001amingo \001ock`)}}, false)
	if err != nil {
		t.Fatal(err)
	}
	got := files[0].Blob.Text
	if !strings.Contains(got, "flamingo flock") || strings.ContainsRune(got, '\uFB02') {
		t.Errorf("text %q, want the ligature spelled out", got)
	}
	for in, want := range map[string]string{
		"ﬁne ﬄuﬀy": "fine ffluffy", "x² ①": "x² ①", "ﬀ\u200bx": "ff\u200bx", "ﭐ": "ٱ",
	} {
		if got := plainLetters(in); got != want {
			t.Errorf("plainLetters(%q) = %q, want %q", in, got, want)
		}
	}
}
