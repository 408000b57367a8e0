package openai

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"iter"
	"net/http"
	"os"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/packages/pagination"
	"github.com/openai/openai-go/v3/packages/ssestream"
	"github.com/openai/openai-go/v3/shared"

	"github.com/juncture-app/juncture/agent/history"
	"github.com/juncture-app/juncture/agent/model"
)

// Config says which endpoint and model to use.
type Config struct {
	BaseURL string // e.g. http://127.0.0.1:11434/v1
	APIKey  string // may be empty for local servers
	Model   string
	// HTTPClient is optional; the default has no overall timeout (streams
	// are long) but a dial timeout, so "connection refused" is quick.
	HTTPClient *http.Client
}

// Client calls one endpoint.
//
// It holds openai-go's client only through the method values in api, not
// as a field of type openai.Client: a *Client is kept in an interface
// (agent.Model), and the Go linker keeps every exported method of every
// type reachable from a type used in an interface once anything in the
// program calls reflect's Method (Wails' bindings and godbus do). Reaching
// openai.Client's ~70 services that way kept ~5 MB of methods in the
// desktop binary; a func value's type does not lead to what it captured.
type Client struct {
	api    api
	model  string
	decode func([]byte) (model.Delta, *model.EndpointError, error) // nil: scanChunk; benchmarks swap in others
}

// New returns a client for cfg.
func New(cfg Config) *Client {
	hc := cfg.HTTPClient
	if hc == nil {
		hc = model.DefaultHTTPClient()
	}
	key := cfg.APIKey
	if key == "" {
		key = "none" // local servers ignore it; openai-go insists on one
	}
	opts := append(withoutEnvironmentHeaders(),
		option.WithBaseURL(strings.TrimRight(cfg.BaseURL, "/")+"/"),
		option.WithAPIKey(key),
		option.WithMaxRetries(0),
		option.WithHTTPClient(hc),
		option.WithMiddleware(capBodies(0)),
	)
	oa := openai.NewClient(opts...)
	return &Client{api: api{post: oa.Post, chat: oa.Chat.Completions.New, stream: oa.Chat.Completions.NewStreaming, models: oa.Models.List}, model: cfg.Model}
}

// api is the part of openai-go's client that Client calls (see Client).
type api struct {
	post   func(ctx context.Context, path string, params, res any, opts ...option.RequestOption) error
	chat   func(ctx context.Context, body openai.ChatCompletionNewParams, opts ...option.RequestOption) (*openai.ChatCompletion, error)
	stream func(ctx context.Context, body openai.ChatCompletionNewParams, opts ...option.RequestOption) *ssestream.Stream[openai.ChatCompletionChunk] // the "openai" decoding benchmark
	models func(ctx context.Context, opts ...option.RequestOption) (*pagination.Page[openai.Model], error)
}

// withoutEnvironmentHeaders undoes the headers openai.NewClient takes from
// the process environment (OPENAI_ORG_ID, OPENAI_PROJECT_ID and every line
// of OPENAI_CUSTOM_HEADERS) and would send to whatever endpoint a client
// talks to: a request carries only what its endpoint was saved with.
func withoutEnvironmentHeaders() []option.RequestOption {
	opts := []option.RequestOption{option.WithHeaderDel("OpenAI-Organization"), option.WithHeaderDel("OpenAI-Project")}
	for _, line := range strings.Split(os.Getenv("OPENAI_CUSTOM_HEADERS"), "\n") {
		if name, _, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(name) != "" {
			opts = append(opts, option.WithHeaderDel(strings.TrimSpace(name)))
		}
	}
	return opts
}

// Model is the model name this client asks for.
func (c *Client) Model() string { return c.model }

// Stream starts a streaming call. The returned stream must be closed.
func (c *Client) Stream(ctx context.Context, req model.Request) *Stream {
	params := c.params(req)
	params.StreamOptions = openai.ChatCompletionStreamOptionsParam{IncludeUsage: openai.Bool(true)}
	var resp *http.Response
	err := c.api.post(ctx, "chat/completions", params, &resp, option.WithJSONSet("stream", true))
	if err != nil {
		return &Stream{err: Classify(err)}
	}
	return &Stream{ctx: ctx, resp: resp, sse: newSSEReader(resp), decode: c.decode}
}

// Deltas streams one chat completion: ranging over the sequence makes the
// call (ranging again makes another) and yields each non-empty Delta with a
// nil error. If the call fails, the last element is (Delta{}, err), err
// being what [Stream.Err] reports: ctx's error when ctx was cancelled, else
// an *EndpointError. Breaking out of the loop, or cancelling ctx, closes the
// response body before the range statement ends. See the package doc for
// what the sequence guarantees.
func (c *Client) Deltas(ctx context.Context, req model.Request) iter.Seq2[model.Delta, error] {
	return func(yield func(model.Delta, error) bool) {
		s := c.Stream(ctx, req)
		defer s.Close()
		for s.Next() {
			if !yield(s.cur, nil) {
				return
			}
		}
		if err := s.Err(); err != nil {
			yield(model.Delta{}, err)
		}
	}
}

// Complete makes a non-streaming call and returns the answer text (used for
// thread titles).
func (c *Client) Complete(ctx context.Context, req model.Request) (string, error) {
	resp, err := c.api.chat(ctx, c.params(req), option.WithMiddleware(capBodies(maxReplyBody)))
	if err != nil {
		return "", Classify(err)
	}
	if len(resp.Choices) == 0 {
		return "", &model.EndpointError{Message: "the endpoint returned no choices"}
	}
	return resp.Choices[0].Message.Content, nil
}

// Models lists the endpoint's models.
func (c *Client) Models(ctx context.Context) ([]string, error) {
	page, err := c.api.models(ctx, option.WithMiddleware(capBodies(maxReplyBody)))
	if err != nil {
		return nil, Classify(err)
	}
	var ids []string
	for _, m := range page.Data {
		if len(ids) == maxModels {
			break
		}
		if plainModelID(m.ID) {
			ids = append(ids, m.ID)
		}
	}
	return ids, nil
}

// plainModelID reports whether an endpoint's model name is one to offer:
// 1 to maxModelID bytes of valid UTF-8 without control or format
// (bidi) characters.
func plainModelID(id string) bool {
	if id == "" || len(id) > maxModelID || !utf8.ValidString(id) {
		return false
	}
	for _, r := range id {
		if unicode.IsControl(r) || unicode.Is(unicode.Cf, r) {
			return false
		}
	}
	return true
}

func (c *Client) params(req model.Request) openai.ChatCompletionNewParams {
	msgs := make([]openai.ChatCompletionMessageParamUnion, 0, len(req.Messages)+1)
	if req.System != "" {
		msgs = append(msgs, openai.SystemMessage(req.System))
	}
	for _, m := range req.Messages {
		msgs = append(msgs, toParam(m))
	}
	p := openai.ChatCompletionNewParams{Model: shared.ChatModel(c.model), Messages: msgs}
	if req.MaxTokens > 0 {
		p.MaxTokens = openai.Int(int64(req.MaxTokens))
	}
	for _, t := range req.Tools {
		var params shared.FunctionParameters
		if len(t.Parameters) > 0 {
			_ = json.Unmarshal(t.Parameters, &params)
		}
		p.Tools = append(p.Tools, openai.ChatCompletionFunctionTool(shared.FunctionDefinitionParam{
			Name:        t.Name,
			Description: openai.String(t.Description),
			Parameters:  params,
		}))
	}
	return p
}

func toParam(m history.Message) openai.ChatCompletionMessageParamUnion {
	switch m.Role {
	case history.RoleSystem:
		return openai.SystemMessage(m.Content)
	case history.RoleTool:
		return openai.ToolMessage(m.Content, m.ToolCallID)
	case history.RoleAssistant:
		a := openai.ChatCompletionAssistantMessageParam{}
		if m.Content != "" {
			a.Content.OfString = openai.String(m.Content)
		}
		for _, tc := range m.ToolCalls {
			a.ToolCalls = append(a.ToolCalls, openai.ChatCompletionMessageToolCallUnionParam{
				OfFunction: &openai.ChatCompletionMessageFunctionToolCallParam{
					ID:       tc.ID,
					Function: openai.ChatCompletionMessageFunctionToolCallFunctionParam{Name: tc.Name, Arguments: tc.Arguments},
				},
			})
		}
		return openai.ChatCompletionMessageParamUnion{OfAssistant: &a}
	default:
		if len(m.Parts) > 0 {
			return userWithImages(m)
		}
		return openai.UserMessage(m.Content)
	}
}

// userWithImages is a user message whose image parts travel as image_url
// content parts (data URLs), after its text; text parts (attached files)
// travel as text content parts.
func userWithImages(m history.Message) openai.ChatCompletionMessageParamUnion {
	parts := []openai.ChatCompletionContentPartUnionParam{}
	if m.Content != "" {
		parts = append(parts, openai.TextContentPart(m.Content))
	}
	for _, p := range m.Parts {
		switch {
		case p.Data == "":
		case p.Kind == history.PartImage:
			parts = append(parts, openai.ImageContentPart(openai.ChatCompletionContentPartImageImageURLParam{
				URL: "data:" + p.MimeType + ";base64," + p.Data,
			}))
		case p.Kind == history.PartText:
			parts = append(parts, openai.TextContentPart(p.Data))
		}
	}
	if len(parts) == 0 {
		return openai.UserMessage(m.Content)
	}
	return openai.UserMessage(parts)
}

// Stream yields deltas of one streaming call. [Client.Deltas] is the same
// stream as an iterator.
type Stream struct {
	ctx      context.Context // nil in tests that build a Stream by hand
	resp     *http.Response
	sse      *sseReader
	decode   func([]byte) (model.Delta, *model.EndpointError, error) // nil: scanChunk; benchmarks swap in others
	cur      model.Delta
	err      error
	finished bool
	done     bool
}

// Next advances to the next non-empty delta. Once ctx is cancelled it
// returns false, even while chunks are still buffered.
func (s *Stream) Next() bool {
	if s.err != nil || s.done {
		return false
	}
	decode := s.decode
	if decode == nil {
		decode = scanChunk
	}
	for {
		if s.ctx != nil && s.ctx.Err() != nil {
			s.err = s.ctx.Err()
			return false
		}
		data, err := s.sse.next()
		if err != nil {
			s.done = true
			switch {
			case errors.Is(err, errDone):
			case s.ctx != nil && s.ctx.Err() != nil:
				s.err = s.ctx.Err() // the read failed because the caller cancelled
			case !errors.Is(err, io.EOF):
				s.err = Classify(err)
			}
			return false
		}
		d, endpointErr, err := decode(data)
		if err != nil {
			s.err = &model.EndpointError{Message: "the endpoint sent a malformed chunk: " + err.Error()}
			return false
		}
		if endpointErr != nil {
			s.err = endpointErr
			return false
		}
		if d.FinishReason != "" {
			s.finished = true
		}
		if d.Empty() {
			continue
		}
		s.cur = d
		return true
	}
}

// Current is the delta Next moved to.
func (s *Stream) Current() model.Delta { return s.cur }

// Err reports why the stream ended early: an *EndpointError, or the context's
// error when the caller cancelled. A stream that ends without a finish reason
// is reported as cut. It is the error element of [Client.Deltas].
func (s *Stream) Err() error {
	if s.err != nil {
		return s.err
	}
	if !s.finished {
		return &model.EndpointError{Message: "the endpoint closed the stream before the answer was complete", Retryable: true, Cut: true}
	}
	return nil
}

// Close releases the connection.
func (s *Stream) Close() error {
	if s.resp == nil {
		return nil
	}
	return s.resp.Body.Close()
}

// Classify maps an openai-go / network error to an *EndpointError. Context
// cancellation is returned unchanged so callers can tell Stop from failure.
func Classify(err error) error {
	if err == nil {
		return nil
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	var ee *model.EndpointError
	if errors.As(err, &ee) {
		return ee
	}
	var apiErr *openai.Error
	if errors.As(err, &apiErr) {
		msg := apiErr.Message
		if msg == "" {
			msg = strings.TrimSpace(apiErr.RawJSON())
		}
		if msg == "" {
			msg = http.StatusText(apiErr.StatusCode)
		}
		out := &model.EndpointError{Status: apiErr.StatusCode, Message: clip(msg, maxErrorMessage)}
		switch {
		case apiErr.StatusCode == http.StatusTooManyRequests:
			out.Retryable = true
		case apiErr.StatusCode >= 500:
			out.Retryable = true
		}
		if apiErr.Response != nil {
			out.RetryAfter = parseRetryAfter(apiErr.Response.Header.Get("Retry-After"))
		}
		return out
	}
	msg := err.Error()
	if strings.Contains(msg, "connection refused") {
		return &model.EndpointError{Message: "cannot reach the endpoint (connection refused): " + msg, Retryable: true}
	}
	return &model.EndpointError{Message: clip(msg, maxErrorMessage), Retryable: true, Cut: true}
}

// clip cuts s to at most n bytes on a rune boundary, marking the cut.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	i := n
	for i > 0 && !utf8.RuneStart(s[i]) {
		i--
	}
	return s[:i] + "…"
}

func parseRetryAfter(v string) time.Duration {
	if v == "" {
		return 0
	}
	var secs float64
	if _, err := fmt.Sscanf(v, "%g", &secs); err == nil && secs >= 0 {
		return time.Duration(secs * float64(time.Second))
	}
	if t, err := http.ParseTime(v); err == nil {
		if d := time.Until(t); d > 0 {
			return d
		}
	}
	return 0
}
