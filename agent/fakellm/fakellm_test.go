package fakellm

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/packages/ssestream"
	"github.com/openai/openai-go/v3/shared"
)

// newClient is the real openai-go client pointed at srv, without retries
// so that error paths fail on the first attempt.
func newClient(srv *Server) openai.Client {
	return openai.NewClient(
		option.WithBaseURL(srv.URL+"/"),
		option.WithAPIKey("test"),
		option.WithMaxRetries(0),
	)
}

func userParams(text string) openai.ChatCompletionNewParams {
	return openai.ChatCompletionNewParams{
		Model:    "test-model",
		Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage(text)},
	}
}

func withUsage(p openai.ChatCompletionNewParams) openai.ChatCompletionNewParams {
	p.StreamOptions.IncludeUsage = openai.Bool(true)
	return p
}

// streamResult is what a test saw on one stream.
type streamResult struct {
	chunks []openai.ChatCompletionChunk
	acc    openai.ChatCompletionAccumulator
	// reasoningContent and reasoning concatenate the raw delta fields of
	// the same names, read from delta.JSON.ExtraFields.
	reasoningContent, reasoning string
	err                         error
}

// extraString decodes a string extra field of a delta ("" when absent or
// null). Note: openai-go marks fields it has no Go type for as not Valid(),
// so presence is read from Raw(), not Valid().
func extraString(t testing.TB, delta openai.ChatCompletionChunkChoiceDelta, name string) string {
	t.Helper()
	f := delta.JSON.ExtraFields[name]
	if f.Raw() == "" || f.Raw() == "null" {
		return ""
	}
	var s string
	if err := json.Unmarshal([]byte(f.Raw()), &s); err != nil {
		t.Fatalf("extra field %s = %s: %v", name, f.Raw(), err)
	}
	return s
}

func collect(t testing.TB, ctx context.Context, c openai.Client, p openai.ChatCompletionNewParams) streamResult {
	t.Helper()
	var r streamResult
	stream := c.Chat.Completions.NewStreaming(ctx, p)
	defer stream.Close()
	for stream.Next() {
		ch := stream.Current()
		r.chunks = append(r.chunks, ch)
		if !r.acc.AddChunk(ch) {
			t.Fatalf("accumulator rejected chunk %s", ch.RawJSON())
		}
		if len(ch.Choices) > 0 {
			r.reasoningContent += extraString(t, ch.Choices[0].Delta, "reasoning_content")
			r.reasoning += extraString(t, ch.Choices[0].Delta, "reasoning")
		}
	}
	r.err = stream.Err()
	return r
}

func (r streamResult) finishReason() string {
	for _, ch := range r.chunks {
		if len(ch.Choices) > 0 && ch.Choices[0].FinishReason != "" {
			return ch.Choices[0].FinishReason
		}
	}
	return ""
}

func TestStreamTextAndUsage(t *testing.T) {
	t.Parallel()
	srv := Start(t)
	c := newClient(srv)
	srv.Enqueue(Reply(Text("Hel"), Text("lo <b> & \"you\""), Usage(7, 2)))
	srv.Enqueue(Reply(Text("again"), Usage(7, 1)))

	r := collect(t, t.Context(), c, withUsage(userParams("hi")))
	if r.err != nil {
		t.Fatal(r.err)
	}
	if got, want := r.acc.Choices[0].Message.Content, `Hello <b> & "you"`; got != want {
		t.Errorf("content = %q, want %q", got, want)
	}
	if len(r.chunks) != 4 { // 2 text, finish, usage
		t.Fatalf("got %d chunks, want 4", len(r.chunks))
	}
	first := r.chunks[0]
	if first.Choices[0].Delta.Role != "assistant" || r.chunks[1].Choices[0].Delta.JSON.Role.Valid() {
		t.Errorf("role should be in the first chunk only")
	}
	for _, ch := range r.chunks {
		if ch.ID != first.ID || !strings.HasPrefix(ch.ID, "chatcmpl-") || ch.Model != "test-model" ||
			ch.Object != "chat.completion.chunk" || ch.Created == 0 {
			t.Errorf("bad envelope: %s", ch.RawJSON())
		}
	}
	if r.finishReason() != "stop" || r.chunks[2].Choices[0].Delta.Content != "" {
		t.Errorf("finish chunk = %s", r.chunks[2].RawJSON())
	}
	last := r.chunks[3]
	if len(last.Choices) != 0 || last.Usage.PromptTokens != 7 || last.Usage.CompletionTokens != 2 || last.Usage.TotalTokens != 9 {
		t.Errorf("usage chunk = %s", last.RawJSON())
	}
	if r.acc.Usage.TotalTokens != 9 {
		t.Errorf("accumulated usage = %+v", r.acc.Usage)
	}

	// Without stream_options.include_usage there is no usage chunk.
	r = collect(t, t.Context(), c, userParams("again"))
	if r.err != nil || len(r.chunks) != 2 || r.acc.Choices[0].Message.Content != "again" {
		t.Fatalf("got %d chunks, err %v", len(r.chunks), r.err)
	}

	reqs := srv.Requests()
	if len(reqs) != 2 || !reqs[0].Stream || !reqs[0].IncludeUsage || reqs[1].IncludeUsage ||
		reqs[0].Model != "test-model" || reqs[0].LastUser() != "hi" ||
		reqs[0].Header.Get("Authorization") != "Bearer test" {
		t.Errorf("requests = %+v", reqs)
	}
}

func TestReasoningFields(t *testing.T) {
	t.Parallel()
	srv := Start(t)
	srv.Enqueue(Reply(Reasoning("Let me "), Reasoning("think."), ReasoningField("Or "), ReasoningField("this."), Text("Answer")))
	r := collect(t, t.Context(), newClient(srv), userParams("q"))
	if r.err != nil {
		t.Fatal(r.err)
	}
	if r.reasoningContent != "Let me think." || r.reasoning != "Or this." {
		t.Errorf("reasoning_content %q, reasoning %q", r.reasoningContent, r.reasoning)
	}
	if got := r.acc.Choices[0].Message.Content; got != "Answer" {
		t.Errorf("content = %q", got)
	}
	// DeepSeek style: content is null next to reasoning_content.
	if d := r.chunks[1].Choices[0].Delta; d.JSON.Content.Raw() != "null" {
		t.Errorf("reasoning chunk content = %q", d.JSON.Content.Raw())
	}
}

func TestParallelToolCalls(t *testing.T) {
	t.Parallel()
	srv := Start(t)
	srv.Enqueue(Reply(
		Text("Looking."),
		ToolCall(0, "call_a", "read_file", ""),
		ToolArgs(0, `{"pa`),
		ToolCall(1, "call_b", "list_files", `{"path"`),
		ToolArgs(0, `th":"a.txt"}`),
		ToolArgs(1, `:"."}`),
	))
	p := userParams("go")
	p.Tools = []openai.ChatCompletionToolUnionParam{
		openai.ChatCompletionFunctionTool(shared.FunctionDefinitionParam{
			Name:        "read_file",
			Description: openai.String("Read a file"),
			Parameters:  shared.FunctionParameters{"type": "object"},
		}),
	}
	r := collect(t, t.Context(), newClient(srv), p)
	if r.err != nil {
		t.Fatal(r.err)
	}
	if r.finishReason() != "tool_calls" {
		t.Errorf("finish_reason = %q", r.finishReason())
	}
	calls := r.acc.Choices[0].Message.ToolCalls
	if len(calls) != 2 {
		t.Fatalf("tool calls = %+v", calls)
	}
	want := [][3]string{{"call_a", "read_file", `{"path":"a.txt"}`}, {"call_b", "list_files", `{"path":"."}`}}
	for i, w := range want {
		if got := [3]string{calls[i].ID, calls[i].Function.Name, calls[i].Function.Arguments}; got != w {
			t.Errorf("call %d = %q, want %q", i, got, w)
		}
	}
	// The first chunk of a call has id, type and name; later ones only
	// index and arguments.
	open := r.chunks[1].Choices[0].Delta.ToolCalls[0]
	if open.Type != "function" || !open.JSON.Function.Valid() || open.Function.Name != "read_file" || !open.Function.JSON.Arguments.Valid() {
		t.Errorf("first tool chunk = %s", open.RawJSON())
	}
	more := r.chunks[2].Choices[0].Delta.ToolCalls[0]
	if more.JSON.ID.Valid() || more.JSON.Type.Valid() || more.Function.JSON.Name.Valid() || more.Index != 0 {
		t.Errorf("later tool chunk = %s", more.RawJSON())
	}
	tools := srv.Requests()[0].Tools
	if len(tools) != 1 || tools[0].Name != "read_file" || tools[0].Description != "Read a file" ||
		string(tools[0].Parameters) != `{"type":"object"}` {
		t.Errorf("parsed tools = %+v", tools)
	}
}

func TestHTTPErrors(t *testing.T) {
	t.Parallel()
	srv := Start(t)
	c := newClient(srv)
	for _, tc := range []struct {
		resp       Response
		status     int
		message    string
		retryAfter string
	}{
		{HTTPError(429, `{"error":{"message":"Rate limit reached","type":"rate_limit"}}`, "Retry-After", "1"), 429, "Rate limit reached", "1"},
		{HTTPError(500, `{"error":{"message":"boom","type":"server_error"}}`), 500, "boom", ""},
		{HTTPError(401, `{"error":{"message":"Incorrect API key provided","type":"invalid_request_error","code":"invalid_api_key"}}`), 401, "Incorrect API key provided", ""},
		{HTTPError(502, "<html>Bad Gateway</html>"), 502, "", ""}, // a proxy's non-JSON body
		{Response{}, 500, "fakellm: no scripted response", ""},    // queue empty, no fallback
	} {
		if tc.resp.status != 0 {
			srv.Enqueue(tc.resp)
		}
		r := collect(t, t.Context(), c, userParams("x"))
		var apiErr *openai.Error
		if !errors.As(r.err, &apiErr) {
			t.Fatalf("status %d: err = %v (%T)", tc.status, r.err, r.err)
		}
		if apiErr.StatusCode != tc.status || apiErr.Message != tc.message ||
			apiErr.Response.Header.Get("Retry-After") != tc.retryAfter {
			t.Errorf("got %d %q retry-after %q, want %d %q %q", apiErr.StatusCode, apiErr.Message,
				apiErr.Response.Header.Get("Retry-After"), tc.status, tc.message, tc.retryAfter)
		}
	}
	// Non-streaming requests get the same errors.
	srv.Enqueue(HTTPError(503, `{"error":{"message":"overloaded","type":"server_error"}}`))
	_, err := c.Chat.Completions.New(t.Context(), userParams("x"))
	var apiErr *openai.Error
	if !errors.As(err, &apiErr) || apiErr.StatusCode != 503 {
		t.Errorf("non-stream error = %v", err)
	}
	if n := len(srv.Requests()); n != 6 {
		t.Errorf("recorded %d requests, want 6", n)
	}
}

func TestStallAndCancellation(t *testing.T) {
	t.Parallel()
	srv := Start(t)
	c := newClient(srv)
	for name, resp := range map[string]Response{
		"stall":              Reply(Text("partial"), Stall()),
		"delay":              Reply(Text("partial"), Delay(time.Hour), Text("never")),
		"headers then stall": HeadersThenStall(),
	} {
		t.Run(name, func(t *testing.T) {
			srv.Enqueue(resp)
			ctx, cancel := context.WithCancel(t.Context())
			defer cancel()
			stream := c.Chat.Completions.NewStreaming(ctx, userParams("x"))
			defer stream.Close()
			if resp.headerOnly {
				time.AfterFunc(50*time.Millisecond, cancel)
			} else {
				if !stream.Next() || stream.Current().Choices[0].Delta.Content != "partial" {
					t.Fatalf("first chunk missing: %v", stream.Err())
				}
				cancel()
			}
			start := time.Now()
			for stream.Next() {
				t.Errorf("unexpected chunk %s", stream.Current().RawJSON())
			}
			if !errors.Is(stream.Err(), context.Canceled) {
				t.Errorf("err = %v, want context.Canceled", stream.Err())
			}
			if d := time.Since(start); d > 2*time.Second {
				t.Errorf("cancellation took %v", d)
			}
		})
	}
	// Requests are recorded even though every client went away.
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Second)
	defer cancel()
	if err := srv.WaitRequests(ctx, 3); err != nil {
		t.Fatal(err)
	}
}

func TestCutIsAStreamError(t *testing.T) {
	t.Parallel()
	srv := Start(t)
	srv.Enqueue(Reply(Text("partial"), Cut()))
	r := collect(t, t.Context(), newClient(srv), userParams("x"))
	if r.err == nil || !errors.Is(r.err, io.ErrUnexpectedEOF) {
		t.Errorf("err = %v, want unexpected EOF", r.err)
	}
	if r.acc.Choices[0].Message.Content != "partial" || r.finishReason() != "" {
		t.Errorf("content %q finish %q", r.acc.Choices[0].Message.Content, r.finishReason())
	}
}

func TestStreamEdgeCases(t *testing.T) {
	t.Parallel()
	srv := Start(t)
	c := newClient(srv)

	// A stream without finish_reason (Ollama / LM Studio dropping out).
	srv.Enqueue(Response{Steps: []Step{Text("no finish")}})
	r := collect(t, t.Context(), c, userParams("x"))
	if r.err != nil || r.finishReason() != "" || r.acc.Choices[0].Message.Content != "no finish" {
		t.Errorf("no-finish stream: err %v finish %q", r.err, r.finishReason())
	}

	// SSE comments are ignored; a mid-stream error event is an error.
	srv.Enqueue(Reply(Comment("OPENROUTER PROCESSING"), Text("a"), Raw(`{"error":{"message":"upstream died"}}`)))
	r = collect(t, t.Context(), c, userParams("x"))
	var se *ssestream.StreamError
	if !errors.As(r.err, &se) || !strings.Contains(se.Message, "upstream died") || len(r.chunks) != 1 {
		t.Errorf("error event: err %v, %d chunks", r.err, len(r.chunks))
	}

	// Frames after an explicit [DONE] are never seen by the client.
	srv.Enqueue(Response{Steps: []Step{Text("a"), Finish("length"), Done(), Text("ignored")}})
	r = collect(t, t.Context(), c, userParams("x"))
	if r.err != nil || r.finishReason() != "length" || r.acc.Choices[0].Message.Content != "a" {
		t.Errorf("explicit done: err %v finish %q", r.err, r.finishReason())
	}

	// Batched flushing and repeats deliver every chunk.
	srv.Enqueue(TokenStream(1000, "t ").WithSteps(Batch(7)))
	r = collect(t, t.Context(), c, userParams("x"))
	if r.err != nil || len(r.chunks) != 1001 || r.acc.Choices[0].Message.Content != strings.Repeat("t ", 1000) {
		t.Errorf("token stream: err %v, %d chunks", r.err, len(r.chunks))
	}
}

func TestFallbackAndConcurrency(t *testing.T) {
	t.Parallel()
	srv := Start(t)
	srv.SetFallback(func(req Request) Response { return Reply(Words("echo: "+req.LastUser(), 1)...) })
	c := newClient(srv)
	errs := make(chan error, 4)
	for i := range 4 {
		go func() {
			want := "echo: message " + string(rune('a'+i))
			r := collect(t, t.Context(), c, userParams(want[len("echo: "):]))
			if r.err == nil && r.acc.Choices[0].Message.Content != want {
				r.err = errors.New("got " + r.acc.Choices[0].Message.Content)
			}
			errs <- r.err
		}()
	}
	for range 4 {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
	if srv.Pending() != 0 || len(srv.Requests()) != 4 {
		t.Errorf("pending %d, requests %d", srv.Pending(), len(srv.Requests()))
	}
}

func TestNonStreaming(t *testing.T) {
	t.Parallel()
	srv := Start(t)
	c := newClient(srv)
	srv.Enqueue(Reply(Text("Sourdough "), Text("Baking Basics")))
	res, err := c.Chat.Completions.New(t.Context(), openai.ChatCompletionNewParams{
		Model: "titler",
		Messages: []openai.ChatCompletionMessageParamUnion{
			openai.SystemMessage("Write a 3-5 word title for the conversation."),
			openai.UserMessage("How do I bake sourdough?"),
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	if res.Object != "chat.completion" || res.Model != "titler" || len(res.Choices) != 1 ||
		res.Choices[0].Message.Content != "Sourdough Baking Basics" || res.Choices[0].FinishReason != "stop" ||
		res.Usage.CompletionTokens != 2 || res.Usage.PromptTokens == 0 {
		t.Errorf("completion = %s", res.RawJSON())
	}
	if reqs := srv.Requests(); reqs[0].Stream || reqs[0].Messages[0].Role != "system" {
		t.Errorf("request = %+v", reqs[0])
	}

	// Reasoning and tool calls are assembled too.
	srv.Enqueue(Reply(Reasoning("hmm"), ToolCall(1, "c2", "b", "{}"), ToolCall(0, "c1", "a", `{"x"`), ToolArgs(0, ":1}"), Usage(3, 4)))
	res, err = c.Chat.Completions.New(t.Context(), userParams("x"))
	if err != nil {
		t.Fatal(err)
	}
	msg := res.Choices[0].Message
	if res.Choices[0].FinishReason != "tool_calls" || len(msg.ToolCalls) != 2 ||
		msg.ToolCalls[0].ID != "c1" || msg.ToolCalls[0].Function.Arguments != `{"x":1}` ||
		msg.ToolCalls[1].Function.Name != "b" || msg.JSON.ExtraFields["reasoning_content"].Raw() != `"hmm"` ||
		msg.JSON.Content.Valid() || res.Usage.TotalTokens != 7 {
		t.Errorf("completion = %s", res.RawJSON())
	}
}

func TestModelsAndNotFound(t *testing.T) {
	t.Parallel()
	srv := Start(t)
	c := newClient(srv)
	page, err := c.Models.List(t.Context())
	if err != nil || len(page.Data) != 1 || page.Data[0].ID != "fake-model" || page.Data[0].OwnedBy != "juncture" {
		t.Fatalf("models = %+v, %v", page, err)
	}
	srv.SetModels("a", "b")
	page, err = c.Models.List(t.Context())
	if err != nil || len(page.Data) != 2 || page.Data[1].ID != "b" {
		t.Fatalf("models = %+v, %v", page, err)
	}
	if m, err := c.Models.Get(t.Context(), "a"); err != nil || m.ID != "a" {
		t.Errorf("get model = %+v, %v", m, err)
	}

	for _, tc := range []struct{ method, path string }{
		{"GET", "/v1/chat/completions"},
		{"POST", "/v1/completions"},
		{"GET", "/"},
		{"DELETE", "/v1/models"},
	} {
		req, _ := http.NewRequestWithContext(t.Context(), tc.method, strings.TrimSuffix(srv.URL, "/v1")+tc.path, nil)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		want := `"message":"Invalid URL (` + tc.method + " " + tc.path + `)"`
		if res.StatusCode != 404 || !strings.Contains(string(body), want) || res.Header.Get("Content-Type") != "application/json" {
			t.Errorf("%s %s: %d %s", tc.method, tc.path, res.StatusCode, body)
		}
	}
	if len(srv.Requests()) != 0 {
		t.Errorf("non-chat requests were recorded")
	}
}

func TestRequestParsing(t *testing.T) {
	t.Parallel()
	srv := Start(t)
	srv.Enqueue(Reply(Text("ok")))
	body := `{"model":"m","stream":false,"messages":[
		{"role":"system","content":"sys"},
		{"role":"user","content":[{"type":"text","text":"look"},{"type":"image_url","image_url":{"url":"data:x"}},{"type":"text","text":"here"}]},
		{"role":"assistant","content":null,"reasoning_content":"because","tool_calls":[{"id":"c1","type":"function","function":{"name":"read_file","arguments":"{\"path\":\"a\"}"}}]},
		{"role":"tool","tool_call_id":"c1","name":"read_file","content":"line 1\nline 2"},
		{"role":"assistant","content":"","reasoning":"ollama style"}
	]}`
	res, err := http.Post(srv.URL+"/chat/completions", "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	_, _ = io.Copy(io.Discard, res.Body)
	res.Body.Close()
	msgs := srv.Requests()[0].Messages
	want := []RequestMessage{
		{Role: "system", Content: "sys"},
		{Role: "user", Content: "look\nhere", Images: []string{"data:x"}},
		{Role: "assistant", ReasoningContent: "because", ToolCalls: []RequestToolCall{{ID: "c1", Name: "read_file", Arguments: `{"path":"a"}`}}},
		{Role: "tool", ToolCallID: "c1", Name: "read_file", Content: "line 1\nline 2"},
		{Role: "assistant", ReasoningContent: "ollama style"},
	}
	got, _ := json.Marshal(msgs)
	exp, _ := json.Marshal(want)
	if string(got) != string(exp) {
		t.Errorf("messages:\n got %s\nwant %s", got, exp)
	}

	// Invalid JSON is a 400 and is not recorded.
	res, err = http.Post(srv.URL+"/chat/completions", "application/json", strings.NewReader("{"))
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != 400 || len(srv.Requests()) != 1 {
		t.Errorf("invalid JSON: status %d, %d requests", res.StatusCode, len(srv.Requests()))
	}
}

func TestScriptHelpers(t *testing.T) {
	t.Parallel()
	for _, s := range []string{"", "one", "  lead and trail  ", "a b\n\nc\td e f g", "héllo wörld ✓ x"} {
		var sb strings.Builder
		for _, st := range Words(s, 2) {
			sb.WriteString(st.text)
		}
		if sb.String() != s {
			t.Errorf("Words(%q) joined = %q", s, sb.String())
		}
	}
	if got := len(Words("a b c d e", 2)); got != 3 {
		t.Errorf("Words chunks = %d, want 3", got)
	}

	kinds := func(r Response) string {
		var out []string
		for _, st := range r.Steps {
			out = append(out, strings.Fields(st.String())[0])
		}
		return strings.Join(out, ",")
	}
	for _, tc := range []struct {
		r    Response
		want string
	}{
		{Reply(Text("a"), Usage(1, 1), Done()), "chunk,finish,usage,done"},
		{Reply(Text("a"), Finish("length")), "chunk,finish"},
		{Reply(), "finish"},
	} {
		if got := kinds(tc.r); got != tc.want {
			t.Errorf("Reply = %s, want %s", got, tc.want)
		}
	}
	if r := Reply(ToolCall(0, "c", "f", "")); r.Steps[1].text != "tool_calls" {
		t.Errorf("Reply with a tool call finishes with %q", r.Steps[1].text)
	}
}

func TestCloseEndsStalledResponses(t *testing.T) {
	t.Parallel()
	srv, err := New("")
	if err != nil {
		t.Fatal(err)
	}
	srv.Enqueue(Reply(Text("a"), Stall()))
	c := newClient(srv)
	stream := c.Chat.Completions.NewStreaming(t.Context(), userParams("x"))
	defer stream.Close()
	if !stream.Next() {
		t.Fatal(stream.Err())
	}
	done := make(chan struct{})
	go func() { srv.Close(); close(done) }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("Close hung on a stalled response")
	}
	for stream.Next() {
	}
	if stream.Err() == nil {
		t.Error("stream should fail when the server closes")
	}
	srv.Close() // idempotent
}
