package agui

import (
	"encoding/json"
	"net/http/httptest"
	"strings"
	"testing"
)

func TestEventsMarshalAsStrictAGUI(t *testing.T) {
	t.Parallel()
	strip := func(ev Event) string {
		b, err := json.Marshal(ev)
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]any
		_ = json.Unmarshal(b, &m)
		delete(m, "timestamp")
		out, _ := json.Marshal(m)
		return string(out)
	}
	cases := []struct {
		name string
		ev   Event
		want string
	}{
		{"run started omits an empty parent", NewRunStarted("th", "r1", ""), `{"protocolVersion":"1.0","runId":"r1","threadId":"th","type":"RUN_STARTED"}`},
		{"success outcome", NewRunFinished("th", "r1", &Outcome{Type: OutcomeSuccess}), `{"outcome":{"type":"success"},"runId":"r1","threadId":"th","type":"RUN_FINISHED"}`},
		{"cancelled outcome carries nothing else", NewRunFinished("th", "r1", &Outcome{Type: OutcomeCancelled}), `{"outcome":{"type":"cancelled"},"runId":"r1","threadId":"th","type":"RUN_FINISHED"}`},
		{"client tools pending", NewRunFinished("th", "r1", &Outcome{Type: OutcomeSuccess, PendingToolCallIDs: []string{"c1"}}), `{"outcome":{"pendingToolCallIds":["c1"],"type":"success"},"runId":"r1","threadId":"th","type":"RUN_FINISHED"}`},
		{"run error has no run or thread id", NewRunError("boom", "x", nil), `{"code":"x","message":"boom","type":"RUN_ERROR"}`},
		{"custom keeps a null value", NewCustom("n", nil), `{"name":"n","type":"CUSTOM","value":null}`},
		{"empty delta is kept", NewTextContent("m", ""), `{"delta":"","messageId":"m","type":"TEXT_MESSAGE_CONTENT"}`},
		{"tool result mints a tool message", NewToolCallResult("m2", "c1", "ok"), `{"content":"ok","messageId":"m2","role":"tool","toolCallId":"c1","type":"TOOL_CALL_RESULT"}`},
		{"reasoning message role", NewReasoningMessageStart("r"), `{"messageId":"r","role":"reasoning","type":"REASONING_MESSAGE_START"}`},
		{"empty snapshot is an empty list", NewMessagesSnapshot(nil), `{"messages":[],"type":"MESSAGES_SNAPSHOT"}`},
	}
	for _, tc := range cases {
		if got := strip(tc.ev); got != tc.want {
			t.Errorf("%s:\n got  %s\n want %s", tc.name, got, tc.want)
		}
	}
	// Timestamps are integer milliseconds.
	b, _ := json.Marshal(NewTextEnd("m"))
	var m map[string]any
	d := json.NewDecoder(strings.NewReader(string(b)))
	d.UseNumber()
	_ = d.Decode(&m)
	if n, ok := m["timestamp"].(json.Number); !ok || strings.ContainsAny(n.String(), ".eE") {
		t.Fatalf("timestamp %v is not an integer", m["timestamp"])
	}
}

func TestRunAgentInputAcceptsStringOrPartsContent(t *testing.T) {
	t.Parallel()
	var in RunAgentInput
	body := `{"threadId":"t","runId":"r","state":null,"messages":[{"id":"1","role":"user","content":"hi"},{"id":"2","role":"user","content":[{"type":"text","text":"a"},{"type":"image","source":{"type":"url","value":"x"}},{"type":"text","text":"b"}]}],"unknown":1}`
	if err := json.Unmarshal([]byte(body), &in); err != nil {
		t.Fatal(err)
	}
	if err := in.Validate(); err != nil {
		t.Fatal(err)
	}
	if in.Messages[0].Content.Text != "hi" || in.Messages[1].Content.Text != "ab" {
		t.Fatalf("contents %q %q", in.Messages[0].Content.Text, in.Messages[1].Content.Text)
	}
	bad := []string{`{"runId":"r","messages":[]}`, `{"threadId":"t","messages":[]}`, `{"threadId":"t","runId":"r","messages":[{"id":"1","role":"robot","content":""}]}`, `{"threadId":"t","runId":"r","messages":[],"resume":[{"interruptId":"i","status":"maybe"}]}`}
	for _, b := range bad {
		var in RunAgentInput
		if err := json.Unmarshal([]byte(b), &in); err == nil && in.Validate() == nil {
			t.Errorf("accepted %s", b)
		}
	}
}

func TestSSEFramingIsLFOnlyAndFlushed(t *testing.T) {
	t.Parallel()
	rec := httptest.NewRecorder()
	w := NewSSEWriter(rec)
	_ = w.Write(NewTextEnd("m"))
	_ = w.Comment("keepalive")
	out := rec.Body.String()
	if !strings.HasPrefix(out, `data: {"type":"TEXT_MESSAGE_END"`) || !strings.Contains(out, "}\n\n: keepalive\n\n") || strings.Contains(out, "\r") {
		t.Fatalf("framing %q", out)
	}
	if rec.Header().Get("Content-Type") != "text/event-stream" || !rec.Flushed {
		t.Fatalf("headers %v flushed %v", rec.Header(), rec.Flushed)
	}
}
