package store

import (
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/juncture-app/juncture/agent/history"
)

func blobOf(mime string, data []byte, text string, pages int) history.Attachment {
	return history.Attachment{Hash: HashAttachment(data), MimeType: mime, Size: int64(len(data)), Data: data, Text: text, Pages: pages}
}

func refOf(b history.Attachment, name string) history.AttachmentRef {
	return history.AttachmentRef{ID: b.Hash, Name: name, MimeType: b.MimeType, Size: b.Size, Pages: b.Pages}
}

func withFiles(m history.Message, refs ...history.AttachmentRef) history.Message {
	m.Attachments = refs
	return m
}

func countBlobs(t *testing.T, db *DB) int {
	t.Helper()
	var n int
	if err := db.r.QueryRow("SELECT count(*) FROM attachments").Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

func pdfFixture(t *testing.T) []byte {
	t.Helper()
	b, err := os.ReadFile("testdata/attachments/two-pages.pdf")
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// A file sent twice (two threads) is stored once; the messages read back
// their references; deleting one thread keeps the file, deleting the last
// one removes it, in the same transaction.
func TestAttachmentsStoredOnceAndRemovedWithTheLastThread(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := openTest(t)
	img := blobOf("image/png", []byte("\x89PNG fake"), "", 0)
	mustThread(t, db, "a", "A")
	mustThread(t, db, "b", "B")
	for _, tid := range []string{"a", "b"} {
		m := withFiles(userMsg(tid, "m-"+tid, "look"), refOf(img, "shot.png"))
		if err := db.PutMessageWithAttachments(ctx, m, []history.Attachment{img}); err != nil {
			t.Fatal(err)
		}
	}
	if n := countBlobs(t, db); n != 1 {
		t.Fatalf("%d blobs, want 1", n)
	}
	msgs := mustMessages(t, db, "a")
	if len(msgs) != 1 || len(msgs[0].Attachments) != 1 || msgs[0].Attachments[0] != refOf(img, "shot.png") {
		t.Fatalf("read back %+v", msgs)
	}
	// Storing the message again (same id) keeps its references.
	mustPut(t, db, userMsg("a", "m-a", "look again"))
	if got := mustMessages(t, db, "a")[0].Attachments; len(got) != 1 {
		t.Fatalf("references lost on update: %+v", got)
	}
	if _, err := db.ThreadAttachment(ctx, "a", img.Hash); err != nil {
		t.Fatal(err)
	}
	mustThread(t, db, "c", "C")
	if _, err := db.ThreadAttachment(ctx, "c", img.Hash); !isNotFound(err) {
		t.Fatalf("another thread's file: %v", err)
	}
	if err := db.DeleteThread(ctx, "a"); err != nil {
		t.Fatal(err)
	}
	if n := countBlobs(t, db); n != 1 {
		t.Fatalf("%d blobs after deleting one of two threads", n)
	}
	if err := db.DeleteThread(ctx, "b"); err != nil {
		t.Fatal(err)
	}
	if n := countBlobs(t, db); n != 0 {
		t.Fatalf("%d blobs after deleting the last thread", n)
	}
	// A hash that does not match the bytes is refused.
	bad := img
	bad.Data = []byte("other")
	if err := db.PutMessageWithAttachments(ctx, withFiles(userMsg("c", "m-c", "x"), refOf(img, "x.png")), []history.Attachment{bad}); err == nil {
		t.Fatal("a mismatched hash was stored")
	}
}

// Export version 3 carries the files; import restores them (also as a
// new thread with fresh ids), and a tampered file is refused.
func TestAttachmentsExportImportRoundTrip(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := openTest(t)
	pdf := blobOf("application/pdf", pdfFixture(t), "Zephyr quarterly figures", 2)
	mustThread(t, db, "t", "Files")
	if err := db.PutMessageWithAttachments(ctx, withFiles(userMsg("t", "m1", "read this"), refOf(pdf, "report.pdf")), []history.Attachment{pdf}); err != nil {
		t.Fatal(err)
	}
	doc, err := db.ExportJSON(ctx, "t")
	if err != nil {
		t.Fatal(err)
	}
	// Into a fresh database: the same thread, the same file.
	other := openTest(t)
	th, err := other.ImportJSON(ctx, doc)
	if err != nil {
		t.Fatal(err)
	}
	msgs := mustMessages(t, other, th.ID)
	if len(msgs) != 1 || len(msgs[0].Attachments) != 1 || msgs[0].Attachments[0].Pages != 2 {
		t.Fatalf("imported %+v", msgs)
	}
	blob, err := other.ThreadAttachment(ctx, th.ID, pdf.Hash)
	if err != nil || string(blob.Data) != string(pdf.Data) || blob.Text != pdf.Text {
		t.Fatalf("imported blob: %v", err)
	}
	if hits := search(t, other, "zephyr"); len(hits) != 1 || hits[0].MessageID != "m1" {
		t.Fatalf("search after import: %+v", hits)
	}
	// Into the same database: a copy with fresh ids sharing the blob.
	th2, err := db.ImportJSON(ctx, doc)
	if err != nil || th2.ID == "t" {
		t.Fatalf("second import: %v %v", th2.ID, err)
	}
	if n := countBlobs(t, db); n != 1 {
		t.Fatalf("%d blobs", n)
	}
	// Tampered data, or a reference to a file the document lacks.
	var m map[string]any
	if err := json.Unmarshal(doc, &m); err != nil {
		t.Fatal(err)
	}
	m["attachments"].([]any)[0].(map[string]any)["data"] = "AAAA"
	bad, _ := json.Marshal(m)
	if _, err := openTest(t).ImportJSON(ctx, bad); err == nil || !strings.Contains(err.Error(), "does not match") {
		t.Fatalf("tampered import: %v", err)
	}
	delete(m, "attachments")
	bad, _ = json.Marshal(m)
	if _, err := openTest(t).ImportJSON(ctx, bad); err == nil || !strings.Contains(err.Error(), "not in the document") {
		t.Fatalf("missing file import: %v", err)
	}
}

// Search finds a message by its file's name and by the text of a PDF or
// text file; the hit says which file matched.
func TestSearchFindsAttachments(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := openTest(t)
	pdf := blobOf("application/pdf", pdfFixture(t), "Zephyr quarterly figures\nPage two mentions marmalade", 2)
	txt := blobOf("text/plain", []byte("func gobbledygook() {}"), "func gobbledygook() {}", 0)
	mustThread(t, db, "t", "Files")
	if err := db.PutMessageWithAttachments(ctx, withFiles(userMsg("t", "m1", "see attached"), refOf(pdf, "budget-2026.pdf"), refOf(txt, "main.go")),
		[]history.Attachment{pdf, txt}); err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{"budget", "marmalade", "gobbledygook"} {
		hits := search(t, db, q)
		if len(hits) != 1 || hits[0].MessageID != "m1" || hits[0].ThreadID != "t" {
			t.Fatalf("%q: %+v", q, hits)
		}
	}
	hits := search(t, db, "marmalade")
	if hits[0].Parts[0].Text != "budget-2026.pdf: " {
		t.Fatalf("hit does not name the file: %+v", hits[0].Parts)
	}
	// A word in both the message and a file: one hit.
	if hits := search(t, db, "attached"); len(hits) != 1 {
		t.Fatalf("%+v", hits)
	}
	if err := db.DeleteThread(ctx, "t"); err != nil {
		t.Fatal(err)
	}
	if hits := search(t, db, "marmalade"); len(hits) != 0 {
		t.Fatalf("after delete: %+v", hits)
	}
}

// A v4 database migrates through v5 to v6 and then takes attachments.
func TestMigrateFromV4TakesAttachments(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db, err := Open(ctx, copyFixture(t, fixtureV4))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	img := blobOf("image/png", []byte("png bytes"), "", 0)
	if err := db.PutMessageWithAttachments(ctx, withFiles(userMsg("t-trip", "m-new", "one more"), refOf(img, "after-upgrade.png")), []history.Attachment{img}); err != nil {
		t.Fatal(err)
	}
	msgs := mustMessages(t, db, "t-trip")
	if last := msgs[len(msgs)-1]; last.ID != "m-new" || len(last.Attachments) != 1 {
		t.Fatalf("last %+v", last)
	}
	if hits := search(t, db, "upgrade"); len(hits) != 1 {
		t.Fatalf("%+v", hits)
	}
}
