package mcp

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/juncture-app/juncture/agent/history"
	"github.com/juncture-app/juncture/agent/tools"
)

// toolEntry is a listed tool, prepared once per listing.
type toolEntry struct {
	tool        *sdk.Tool
	schema      json.RawMessage
	schemaErr   string // set: the tool is not offered (its schema would break the registry)
	verdict     readOnlyVerdict
	fingerprint string
}

var objectSchema = json.RawMessage(`{"type":"object","properties":{}}`)

func newToolEntry(server string, t *sdk.Tool, v readOnlyVerdict) toolEntry {
	e := toolEntry{tool: t, verdict: v, fingerprint: Fingerprint(server, t)}
	e.schema = objectSchema
	if raw, err := json.Marshal(t.InputSchema); err == nil && len(raw) > 0 && raw[0] == '{' {
		e.schema = raw
	}
	if len(e.schema) > maxSchemaBytes {
		e.schemaErr = fmt.Sprintf("its input schema is %s, over the %s Juncture reads", humanSize(len(e.schema)), humanSize(maxSchemaBytes))
	} else if err := checkSchema(e.schema); err != nil {
		e.schemaErr = err.Error()
	}
	return e
}

// checkSchema compiles a schema the way tools.NewRegistry does
// (santhosh-tekuri/jsonschema, Draft 2020-12 by default, an object at the
// root): a schema it refuses would make the whole registry fail to build.
func checkSchema(schema json.RawMessage) error {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(schema))
	if err != nil {
		return fmt.Errorf("its input schema is not JSON: %w", err)
	}
	if obj, ok := doc.(map[string]any); !ok || (obj["type"] != nil && obj["type"] != "object") {
		return errors.New("its input schema does not describe an object")
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	const url = "urn:juncture:mcp-tool"
	if err := c.AddResource(url, doc); err != nil {
		return fmt.Errorf("its input schema is not valid: %w", err)
	}
	if _, err := c.Compile(url); err != nil {
		return fmt.Errorf("its input schema does not compile: %w", err)
	}
	return nil
}

// Fingerprint identifies a tool as "Always allow" remembers it: its
// server, its name, its title, description and input schema, and its
// behaviour hints (readOnly, destructive, idempotent, openWorld, with the
// protocol's defaults for hints left out), canonically encoded, hashed
// with SHA-256 and cut to 16 bytes in hex. A server that redefines the
// tool (says it does something else, takes other arguments, or changes
// its hints) gets a new fingerprint, so the person is asked again. The
// schema is encoded with sorted keys, so only a change of its content
// counts.
func Fingerprint(server string, t *sdk.Tool) string {
	readOnly, destructive, idempotent, openWorld := false, true, false, true
	if a := t.Annotations; a != nil {
		readOnly, idempotent = a.ReadOnlyHint, a.IdempotentHint
		if a.DestructiveHint != nil {
			destructive = *a.DestructiveHint
		}
		if a.OpenWorldHint != nil {
			openWorld = *a.OpenWorldHint
		}
	}
	schema := canonicalSchema(t.InputSchema)
	// A JSON array of strings and booleans has one encoding.
	canon, _ := json.Marshal([]any{"mcp-tool/2", server, t.Name, toolTitle(t), t.Description, schema, readOnly, destructive, idempotent, openWorld})
	sum := sha256.Sum256(canon)
	return hex.EncodeToString(sum[:16])
}

// canonicalSchema is an input schema as one string: decoded into plain
// values and encoded again, so key order and spacing do not count.
func canonicalSchema(schema any) string {
	raw, err := json.Marshal(schema)
	if err != nil {
		return "unencodable"
	}
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return string(raw)
	}
	b, _ := json.Marshal(v) // map keys sorted
	return string(b)
}

// toolTitle is the name a person reads: the tool's title, its
// annotations' title, or its name.
func toolTitle(t *sdk.Tool) string {
	if t.Title != "" {
		return t.Title
	}
	if t.Annotations != nil && t.Annotations.Title != "" {
		return t.Annotations.Title
	}
	return t.Name
}

// serverView is a ready server as Tools and Servers see it.
type serverView struct {
	name    string
	title   string
	policy  Policy
	entries []toolEntry
	sandbox string // how a stdio server is confined (session.sandbox)
}

// effectiveReadOnly: the tool runs without asking.
func effectiveReadOnly(p Policy, e toolEntry) bool {
	switch p {
	case PolicyTrust:
		return true
	case PolicyAsk:
		return false
	}
	return e.verdict.readOnly
}

// adapt makes a tools.Tool of a listed tool.
func (m *Manager) adapt(v serverView, e toolEntry, modelName string) tools.Tool {
	server, tool := v.name, e.tool.Name
	title := toolTitle(e.tool)
	desc := e.tool.Description
	if desc == "" {
		desc = title
	}
	var needs func(json.RawMessage) bool
	if v.policy != PolicyTrust {
		always := !effectiveReadOnly(v.policy, e)
		needs = func(json.RawMessage) bool { return always }
	}
	fp := serverRule(server)
	am := toolAppMeta(e.tool)
	view := am.resourceURI
	return tools.Tool{
		Name:          modelName,
		ViewOnly:      am.viewOnly(),
		Title:         title,
		Source:        server,
		Description:   desc,
		Schema:        e.schema,
		OnStop:        tools.Abortable,
		NeedsApproval: needs,
		Preview: func(_ context.Context, args json.RawMessage) (tools.Preview, error) {
			var buf bytes.Buffer
			if json.Indent(&buf, args, "", "  ") != nil {
				buf.Reset()
				buf.Write(args)
			}
			return tools.Preview{Kind: tools.PreviewJSON, Title: v.title + " · " + title, Body: buf.String(), Sandbox: v.sandbox}, nil
		},
		Rules: &tools.RuleSet{
			// Narrowest first: this call's argument values, the tool while
			// the server does not redefine it, the whole server.
			Suggest: func(args json.RawMessage) []history.PermissionRule {
				return append(tools.SuggestArgRules(modelName, args),
					history.PermissionRule{Tool: modelName, Scope: history.ScopeToolIdentity, Pattern: e.fingerprint},
					history.PermissionRule{Tool: fp, Scope: history.ScopeServer, Pattern: server},
				)
			},
			Match: func(r history.PermissionRule, args json.RawMessage) bool {
				switch r.Scope {
				case history.ScopeToolIdentity:
					return r.Tool == modelName && r.Pattern == e.fingerprint
				case history.ScopeServer:
					return r.Tool == fp && r.Pattern == server
				case history.ScopeServerTools:
					// "never this server's delete_* tools": by the
					// server's own tool name.
					return r.Tool == fp && r.Pattern == server && tools.Glob(r.Glob, tool)
				case history.ScopeArgEquals, history.ScopeArgPrefix:
					return r.Tool == modelName && tools.MatchArg(r, args)
				case history.ScopeTool:
					// A deny rule names the tool, whatever its identity
					// becomes; an allow rule is kept to its identity.
					return r.IsDeny() && r.Tool == modelName
				}
				return false
			},
		},
		Run: func(ctx context.Context, args json.RawMessage) (tools.Result, error) {
			return withAppPart(m.call(ctx, server, tool, args), server, view), nil
		},
	}
}

// serverRule is the Tool of a rule that covers a whole server.
func serverRule(server string) string { return "mcp:" + server }

// stoppedResult is what a call stopped by the person returns (the runtime
// adds that side effects are unknown).
var stoppedResult = tools.Result{Content: "Stopped: the request was cancelled.", IsError: true}

// call runs one tool call on the server's session of the moment.
func (m *Manager) call(ctx context.Context, server, tool string, args json.RawMessage) tools.Result {
	s := m.lookup(server)
	if s == nil {
		return tools.Result{IsError: true, Content: fmt.Sprintf("The MCP server %q is not configured any more; the call was not sent.", server)}
	}
	sess, st := s.ready()
	if _, retry := tools.RetryOf(ctx); retry && sess == nil {
		// The person's answer may come before the server is back after a
		// restart: it waits for it rather than being lost.
		var failed tools.Result
		if s, sess, failed = m.awaitReady(ctx, server); sess == nil {
			return failed
		}
	}
	if sess == nil {
		return tools.Result{IsError: true, Content: fmt.Sprintf("The MCP server %q is not ready (%s); the call was not sent.", server, describeStatus(st))}
	}
	if _, retry := tools.RetryOf(ctx); retry && !sess.mrtr {
		// Restarted as an older server: a plain call would drop the answer.
		return notDelivered(fmt.Sprintf("the MCP server %q now speaks an older protocol, which cannot take it", server))
	}
	if !sess.mrtr {
		// An older server's questions do not say which call they serve:
		// one call at a time, so each question has exactly one owner (a
		// 2025-11-25 task call too: its questions arrive the same way).
		release, err := s.calls.oneAtATime(ctx, s.title())
		if err != nil {
			return stoppedResult
		}
		defer release()
	}
	if form := taskForm(ctx, sess, tool); form != "" {
		return m.callTask(ctx, s, sess, tool, args, form)
	}
	c, done := s.calls.begin(ctx)
	defer done()
	params := &sdk.CallToolParams{Name: tool, Arguments: args}
	params.SetProgressToken(c.token)
	var res *sdk.CallToolResult
	var err error
	if sess.mrtr {
		var input *tools.NeedsInput
		res, input, err = m.callRounds(c.ctx, s, params, func(ctx context.Context, p *sdk.CallToolParams) (*sdk.CallToolResult, error) {
			return s.callTool(ctx, sess, p) // -32042 pages first (urlelicit.go)
		})
		if input != nil {
			return inputResult(server, input)
		}
		if r, ok := roundResult(server, err); ok {
			return r
		}
	} else {
		res, err = s.callTool(c.ctx, sess, params)
	}
	switch {
	case err == nil:
		return sess.explain(ConvertResult(res))
	case ctx.Err() != nil:
		return stoppedResult
	case errors.Is(err, errURLElicitationDeclined):
		return urlElicitationResult(server)
	}
	if r, ok := m.transportFailed(server, s, sess, err); ok {
		return r
	}
	return m.failedCall(server, sess, err)
}

// readyPoll is how often awaitReady looks at the server's state.
const readyPoll = 50 * time.Millisecond

// awaitReady waits, up to Options.RetryReadyWait, until server is ready
// (its supervisor may be replaced meanwhile) and returns its session, or
// nil and the result of a retry that could not be delivered: the wait
// ran out, the server was disabled or removed, the person pressed Stop,
// or the app quit. The call has not been sent again then, so it had no
// side effects.
func (m *Manager) awaitReady(ctx context.Context, server string) (*supervisor, *session, tools.Result) {
	deadline := time.NewTimer(m.o.RetryReadyWait)
	defer deadline.Stop()
	tick := time.NewTicker(readyPoll)
	defer tick.Stop()
	var st state
	for {
		s := m.lookup(server)
		if s == nil {
			return nil, nil, notDelivered(fmt.Sprintf("the MCP server %q is not configured any more", server))
		}
		var sess *session
		if sess, st = s.ready(); sess != nil {
			return s, sess, tools.Result{}
		}
		if st.status == StatusDisabled {
			return nil, nil, notDelivered(fmt.Sprintf("the MCP server %q is disabled", server))
		}
		select {
		case <-ctx.Done():
			return nil, nil, notDelivered(fmt.Sprintf("the call was stopped while the MCP server %q was not ready (%s)", server, describeStatus(st)))
		case <-m.quit:
			return nil, nil, notDelivered("the app is closing")
		case <-deadline.C:
			return nil, nil, notDelivered(fmt.Sprintf("the MCP server %q was not ready within %s (%s)", server, roundDelay(m.o.RetryReadyWait), describeStatus(st)))
		case <-tick.C:
		}
	}
}

// notDelivered is the result of a retry that was not sent: the person's
// answer never reached the server.
func notDelivered(why string) tools.Result {
	return tools.Result{IsError: true, Content: fmt.Sprintf(
		"The answer could not be delivered: %s. The call was not sent again, so it had no side effects.", why)}
}

// failedCall describes a call that got no result: the server went away
// (side effects unknown), refused it, or sent what the SDK cannot read.
func (m *Manager) failedCall(server string, sess *session, err error) tools.Result {
	gone := errors.Is(err, sdk.ErrConnectionClosed)
	if !gone {
		// A broken connection fails the call a moment before the session
		// reports its end.
		t := time.NewTimer(250 * time.Millisecond)
		select {
		case <-sess.dead:
			gone = true
		case <-t.C:
		}
		t.Stop()
	}
	if gone {
		return tools.Result{IsError: true, Content: fmt.Sprintf("The MCP server %q stopped during the call (%s); side effects unknown.", server, sess.endReason(reapGrace))}
	}
	var rpcErr *jsonrpc.Error
	if errors.As(err, &rpcErr) {
		return tools.Result{IsError: true, Content: fmt.Sprintf("The MCP server %q refused the call: %s", server, rpcErr.Message)}
	}
	return tools.Result{IsError: true, Content: fmt.Sprintf("The MCP server %q sent a result Juncture could not read (%s); side effects unknown.", server, shorten(redactURLs(err.Error()), 300))}
}

// describeStatus is the "(…)" of a call that was not sent.
func describeStatus(st state) string {
	if st.status == StatusError && st.err != "" {
		return "error: " + st.err
	}
	return st.status
}
