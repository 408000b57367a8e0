package attach

import (
	"bytes"
	"fmt"
	"io"
	"strings"

	"github.com/ledongthuc/pdf"
)

// pdfText extracts a PDF's plain text and page count. The parser is fed
// untrusted bytes: a panic in it is an unreadable PDF.
func pdfText(data []byte) (text string, pages int, err error) {
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
