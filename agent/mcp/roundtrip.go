package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/juncture-app/juncture/agent/tools"
)

// Multi round-trip requests (MCP 2026-07-28, SEP-2322). A server that
// needs the person answers the call itself with input_required, its
// inputRequests and an opaque requestState; nothing stays open. Juncture
// owns the retry loop (the SDK's automatic middleware is off):
//
//   - a call answered input_required returns tools.Result.Input: the
//     runtime stores the questions as interrupts bound to the call with
//     the round's state, and the run ends;
//   - the continuation retries the same call with tools.Retry in its
//     context: the answers become inputResponses (an elicitation's
//     accept, decline or cancel as they are; an approved sampling
//     request is answered by the app's model then), and the stored
//     requestState is echoed;
//   - roots/list requests need nobody: they are answered and the call
//     retried at once, at most maxAutoRounds times in a row.
//
// Older servers (2025-11-25 and before) send requests during the call
// instead; see prompts.go.

// mrtrVersion is the first protocol version with multi round-trip
// requests.
const mrtrVersion = "2026-07-28"

// Budgets of a round, decided before reading it: a server's requestState
// is stored with the thread and its questions become cards.
const (
	maxRequestState = 256 << 10 // bytes of requestState
	maxInputs       = 8         // input requests in one round
	maxAutoRounds   = 10        // retries in a row that needed nobody (roots only)
)

// roundState is tools.NeedsInput.State of an MCP call: what the retry
// echoes and what it answers.
type roundState struct {
	RequestState  string          `json:"requestState,omitempty"`
	InputRequests json.RawMessage `json:"inputRequests"`
}

// sendRound sends one round of a call: the typed call (supervisor.callTool)
// or, for a server that declares tasks, the raw one (callTask).
type sendRound func(ctx context.Context, params *sdk.CallToolParams) (*sdk.CallToolResult, error)

// callRounds sends the call with send and runs the rounds that need
// nobody; a round that needs the person is returned as the result's
// Input.
func (m *Manager) callRounds(ctx context.Context, s *supervisor, params *sdk.CallToolParams, send sendRound) (*sdk.CallToolResult, *tools.NeedsInput, error) {
	if r, ok := tools.RetryOf(ctx); ok {
		if err := m.applyRetry(ctx, s, params, r); err != nil {
			return nil, nil, err
		}
	}
	for round := 0; ; round++ {
		res, err := send(ctx, params)
		if err != nil || !res.NeedsInput() {
			return res, nil, err
		}
		input, auto, err := m.readRound(s, res)
		if err != nil || input != nil {
			return nil, input, err
		}
		if round+1 >= maxAutoRounds {
			return nil, nil, autoRoundsError()
		}
		next := *params
		next.InputResponses, next.RequestState = auto, res.RequestState
		params = &next
	}
}

// readRound reads an input_required result within the round's budgets:
// the questions for the person (input), or, when every request needs
// nobody (roots), the answers to retry with at once (auto).
func (m *Manager) readRound(s *supervisor, res *sdk.CallToolResult) (*tools.NeedsInput, sdk.InputResponseMap, error) {
	if len(res.RequestState) > maxRequestState {
		return nil, nil, roundError(fmt.Sprintf("its requestState is %s, over Juncture's limit of %s", humanSize(len(res.RequestState)), humanSize(maxRequestState)))
	}
	if len(res.InputRequests) > maxInputs {
		return nil, nil, roundError(fmt.Sprintf("it asked %d things at once, over Juncture's limit of %d", len(res.InputRequests), maxInputs))
	}
	if len(res.InputRequests) == 0 {
		return nil, nil, roundError("it asked for input without saying what")
	}
	prompts, auto, err := m.roundPrompts(s, res.InputRequests)
	if err != nil {
		return nil, nil, err
	}
	if len(prompts) == 0 {
		return nil, auto, nil
	}
	raw, err := json.Marshal(res.InputRequests)
	if err != nil {
		return nil, nil, roundError("its input requests could not be read: " + err.Error())
	}
	state, _ := json.Marshal(roundState{RequestState: res.RequestState, InputRequests: raw})
	return &tools.NeedsInput{Prompts: prompts, State: state}, nil, nil
}

func autoRoundsError() error {
	return roundError(fmt.Sprintf("it asked for the roots %d times in a row", maxAutoRounds))
}

// inputResult is the result of a call whose server asked for input: the
// runtime stores the questions and the run ends.
func inputResult(server string, input *tools.NeedsInput) tools.Result {
	return tools.Result{IsError: true, Input: input,
		Content: fmt.Sprintf("The MCP server %q asked for input; the call was not finished.", server)}
}

// errRound marks a round Juncture refused; its text is the result.
type errRound struct{ msg string }

func (e *errRound) Error() string { return e.msg }

func roundError(why string) error { return &errRound{msg: why} }

// roundPrompts turns a round's input requests into what to ask the
// person; requests that need nobody (roots) are answered in auto.
func (m *Manager) roundPrompts(s *supervisor, reqs sdk.InputRequestMap) (map[string]tools.Prompt, sdk.InputResponseMap, error) {
	prompts := map[string]tools.Prompt{}
	auto := sdk.InputResponseMap{}
	for key, ir := range reqs {
		switch p := ir.(type) {
		case *sdk.ListRootsParams:
			auto[key] = &sdk.ListRootsResult{Roots: m.rootURIs()}
		case *sdk.ElicitParams:
			pr, err := elicitPrompt(s.title(), p)
			if err != nil {
				return nil, nil, roundError(err.Error())
			}
			prompts[key] = pr
		case *sdk.CreateMessageWithToolsParams:
			if m.o.Sampler == nil {
				return nil, nil, roundError("it asked to use the model (sampling), which Juncture does not offer here")
			}
			prompts[key] = samplingPrompt(s.title(), p.SystemPrompt, p.MaxTokens, p.ModelPreferences, roundMessages(p))
		default:
			return nil, nil, roundError(fmt.Sprintf("it asked for %T, which Juncture cannot answer", ir))
		}
	}
	return prompts, auto, nil
}

// applyRetry sets the retry's inputResponses and requestState: each
// stored request gets the person's reply (or, for roots, the roots).
func (m *Manager) applyRetry(ctx context.Context, s *supervisor, params *sdk.CallToolParams, r tools.Retry) error {
	var st roundState
	if err := json.Unmarshal(r.State, &st); err != nil {
		return roundError("the stored state of the call could not be read: " + err.Error())
	}
	var reqs sdk.InputRequestMap
	if err := json.Unmarshal(st.InputRequests, &reqs); err != nil {
		return roundError("the stored questions of the call could not be read: " + err.Error())
	}
	keys := make([]string, 0, len(reqs))
	for k := range reqs {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	out := sdk.InputResponseMap{}
	for _, key := range keys {
		reply, answered := r.Replies[key]
		if !answered {
			reply = tools.Reply{Action: tools.ReplyCancel}
		}
		switch p := reqs[key].(type) {
		case *sdk.ListRootsParams:
			out[key] = &sdk.ListRootsResult{Roots: m.rootURIs()}
		case *sdk.ElicitParams:
			res, err := elicitResponse(reply)
			if err != nil {
				return err
			}
			out[key] = res
		case *sdk.CreateMessageWithToolsParams:
			res, err := m.sampleResponse(ctx, s, p, reply)
			if err != nil {
				return err
			}
			out[key] = res
		default:
			return roundError(fmt.Sprintf("the stored question %q is a %T, which Juncture cannot answer", key, p))
		}
	}
	params.InputResponses, params.RequestState = out, st.RequestState
	return nil
}

// elicitPrompt is the card of an elicitation request (a form, or a page
// to open).
func elicitPrompt(source string, p *sdk.ElicitParams) (tools.Prompt, error) {
	prompt := tools.Prompt{Kind: tools.PromptQuestion, Source: source, Message: p.Message}
	if p.Mode == "url" || (p.Mode == "" && p.URL != "") {
		prompt.Kind, prompt.URL = tools.PromptURL, p.URL
		return prompt, nil
	}
	if p.RequestedSchema != nil {
		raw, err := json.Marshal(p.RequestedSchema)
		if err != nil {
			return prompt, fmt.Errorf("reading the requested schema: %w", err)
		}
		prompt.Schema = raw
	}
	return prompt, nil
}

// elicitResponse is the person's reply as MCP's elicitation result:
// accept with the form's content, decline, or cancel (dismissed).
func elicitResponse(reply tools.Reply) (*sdk.ElicitResult, error) {
	switch reply.Action {
	case tools.ReplyAccept:
		res := &sdk.ElicitResult{Action: tools.ReplyAccept}
		if len(reply.Content) > 0 && string(reply.Content) != "null" {
			if err := json.Unmarshal(reply.Content, &res.Content); err != nil {
				return &sdk.ElicitResult{Action: tools.ReplyCancel}, nil
			}
		}
		return res, nil
	case tools.ReplyDecline:
		return &sdk.ElicitResult{Action: tools.ReplyDecline}, nil
	}
	return &sdk.ElicitResult{Action: tools.ReplyCancel}, nil
}

// samplingPrompt is the card of a sampling request, whichever way it
// came (a request during the call, prompts.go, or a round's input
// request).
//
//nolint:staticcheck // SA1019: sampling is deprecated as of 2026-07-28 (SEP-2577) but inside its deprecation window, and servers still ask this way.
func samplingPrompt(title, system string, maxTokens int64, prefs *sdk.ModelPreferences, msgs []SampleMessage) tools.Prompt {
	shown := make([]map[string]string, 0, len(msgs))
	for _, msg := range msgs {
		shown = append(shown, map[string]string{"role": msg.Role, "text": msg.Text})
	}
	details := map[string]any{"messages": shown, "maxTokens": maxTokens, "systemPrompt": system}
	if prefs != nil && len(prefs.Hints) > 0 && prefs.Hints[0] != nil && prefs.Hints[0].Name != "" {
		details["model"] = prefs.Hints[0].Name
	}
	return tools.Prompt{Kind: tools.PromptSampling, Source: title, Message: title + " wants to ask the model", Details: details}
}

// roundMessages are a round's sampling messages as the app's model reads
// them.
func roundMessages(p *sdk.CreateMessageWithToolsParams) []SampleMessage {
	var out []SampleMessage
	for _, msg := range p.Messages {
		out = append(out, SampleMessage{Role: string(msg.Role), Text: samplingTexts(msg.Content)})
	}
	return out
}

func samplingTexts(cs []sdk.Content) string {
	parts := make([]string, 0, len(cs))
	for _, c := range cs {
		parts = append(parts, samplingText(c))
	}
	return strings.Join(parts, "\n")
}

// errSamplingDeclined ends a call whose sampling request the person
// declined: the protocol has no refusal to send back in a retry, so the
// call is not retried.
var errSamplingDeclined = errors.New("declined")

// sampleResponse answers an approved sampling request with the app's
// model.
func (m *Manager) sampleResponse(ctx context.Context, s *supervisor, p *sdk.CreateMessageWithToolsParams, reply tools.Reply) (*sdk.CreateMessageWithToolsResult, error) {
	if reply.Action != tools.ReplyAccept {
		msg := "the person declined the server's request to use the model, so the call was not retried"
		if r := strings.TrimSpace(reply.Reason); r != "" {
			msg += " (their reason: " + r + ")"
		}
		return nil, fmt.Errorf("%w: %s", errSamplingDeclined, msg)
	}
	if m.o.Sampler == nil {
		return nil, roundError("sampling is not offered here")
	}
	// The call's thread: its endpoint and model answer, never the default one.
	sr := SampleRequest{Server: s.name, ThreadID: tools.CallThread(ctx), System: p.SystemPrompt, MaxTokens: int(p.MaxTokens), Messages: roundMessages(p)}
	out, err := m.o.Sampler(ctx, sr)
	if err != nil {
		return nil, roundError("the model could not answer the server's sampling request: " + shorten(err.Error(), 300))
	}
	s.log.Note(notePrefix + "answered a sampling request with " + orDefault(out.Model, "the model"))
	return &sdk.CreateMessageWithToolsResult{Role: "assistant", Content: []sdk.Content{&sdk.TextContent{Text: out.Text}}, Model: out.Model, StopReason: out.StopReason}, nil
}

// roundResult is the result of a call whose round Juncture could not go
// on with.
func roundResult(server string, err error) (tools.Result, bool) {
	if errors.Is(err, errSamplingDeclined) {
		return tools.Result{IsError: true, Content: fmt.Sprintf("The MCP server %q could not go on: %s.", server, strings.TrimPrefix(err.Error(), errSamplingDeclined.Error()+": "))}, true
	}
	var re *errRound
	if errors.As(err, &re) {
		return tools.Result{IsError: true, Content: fmt.Sprintf("The MCP server %q asked for input Juncture refused: %s.", server, re.msg)}, true
	}
	return tools.Result{}, false
}
