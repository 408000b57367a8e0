package store

import (
	"reflect"
	"strings"
	"testing"

	"github.com/juncture-app/juncture/agent/history"
)

// A question a running tool asked (an MCP elicitation) cannot outlive the
// process: recovery settles it cancelled and the call's result says what
// was asked. A question bound to a call that was not running (ask_user)
// is left pending as before.
func TestRecoverEndsQuestionsOfRunningCalls(t *testing.T) {
	t.Parallel()
	db, ctx := openFixture(t, "t")
	mustPut(t, db,
		userMsg("t", "u1", "book it"),
		assistantMsg("t", "a1", "", history.ToolCall{ID: "c-mcp", Name: "edge__elicit", Arguments: "{}"},
			history.ToolCall{ID: "c-ask", Name: "ask_user", Arguments: `{"question":"?"}`}),
	)
	if _, err := db.BeginToolExecution(ctx, history.ToolExecution{ToolCallID: "c-mcp", ThreadID: "t", RunID: "run", ToolName: "edge__elicit", Arguments: "{}"}); err != nil {
		t.Fatal(err)
	}
	if err := db.PutInterrupts(ctx, []history.Interrupt{
		{ID: "mid", ThreadID: "t", RunID: "run", Kind: history.KindGeneric, ToolCallID: "c-mcp", Descriptor: []byte(`{"id":"mid","message":"Who are you?"}`)},
		{ID: "ask", ThreadID: "t", RunID: "run", Kind: history.KindGeneric, ToolCallID: "c-ask", Descriptor: []byte(`{"id":"ask","message":"?"}`)},
	}); err != nil {
		t.Fatal(err)
	}
	rep, err := db.Recover(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if rep.EndedMidCallQuestions != 1 || rep.PendingInterrupts != 1 || rep.AddedToolResults != 1 {
		t.Fatalf("report %+v", rep)
	}
	pending, err := db.PendingInterrupts(ctx, "t")
	if err != nil || len(pending) != 1 || pending[0].ID != "ask" {
		t.Fatalf("pending %+v (%v)", pending, err)
	}
	msgs := mustMessages(t, db, "t")
	res := msgs[len(msgs)-1]
	if res.ToolCallID != "c-mcp" || !res.IsError || res.ToolState != "interrupted-mid-run" ||
		!strings.HasPrefix(res.Content, history.ResultAppStoppedMidRun) || !strings.Contains(res.Content, "Who are you?") {
		t.Fatalf("result %+v", res)
	}
}

// A tool result's parts are stored with it and read back as they were.
func TestToolResultPartsRoundTrip(t *testing.T) {
	t.Parallel()
	db := openTest(t)
	mustThread(t, db, "t", "")
	m := toolMsg("t", "r1", "c1", "edge__image", "[image: image/png, 1 KB — shown to the person]")
	m.Parts = []history.Part{
		{Kind: history.PartImage, MimeType: "image/png", Data: "iVBORw0KGgo="},
		{Kind: history.PartLink, URI: "https://example.com/doc", Name: "doc"},
		{Kind: history.PartStructured, JSON: []byte(`{"temperature":21}`)},
	}
	mustPut(t, db, userMsg("t", "u1", "show"), assistantMsg("t", "a1", "", history.ToolCall{ID: "c1", Name: "edge__image", Arguments: "{}"}), m)
	got := mustMessages(t, db, "t")[2]
	if !reflect.DeepEqual(got.Parts, m.Parts) {
		t.Fatalf("parts %+v", got.Parts)
	}
	if plain := mustMessages(t, db, "t")[0]; plain.Parts != nil {
		t.Fatalf("a message without parts reads back %+v", plain.Parts)
	}
}

func TestToolPinsKeepTheirFirstSighting(t *testing.T) {
	t.Parallel()
	db, ctx := openFixture(t)
	if err := db.SaveToolPin(ctx, ToolPin{Server: "edge", Tool: "flip", ReadOnly: true, FirstSeen: 10}); err != nil {
		t.Fatal(err)
	}
	if err := db.SaveToolPin(ctx, ToolPin{Server: "edge", Tool: "flip", ReadOnly: false, FirstSeen: 99}); err != nil {
		t.Fatal(err)
	}
	if err := db.SaveToolPin(ctx, ToolPin{Server: "edge", Tool: "echo", ReadOnly: true, FirstSeen: 11}); err != nil {
		t.Fatal(err)
	}
	pins, err := db.ToolPins(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want := []ToolPin{{Server: "edge", Tool: "echo", ReadOnly: true, FirstSeen: 11}, {Server: "edge", Tool: "flip", ReadOnly: false, FirstSeen: 10}}
	if len(pins) != 2 || pins[0] != want[0] || pins[1] != want[1] {
		t.Fatalf("pins %+v, want %+v", pins, want)
	}
}
