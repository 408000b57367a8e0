package attach

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/ledongthuc/pdf"
)

// pdfText extracts a PDF's plain text and page count in an extractor
// child: the parser can loop (a page tree that contains itself) or balloon
// (a content stream that inflates to hundreds of MiB), so it runs under
// the child budgets, never in the app.
func pdfText(ctx context.Context, data []byte) (text string, pages int, err error) {
	r, _, err := extract(ctx, "pdf", data)
	switch {
	case errors.Is(err, errChildBudget):
		return "", 0, fmt.Errorf("reading it was stopped: %w", err)
	case err != nil:
		return "", 0, err
	case r.Err != "":
		return "", r.Pages, errors.New(r.Err)
	}
	return r.Text, r.Pages, nil
}

// pdfTextInProcess is pdfText's work, run in the extractor child. A panic
// in the parser is an unreadable PDF.
func pdfTextInProcess(data []byte) (text string, pages int, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("malformed PDF: %v", r)
		}
	}()
	r, err := pdf.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return "", 0, err
	}
	pages = r.NumPage()
	tr, err := r.GetPlainText()
	if err != nil {
		return "", pages, err
	}
	b, err := io.ReadAll(io.LimitReader(tr, MaxText+1))
	if err != nil {
		return "", pages, err
	}
	return truncateText(strings.TrimSpace(string(b))), pages, nil
}
