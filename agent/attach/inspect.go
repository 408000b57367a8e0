package attach

import (
	"context"
	"strings"
)

// PDFInfo is what the model will get of a PDF, told before it is sent.
type PDFInfo struct {
	Pages int
	// HasText is false when no text could be extracted (a scanned page is
	// an image): the model then reads only "[no text could be extracted
	// from this PDF]".
	HasText bool
}

// InspectPDF reads a PDF the person has attached but not sent yet, as a
// send would (the same size limits, the same extractor child and budgets,
// the same refusals), so the composer can say what the model will get.
func InspectPDF(ctx context.Context, name string, data []byte) (PDFInfo, error) {
	name = SanitizeName(name)
	if err := checkSize(name, data, "sent"); err != nil {
		return PDFInfo{}, err
	}
	if !isPDF(sniff(data), data) {
		return PDFInfo{}, &Error{Name: name, Reason: "the file is not a PDF."}
	}
	text, pages, err := readPDF(ctx, name, data)
	if err != nil {
		return PDFInfo{}, err
	}
	return PDFInfo{Pages: pages, HasText: strings.TrimSpace(text) != ""}, nil
}

// readPDF is a PDF's text and pages, or the refusal a send gives.
func readPDF(ctx context.Context, name string, data []byte) (string, int, error) {
	text, pages, err := pdfText(ctx, data)
	if err != nil {
		return "", 0, &Error{Name: name, Reason: "the PDF cannot be read (" + err.Error() + ")."}
	}
	return text, pages, nil
}
