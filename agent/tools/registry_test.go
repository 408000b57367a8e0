package tools

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
)

func testRegistry(t *testing.T) *Registry {
	t.Helper()
	echo := func(ctx context.Context, args json.RawMessage) (Result, error) {
		return Result{Content: string(args)}, nil
	}
	r, err := NewRegistry(
		Tool{Name: "echo", Description: "Echo the arguments.", Run: echo},
		Tool{
			Name: "strict",
			Schema: json.RawMessage(`{"type":"object","properties":{
				"path":{"type":"string"},"count":{"type":"integer","minimum":1}},
				"required":["path"],"additionalProperties":false}`),
			Run: echo,
		},
		Tool{Name: "boom", Run: func(context.Context, json.RawMessage) (Result, error) { panic("kaboom") }},
		Tool{Name: "fail", Run: func(context.Context, json.RawMessage) (Result, error) {
			return Result{Content: "partial"}, errors.New("disk on fire")
		}},
		Tool{Name: "ctxcheck", OnStop: MustComplete, Run: ctxReport},
		Tool{Name: "ctxabort", OnStop: Abortable, Run: ctxReport},
		Tool{Name: "copy_to_clipboard", Client: true},
	)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func ctxReport(ctx context.Context, _ json.RawMessage) (Result, error) {
	if ctx.Err() != nil {
		return Result{Content: "cancelled"}, nil
	}
	return Result{Content: "live"}, nil
}

func TestNewRegistryRejects(t *testing.T) {
	t.Parallel()
	run := func(context.Context, json.RawMessage) (Result, error) { return Result{}, nil }
	tests := []struct {
		name  string
		tools []Tool
		want  string
	}{
		{"duplicate", []Tool{{Name: "a", Run: run}, {Name: "a", Run: run}}, `duplicate tool name "a"`},
		{"bad name", []Tool{{Name: "a b", Run: run}}, "invalid tool name"},
		{"empty name", []Tool{{Run: run}}, "invalid tool name"},
		{"no run", []Tool{{Name: "a"}}, "has no Run"},
		{"client with run", []Tool{{Name: "a", Client: true, Run: run}}, "must not have Run"},
		{"schema not json", []Tool{{Name: "a", Run: run, Schema: json.RawMessage(`{`)}}, "not JSON"},
		{"schema not object", []Tool{{Name: "a", Run: run, Schema: json.RawMessage(`{"type":"string"}`)}}, "must describe an object"},
		{"schema invalid", []Tool{{Name: "a", Run: run, Schema: json.RawMessage(`{"type":"object","minProperties":"x"}`)}}, `schema of "a"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, err := NewRegistry(tc.tools...)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want %q", err, tc.want)
			}
		})
	}
}

func TestPrepare(t *testing.T) {
	t.Parallel()
	r := testRegistry(t)
	tests := []struct {
		name, tool, args string
		wantArgs         string   // when the call is ready
		wantErr          []string // when the model gets an error result
	}{
		{name: "unknown tool", tool: "nope", args: `{}`,
			wantErr: []string{`Unknown tool "nope". Available tools: echo, strict, boom, fail, ctxcheck, ctxabort, copy_to_clipboard.`}},
		{name: "anchored name", tool: "echo2", args: `{}`, wantErr: []string{`Unknown tool "echo2"`}},
		{name: "empty args", tool: "echo", args: "", wantArgs: `{}`},
		{name: "blank args", tool: "echo", args: " \n\t", wantArgs: `{}`},
		{name: "null args", tool: "echo", args: "null", wantArgs: `{}`},
		{name: "normalised", tool: "echo", args: `{ "b": 1, "a": "<x>&" }`, wantArgs: `{"a":"<x>&","b":1}`},
		{name: "duplicate keys keep the last", tool: "echo", args: `{"a":"1","a":"2"}`, wantArgs: `{"a":"2"}`},
		{name: "big numbers kept exactly", tool: "echo", args: `{"n":123456789012345678901234567890}`,
			wantArgs: `{"n":123456789012345678901234567890}`},
		{name: "not json", tool: "echo", args: `{"a": nope}`, wantErr: []string{"not valid JSON", "invalid character", "at byte"}},
		{name: "cut off", tool: "echo", args: `{"a": "b`, wantErr: []string{"not valid JSON", "cut off"}},
		{name: "trailing data", tool: "echo", args: `{} {}`, wantErr: []string{"not valid JSON", "after the JSON value"}},
		{name: "array", tool: "echo", args: `[1,2]`, wantErr: []string{"must be a JSON object, not an array"}},
		{name: "string", tool: "echo", args: `"hi"`, wantErr: []string{"must be a JSON object, not a string"}},
		{name: "huge", tool: "echo", args: `{"a":"` + strings.Repeat("x", MaxArgBytes) + `"}`,
			wantErr: []string{"over the 262144-byte limit", "refused"}},
		{name: "missing property", tool: "strict", args: `{}`,
			wantErr: []string{"Invalid arguments for strict", "at (root): missing property 'path'"}},
		{name: "several failures with pointers", tool: "strict", args: `{"path":1,"count":0,"extra":true}`,
			wantErr: []string{"at /path: got number, want string", "at /count: minimum", "additional properties 'extra' not allowed"}},
		{name: "valid", tool: "strict", args: `{"path":"a.txt","count":2}`, wantArgs: `{"count":2,"path":"a.txt"}`},
		{name: "client tool", tool: "copy_to_clipboard", args: `{"text":"x"}`, wantArgs: `{"text":"x"}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c, res := r.Prepare(tc.tool, tc.args)
			if tc.wantErr != nil {
				if res == nil {
					t.Fatalf("Prepare succeeded with %s, want an error result", c.Args)
				}
				if !res.IsError {
					t.Error("result is not marked as an error")
				}
				mustContain(t, res.Content, tc.wantErr...)
				if len(res.Content) > 2000 {
					t.Errorf("error result is %d bytes; it should not echo huge input", len(res.Content))
				}
				if err := r.Validate(tc.tool, json.RawMessage(tc.args)); err == nil || err.Error() != res.Content {
					t.Errorf("Validate = %v, want the same message as Prepare", err)
				}
				return
			}
			if res != nil {
				t.Fatalf("Prepare failed: %s", res.Content)
			}
			if string(c.Args) != tc.wantArgs {
				t.Errorf("args = %s, want %s", c.Args, tc.wantArgs)
			}
			if c.Tool.Name != tc.tool {
				t.Errorf("tool = %q", c.Tool.Name)
			}
			if err := r.Validate(tc.tool, json.RawMessage(tc.args)); err != nil {
				t.Errorf("Validate: %v", err)
			}
		})
	}
}

func TestNormalize(t *testing.T) {
	t.Parallel()
	r := testRegistry(t)
	got, err := r.Normalize("strict", json.RawMessage(`{"path":"b", "count":1}`))
	if err != nil || string(got) != `{"count":1,"path":"b"}` {
		t.Fatalf("Normalize = %s, %v", got, err)
	}
}

func TestExecute(t *testing.T) {
	t.Parallel()
	r := testRegistry(t)
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	tests := []struct {
		name, tool string
		ctx        context.Context
		want       Result
	}{
		{"ok", "echo", context.Background(), Result{Content: `{"k":"v"}`}},
		{"panic becomes an error result", "boom", context.Background(), Result{Content: "Tool boom crashed: kaboom", IsError: true}},
		{"error becomes an error result", "fail", context.Background(), Result{Content: "disk on fire", IsError: true}},
		{"must-complete ignores Stop", "ctxcheck", cancelled, Result{Content: "live"}},
		{"abortable sees Stop", "ctxabort", cancelled, Result{Content: "cancelled"}},
		{"client tool is not run here", "copy_to_clipboard", context.Background(),
			Result{Content: "Tool copy_to_clipboard runs in the app window, not here.", IsError: true}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c, res := r.Prepare(tc.tool, `{"k":"v"}`)
			if res != nil {
				t.Fatal(res.Content)
			}
			if got := r.Execute(tc.ctx, c); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("Execute = %+v, want %+v", got, tc.want)
			}
		})
	}
}

func TestExecuteZeroCall(t *testing.T) {
	t.Parallel()
	r := testRegistry(t)
	if got := r.Execute(context.Background(), Call{}); !got.IsError {
		t.Errorf("zero Call ran: %+v", got)
	}
}

func TestSpecsAndLookup(t *testing.T) {
	t.Parallel()
	r := testRegistry(t)
	specs := r.Specs()
	if len(specs) != 7 || specs[0].Name != "echo" || specs[1].Name != "strict" || specs[6].Name != "copy_to_clipboard" {
		t.Fatalf("specs out of order: %+v", specs)
	}
	if specs[0].Description != "Echo the arguments." || string(specs[0].Parameters) != string(emptyObjectSchema) {
		t.Errorf("echo spec = %+v", specs[0])
	}
	for _, s := range specs {
		var v map[string]any
		if err := json.Unmarshal(s.Parameters, &v); err != nil || v["type"] != "object" {
			t.Errorf("%s parameters are not an object schema: %s", s.Name, s.Parameters)
		}
	}
	if _, ok := r.Lookup("strict"); !ok {
		t.Error("Lookup(strict) failed")
	}
	if _, ok := r.Lookup("stric"); ok {
		t.Error("Lookup matched a prefix")
	}
}

func TestRegistryPreview(t *testing.T) {
	t.Parallel()
	run := func(context.Context, json.RawMessage) (Result, error) { return Result{}, nil }
	r, err := NewRegistry(
		Tool{Name: "plain", Run: run},
		Tool{Name: "custom", Run: run, Preview: func(_ context.Context, args json.RawMessage) (Preview, error) {
			return Preview{Kind: PreviewCommand, Body: string(args)}, nil
		}},
		Tool{Name: "broken", Run: run, Preview: func(context.Context, json.RawMessage) (Preview, error) { panic("oops") }},
	)
	if err != nil {
		t.Fatal(err)
	}
	prep := func(name string) Call {
		c, res := r.Prepare(name, `{"b":1,"a":[1,2]}`)
		if res != nil {
			t.Fatal(res.Content)
		}
		return c
	}
	got, err := r.Preview(context.Background(), prep("plain"))
	want := Preview{Kind: PreviewJSON, Title: "plain", Body: "{\n  \"a\": [\n    1,\n    2\n  ],\n  \"b\": 1\n}"}
	if err != nil || got != want {
		t.Errorf("plain = %+v, %v; want %+v", got, err, want)
	}
	if got, err := r.Preview(context.Background(), prep("custom")); err != nil || got.Body != `{"a":[1,2],"b":1}` {
		t.Errorf("custom = %+v, %v", got, err)
	}
	if _, err := r.Preview(context.Background(), prep("broken")); err == nil || !strings.Contains(err.Error(), "crashed: oops") {
		t.Errorf("broken = %v", err)
	}
}
