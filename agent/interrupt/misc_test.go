package interrupt

import (
	"bytes"
	"encoding/json"
	"errors"
	"regexp"
	"testing"
	"time"

	"go.uber.org/goleak"
)

func TestParseDate(t *testing.T) {
	utc := map[string]int64{
		"2030-01-01T00:00:00Z":          1893456000000,
		"2030-01-01T00:00:00.123Z":      1893456000123,
		"2030-01-01T00:00:00.1239Z":     1893456000123,
		"2030-01-01T01:00:00+01:00":     1893456000000,
		"2030-01-01":                    1893456000000,
		"2030-01":                       1893456000000,
		"2030":                          1893456000000,
		"+002030-01-01T00:00Z":          1893456000000,
		"2030-01-01T24:00:00Z":          1893542400000,
		"2021-02-30T00:00:00Z":          1614643200000, // rolls over like V8
		"Tue, 01 Jan 2030 00:00:00 GMT": 1893456000000,
		"1970-01-01T00:00:00Z":          0,
		"-000001-01-01T00:00:00Z":       -62198755200000,
	}
	for s, want := range utc {
		if got, ok := ParseDate(s); !ok || got != want {
			t.Errorf("ParseDate(%q) = %d, %v; want %d", s, got, ok, want)
		}
	}
	if _, ok := ParseDate("2030-01-01T00:00:00"); !ok { // local time, still valid
		t.Error("local date-time")
	}
	for _, s := range []string{"", "soon", "nope", "2030-13-01", "2030-01-32", "2030-01-01T25:00Z", "2030-01-01T24:00:01Z",
		"-000000-01-01", "+275761-01-01T00:00:00Z", "2030-01-01T00:00:00.Z", "2030-1-1", "2030-01-01T00:00:00+0100"} {
		if ms, ok := ParseDate(s); ok {
			t.Errorf("ParseDate(%q) = %d, want invalid", s, ms)
		}
	}
}

func TestParseToolArguments(t *testing.T) {
	cases := map[string]string{
		"": "{}", "   ": "{}", "null": "{}", "5": "{}", `"x"`: "{}", "{bad": "{}", "[1, 2]": "[1,2]",
		"\u00a0\ufeff{ \"b\": 1, \"a\": [ ] }\u2028": `{"b":1,"a":[]}`,
		`{"amount":5,"recipient":"Ada"}`:             `{"amount":5,"recipient":"Ada"}`,
		"{\"a\":1}\u00a0x":                           "{}",
	}
	for in, want := range cases {
		if got := string(ParseToolArguments(in)); got != want {
			t.Errorf("ParseToolArguments(%q) = %s, want %s", in, got, want)
		}
	}
}

func TestIDs(t *testing.T) {
	if ApprovalInterruptID("c1") != "approval_c1" || ClientToolInterruptID("c1") != "client_tool_c1" {
		t.Fatal("prefixes")
	}
	for id, want := range map[string][2]string{
		"approval_call_1": {string(KindToolApproval), "call_1"}, "client_tool_x": {string(KindClientToolExecution), "x"},
		"approval_": {"", ""}, "interrupt-1": {"", ""},
	} {
		k, c, ok := ToolCallIDFromInterruptID(id)
		if string(k) != want[0] || c != want[1] || ok != (want[0] != "") {
			t.Errorf("%s: %s %s %v", id, k, c, ok)
		}
	}
	id, err := NewGenericInterruptID(time.UnixMilli(1767225600000), bytes.NewReader([]byte{0, 1, 35, 36, 255, 10, 11}))
	if err != nil || id != "interrupt-1767225600000-01z03ab" {
		t.Fatalf("id %q %v", id, err)
	}
	id, err = NewGenericInterruptID(time.Now(), nil)
	if err != nil || !regexp.MustCompile(`^interrupt-\d+-[0-9a-z]{7}$`).MatchString(id) {
		t.Fatalf("id %q %v", id, err)
	}
	if CombineToolResume(ToolResumeContinue, ToolResumeStop, ToolResumeCancel) != ToolResumeStop ||
		CombineToolResume(ToolResumeContinue, ToolResumeCancel) != ToolResumeCancel || CombineToolResume() != "" {
		t.Fatal("combine")
	}
}

func TestParseApprovalSchema(t *testing.T) {
	for _, raw := range []string{`{}`, `{"approve":{"type":"object"},"other":{}}`, `[]`, `"x"`} {
		_, err := ParseApprovalSchema(json.RawMessage(raw))
		if err == nil || err.Error() != "approvalSchema must be a SchemaInput or a nonempty map containing approve or reject." {
			t.Errorf("%s: %v", raw, err)
		}
	}
	a, err := ParseApprovalSchema(json.RawMessage(`{"type":"object","approve":1}`))
	if err != nil || string(a.Approve) != string(a.Reject) {
		t.Fatalf("a raw schema with extra keys is a single schema: %+v %v", a, err)
	}
	if _, err := NormalizeApprovalSchema(ApprovalSchema{Reject: json.RawMessage(`[]`)}, nil); !errors.Is(err, ErrInvalidSchema) {
		t.Fatalf("array branch: %v", err)
	}
}

func TestDefinitionRequests(t *testing.T) {
	def := Definition{ID: "pick", ResponseSchema: json.RawMessage(`{"type":"object"}`),
		PayloadSchema: json.RawMessage(`{"type":"object","properties":{"n":{"type":"number"}},"required":["n"]}`)}
	msgs := map[string]RequestInput{
		"Interrupt reason must be a non-empty string.":     {Key: "k", Message: "m"},
		"Interrupt message must be a non-empty string.":    {Key: "k", Reason: "r", Message: "\u3000"},
		"Interrupt payload is invalid: n must be a number": {Key: "k", Reason: "r", Message: "m", Payload: map[string]any{"n": "1"}},
		"Interrupt payload must be JSON-compatible: Interrupt values must be JSON-compatible.": {Key: "k", Reason: "r", Message: "m",
			Payload: map[string]any{"n": json.RawMessage(nil)}},
	}
	for want, in := range msgs {
		var re *RequestError
		if _, err := def.Interrupt(in, nil); !errors.As(err, &re) || re.Message != want {
			t.Errorf("got %v, want %s", err, want)
		}
	}
	noPayload := Definition{ID: "d", ResponseSchema: json.RawMessage(`{"type":"object"}`)}
	if _, err := noPayload.Interrupt(RequestInput{Key: "k", Reason: "r", Message: "m", Payload: 1}, nil); err == nil ||
		err.Error() != "This interrupt definition does not accept a payload." {
		t.Fatalf("payload without schema: %v", err)
	}
	in, err := ParseRequestInput(json.RawMessage(`{"key":"k","reason":"r","message":"m","expiresAt":"2030-01-01","payload":{"n":1}}`))
	if err != nil || in.Key != "k" || in.ExpiresAt != "2030-01-01" {
		t.Fatalf("%+v %v", in, err)
	}
	req, err := def.Interrupt(in, nil)
	if err != nil || string(req.Payload) != `{"n":1}` {
		t.Fatalf("%+v %v", req, err)
	}
	d, err := NewGenericDescriptor("interrupt-9", req)
	if err != nil || d.ExpiresAt != "2030-01-01" {
		t.Fatalf("%+v %v", d, err)
	}
	c, ok := ContinuationFromDescriptor(d)
	if !ok || c.ExpiresAt != "2030-01-01" || string(c.Payload) != `{"n":1}` {
		t.Fatalf("continuation %+v", c)
	}
	meta, _ := c.ResumeMetadata()
	back, ok, err := ReadContinuation(meta)
	if err != nil || !ok || !bytes.Equal(mustJSON(t, back), mustJSON(t, c)) {
		t.Fatalf("continuation round trip %+v %v", back, err)
	}
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }
