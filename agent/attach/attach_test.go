package attach

import (
	"bytes"
	"context"
	"errors"
	"testing"
)

// Unknown types, empty files and oversize messages are refused with a
// reason; nothing is stored.
func TestAttachmentsRefused(t *testing.T) {
	t.Parallel()
	big := bytes.Repeat([]byte("a"), MaxFileBytes+1)
	for name, files := range map[string][]Input{
		"binary":   {{Name: "x.bin", MimeType: "application/octet-stream", Data: []byte{0, 1, 2, 0xff}}},
		"empty":    {{Name: "e.txt", Data: nil}},
		"too big":  {{Name: "big.txt", Data: big}},
		"bad pdf":  {{Name: "bad.pdf", Data: []byte("%PDF-1.4 not really")}},
		"too many": make([]Input, MaxFiles+1),
	} {
		_, err := Prepare(context.Background(), files, true)
		var ae *Error
		if !errors.As(err, &ae) || ae.Reason == "" {
			t.Errorf("%s: err = %v", name, err)
		}
	}
}
