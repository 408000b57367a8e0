package interrupt

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"testing"
)

func TestCheckModelSchema(t *testing.T) {
	cache := NewSchemaCache(0)
	good := `{"type":"object","properties":{"choice":{"type":"string","enum":["a","b"]}},"required":["choice"]}`
	s, err := CheckModelSchema(json.RawMessage(good), DefaultModelSchemaLimits, cache)
	if err != nil {
		t.Fatal(err)
	}
	if want, _ := DigestValue(json.RawMessage(good)); s.Hash != want {
		t.Fatalf("hash %s, want %s", s.Hash, want)
	}
	if string(s.Canonical) != `{"properties":{"choice":{"enum":["a","b"],"type":"string"}},"required":["choice"],"type":"object"}` {
		t.Fatalf("canonical %s", s.Canonical)
	}
	deep := `{"type":"object","properties":{"a":` + strings.Repeat(`{"type":"object","properties":{"a":`, 6) + `{}` +
		strings.Repeat(`}}`, 6) + `}}`
	bad := map[string]string{
		"array":               `[]`,
		"boolean schema":      `true`,
		"not JSON":            `{"type":`,
		"not an object":       `{"type":"string"}`,
		"too large":           `{"type":"object","description":"` + strings.Repeat("x", 9000) + `"}`,
		"too deep":            deep,
		"remote reference":    `{"type":"object","properties":{"a":{"$ref":"https://example.com/evil.json"}}}`,
		"file reference":      `{"type":"object","properties":{"a":{"$ref":"file:///etc/passwd"}}}`,
		"invalid keyword":     `{"type":"object","properties":{"a":{"type":5}}}`,
		"invalid regexp":      `{"type":"object","properties":{"a":{"type":"string","pattern":"("}}}`,
		"unknown meta-schema": `{"$schema":"https://example.com/meta","type":"object"}`,
	}
	for name, raw := range bad {
		if _, err := CheckModelSchema(json.RawMessage(raw), DefaultModelSchemaLimits, cache); !errors.Is(err, ErrInvalidSchema) {
			t.Errorf("%s: got %v, want ErrInvalidSchema", name, err)
		}
	}
}

func TestValidateValueIssues(t *testing.T) {
	schema := json.RawMessage(`{"type":"object","additionalProperties":false,"properties":{
		"items":{"type":"array","items":{"type":"object","properties":{"name":{"type":"string","minLength":2}},"required":["name"]}},
		"count":{"type":"integer","minimum":1},"a/b":{"const":true}}}`)
	issues, err := ValidateValue(schema, json.RawMessage(`{"items":[{"name":1},{},{"name":"x"}],"count":0.5,"a/b":false,"extra":1}`))
	if err != nil {
		t.Fatal(err)
	}
	type flat struct {
		Pointer string
		Path    []any
		Message string
	}
	var got []flat
	for _, is := range issues {
		got = append(got, flat(is))
	}
	want := []flat{
		{"/a~1b", []any{"a/b"}, "a/b must be true"},
		{"/count", []any{"count"}, "count must be an integer"},
		{"/extra", []any{"extra"}, "extra is not allowed"},
		{"/items/0/name", []any{"items", 0, "name"}, "items[0].name must be a string"},
		{"/items/1/name", []any{"items", 1, "name"}, "items[1].name is required"},
		{"/items/2/name", []any{"items", 2, "name"}, "items[2].name must be at least 2 characters long"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("issues\n got %+v\nwant %+v", got, want)
	}
	issues, _ = ValidateValue(json.RawMessage(`{"type":"object"}`), json.RawMessage(`5`))
	if len(issues) != 1 || issues[0].Message != "value must be an object" || issues[0].Pointer != "" {
		t.Fatalf("root issue %+v", issues)
	}
	issues, _ = ValidateValue(json.RawMessage(`{"oneOf":[{"type":"string"},{"type":"number"}]}`), json.RawMessage(`true`))
	if len(issues) != 1 || !strings.Contains(issues[0].Message, "does not match any of the allowed shapes") {
		t.Fatalf("oneOf issue %+v", issues)
	}
	if _, err := ValidateValue(json.RawMessage(`{}`), json.RawMessage(`{`)); !errors.Is(err, ErrInvalidJSON) {
		t.Fatalf("invalid value: %v", err)
	}
}

func TestSchemaCacheConcurrentAndBounded(t *testing.T) {
	cache := NewSchemaCache(3)
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for i := 0; i < 10; i++ {
				schema := json.RawMessage(fmt.Sprintf(`{"type":"object","properties":{"n":{"maximum":%d}}}`, i))
				issues, err := cache.Validate(schema, json.RawMessage(fmt.Sprintf(`{"n":%d}`, i+g%2)))
				if err != nil || (g%2 == 0) != (len(issues) == 0) {
					t.Errorf("g%d i%d: %v %v", g, i, issues, err)
				}
			}
		}(g)
	}
	wg.Wait()
	cache.mu.Lock()
	entries, order := len(cache.entries), len(cache.order)
	cache.mu.Unlock()
	if entries > 3 || order != entries {
		t.Fatalf("cache holds %d entries, order %d", entries, order)
	}
	// Compile failures are cached too and keep failing.
	if _, err := cache.Compile(json.RawMessage(`{"type":5}`)); !errors.Is(err, ErrInvalidSchema) {
		t.Fatal(err)
	}
}
