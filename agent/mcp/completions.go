package mcp

import (
	"context"
	"fmt"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// Completions (completion/complete) for the argument forms of prompts and
// resource templates. A server's suggestions are capped at the
// protocol's 100 values, each at maxCompletionText; Cut says when the
// server sent more than is shown.

const (
	// maxCompletionValues is the protocol's cap on one answer.
	maxCompletionValues = 100
	// maxCompletionText caps one suggested value.
	maxCompletionText = 1 << 10
)

// CompleteRef names what is being completed: a prompt (Type "prompt",
// Name) or a resource template (Type "resource", URI the template).
type CompleteRef struct {
	Type string `json:"type"` // "prompt" | "resource"
	Name string `json:"name,omitempty"`
	URI  string `json:"uri,omitempty"`
}

// Completion is a server's suggestions for one argument.
type Completion struct {
	Values  []string `json:"values"`
	Total   int      `json:"total,omitempty"` // as the server says (0: not said)
	HasMore bool     `json:"hasMore"`
	// Cut: Juncture left values out (over 100, or too long).
	Cut bool `json:"cut"`
}

// Complete asks a server for suggestions for argument arg whose value so
// far is value; known holds the other arguments already filled in.
func (m *Manager) Complete(ctx context.Context, server string, ref CompleteRef, arg, value string, known map[string]string) (Completion, error) {
	s, sess, err := m.readySession(server)
	if err != nil {
		return Completion{}, err
	}
	if sess.capabilities().Completions == nil {
		return Completion{}, fmt.Errorf("%w: %s offers no completions", ErrNotOffered, server)
	}
	var r *sdk.CompleteReference
	switch ref.Type {
	case "prompt":
		r = &sdk.CompleteReference{Type: "ref/prompt", Name: ref.Name}
	case "resource":
		r = &sdk.CompleteReference{Type: "ref/resource", URI: ref.URI}
	default:
		return Completion{}, fmt.Errorf("mcp: a completion is for a prompt or a resource, not %q", ref.Type)
	}
	p := &sdk.CompleteParams{Ref: r, Argument: sdk.CompleteParamsArgument{Name: arg, Value: value}}
	if len(known) > 0 {
		p.Context = &sdk.CompleteContext{Arguments: known}
	}
	ctx, cancel := withOfferTimeout(ctx)
	defer cancel()
	res, err := sess.cs.Complete(ctx, p)
	if err != nil {
		return Completion{}, requestError("asking for completions", s.name, err)
	}
	return capCompletion(res.Completion), nil
}

func capCompletion(c sdk.CompletionResultDetails) Completion {
	out := Completion{Values: make([]string, 0, min(len(c.Values), maxCompletionValues)), Total: max(c.Total, 0), HasMore: c.HasMore}
	for _, v := range c.Values {
		if len(out.Values) == maxCompletionValues {
			out.Cut = true
			break
		}
		if len(v) > maxCompletionText {
			out.Cut = true // a value nobody could pick from a list
			continue
		}
		out.Values = append(out.Values, v)
	}
	return out
}

func withOfferTimeout(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(ctx, offerTimeout)
}
