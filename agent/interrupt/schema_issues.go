package interrupt

import (
	"fmt"
	"math/big"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

var issuePrinter = message.NewPrinter(language.English)

// collectIssues flattens a validation error tree into person-readable
// issues: grouping nodes are descended, anyOf/oneOf failures are reported
// once (their branches would only confuse a person).
func collectIssues(ve *jsonschema.ValidationError, root any, out *[]Issue) {
	switch ve.ErrorKind.(type) {
	case *kind.Schema, *kind.Group, *kind.Reference, *kind.AllOf:
		for _, c := range ve.Causes {
			collectIssues(c, root, out)
		}
		return
	}
	ptr, path := locate(ve.InstanceLocation, root)
	add := func(extra []any, extraPtr, msg string) {
		p := append(append([]any{}, path...), extra...)
		*out = append(*out, Issue{Pointer: ptr + extraPtr, Path: p, Message: msg})
	}
	sub := subject(path)
	switch k := ve.ErrorKind.(type) {
	case *kind.Type:
		add(nil, "", sub+" must be "+typeList(k.Want))
	case *kind.Required:
		for _, m := range k.Missing {
			p := append(append([]any{}, path...), m)
			add([]any{m}, "/"+escapePointer(m), subject(p)+" is required")
		}
	case *kind.AdditionalProperties:
		for _, m := range k.Properties {
			p := append(append([]any{}, path...), m)
			add([]any{m}, "/"+escapePointer(m), subject(p)+" is not allowed")
		}
	case *kind.Enum:
		add(nil, "", sub+" must be one of "+valueList(k.Want))
	case *kind.Const:
		add(nil, "", sub+" must be "+valueText(k.Want))
	case *kind.MinLength:
		add(nil, "", fmt.Sprintf("%s must be at least %d %s long", sub, k.Want, plural(k.Want, "character")))
	case *kind.MaxLength:
		add(nil, "", fmt.Sprintf("%s must be at most %d %s long", sub, k.Want, plural(k.Want, "character")))
	case *kind.MinItems:
		add(nil, "", fmt.Sprintf("%s must have at least %d %s", sub, k.Want, plural(k.Want, "item")))
	case *kind.MaxItems:
		add(nil, "", fmt.Sprintf("%s must have at most %d %s", sub, k.Want, plural(k.Want, "item")))
	case *kind.MinProperties:
		add(nil, "", fmt.Sprintf("%s must have at least %d %s", sub, k.Want, plural(k.Want, "property")))
	case *kind.MaxProperties:
		add(nil, "", fmt.Sprintf("%s must have at most %d %s", sub, k.Want, plural(k.Want, "property")))
	case *kind.Minimum:
		add(nil, "", sub+" must be at least "+ratText(k.Want))
	case *kind.Maximum:
		add(nil, "", sub+" must be at most "+ratText(k.Want))
	case *kind.ExclusiveMinimum:
		add(nil, "", sub+" must be greater than "+ratText(k.Want))
	case *kind.ExclusiveMaximum:
		add(nil, "", sub+" must be less than "+ratText(k.Want))
	case *kind.MultipleOf:
		add(nil, "", sub+" must be a multiple of "+ratText(k.Want))
	case *kind.Pattern:
		add(nil, "", fmt.Sprintf("%s must match the pattern %q", sub, k.Want))
	case *kind.Format:
		add(nil, "", fmt.Sprintf("%s must be a valid %s", sub, k.Want))
	case *kind.UniqueItems:
		add(nil, "", fmt.Sprintf("%s must not contain duplicates (items %d and %d are equal)", sub, k.Duplicates[0], k.Duplicates[1]))
	case *kind.OneOf:
		if len(k.Subschemas) > 1 {
			add(nil, "", sub+" matches more than one of the allowed shapes")
		} else {
			add(nil, "", sub+" does not match any of the allowed shapes")
		}
	case *kind.AnyOf:
		add(nil, "", sub+" does not match any of the allowed shapes")
	case *kind.Not, *kind.FalseSchema:
		add(nil, "", sub+" is not allowed")
	default:
		add(nil, "", sub+": "+ve.ErrorKind.LocalizedString(issuePrinter))
	}
}

func escapePointer(tok string) string {
	return strings.NewReplacer("~", "~0", "/", "~1").Replace(tok)
}

func typeList(types []string) string {
	parts := make([]string, len(types))
	for i, t := range types {
		switch t {
		case "object", "array", "integer":
			parts[i] = "an " + t
		case "null":
			parts[i] = "null"
		default:
			parts[i] = "a " + t
		}
	}
	return strings.Join(parts, " or ")
}

func valueText(v any) string {
	if c, err := CanonicalJSON(v); err == nil {
		return c
	}
	return fmt.Sprint(v)
}

func valueList(vs []any) string {
	parts := make([]string, len(vs))
	for i, v := range vs {
		parts[i] = valueText(v)
	}
	return strings.Join(parts, ", ")
}

func ratText(r *big.Rat) string {
	if r == nil {
		return "?"
	}
	if r.IsInt() {
		return r.Num().String()
	}
	f, _ := r.Float64()
	return FormatNumber(f)
}

func plural(n int, word string) string {
	if n == 1 {
		return word
	}
	if strings.HasSuffix(word, "y") {
		return strings.TrimSuffix(word, "y") + "ies"
	}
	return word + "s"
}
