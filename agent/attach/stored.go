package attach

import (
	"github.com/juncture-app/juncture/agent/history"
)

// CheckStored vets a file that arrives prepared by someone else (a thread
// import's file) with the checks a sent file gets: its size, its type read
// from its bytes, an image's header against DecodeBudget. A PDF's text
// comes with it (capped at MaxText; the PDF is not parsed again). It
// returns the blob as it may be stored, or an *Error naming the file.
func CheckStored(name string, blob history.Attachment) (history.Attachment, error) {
	name = SanitizeName(name)
	data := blob.Data
	if err := checkSize(name, data, "kept"); err != nil {
		return blob, err
	}
	sniffed := sniff(data)
	blob.Size = int64(len(data))
	switch {
	case imageTypes[sniffed]:
		if _, err := checkDecodable(name, data); err != nil {
			return blob, err
		}
		blob.MimeType, blob.Text, blob.Pages = sniffed, "", 0
	case isPDF(sniffed, data):
		blob.MimeType, blob.Text, blob.Pages = "application/pdf", truncateText(blob.Text), max(blob.Pages, 0)
	case isText(data):
		blob.MimeType, blob.Text, blob.Pages = textType(blob.MimeType), truncateText(string(data)), 0
	default:
		return blob, &Error{Name: name, Reason: "files of this type (" + sniffed + ") cannot be kept: images (PNG, JPEG, WebP, GIF), text or code files, or PDFs."}
	}
	return blob, nil
}
