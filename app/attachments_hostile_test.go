package app

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/juncture-app/juncture/agent/attach"
	"github.com/juncture-app/juncture/agent/fakellm"
	"github.com/juncture-app/juncture/agent/history"
	"github.com/juncture-app/juncture/store"
)

// hostilePNG is a 3 KB PNG whose header claims 200000 × 200000 pixels:
// decoding it asks for 160 GB.
func hostilePNG(t *testing.T) []byte {
	t.Helper()
	b, err := os.ReadFile("../agent/attach/testdata/hostile/png-claims-200000.png")
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// threadDoc is a thread export (version 3) with one message carrying data
// as a file named name, claimed to be mime.
func threadDoc(t *testing.T, name, mime string, data []byte) string {
	t.Helper()
	hash := store.HashAttachment(data)
	doc := map[string]any{
		"format": store.ExportFormat, "version": 3,
		"thread": map[string]any{"id": "th-imported", "title": "imported", "createdAt": 1, "updatedAt": 1},
		"messages": []map[string]any{{"id": "m-1", "threadId": "th-imported", "role": "user", "content": "look", "status": "complete", "createdAt": 1,
			"attachments": []map[string]any{{"id": hash, "name": name, "mimeType": mime, "size": len(data)}}}},
		"attachments": []map[string]any{{"id": hash, "mimeType": mime, "size": len(data), "data": data}},
	}
	b, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// Issue 19, defect 3: an imported thread's files get the checks a sent
// file gets before anything is stored: a PNG claiming 200000 × 200000
// refuses the import with the file's name and reason, and no thread is
// left; names are sanitized as a sent name is.
func TestImportRefusesAnImageOverTheDecodeBudget(t *testing.T) {
	f := newFixture(t, nil)
	e := f.call(nil, "ImportThread", threadDoc(t, "huge.png", "image/png", hostilePNG(t)))
	if e == nil || e.Code != CodeInvalidArgument || !strings.Contains(e.Message, "huge.png") || !strings.Contains(e.Message, "too large to decode") {
		t.Fatalf("import of a poison image: %+v", e)
	}
	var page ThreadPage
	if e := f.call(&page, "ListThreads", "", 10); e != nil || len(page.Threads) != 0 {
		t.Fatalf("a refused import left threads: %+v %v", page, e)
	}
	png, _ := base64.StdEncoding.DecodeString(tinyPNG)
	var th history.Thread
	f.must(&th, "ImportThread", threadDoc(t, "report\u202egnp.exe", "text/plain", png))
	var v ThreadView
	f.must(&v, "GetThread", th.ID)
	if r := v.Messages[0].Attachments[0]; r.Name != "reportgnp.exe" || r.MimeType != "image/png" {
		t.Fatalf("imported reference %+v: the name is not sanitized or the type not read from the bytes", r)
	}
}

// Issue 19, defect 3: a poison image already in the database (written by
// an older version) never reaches a decoder: the next message with images
// on reaches the model with a note instead, and the window is refused the
// image rather than given it to decode.
func TestPoisonImageInTheStoreIsNeverDecoded(t *testing.T) {
	f := newFixture(t, nil)
	f.acceptImages(true)
	f.script(fakellm.Reply(fakellm.Text("one")), fakellm.Reply(fakellm.Text("two")))
	r := f.sendIdle("", "hello")
	data := hostilePNG(t)
	hash := store.HashAttachment(data)
	msg := history.Message{ID: "m-poison", ThreadID: r.ThreadID, Role: history.RoleUser, Status: history.StatusComplete, CreatedAt: 2,
		Attachments: []history.AttachmentRef{{ID: hash, Name: "huge.png", MimeType: "image/png", Size: int64(len(data))}}}
	if err := f.svc.app.db.PutMessageWithAttachments(context.Background(), msg,
		[]history.Attachment{{Hash: hash, MimeType: "image/png", Size: int64(len(data)), Data: data}}); err != nil {
		t.Fatal(err)
	}
	r = f.sendIdle(r.ThreadID, "and now?")
	reqs := f.fake.Requests()
	raw := string(reqs[len(reqs)-1].Raw)
	if !strings.Contains(raw, "cannot be shown to the model: image too large to decode") || strings.Contains(raw, "image_url") {
		t.Fatalf("request: %.600s", raw)
	}
	e := f.call(nil, "GetAttachment", r.ThreadID, hash)
	if e == nil || e.Details["code"] != "image-too-large" {
		t.Fatalf("the window was given the poison image: %+v", e)
	}
}

// Issue 19, defect 1: a PDF sent to a new thread is parsed once (it was
// parsed twice: once to check before the thread was made, once to send).
func TestNewThreadParsesThePDFOnce(t *testing.T) {
	f := newFixture(t, nil)
	f.script(fakellm.Reply(fakellm.Text("read")))
	pdf, err := os.ReadFile("../store/testdata/attachments/two-pages.pdf")
	if err != nil {
		t.Fatal(err)
	}
	before := attach.ExtractorRuns()
	f.sendIdle("", "summarize", []AttachmentInput{{Name: "report.pdf", MimeType: "application/pdf", Data: base64.StdEncoding.EncodeToString(pdf)}})
	if n := attach.ExtractorRuns() - before; n != 1 {
		t.Fatalf("the PDF was parsed %d times", n)
	}
}
