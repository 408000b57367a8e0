package interrupt

import (
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// Schema is a compiled JSON Schema. Canonical and Hash identify it:
// Hash = Digest(Canonical), the same value bindings carry.
type Schema struct {
	Canonical json.RawMessage
	Hash      string
	compiled  *jsonschema.Schema
}

// Issue is one reason a value does not satisfy a schema.
type Issue struct {
	// Pointer is the RFC 6901 JSON pointer of the offending value ("" is
	// the whole value).
	Pointer string
	// Path is the same location as TanStack issue paths: object keys as
	// strings, array indexes as ints.
	Path []any
	// Message is a person-readable sentence fragment such as
	// "approved must be a boolean" or "speed is required".
	Message string
}

// SchemaCache compiles JSON Schemas once per schema hash. It is safe for
// concurrent use. Remote references are never loaded: a schema can refer
// only to itself and to the standard meta-schemas.
type SchemaCache struct {
	mu      sync.Mutex
	max     int
	entries map[string]*cacheEntry
	order   []string
}

type cacheEntry struct {
	schema *Schema
	err    error
}

// NewSchemaCache returns a cache holding at most max compiled schemas
// (oldest evicted first); max <= 0 means 256.
func NewSchemaCache(max int) *SchemaCache {
	if max <= 0 {
		max = 256
	}
	return &SchemaCache{max: max, entries: map[string]*cacheEntry{}}
}

// Compile returns the compiled form of schema (a JSON object or boolean).
// A schema that does not compile yields an error wrapping ErrInvalidSchema;
// the failure is cached too.
func (c *SchemaCache) Compile(schema json.RawMessage) (*Schema, error) {
	canonical, err := CanonicalJSON(schema)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInvalidSchema, err)
	}
	hash := Digest(canonical)
	c.mu.Lock()
	e, ok := c.entries[hash]
	c.mu.Unlock()
	if ok {
		return e.schema, e.err
	}
	e = &cacheEntry{}
	e.schema, e.err = compileSchema(canonical, hash)
	c.mu.Lock()
	defer c.mu.Unlock()
	if prev, ok := c.entries[hash]; ok {
		return prev.schema, prev.err
	}
	if len(c.order) >= c.max {
		delete(c.entries, c.order[0])
		c.order = c.order[1:]
	}
	c.entries[hash] = e
	c.order = append(c.order, hash)
	return e.schema, e.err
}

// Validate compiles schema (cached) and validates the JSON text value.
func (c *SchemaCache) Validate(schema, value json.RawMessage) ([]Issue, error) {
	s, err := c.Compile(schema)
	if err != nil {
		return nil, err
	}
	return s.Validate(value)
}

type refusingLoader struct{}

func (refusingLoader) Load(url string) (any, error) {
	return nil, fmt.Errorf("loading %q is not allowed", url)
}

const schemaURL = "https://schemas.juncture.invalid/interrupt-response.json"

func compileSchema(canonical, hash string) (*Schema, error) {
	doc, err := jsonschema.UnmarshalJSON(strings.NewReader(canonical))
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInvalidSchema, err)
	}
	switch doc.(type) {
	case map[string]any, bool:
	default:
		return nil, fmt.Errorf("%w: a schema must be a JSON object or boolean", ErrInvalidSchema)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.UseLoader(refusingLoader{})
	if err := c.AddResource(schemaURL, doc); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInvalidSchema, err)
	}
	compiled, err := c.Compile(schemaURL)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInvalidSchema, err)
	}
	return &Schema{Canonical: json.RawMessage(canonical), Hash: hash, compiled: compiled}, nil
}

// Validate validates the JSON text value (parsed with Parse, so numbers
// are doubles as in JavaScript). Invalid JSON is an error; a value that
// does not satisfy the schema gives issues.
func (s *Schema) Validate(value json.RawMessage) ([]Issue, error) {
	v, err := Parse(value)
	if err != nil {
		return nil, err
	}
	return s.ValidateValue(v), nil
}

// ValidateValue validates a value of the JSON value model (see Parse).
func (s *Schema) ValidateValue(v any) []Issue {
	err := s.compiled.Validate(v)
	if err == nil {
		return nil
	}
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return []Issue{{Message: "value could not be validated: " + err.Error()}}
	}
	var issues []Issue
	collectIssues(ve, v, &issues)
	if len(issues) == 0 {
		issues = append(issues, Issue{Message: "value is invalid"})
	}
	// The library visits properties in map order; make the result stable.
	sort.SliceStable(issues, func(i, j int) bool {
		if issues[i].Pointer != issues[j].Pointer {
			return issues[i].Pointer < issues[j].Pointer
		}
		return issues[i].Message < issues[j].Message
	})
	return issues
}

// IssueMessages joins the messages of issues with "; ".
func IssueMessages(issues []Issue) string {
	msgs := make([]string, len(issues))
	for i, is := range issues {
		msgs[i] = is.Message
	}
	return strings.Join(msgs, "; ")
}

// SchemaLimits bounds a JSON Schema written by a model (ask_user).
type SchemaLimits struct {
	MaxBytes int // canonical size
	MaxDepth int // nesting of objects/arrays in the schema document
	// RequireObjectType demands a top-level "type":"object", so that the
	// answer is an object (room for more fields later).
	RequireObjectType bool
}

// DefaultModelSchemaLimits: 8 KiB, depth 10, object answers.
var DefaultModelSchemaLimits = SchemaLimits{MaxBytes: 8 << 10, MaxDepth: 10, RequireObjectType: true}

// CheckModelSchema vets a response schema proposed by the model for the
// ask_user tool: it must be a JSON object (not a boolean schema), within
// limits, and compile (remote $ref are refused). The result carries the
// canonical text to put in Interrupt.responseSchema and its hash. Errors
// wrap ErrInvalidSchema and are phrased for the model to correct itself.
func CheckModelSchema(raw json.RawMessage, limits SchemaLimits, cache *SchemaCache) (*Schema, error) {
	if cache == nil {
		cache = NewSchemaCache(1)
	}
	v, err := Parse(raw)
	if err != nil {
		return nil, fmt.Errorf("%w: the schema is not valid JSON: %w", ErrInvalidSchema, err)
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("%w: the schema must be a JSON object", ErrInvalidSchema)
	}
	canonical, err := CanonicalJSON(obj)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInvalidSchema, err)
	}
	if limits.MaxBytes > 0 && len(canonical) > limits.MaxBytes {
		return nil, fmt.Errorf("%w: the schema is too large (%d bytes, at most %d)", ErrInvalidSchema, len(canonical), limits.MaxBytes)
	}
	if limits.MaxDepth > 0 && depthOf(obj) > limits.MaxDepth {
		return nil, fmt.Errorf("%w: the schema is nested too deeply (at most %d levels)", ErrInvalidSchema, limits.MaxDepth)
	}
	if limits.RequireObjectType && obj["type"] != "object" {
		return nil, fmt.Errorf(`%w: the schema must describe an object ("type": "object")`, ErrInvalidSchema)
	}
	return cache.Compile(json.RawMessage(canonical))
}

func depthOf(v any) int {
	max := 0
	switch x := v.(type) {
	case map[string]any:
		for _, e := range x {
			if d := depthOf(e); d > max {
				max = d
			}
		}
	case []any:
		for _, e := range x {
			if d := depthOf(e); d > max {
				max = d
			}
		}
	default:
		return 0
	}
	return max + 1
}

// ValidateValue validates the JSON text value against the JSON text schema
// with a throw-away cache; prefer SchemaCache.Validate for repeated use.
func ValidateValue(schema, value json.RawMessage) ([]Issue, error) {
	return NewSchemaCache(1).Validate(schema, value)
}

// locate converts an instance location into a pointer and a typed path.
func locate(tokens []string, root any) (string, []any) {
	var ptr strings.Builder
	path := make([]any, 0, len(tokens))
	cur := root
	for _, tok := range tokens {
		ptr.WriteByte('/')
		ptr.WriteString(strings.NewReplacer("~", "~0", "/", "~1").Replace(tok))
		switch c := cur.(type) {
		case []any:
			i, err := strconv.Atoi(tok)
			if err == nil && i >= 0 && i < len(c) {
				path = append(path, i)
				cur = c[i]
				continue
			}
		case map[string]any:
			cur = c[tok]
		default:
			cur = nil
		}
		path = append(path, tok)
	}
	return ptr.String(), path
}

// subject renders a path for messages: "approved", "items[0].name",
// "value" for the root.
func subject(path []any) string {
	if len(path) == 0 {
		return "value"
	}
	var sb strings.Builder
	for i, seg := range path {
		switch s := seg.(type) {
		case int:
			fmt.Fprintf(&sb, "[%d]", s)
		case string:
			if i > 0 {
				sb.WriteByte('.')
			}
			sb.WriteString(s)
		}
	}
	return sb.String()
}
