package tools

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"regexp"
	"runtime/debug"
	"sort"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/juncture-app/juncture/agent/history"
)

// MaxArgBytes is the largest argument text Prepare accepts. Larger arguments
// are refused before they are parsed.
const MaxArgBytes = 256 << 10

// CancelBehaviour says what Stop does to a running tool.
type CancelBehaviour int

const (
	// MustComplete tools run to the end even when the person presses Stop:
	// Execute gives them a context Stop cannot cancel. This is the default.
	MustComplete CancelBehaviour = iota
	// Abortable tools see their context cancelled on Stop and must return
	// promptly with whatever they have.
	Abortable
)

// Result is what the model reads back from a tool call.
type Result struct {
	Content string
	IsError bool
	// Parts are what the window shows besides Content (images, links,
	// structured data). Content already describes them for the model.
	Parts []Part
	// Input, when set, means the call did not finish: it needs the
	// person first (roundtrip.go). Content is then what the model reads
	// if the call never gets its answers.
	Input *NeedsInput
	// Sandbox, for a call that ran a program (run_command), is how it was
	// confined: "sandbox: landlock (writes: …; network: none)", or
	// "sandbox: none (why)" (agent/sandbox.Status). Empty for the others.
	Sandbox string
}

// Preview is what an approval card shows before a tool runs.
type Preview struct {
	Kind   string // "diff" | "command" | "json" | "text"
	Title  string
	Body   string
	Folder string
	// Sandbox says what the call's program will be able to write and
	// reach (agent/sandbox.Status), for calls that start one.
	Sandbox string
}

// Preview kinds.
const (
	PreviewDiff    = "diff"
	PreviewCommand = "command"
	PreviewJSON    = "json"
	// PreviewText is plain text shown as is (what copy_to_clipboard
	// would put on the clipboard).
	PreviewText = "text"
)

// Tool is one function the model may call.
type Tool struct {
	Name        string
	Description string
	// Schema is the JSON Schema of the arguments object. Nil means an
	// object with no properties.
	Schema json.RawMessage
	OnStop CancelBehaviour
	// NeedsApproval reports whether a call must be approved before it runs.
	// Nil means never.
	NeedsApproval func(args json.RawMessage) bool
	// Client tools are executed by the frontend; they have no Run.
	Client bool
	// Preview, when set, describes a call for the approval card.
	Preview func(ctx context.Context, args json.RawMessage) (Preview, error)
	// Run executes a call with normalised, validated arguments. An error
	// means the tool failed; the model reads it as an error result. ctx
	// carries the runtime's CallEnv (ReportProgress, Ask).
	Run func(ctx context.Context, args json.RawMessage) (Result, error)
	// Title is the name the person reads (an MCP tool's own title); empty
	// means Name.
	Title string
	// Source names where the tool comes from when it is not built in (an
	// MCP server's name).
	Source string
	// Rules, when set, decides "Always allow" for this tool instead of
	// SuggestRules and MatchRule (an MCP tool's rules are keyed to its
	// identity and its server).
	Rules *RuleSet
	// ViewOnly: only an MCP App view of its server may call the tool
	// (_meta.ui.visibility ["app"]). Specs leaves it out of the model's
	// tool list; the runtime refuses a model's call of it as unknown.
	ViewOnly bool
}

// RuleSet is a tool's own "Always allow" policy.
type RuleSet struct {
	// Suggest lists the rules an approval of this call can offer,
	// narrowest first. Remembering a rule of such a tool is only
	// possible for one of these.
	Suggest func(args json.RawMessage) []history.PermissionRule
	// Match reports whether a remembered rule covers the call.
	Match func(rule history.PermissionRule, args json.RawMessage) bool
}

// Spec is a tool as the model request declares it.
type Spec struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	Parameters  json.RawMessage `json:"parameters"`
}

// Call is a prepared call: a known tool and arguments that passed its schema.
type Call struct {
	Tool Tool
	Args json.RawMessage // normalised: compact JSON object, keys sorted
}

// Registry holds the tools of a run. It is immutable once built and safe
// for concurrent use.
type Registry struct {
	tools   []Tool
	index   map[string]int
	schemas []*jsonschema.Schema
}

// Tool names must be acceptable to OpenAI-compatible endpoints.
var toolNameRE = regexp.MustCompile(`^[a-zA-Z0-9_-]{1,64}$`)

var emptyObjectSchema = json.RawMessage(`{"type":"object","properties":{}}`)

// NewRegistry checks the tools and compiles their schemas once.
func NewRegistry(tools ...Tool) (*Registry, error) {
	r := &Registry{index: make(map[string]int, len(tools))}
	for _, t := range tools {
		if !toolNameRE.MatchString(t.Name) {
			return nil, fmt.Errorf("tools: invalid tool name %q", t.Name)
		}
		if _, dup := r.index[t.Name]; dup {
			return nil, fmt.Errorf("tools: duplicate tool name %q", t.Name)
		}
		switch {
		case t.Client && t.Run != nil:
			return nil, fmt.Errorf("tools: client tool %q must not have Run", t.Name)
		case !t.Client && t.Run == nil:
			return nil, fmt.Errorf("tools: tool %q has no Run", t.Name)
		}
		if len(bytes.TrimSpace(t.Schema)) == 0 {
			t.Schema = emptyObjectSchema
		}
		sch, err := compileSchema(t.Name, t.Schema)
		if err != nil {
			return nil, err
		}
		r.index[t.Name] = len(r.tools)
		r.tools = append(r.tools, t)
		r.schemas = append(r.schemas, sch)
	}
	return r, nil
}

func compileSchema(name string, schema json.RawMessage) (*jsonschema.Schema, error) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(schema))
	if err != nil {
		return nil, fmt.Errorf("tools: schema of %q is not JSON: %w", name, err)
	}
	if obj, ok := doc.(map[string]any); !ok || (obj["type"] != nil && obj["type"] != "object") {
		return nil, fmt.Errorf("tools: schema of %q must describe an object", name)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	url := "urn:juncture:tool:" + name
	if err := c.AddResource(url, doc); err != nil {
		return nil, fmt.Errorf("tools: schema of %q: %w", name, err)
	}
	sch, err := c.Compile(url)
	if err != nil {
		return nil, fmt.Errorf("tools: schema of %q: %w", name, err)
	}
	return sch, nil
}

// Lookup returns the tool with the given name.
func (r *Registry) Lookup(name string) (Tool, bool) {
	i, ok := r.index[name]
	if !ok {
		return Tool{}, false
	}
	return r.tools[i], true
}

// Names returns the tool names in registration order.
func (r *Registry) Names() []string {
	names := make([]string, len(r.tools))
	for i, t := range r.tools {
		names[i] = t.Name
	}
	return names
}

// modelNames are the names the model is offered (Specs's).
func (r *Registry) modelNames() []string {
	var names []string
	for _, t := range r.tools {
		if !t.ViewOnly {
			names = append(names, t.Name)
		}
	}
	return names
}

// Specs returns the tool declarations for a model request, in registration
// order, so the request prefix stays byte-identical between turns. A
// ViewOnly tool is not declared.
func (r *Registry) Specs() []Spec {
	specs := make([]Spec, 0, len(r.tools))
	for _, t := range r.tools {
		if !t.ViewOnly {
			specs = append(specs, Spec{Name: t.Name, Description: t.Description, Parameters: t.Schema})
		}
	}
	return specs
}

// Prepare parses and validates a model's call. It returns either a ready
// Call, or the error Result the model should read instead of running it.
// A ViewOnly tool is unknown to it (PrepareFromView prepares a view's).
func (r *Registry) Prepare(name, rawArgs string) (Call, *Result) {
	return r.prepareResult(name, rawArgs, false)
}

// PrepareFromView is Prepare for a call an MCP App view asked for: a
// ViewOnly tool is known to it.
func (r *Registry) PrepareFromView(name, rawArgs string) (Call, *Result) {
	return r.prepareResult(name, rawArgs, true)
}

func (r *Registry) prepareResult(name, rawArgs string, fromView bool) (Call, *Result) {
	c, err := r.prepare(name, []byte(rawArgs), fromView)
	if err != nil {
		return Call{}, &Result{Content: err.Error(), IsError: true}
	}
	return c, nil
}

// Validate checks arguments for a tool, as Prepare does. It is meant for
// arguments the person edited before approving.
func (r *Registry) Validate(name string, args json.RawMessage) error {
	_, err := r.prepare(name, args, true)
	return err
}

// Normalize is Validate that also returns the normalised arguments.
func (r *Registry) Normalize(name string, args json.RawMessage) (json.RawMessage, error) {
	c, err := r.prepare(name, args, true)
	return c.Args, err
}

func (r *Registry) prepare(name string, raw []byte, fromView bool) (Call, error) {
	i, ok := r.index[name]
	if !ok || (r.tools[i].ViewOnly && !fromView) {
		return Call{}, argErrorf("Unknown tool %q. Available tools: %s.", name, strings.Join(r.modelNames(), ", "))
	}
	t := r.tools[i]
	if len(raw) > MaxArgBytes {
		return Call{}, argErrorf("Arguments for %s are %d bytes, over the %d-byte limit; the call was refused. Send smaller arguments.", name, len(raw), MaxArgBytes)
	}
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		raw = []byte("{}")
	}
	if err := checkJSON(raw); err != nil {
		return Call{}, argErrorf("Arguments for %s are not valid JSON (%v). Send one JSON object that matches the tool's parameters.", name, err)
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return Call{}, argErrorf("Arguments for %s are not valid JSON (%v). Send one JSON object that matches the tool's parameters.", name, err)
	}
	if _, isObj := inst.(map[string]any); !isObj {
		return Call{}, argErrorf("Arguments for %s must be a JSON object, not %s.", name, jsonKind(inst))
	}
	if err := r.schemas[i].Validate(inst); err != nil {
		return Call{}, argErrorf("Invalid arguments for %s:\n%s", name, describeValidation(err))
	}
	norm, err := marshalNoEscape(inst)
	if err != nil {
		return Call{}, argErrorf("Arguments for %s could not be normalised: %v", name, err)
	}
	return Call{Tool: t, Args: norm}, nil
}

// argError is a message written for the model: it says what was wrong
// with the call and how to fix it.
type argError string

func (e argError) Error() string { return string(e) }

func argErrorf(format string, a ...any) error { return argError(fmt.Sprintf(format, a...)) }

// checkJSON reports a syntax error with its byte offset.
func checkJSON(raw []byte) error {
	var v any
	dec := json.NewDecoder(bytes.NewReader(raw))
	if err := dec.Decode(&v); err != nil {
		var se *json.SyntaxError
		if errors.As(err, &se) {
			return fmt.Errorf("%w at byte %d", se, se.Offset)
		}
		if errors.Is(err, io.ErrUnexpectedEOF) {
			return errors.New("it ends too early; it may have been cut off")
		}
		return err
	}
	if dec.More() {
		return fmt.Errorf("unexpected data after the JSON value at byte %d", dec.InputOffset())
	}
	return nil
}

func jsonKind(v any) string {
	switch v.(type) {
	case []any:
		return "an array"
	case string:
		return "a string"
	case bool:
		return "a boolean"
	case nil:
		return "null"
	default:
		return "a number"
	}
}

func marshalNoEscape(v any) (json.RawMessage, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return json.RawMessage(bytes.TrimRight(buf.Bytes(), "\n")), nil
}

// describeValidation lists the failing leaves as "- at /pointer: message".
func describeValidation(err error) string {
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return "- " + err.Error()
	}
	var lines []string
	var walk func(e *jsonschema.ValidationError)
	walk = func(e *jsonschema.ValidationError) {
		if len(e.Causes) == 0 {
			out := e.BasicOutput()
			loc := out.InstanceLocation
			if loc == "" {
				loc = "(root)"
			}
			msg := ""
			if out.Error != nil {
				msg = out.Error.String()
			}
			lines = append(lines, fmt.Sprintf("- at %s: %s", loc, msg))
			return
		}
		for _, c := range e.Causes {
			walk(c)
		}
	}
	walk(ve)
	sort.Strings(lines) // the validator's order follows map iteration
	return strings.Join(lines, "\n")
}

// Execute runs a prepared call. A MustComplete tool gets a context that Stop
// cannot cancel. A panic or an error becomes an error Result; Execute never
// panics because of a tool.
func (r *Registry) Execute(ctx context.Context, c Call) (res Result) {
	t := c.Tool
	if t.Client {
		return Result{Content: fmt.Sprintf("Tool %s runs in the app window, not here.", t.Name), IsError: true}
	}
	if t.Run == nil {
		return Result{Content: fmt.Sprintf("Tool %s cannot run.", t.Name), IsError: true}
	}
	if t.OnStop == MustComplete {
		ctx = context.WithoutCancel(ctx)
	}
	defer func() {
		if p := recover(); p != nil {
			slog.Error("Tool panicked", "tool", t.Name, "panic", p, "stack", string(debug.Stack()))
			res = Result{Content: fmt.Sprintf("Tool %s crashed: %v", t.Name, p), IsError: true}
		}
	}()
	args := c.Args
	if len(args) == 0 {
		args = json.RawMessage("{}")
	}
	out, err := t.Run(ctx, args)
	if err != nil {
		return Result{Content: err.Error(), IsError: true}
	}
	return out
}

// Preview describes a prepared call for the approval card: the tool's own
// Preview when it has one, otherwise the arguments as indented JSON. A
// panicking Preview becomes an error.
func (r *Registry) Preview(ctx context.Context, c Call) (pv Preview, err error) {
	t := c.Tool
	if t.Preview == nil {
		var buf bytes.Buffer
		if json.Indent(&buf, c.Args, "", "  ") != nil {
			buf.Reset()
			buf.Write(c.Args)
		}
		return Preview{Kind: PreviewJSON, Title: t.Name, Body: buf.String()}, nil
	}
	defer func() {
		if p := recover(); p != nil {
			slog.Error("Tool preview panicked", "tool", t.Name, "panic", p, "stack", string(debug.Stack()))
			err = fmt.Errorf("preview of %s crashed: %v", t.Name, p)
		}
	}()
	return t.Preview(ctx, c.Args)
}
