//nolint:staticcheck // SA1019: roots and sampling are deprecated as of protocol 2026-07-28 (SEP-2577) but still in it; exercising a client's support of them is this file's purpose.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The elicit, sample and roots tools need an answer from the client, got in
// one of two ways depending on the session's protocol version:
//
//   - 2026-07-28 and later forbid server-to-client requests: the first call
//     returns inputRequests (a multi round-trip, SEP-2322) and the client's
//     retry of the call carries the answer. A client that refuses fails its
//     own retry loop; the server never hears of it.
//   - Older versions get a server-to-client request during the call
//     (elicitation/create, sampling/createMessage, roots/list); a refusal
//     (an error response) reaches the tool, which returns the error's text
//     as an isError result.

// askID is the key of the one input request each of these tools makes.
const askID = "edge"

func multiRoundTrip(ss *mcp.ServerSession) bool {
	p := ss.InitializeParams()
	return p != nil && p.ProtocolVersion >= "2026-07-28"
}

// ask returns the client's answer to ir, or a pending result to return as
// is when the answer is to come with the client's retry.
func ask[R mcp.InputResponse](req *mcp.CallToolRequest, ir mcp.InputRequest, direct func() (R, error)) (answer R, pending *mcp.CallToolResult, err error) {
	if !multiRoundTrip(req.Session) {
		answer, err = direct()
		return answer, nil, err
	}
	logRound(req)
	got, ok := req.Params.InputResponses[askID]
	if !ok {
		// The state a real server would sign: what was asked, so any
		// process of this server can go on with the retry.
		return answer, &mcp.CallToolResult{InputRequests: mcp.InputRequestMap{askID: ir}, RequestState: roundState(req.Params.Name)}, nil
	}
	if req.Params.RequestState != roundState(req.Params.Name) {
		return answer, nil, fmt.Errorf("the retry's requestState %q is not the one this server gave", req.Params.RequestState)
	}
	if answer, ok = got.(R); !ok {
		return answer, nil, fmt.Errorf("input response %q is a %T, want a %T", askID, got, answer)
	}
	return answer, nil, nil
}

// roundState is the requestState of a tool's input_required result.
func roundState(tool string) string { return "edge-v1:" + tool }

// logRound appends "<tool> state=<requestState> responses=<n>" to the
// file $EDGE_CALL_LOG, when set: tests count a call's rounds by it.
func logRound(req *mcp.CallToolRequest) {
	path := os.Getenv("EDGE_CALL_LOG")
	if path == "" {
		return
	}
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
	if err != nil {
		return
	}
	defer f.Close()
	fmt.Fprintf(f, "%s state=%s responses=%d\n", req.Params.Name, req.Params.RequestState, len(req.Params.InputResponses))
}

// personSchema is the elicit tool's requestedSchema.
var personSchema = map[string]any{
	"type": "object",
	"properties": map[string]any{
		"name": map[string]any{"type": "string", "title": "Name", "description": "your name"},
		"age":  map[string]any{"type": "integer", "title": "Age", "description": "your age in years"},
	},
	"required": []string{"name"},
}

// elicit returns "action=<action> content=<content as JSON>", e.g.
// `action=accept content={"age":30,"name":"Ada"}` or
// `action=decline content=null`.
func elicit(ctx context.Context, req *mcp.CallToolRequest, in elicitIn) (*mcp.CallToolResult, any, error) {
	msg := in.Message
	if msg == "" {
		msg = "Who are you?"
	}
	p := &mcp.ElicitParams{Mode: "form", Message: msg, RequestedSchema: personSchema}
	res, pending, err := ask(req, p, func() (*mcp.ElicitResult, error) { return req.Session.Elicit(ctx, p) })
	if pending != nil || err != nil {
		return pending, nil, err
	}
	content, err := json.Marshal(res.Content) // keys sorted; no content: null
	if err != nil {
		return nil, nil, err
	}
	return text(fmt.Sprintf("action=%s content=%s", res.Action, content)), nil, nil
}

// sample returns "sampled: <the reply's text blocks, joined>".
func sample(ctx context.Context, req *mcp.CallToolRequest, in sampleIn) (*mcp.CallToolResult, any, error) {
	maxTokens := in.MaxTokens
	if maxTokens <= 0 {
		maxTokens = 100
	}
	p := &mcp.CreateMessageWithToolsParams{
		MaxTokens: maxTokens,
		Messages:  []*mcp.SamplingMessageV2{{Role: "user", Content: []mcp.Content{&mcp.TextContent{Text: in.Prompt}}}},
	}
	res, pending, err := ask(req, p, func() (*mcp.CreateMessageWithToolsResult, error) {
		return req.Session.CreateMessageWithTools(ctx, p)
	})
	if pending != nil || err != nil {
		return pending, nil, err
	}
	var reply strings.Builder
	for _, c := range res.Content {
		if t, ok := c.(*mcp.TextContent); ok {
			reply.WriteString(t.Text)
		}
	}
	return text("sampled: " + reply.String()), nil, nil
}

// roots returns the client's root URIs, one per line (no roots: "").
func roots(ctx context.Context, req *mcp.CallToolRequest, _ none) (*mcp.CallToolResult, any, error) {
	p := &mcp.ListRootsParams{}
	res, pending, err := ask(req, p, func() (*mcp.ListRootsResult, error) { return req.Session.ListRoots(ctx, p) })
	if pending != nil || err != nil {
		return pending, nil, err
	}
	uris := make([]string, 0, len(res.Roots))
	for _, r := range res.Roots {
		uris = append(uris, r.URI)
	}
	return text(strings.Join(uris, "\n")), nil, nil
}
