package agui

import (
	"bytes"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"testing"
)

// flushRecorder is an http.ResponseWriter that records, for every Flush,
// what was written since the previous one.
type flushRecorder struct {
	h       http.Header
	cur     bytes.Buffer
	flushes []string
	all     bytes.Buffer
	fail    error // Write returns it when set
}

func newFlushRecorder() *flushRecorder { return &flushRecorder{h: http.Header{}} }

func (r *flushRecorder) Header() http.Header { return r.h }
func (r *flushRecorder) WriteHeader(int)     {}
func (r *flushRecorder) Write(b []byte) (int, error) {
	if r.fail != nil {
		return 0, r.fail
	}
	r.cur.Write(b)
	r.all.Write(b)
	return len(b), nil
}
func (r *flushRecorder) Flush() {
	r.flushes = append(r.flushes, r.cur.String())
	r.cur.Reset()
}

func sampleEvents() []Event {
	return []Event{
		NewRunStarted("th", "r1", ""),
		NewTextStart("m1"),
		NewTextContent("m1", "a <b> & \"c\" \u2028 é"),
		NewTextContent("m1", ""),
		NewTextEnd("m1"),
		NewRunFinished("th", "r1", &Outcome{Type: OutcomeSuccess}),
	}
}

// Buffer must produce exactly json.Marshal's frame (HTML escaping included),
// so switching a handler to batching changes no byte on the wire.
func TestSSEBufferIsByteIdenticalToMarshal(t *testing.T) {
	t.Parallel()
	rec := newFlushRecorder()
	w := NewSSEWriter(rec)
	var want bytes.Buffer
	for _, ev := range sampleEvents() {
		b, err := json.Marshal(ev)
		if err != nil {
			t.Fatal(err)
		}
		want.WriteString("data: ")
		want.Write(b)
		want.WriteString("\n\n")
		if err := w.Buffer(ev); err != nil {
			t.Fatal(err)
		}
	}
	w.Flush()
	if got := rec.all.String(); got != want.String() {
		t.Fatalf("buffered frames differ from json.Marshal framing:\n got %q\nwant %q", got, want.String())
	}
	if len(rec.flushes) != 1 {
		t.Fatalf("%d flushes for one drained batch, want 1", len(rec.flushes))
	}
}

func TestSSEWriteFlushesEveryFrame(t *testing.T) {
	t.Parallel()
	rec := newFlushRecorder()
	w := NewSSEWriter(rec)
	evs := sampleEvents()
	for _, ev := range evs {
		if err := w.Write(ev); err != nil {
			t.Fatal(err)
		}
	}
	if len(rec.flushes) != len(evs) {
		t.Fatalf("%d flushes for %d writes", len(rec.flushes), len(evs))
	}
	for i, f := range rec.flushes {
		if strings.Count(f, "data: ") != 1 || !strings.HasSuffix(f, "}\n\n") {
			t.Fatalf("flush %d is not exactly one frame: %q", i, f)
		}
	}
	if w.Buffered() {
		t.Fatal("Buffered after a flushing write")
	}
}

// A batch keeps order, and the terminal event is the last frame of the
// last flush.
func TestSSEBatchKeepsOrderAndTerminalLast(t *testing.T) {
	t.Parallel()
	rec := newFlushRecorder()
	w := NewSSEWriter(rec)
	evs := sampleEvents()
	// first event alone (an empty queue must not wait for more)
	if err := w.Write(evs[0]); err != nil {
		t.Fatal(err)
	}
	if len(rec.flushes) != 1 {
		t.Fatalf("a single queued event was not flushed at once: %d flushes", len(rec.flushes))
	}
	for _, ev := range evs[1:] {
		if err := w.Buffer(ev); err != nil {
			t.Fatal(err)
		}
	}
	if !w.Buffered() {
		t.Fatal("Buffered false with frames pending")
	}
	if rec.cur.Len() == 0 {
		t.Fatal("Buffer did not hand the frames to the response writer")
	}
	w.Flush()
	w.Flush() // nothing pending: no empty flush
	if len(rec.flushes) != 2 {
		t.Fatalf("%d flushes, want 2", len(rec.flushes))
	}
	var types []string
	for _, frame := range strings.Split(strings.TrimSuffix(rec.all.String(), "\n\n"), "\n\n") {
		var m struct{ Type string }
		if err := json.Unmarshal([]byte(strings.TrimPrefix(frame, "data: ")), &m); err != nil {
			t.Fatalf("frame %q: %v", frame, err)
		}
		types = append(types, m.Type)
	}
	want := []string{"RUN_STARTED", "TEXT_MESSAGE_START", "TEXT_MESSAGE_CONTENT", "TEXT_MESSAGE_CONTENT", "TEXT_MESSAGE_END", "RUN_FINISHED"}
	if strings.Join(types, ",") != strings.Join(want, ",") {
		t.Fatalf("order %v, want %v", types, want)
	}
}

func TestSSEWriteFramesFlushesOnce(t *testing.T) {
	t.Parallel()
	rec := newFlushRecorder()
	w := NewSSEWriter(rec)
	frames := [][]byte{[]byte("id: 1\ndata: {\"a\":1}\n\n"), []byte("id: 2\ndata: {\"a\":2}\n\n"), []byte("id: 3\ndata: {\"a\":3}\n\n")}
	if err := w.WriteFrames(frames); err != nil {
		t.Fatal(err)
	}
	if len(rec.flushes) != 1 || rec.flushes[0] != string(bytes.Join(frames, nil)) {
		t.Fatalf("flushes %q", rec.flushes)
	}
	if err := w.WriteFrames(nil); err != nil || len(rec.flushes) != 1 {
		t.Fatalf("empty batch: err %v, flushes %d", err, len(rec.flushes))
	}
}

func TestSSEBufferRawAndComment(t *testing.T) {
	t.Parallel()
	rec := newFlushRecorder()
	w := NewSSEWriter(rec)
	if err := w.BufferRaw([]byte(`{"type":"X"}`)); err != nil {
		t.Fatal(err)
	}
	if err := w.Comment("keepalive"); err != nil { // flushes the pending frame with it
		t.Fatal(err)
	}
	if len(rec.flushes) != 1 || rec.flushes[0] != "data: {\"type\":\"X\"}\n\n: keepalive\n\n" {
		t.Fatalf("flushes %q", rec.flushes)
	}
	if err := w.WriteRaw([]byte(`{"type":"Y"}`)); err != nil {
		t.Fatal(err)
	}
	if len(rec.flushes) != 2 || rec.flushes[1] != "data: {\"type\":\"Y\"}\n\n" {
		t.Fatalf("flushes %q", rec.flushes)
	}
}

func TestSSEErrors(t *testing.T) {
	t.Parallel()
	rec := newFlushRecorder()
	w := NewSSEWriter(rec)
	if err := w.Buffer(func() {}); err == nil || !strings.Contains(err.Error(), "encoding event") {
		t.Fatalf("unencodable value: %v", err)
	}
	if err := w.Write(NewTextEnd("m")); err != nil { // the failed encode left nothing behind
		t.Fatal(err)
	}
	if got := rec.all.String(); !strings.HasPrefix(got, "data: {") || strings.Count(got, "data: ") != 1 {
		t.Fatalf("after a failed encode: %q", got)
	}
	boom := errors.New("boom")
	rec.fail = boom
	if err := w.Buffer(NewTextEnd("m")); !errors.Is(err, boom) {
		t.Fatalf("write error: %v", err)
	}
	if err := w.WriteFrames([][]byte{[]byte("data: {}\n\n")}); !errors.Is(err, boom) {
		t.Fatalf("WriteFrames error: %v", err)
	}
	if err := w.Comment("k"); !errors.Is(err, boom) {
		t.Fatalf("Comment error: %v", err)
	}
}

func BenchmarkSSEWriteFlushEach(b *testing.B) {
	rec := newFlushRecorder()
	w := NewSSEWriter(rec)
	ev := NewTextContent("msg_0123456789", "token ")
	b.ReportAllocs()
	for b.Loop() {
		_ = w.Write(ev)
		rec.all.Reset()
		rec.flushes = rec.flushes[:0]
	}
}

func BenchmarkSSEBufferBatch64(b *testing.B) {
	rec := newFlushRecorder()
	w := NewSSEWriter(rec)
	ev := NewTextContent("msg_0123456789", "token ")
	b.ReportAllocs()
	for b.Loop() {
		for range 64 {
			_ = w.Buffer(ev)
		}
		w.Flush()
		rec.all.Reset()
		rec.flushes = rec.flushes[:0]
	}
}
