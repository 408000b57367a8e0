package app

import (
	"encoding/base64"
	"os"
	"strings"
	"testing"

	"github.com/juncture-app/juncture/agent/attach"
	"github.com/juncture-app/juncture/agent/fakellm"
	"github.com/juncture-app/juncture/agent/history"
	"github.com/juncture-app/juncture/store"
)

const tinyPNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="

func (f *fixture) acceptImages(on bool) {
	f.t.Helper()
	var v SettingsView
	if e := f.call(&v, "GetSettings"); e != nil {
		f.t.Fatal(e)
	}
	v.Settings.ModelAcceptsImages = on
	if e := f.call(&v, "SaveSettings", v.Settings); e != nil {
		f.t.Fatal(e)
	}
}

// Through the browser transport: SendInput takes files as an optional
// third argument (the two-argument form keeps working), the thread lists
// them, GetAttachment returns their bytes, and the model got the image.
func TestSendInputWithAttachments(t *testing.T) {
	f := newFixture(t, nil)
	f.acceptImages(true)
	f.script(fakellm.Reply(fakellm.Text("one")), fakellm.Reply(fakellm.Text("two")))
	r := f.sendIdle("", "plain")
	pdf, err := os.ReadFile("../store/testdata/attachments/two-pages.pdf")
	if err != nil {
		t.Fatal(err)
	}
	files := []AttachmentInput{
		{Name: "dot.png", MimeType: "image/png", Data: tinyPNG},
		{Name: "report.pdf", MimeType: "application/pdf", Data: base64.StdEncoding.EncodeToString(pdf)},
	}
	r = f.sendIdle(r.ThreadID, "and these", files)
	var v ThreadView
	f.must(&v, "GetThread", r.ThreadID)
	var with history.Message
	for _, m := range v.Messages {
		if len(m.Attachments) > 0 {
			with = m
		}
	}
	if len(with.Attachments) != 2 || with.Attachments[0].Name != "dot.png" || with.Attachments[1].Pages != 2 {
		t.Fatalf("thread view attachments %+v", with.Attachments)
	}
	var d AttachmentData
	f.must(&d, "GetAttachment", r.ThreadID, with.Attachments[0].ID)
	if d.Data != tinyPNG || d.MimeType != "image/png" || d.Name != "dot.png" {
		t.Fatalf("GetAttachment %+v", d)
	}
	if e := f.call(&d, "GetAttachment", "other-thread", with.Attachments[0].ID); e == nil || e.Code != CodeNotFound {
		t.Fatalf("another thread's file: %+v", e)
	}
	found := false
	for _, req := range f.fake.Requests() {
		raw := string(req.Raw)
		if strings.Contains(raw, "data:image/png;base64,"+tinyPNG) && strings.Contains(raw, "Zephyr quarterly figures") {
			found = true
		}
	}
	if !found {
		t.Fatal("no model request carried the image and the PDF's text")
	}
	var hits []store.SearchHit
	if e := f.call(&hits, "SearchHistory", "marmalade", 10); e != nil || len(hits) != 1 || hits[0].MessageID != with.ID {
		t.Fatalf("search by PDF text: %+v %v", hits, e)
	}
}

// Refusals say why, with a code the composer reads, and store nothing:
// no new thread, no message.
func TestSendInputRefusesFiles(t *testing.T) {
	f := newFixture(t, nil)
	f.acceptImages(false)
	e := f.call(nil, "SendInput", "", "look", []AttachmentInput{{Name: "dot.png", MimeType: "image/png", Data: tinyPNG}})
	if e == nil || e.Code != CodeInvalidArgument || e.Details["code"] != "images-not-accepted" || !strings.Contains(e.Message, "does not accept images") {
		t.Fatalf("image to a text-only model: %+v", e)
	}
	e = f.call(nil, "SendInput", "", "run", []AttachmentInput{{Name: "a.exe", MimeType: "application/x-msdownload", Data: base64.StdEncoding.EncodeToString([]byte{0x4d, 0x5a, 0, 0, 0xff})}})
	if e == nil || e.Details["code"] != "attachment-refused" || !strings.Contains(e.Message, "a.exe") {
		t.Fatalf("binary file: %+v", e)
	}
	e = f.call(nil, "SendInput", "", "x", []AttachmentInput{{Name: "a.txt", Data: "not base64!"}})
	if e == nil || e.Code != CodeInvalidArgument {
		t.Fatalf("bad base64: %+v", e)
	}
	var page ThreadPage
	if e := f.call(&page, "ListThreads", "", 10); e != nil || len(page.Threads) != 0 {
		t.Fatalf("a refused send left threads: %+v %v", page, e)
	}
}

// TestInspectPDFBeforeSending: the composer asks what the model will get
// of an attached PDF. A scanned page says one page and no text; a file a
// send would refuse is refused the same way (attachment-refused), also
// one over the 20 MiB a file, whose base64 fits browser mode's body
// budget for this call. Nothing is stored.
func TestInspectPDFBeforeSending(t *testing.T) {
	f := newFixture(t, nil)
	scan, err := os.ReadFile("../agent/attach/testdata/image-only.pdf")
	if err != nil {
		t.Fatal(err)
	}
	var info PDFInfo
	f.must(&info, "InspectPDF", AttachmentInput{Name: "scan.pdf", MimeType: "application/pdf", Data: base64.StdEncoding.EncodeToString(scan)})
	if info.Pages != 1 || info.HasText {
		t.Fatalf("image-only PDF: %+v", info)
	}
	big := append([]byte("%PDF-1.4\n"), make([]byte, attach.MaxFileBytes)...)
	for name, c := range map[string]struct{ data, says string }{
		"bad.pdf":   {base64.StdEncoding.EncodeToString([]byte("%PDF-1.4 not really")), "cannot be read"},
		"big.pdf":   {base64.StdEncoding.EncodeToString(big), "at most 20 MiB"},
		"b64.pdf":   {"not base64!", "not base64"},
		"notes.txt": {base64.StdEncoding.EncodeToString([]byte("hello")), "not a PDF"},
	} {
		e := f.call(nil, "InspectPDF", AttachmentInput{Name: name, Data: c.data})
		if e == nil || e.Code != CodeInvalidArgument || e.Details["code"] != "attachment-refused" || !strings.Contains(e.Message, name) || !strings.Contains(e.Message, c.says) {
			t.Errorf("%s: %+v", name, e)
		}
	}
	var page ThreadPage
	if e := f.call(&page, "ListThreads", "", 10); e != nil || len(page.Threads) != 0 {
		t.Fatalf("inspecting stored something: %+v %v", page, e)
	}
}
