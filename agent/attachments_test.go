package agent_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"errors"
	"image"
	"image/color"
	"image/jpeg"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/juncture-app/juncture/agent"
	"github.com/juncture-app/juncture/agent/agui"
	"github.com/juncture-app/juncture/agent/attach"
	"github.com/juncture-app/juncture/agent/fakellm"
)

func readPDFFixture(t *testing.T) []byte {
	t.Helper()
	b, err := os.ReadFile("../store/testdata/attachments/two-pages.pdf")
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// An image, a text file and a PDF sent with a message reach the model
// through the real openai-go client and fakellm's SSE as content parts:
// the image as an image_url data URL, the files as text parts with their
// name (the PDF's extracted text and page count). The message stores
// references, not bytes.
func TestAttachmentsReachTheModel(t *testing.T) {
	t.Parallel()
	h := newHarness(t, func(o *agent.Options) { o.ModelSeesImages = func() bool { return true } })
	png, _ := base64.StdEncoding.DecodeString(tinyPNG)
	h.srv.Enqueue(fakellm.Reply(fakellm.Text("Seen.")))
	_, err := h.rt.SendInputWith(context.Background(), "th-1", "what is in these?", []attach.Input{
		{Name: "logo.png", MimeType: "image/png", Data: png},
		{Name: "notes.go", MimeType: "", Data: []byte("package main\n")},
		{Name: "report.pdf", MimeType: "application/pdf", Data: readPDFFixture(t)},
	})
	if err != nil {
		t.Fatal(err)
	}
	finished(t, h.terminal(), agui.OutcomeSuccess)
	h.idle("th-1")
	reqs := h.srv.Requests()
	if len(reqs) != 1 {
		t.Fatalf("%d model calls", len(reqs))
	}
	raw := string(reqs[0].Raw)
	for _, want := range []string{`"image_url"`, "data:image/png;base64," + tinyPNG, "what is in these?",
		`File: notes.go\n` + "```" + `\npackage main\n`, "File: report.pdf (PDF, 2 pages)", "Zephyr quarterly figures", "marmalade"} {
		if !strings.Contains(raw, want) {
			t.Errorf("the request lacks %q:\n%s", want, raw)
		}
	}
	msgs := h.messages("th-1")
	if len(msgs) != 2 || len(msgs[0].Attachments) != 3 {
		t.Fatalf("stored %+v", msgs)
	}
	refs := msgs[0].Attachments
	if refs[0].MimeType != "image/png" || refs[1].MimeType != "text/plain" || refs[2].Pages != 2 || refs[2].Name != "report.pdf" {
		t.Fatalf("refs %+v", refs)
	}
	if len(msgs[0].Parts) != 0 {
		t.Fatalf("request parts were stored: %+v", msgs[0].Parts)
	}
	blob, err := h.db.Attachment(context.Background(), refs[2].ID)
	if err != nil || blob.Pages != 2 || !strings.Contains(blob.Text, "Zephyr") {
		t.Fatalf("pdf blob %+v, %v", blob.Pages, err)
	}
	h.assertValidHistory("th-1")
}

// A model that does not take images: the send is refused with a typed
// error before anything is stored (the text is not lost: nothing was
// sent), and an image stored earlier reaches it as a note.
func TestImagesRefusedWhenTheModelDoesNotTakeThem(t *testing.T) {
	t.Parallel()
	sees := true
	h := newHarness(t, func(o *agent.Options) { o.ModelSeesImages = func() bool { return sees } })
	png, _ := base64.StdEncoding.DecodeString(tinyPNG)
	h.srv.Enqueue(fakellm.Reply(fakellm.Text("ok")), fakellm.Reply(fakellm.Text("ok")))
	if _, err := h.rt.SendInputWith(context.Background(), "th-1", "first", []attach.Input{{Name: "a.png", Data: png}}); err != nil {
		t.Fatal(err)
	}
	finished(t, h.terminal(), agui.OutcomeSuccess)
	h.idle("th-1")
	sees = false
	_, err := h.rt.SendInputWith(context.Background(), "th-1", "second", []attach.Input{{Name: "b.png", Data: png}})
	var ae *attach.Error
	if !errors.As(err, &ae) || !ae.ImagesNotAccepted || ae.Name != "b.png" || !errors.Is(err, attach.ErrRefused) {
		t.Fatalf("err = %v", err)
	}
	if n := len(h.messages("th-1")); n != 2 {
		t.Fatalf("%d messages after a refused send", n)
	}
	h.send("th-1", "third")
	finished(t, h.terminal(), agui.OutcomeSuccess)
	h.idle("th-1")
	raw := string(h.srv.Requests()[1].Raw)
	if strings.Contains(raw, "image_url") || !strings.Contains(raw, "[Image a.png was attached; this model does not accept images.]") {
		t.Fatalf("request: %s", raw)
	}
}

// A large image reaches the model downscaled to MaxImageSide; the stored
// file stays full size.
func TestLargeImagesAreDownscaledForTheModel(t *testing.T) {
	t.Parallel()
	img := image.NewRGBA(image.Rect(0, 0, 3000, 1000))
	for x := 0; x < 3000; x += 7 {
		img.Set(x, 500, color.RGBA{R: 200, A: 255})
	}
	for i := range img.Pix {
		if i%4 == 3 {
			img.Pix[i] = 255
		}
	}
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, img, nil); err != nil {
		t.Fatal(err)
	}
	h := newHarness(t, func(o *agent.Options) { o.ModelSeesImages = func() bool { return true } })
	h.srv.Enqueue(fakellm.Reply(fakellm.Text("wide")))
	if _, err := h.rt.SendInputWith(context.Background(), "th-1", "", []attach.Input{{Name: "wide.jpg", Data: buf.Bytes()}}); err != nil {
		t.Fatal(err)
	}
	finished(t, h.terminalWithin(attach.WallBudget()+10*time.Second), agui.OutcomeSuccess)
	h.idle("th-1")
	raw := string(h.srv.Requests()[0].Raw)
	i := strings.Index(raw, "data:image/jpeg;base64,")
	if i < 0 {
		t.Fatalf("no jpeg part: %.300s", raw)
	}
	b64 := raw[i+len("data:image/jpeg;base64,"):]
	b64 = b64[:strings.IndexByte(b64, '"')]
	data, err := base64.StdEncoding.DecodeString(b64)
	if err != nil {
		t.Fatal(err)
	}
	cfg, _, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil || cfg.Width != attach.MaxImageSide || cfg.Height != 682 {
		t.Fatalf("sent %dx%d, %v", cfg.Width, cfg.Height, err)
	}
	msgs := h.messages("th-1")
	blob, err := h.db.Attachment(context.Background(), msgs[0].Attachments[0].ID)
	if err != nil || !bytes.Equal(blob.Data, buf.Bytes()) {
		t.Fatalf("stored file changed: %v", err)
	}
}
