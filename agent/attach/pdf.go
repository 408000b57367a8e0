package attach

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/ledongthuc/pdf"
	"golang.org/x/text/unicode/norm"
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
	return truncateText(strings.TrimSpace(plainLetters(string(b)))), pages, nil
}

// plainLetters spells out presentation forms (the ligatures ﬁ, ﬂ, ﬀ …, and
// Arabic presentation forms) as the letters they stand for, so a search
// for "flamingo" finds a PDF set with the ﬂ ligature and the model reads
// plain words. Only those blocks are normalised (NFKC): other
// compatibility characters such as x² or ① keep their meaning.
func plainLetters(s string) string {
	if !strings.ContainsFunc(s, isPresentationForm) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	// Each distinct form is normalised once: a hostile text repeating one
	// form (U+FDFA spells out as 18 letters) costs one map lookup a rune,
	// not an allocation.
	spelled := map[rune]string{}
	for _, r := range s {
		if isPresentationForm(r) {
			v, ok := spelled[r]
			if !ok {
				v = norm.NFKC.String(string(r))
				spelled[r] = v
			}
			b.WriteString(v)
		} else {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// isPresentationForm: Alphabetic Presentation Forms and Arabic
// Presentation Forms-A (U+FB00–U+FDFF) and Arabic Presentation Forms-B
// (U+FE70–U+FEFF, less the byte order mark, which NFKC keeps anyway).
func isPresentationForm(r rune) bool {
	return (r >= 0xFB00 && r <= 0xFDFF) || (r >= 0xFE70 && r < 0xFEFF)
}
