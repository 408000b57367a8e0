package fakellm

import (
	"bytes"
	"context"
	"encoding/json"
	"math/rand/v2"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"
)

var (
	doneFrame = []byte("data: [DONE]\n\n")
	roleDelta = []byte(`{"role":"assistant"}`)
)

// newCompletionID returns an id like OpenAI's "chatcmpl-" + 29 characters.
func newCompletionID() string {
	const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
	b := []byte("chatcmpl-")
	for range 29 {
		b = append(b, alphabet[rand.IntN(len(alphabet))])
	}
	return string(b)
}

func modelName(req Request) string {
	if req.Model == "" {
		return "fake-model"
	}
	return req.Model
}

func setSSEHeaders(h http.Header) {
	h.Set("Content-Type", "text/event-stream; charset=utf-8")
	h.Set("Cache-Control", "no-cache")
	h.Set("X-Accel-Buffering", "no")
}

// waitResult says why a wait ended.
type waitResult uint8

const (
	waitElapsed waitResult = iota // the full duration passed
	waitClient                    // the client went away
	waitClosed                    // the server is closing
)

// wait sleeps for d (forever when d < 0) unless the client goes away or the
// server closes first.
func (s *Server) wait(ctx context.Context, d time.Duration) waitResult {
	var timeout <-chan time.Time
	if d >= 0 {
		t := time.NewTimer(d)
		defer t.Stop()
		timeout = t.C
	}
	select {
	case <-timeout:
		return waitElapsed
	case <-ctx.Done():
		return waitClient
	case <-s.done:
		return waitClosed
	}
}

// abandon ends a response whose wait did not elapse. When the server is
// closing the connection is cut, so that the client sees an error rather
// than a cleanly terminated (and so apparently complete) response.
func abandon(w http.ResponseWriter, why waitResult) {
	if why == waitClosed {
		cut(w)
	}
}

// cut closes the client connection without finishing the HTTP response.
func cut(w http.ResponseWriter) {
	conn, _, err := http.NewResponseController(w).Hijack()
	if err != nil {
		// Not hijackable (HTTP/2): aborting the handler resets the stream.
		panic(http.ErrAbortHandler)
	}
	_ = conn.Close()
}

// frameWriter writes SSE frames into a buffer and hands them to the
// connection every `every` chunks.
type frameWriter struct {
	w       http.ResponseWriter
	rc      *http.ResponseController
	buf     []byte
	pending int
	every   int
	head    []byte // `data: {"id":…,"system_fingerprint":…`
	prefix  []byte // head + `,"choices":[{"index":0,"delta":`
	tail    []byte // `}]` + optional `,"usage":null` + "}\n\n"
	roleOut bool   // the role has been sent in a first chunk
	err     error
}

func newFrameWriter(w http.ResponseWriter, req Request) *frameWriter {
	head := []byte(`data: {"id":"` + newCompletionID() + `","object":"chat.completion.chunk","created":`)
	head = strconv.AppendInt(head, time.Now().Unix(), 10)
	head = append(head, `,"model":`...)
	head = appendJSONString(head, modelName(req))
	head = append(head, `,"system_fingerprint":"fp_fakellm"`...)
	tail := []byte(`}]`)
	if req.IncludeUsage {
		tail = append(tail, `,"usage":null`...)
	}
	tail = append(tail, "}\n\n"...)
	return &frameWriter{
		w:      w,
		rc:     http.NewResponseController(w),
		buf:    make([]byte, 0, 4096),
		every:  1,
		head:   head,
		prefix: append(slices.Clip(head), `,"choices":[{"index":0,"delta":`...),
		tail:   tail,
	}
}

// appendChunk appends one chunk frame; reason "" means finish_reason null.
func (f *frameWriter) appendChunk(b []byte, delta []byte, reason string) []byte {
	b = append(b, f.prefix...)
	if !f.roleOut {
		f.roleOut = true
		if bytes.Equal(delta, []byte(`{}`)) {
			b = append(b, roleDelta...)
		} else {
			b = append(b, `{"role":"assistant",`...)
			b = append(b, delta[1:]...)
		}
	} else {
		b = append(b, delta...)
	}
	b = append(b, `,"logprobs":null,"finish_reason":`...)
	if reason == "" {
		b = append(b, "null"...)
	} else {
		b = appendJSONString(b, reason)
	}
	return append(b, f.tail...)
}

// counted notes one more buffered chunk and flushes per the batch size.
func (f *frameWriter) counted() {
	f.pending++
	if f.pending >= f.every {
		f.flush()
	}
}

func (f *frameWriter) flush() {
	if f.err != nil {
		return
	}
	f.pending = 0
	if len(f.buf) > 0 {
		_, f.err = f.w.Write(f.buf)
		f.buf = f.buf[:0]
		if f.err != nil {
			return
		}
	}
	f.err = f.rc.Flush()
}

func (f *frameWriter) chunk(st Step, reason string) {
	n := max(st.n, 1)
	if !f.roleOut {
		f.buf = f.appendChunk(f.buf, st.enc, reason)
		f.counted()
		n--
	}
	if n == 0 || f.err != nil {
		return
	}
	frame := f.appendChunk(nil, st.enc, reason)
	for ; n > 0 && f.err == nil; n-- {
		f.buf = append(f.buf, frame...)
		f.counted()
	}
}

func (f *frameWriter) usage(prompt, completion int) {
	b := append(f.buf, f.head...)
	b = append(b, `,"choices":[],"usage":{"prompt_tokens":`...)
	b = strconv.AppendInt(b, int64(prompt), 10)
	b = append(b, `,"completion_tokens":`...)
	b = strconv.AppendInt(b, int64(completion), 10)
	b = append(b, `,"total_tokens":`...)
	b = strconv.AppendInt(b, int64(prompt+completion), 10)
	f.buf = append(b, "}}\n\n"...)
	f.counted()
}

func (f *frameWriter) raw(prefix string, data []byte) {
	f.buf = append(f.buf, prefix...)
	f.buf = append(f.buf, data...)
	f.buf = append(f.buf, "\n\n"...)
	f.counted()
}

// stream plays steps as an SSE stream.
func (s *Server) stream(ctx context.Context, w http.ResponseWriter, req Request, steps []Step) {
	setSSEHeaders(w.Header())
	w.WriteHeader(http.StatusOK)
	f := newFrameWriter(w, req)
	doneSent := false
	for _, st := range steps {
		switch st.kind {
		case kindChunk:
			f.chunk(st, "")
		case kindFinish:
			f.chunk(st, st.text)
		case kindUsage:
			if req.IncludeUsage {
				f.usage(st.n, st.m)
			}
		case kindRaw:
			f.raw("data: ", st.enc)
		case kindComment:
			f.raw(": ", st.enc)
		case kindDone:
			f.buf = append(f.buf, doneFrame...)
			f.counted()
			doneSent = true
		case kindBatch:
			f.every = max(st.n, 1)
		case kindDelay:
			if f.flush(); f.err != nil {
				return
			}
			if why := s.wait(ctx, st.d); why != waitElapsed {
				abandon(w, why)
				return
			}
		case kindStall:
			f.flush()
			abandon(w, s.wait(ctx, -1))
			return
		case kindCut:
			f.flush()
			cut(w)
			return
		}
		if f.err != nil {
			return // the client went away
		}
	}
	if !doneSent {
		f.buf = append(f.buf, doneFrame...)
	}
	f.flush()
}

// completion is a non-streaming chat.completion object.
type completion struct {
	ID                string             `json:"id"`
	Object            string             `json:"object"`
	Created           int64              `json:"created"`
	Model             string             `json:"model"`
	Choices           []completionChoice `json:"choices"`
	Usage             completionUsage    `json:"usage"`
	SystemFingerprint string             `json:"system_fingerprint"`
}

type completionChoice struct {
	Index        int               `json:"index"`
	Message      completionMessage `json:"message"`
	Logprobs     *struct{}         `json:"logprobs"`
	FinishReason string            `json:"finish_reason"`
}

type completionMessage struct {
	Role             string               `json:"role"`
	Content          *string              `json:"content"`
	Refusal          *string              `json:"refusal"`
	ReasoningContent string               `json:"reasoning_content,omitempty"`
	Reasoning        string               `json:"reasoning,omitempty"`
	ToolCalls        []completionToolCall `json:"tool_calls,omitempty"`
}

type completionToolCall struct {
	ID       string `json:"id"`
	Type     string `json:"type"`
	Function struct {
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
	} `json:"function"`
	index int
}

type completionUsage struct {
	PromptTokens     int `json:"prompt_tokens"`
	CompletionTokens int `json:"completion_tokens"`
	TotalTokens      int `json:"total_tokens"`
}

// complete plays steps as one chat.completion object: deltas are
// concatenated, delays are honoured, Stall and Cut behave as in a stream.
func (s *Server) complete(ctx context.Context, w http.ResponseWriter, req Request, steps []Step) {
	var content, reasoningContent, reasoning strings.Builder
	var calls []*completionToolCall
	callAt := func(index int) *completionToolCall {
		for _, c := range calls {
			if c.index == index {
				return c
			}
		}
		c := &completionToolCall{Type: "function", index: index}
		calls = append(calls, c)
		return c
	}
	finish := ""
	var usage *completionUsage
	chunks := 0
	for _, st := range steps {
		switch st.kind {
		case kindChunk:
			n := max(st.n, 1)
			chunks += n
			text := strings.Repeat(st.text, n)
			switch st.delta {
			case deltaContent:
				content.WriteString(text)
			case deltaReasoningContent:
				reasoningContent.WriteString(text)
			case deltaReasoning:
				reasoning.WriteString(text)
			case deltaToolCall:
				c := callAt(st.index)
				c.ID, c.Function.Name = st.id, st.name
				c.Function.Arguments += text
			case deltaToolArgs:
				c := callAt(st.index)
				c.Function.Arguments += text
			}
		case kindFinish:
			finish = st.text
		case kindUsage:
			usage = &completionUsage{PromptTokens: st.n, CompletionTokens: st.m, TotalTokens: st.n + st.m}
		case kindDelay:
			if why := s.wait(ctx, st.d); why != waitElapsed {
				abandon(w, why)
				return
			}
		case kindStall:
			abandon(w, s.wait(ctx, -1))
			return
		case kindCut:
			cut(w)
			return
		}
	}
	slices.SortStableFunc(calls, func(a, b *completionToolCall) int { return a.index - b.index })
	msg := completionMessage{
		Role:             "assistant",
		ReasoningContent: reasoningContent.String(),
		Reasoning:        reasoning.String(),
	}
	if content.Len() > 0 || len(calls) == 0 {
		c := content.String()
		msg.Content = &c
	}
	for _, c := range calls {
		msg.ToolCalls = append(msg.ToolCalls, *c)
	}
	if finish == "" {
		finish = "stop"
		if len(calls) > 0 {
			finish = "tool_calls"
		}
	}
	if usage == nil {
		usage = &completionUsage{PromptTokens: estimatePromptTokens(req), CompletionTokens: chunks}
		usage.TotalTokens = usage.PromptTokens + usage.CompletionTokens
	}
	out := completion{
		ID:                newCompletionID(),
		Object:            "chat.completion",
		Created:           time.Now().Unix(),
		Model:             modelName(req),
		Choices:           []completionChoice{{Message: msg, FinishReason: finish}},
		Usage:             *usage,
		SystemFingerprint: "fp_fakellm",
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(out); err != nil {
		writeJSON(w, http.StatusInternalServerError, errorBody("fakellm: "+err.Error(), "server_error"))
		return
	}
	writeJSON(w, http.StatusOK, b.String())
}

// estimatePromptTokens guesses a prompt size at four bytes per token.
func estimatePromptTokens(req Request) int {
	n := 0
	for _, m := range req.Messages {
		n += len(m.Content) + len(m.ReasoningContent) + 4
		for _, tc := range m.ToolCalls {
			n += len(tc.Name) + len(tc.Arguments)
		}
	}
	return n/4 + 1
}

// describeLast summarises the last message of req for the request log.
func describeLast(req Request) string {
	m := req.LastMessage()
	text := strings.Join(strings.Fields(m.Content), " ")
	if r := []rune(text); len(r) > 60 {
		text = string(r[:60]) + "…"
	}
	if m.Role == "" {
		return "none"
	}
	return m.Role + " " + strconv.Quote(text)
}
