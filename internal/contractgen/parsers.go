package main

import (
	"fmt"
	"reflect"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"unicode"

	"github.com/juncture-app/juncture/agent/contract"
)

// ParsersPath is the generated parsers' file, relative to the module root.
const ParsersPath = "frontend/src/transport/parse.gen.ts"

// policy is how tolerant the parser of one struct is, where Go's types do
// not say: which members must be there for the value to count (the rest
// default to Go's zero value), and the few defaults and readings the
// window relies on. Each entry was read off the hand-written parser it
// replaces, so the generated one is strict exactly where that one was.
// TypeScript snippets see the raw object as `u`.
type policy struct {
	required []string          // members that must have their type ("name!": a non-empty string)
	check    string            // a further condition on u
	strict   bool              // invalid inside a list or a member: throws instead of being left out
	lenient  bool              // parseX on a non-object returns the defaults instead of throwing
	full     bool              // optional members are filled with their zero value too
	defaults map[string]string // member → TS default when absent or ill-typed
	exprs    map[string]string // member → TS expression that reads it instead
	types    map[string]string // member → a narrower TS type in contract.gen.ts (read by its exprs entry)
	present  []string          // optional members kept whenever they read, zero ("", {}) included
}

var policies = map[string]policy{
	// contract.ts
	"Thread":         {required: []string{"id"}, strict: true, defaults: map[string]string{"updatedAt": "num(u, 'createdAt')"}},
	"ThreadListItem": {required: []string{"id"}, strict: true, defaults: map[string]string{"updatedAt": "num(u, 'createdAt')"}, exprs: map[string]string{"waiting": "Math.max(0, Math.floor(num(u, 'waiting')))"}},
	// AG-UI sends tool calls as {id, function: {name, arguments}}.
	"ToolCall":       {required: []string{"id"}, exprs: map[string]string{"name": "str(obj(u, 'function') ?? u, 'name')", "arguments": "str(obj(u, 'function') ?? u, 'arguments')"}},
	"Message":        {required: []string{"id"}, strict: true},
	"AttachmentRef":  {required: []string{"id", "name"}},
	"AttachmentData": {required: []string{"data"}},
	"Branch":         {required: []string{"index", "count", "siblings"}, check: "num(u, 'count') >= 2 && arr(u, 'siblings').length === num(u, 'count') && num(u, 'index') >= 1 && num(u, 'index') <= num(u, 'count')"},
	"Usage":          {required: []string{"promptTokens", "completionTokens"}, defaults: map[string]string{"totalTokens": "num(u, 'promptTokens') + num(u, 'completionTokens')"}},
	"ThreadUsage":    {lenient: true},
	"Part":           {required: []string{"kind"}},
	"Progress":       {required: []string{"progress"}},
	"Interrupt": {required: []string{"id"}, exprs: map[string]string{"responseSchema": "jsonObj(u, 'responseSchema')", "metadata": "obj(u, 'metadata')"}, types: map[string]string{"responseSchema": "JsonObject"},
		present: []string{"message", "toolCallId", "expiresAt", "metadata"}}, // AG-UI: "" is a value
	"ClientToolCall":    {required: []string{"toolCallId"}, defaults: map[string]string{"arguments": "'{}'"}, present: []string{"result"}},
	"Settings":          {strict: true, defaults: map[string]string{"loopGuard": "25"}},
	"SearchHit":         {required: []string{"threadId"}},
	"Export":            {required: []string{"content"}, defaults: map[string]string{"filename": "'conversation.txt'"}},
	"PermissionRule":    {required: []string{"id", "scope"}},
	"ToolStateEvent":    {required: []string{"toolCallId!", "state"}, present: []string{"arguments"}},
	"MessageErrorEvent": {defaults: map[string]string{"error": "'The model endpoint returned an error.'"}},
	"ToolInfo":          {required: []string{"name"}, defaults: map[string]string{"modelName": "str(u, 'name')"}},
	"ServerStatus":      {required: []string{"name"}},
	"ServerConfig":      {lenient: true},
	"MCPServerEntry":    {required: []string{"name"}},
	"MCPConfigError":    {defaults: map[string]string{"line": "1", "column": "1", "message": "'The file does not parse.'"}},
	// endpoints.ts
	"Endpoint":      {required: []string{"id"}, defaults: map[string]string{"name": "str(u, 'id')"}},
	"Preset":        {required: []string{"id"}, defaults: map[string]string{"name": "str(u, 'id')"}},
	"ThreadOptions": {lenient: true},
	// mcpOffers.ts: a server named these; every member is filled.
	"PromptList":      {lenient: true},
	"PromptInfo":      {required: []string{"name", "server"}, full: true, defaults: map[string]string{"serverTitle": "str(u, 'server')"}},
	"PromptArg":       {required: []string{"name"}, full: true},
	"PromptText":      {lenient: true},
	"ResourceFile":    {required: []string{"data", "name"}, defaults: map[string]string{"mimeType": "'application/octet-stream'"}},
	"Completion":      {lenient: true, full: true, exprs: map[string]string{"values": "isStringArray(u.values) ? u.values.slice(0, 100) : []"}},
	"ResourceCatalog": {lenient: true},
	"ResourceServer":  {required: []string{"server"}, defaults: map[string]string{"title": "str(u, 'server')"}},
	"ResourceInfo":    {required: []string{"uri"}, full: true, defaults: map[string]string{"name": "str(u, 'uri')"}},
	"TemplateInfo":    {required: []string{"uriTemplate"}, full: true, defaults: map[string]string{"name": "str(u, 'uriTemplate')"}},
	"ResourceRead":    {lenient: true},
}

// enumFallbacks is the value a required enum member takes when Go sent
// one this build does not know (default: the first of Go's list).
var enumFallbacks = map[string]string{"Role": "system"}

// GenerateParsers renders parse.gen.ts: readX/parseX for every struct of
// the contract and the result parser of every bound method.
func GenerateParsers() ([]byte, error) {
	g, err := loadedGenerator()
	if err != nil {
		return nil, err
	}
	for n := range policies {
		if !g.hasStruct(n) {
			return nil, fmt.Errorf("contractgen policies: no contract type %s (renamed or gone?)", n)
		}
	}
	var body strings.Builder
	g.assignNames()
	ts := g.sortedStructs()
	for _, t := range ts {
		g.renderParser(&body, t)
	}
	body.WriteString("\n// ---------------------------------------------------------------- method results\n\n")
	body.WriteString("/** Each bound method's result parser (the window narrows a few in methods.ts). */\n")
	body.WriteString("export const resultParsers = {\n")
	for _, m := range g.methods {
		fmt.Fprintf(&body, "  %s: %s,\n", m.name, g.resultParser(m))
	}
	body.WriteString("} satisfies { [M in keyof G.Methods]: (u: unknown) => G.Methods[M]['result'] };\n")
	if g.err != nil {
		return nil, g.err
	}

	var b strings.Builder
	b.WriteString(Header)
	b.WriteString("// Parsers that narrow unknown JSON to the contract's wire types (contract.gen.ts),\n")
	b.WriteString("// from the Go types and the tolerance policies in internal/contractgen/parsers.go:\n")
	b.WriteString("// readX gives null for a value that is not an X, parseX throws (or, for a type\n")
	b.WriteString("// a missing value may stand for, returns its defaults). Members left out or\n")
	b.WriteString("// ill-typed take Go's zero value; optional ones are left out when zero.\n\n")
	src := body.String()
	b.WriteString("import type * as G from './contract.gen';\n")
	if guards := usedNames(src, `\b(is[A-Z][A-Za-z]*)\(`, map[string]bool{"isObject": true, "isString": true, "isNumber": true, "isBoolean": true, "isStringArray": true, "isJsonValue": true}); len(guards) > 0 {
		fmt.Fprintf(&b, "import { %s } from './contract.gen';\n", strings.Join(guards, ", "))
	}
	b.WriteString("import { JunctureError } from './errors';\n")
	helpers := usedNames(src, `\b(isObject|isString|isNumber|isBoolean|isStringArray|isJsonValue|str|num|arr|obj|jsonObj|list|record)\(`, nil)
	fmt.Fprintf(&b, "import { %s } from './json';\n\n", strings.Join(helpers, ", "))
	b.WriteString(parserHelpers)
	b.WriteString(src)
	return []byte(b.String()), nil
}

const parserHelpers = `function bad(what: string): JunctureError {
  return new JunctureError('bad-response', ` + "`Unexpected ${what} from Juncture`" + `);
}

export function parseNull(_u: unknown): null {
  return null;
}
`

// usedNames lists the distinct first groups of re in src, minus skip, sorted.
func usedNames(src, re string, skip map[string]bool) []string {
	seen := map[string]bool{}
	for _, m := range regexp.MustCompile(re).FindAllStringSubmatch(src, -1) {
		if !skip[m[1]] {
			seen[m[1]] = true
		}
	}
	return sortedKeys(seen)
}

func (g *generator) hasStruct(name string) bool {
	g.assignNames()
	for _, n := range g.names {
		if n == name {
			return true
		}
	}
	return false
}

func (g *generator) sortedStructs() []reflect.Type {
	ts := make([]reflect.Type, 0, len(g.structs))
	for t := range g.structs {
		ts = append(ts, t)
	}
	sort.Slice(ts, func(i, j int) bool {
		if g.names[ts[i]] != g.names[ts[j]] {
			return g.names[ts[i]] < g.names[ts[j]]
		}
		return ts[i].PkgPath() < ts[j].PkgPath()
	})
	return ts
}

func (g *generator) renderParser(b *strings.Builder, t reflect.Type) {
	n := g.names[t]
	p := policies[n]
	fs := jsonFields(t)
	fmt.Fprintf(b, "\n// %s.%s\n\n", pkgName(t), t.Name())
	named := append(append(append(sortedKeys(p.defaults), sortedKeys(p.exprs)...), sortedKeys(p.types)...), p.present...)
	for _, m := range named {
		if _, ok := fieldNamed(fs, m); !ok {
			g.fail(fmt.Errorf("contractgen policies: %s has no member %q", n, m))
		}
	}

	g.renderFill(b, n, p, fs)

	// read: null unless u is an object with its required members.
	conds := []string{"isObject(u)"}
	for _, r := range p.required {
		name, nonEmpty := strings.CutSuffix(r, "!")
		f, ok := fieldNamed(fs, name)
		if !ok {
			g.fail(fmt.Errorf("contractgen policies: %s has no member %q", n, name))
			continue
		}
		acc := access("u", name)
		conds = append(conds, g.typeCheck(g.memberType(n, f), acc))
		if nonEmpty {
			conds = append(conds, acc+" !== ''")
		}
	}
	if p.check != "" {
		conds = append(conds, "("+p.check+")")
	}
	fmt.Fprintf(b, "\n/** u as %s, or null when it is not one. */\n", article(n))
	fmt.Fprintf(b, "export function read%s(u: unknown): G.%s | null {\n", n, n)
	fmt.Fprintf(b, "  return %s ? fill%s(u) : null;\n}\n", strings.Join(conds, " && "), n)

	fmt.Fprintf(b, "\nexport function parse%s(u: unknown): G.%s {\n", n, n)
	if p.lenient {
		fmt.Fprintf(b, "  return read%s(u) ?? fill%s({});\n}\n", n, n)
	} else {
		fmt.Fprintf(b, "  const v = read%s(u);\n  if (v === null) throw bad(%s);\n  return v;\n}\n", n, strconv.Quote(phrase(n)))
	}
}

// renderFill writes fillX: every member of X from u, with its default.
func (g *generator) renderFill(b *strings.Builder, n string, p policy, fs []field) {
	fmt.Fprintf(b, "function fill%s(u: Record<string, unknown>): G.%s {\n", n, n)
	if len(fs) == 0 {
		b.WriteString("  void u;\n  return {};\n}\n")
	} else {
		var req, opt []string
		for _, f := range fs {
			acc := access("u", f.name)
			typ := g.memberType(n, f)
			rd := g.read(typ, acc, 0)
			if e, ok := p.exprs[f.name]; ok {
				rd = "(" + e + ")"
			}
			if !f.omitEmpty || p.full {
				def := g.zero(typ)
				if d, ok := p.defaults[f.name]; ok {
					def = d
				}
				if _, ok := p.exprs[f.name]; ok || strings.HasPrefix(rd, "parse") { // never undefined
					req = append(req, fmt.Sprintf("%s: %s,", propName(f.name), rd))
					continue
				}
				if strings.ContainsAny(def, " ?:|&") {
					def = "(" + def + ")"
				}
				req = append(req, fmt.Sprintf("%s: %s ?? %s,", propName(f.name), rd, def))
				continue
			}
			set := nonZero(typ, "v")
			if contains(p.present, f.name) {
				set = "v !== undefined"
			}
			opt = append(opt, fmt.Sprintf("  {\n    const v = %s;\n    if (%s) o%s = v;\n  }", rd, set, memberAccess(f.name)))
		}
		if len(opt) == 0 {
			fmt.Fprintf(b, "  return {\n    %s\n  };\n}\n", strings.Join(req, "\n    "))
		} else {
			fmt.Fprintf(b, "  const o: G.%s = {\n    %s\n  };\n%s\n  return o;\n}\n", n, strings.Join(req, "\n    "), strings.Join(opt, "\n"))
		}
	}
}

func fieldNamed(fs []field, name string) (field, bool) {
	for _, f := range fs {
		if f.name == name {
			return f, true
		}
	}
	return field{}, false
}

// tsType is the shape the parser reads: a Go type, or an enum a plain
// string field is tied to.
type tsType struct {
	t    reflect.Type
	enum string // fieldEnums: the field's (or its elements') enum
}

func (g *generator) memberType(structName string, f field) tsType {
	return tsType{t: f.typ, enum: g.fieldEnums[structName+"."+f.name]}
}

func (g *generator) enumName(tt tsType) string {
	if tt.t.Kind() != reflect.String {
		return ""
	}
	if tt.enum != "" {
		return tt.enum
	}
	if tt.t == toolStateType {
		return "ToolState"
	}
	return g.enumOf(tt.t)
}

func elem(tt tsType) tsType { return tsType{t: tt.t.Elem(), enum: tt.enum} }

// read is a TS expression of x (unknown) as the type, or undefined when x is not one.
func (g *generator) read(tt tsType, x string, depth int) string {
	t := tt.t
	if t.Kind() == reflect.Pointer {
		return g.read(elem(tt), x, depth)
	}
	switch s := special(t); {
	case t == rawType:
		return fmt.Sprintf("(%s !== undefined && isJsonValue(%s) ? %s : undefined)", x, x, x)
	case s == "ToolState":
		return fmt.Sprintf("(isToolState(%s) ? %s : undefined)", x, x)
	case s == "string":
		return fmt.Sprintf("(isString(%s) ? %s : undefined)", x, x)
	case s == "unknown":
		return x
	}
	e := fmt.Sprintf("e%d", depth)
	switch t.Kind() {
	case reflect.Bool:
		return fmt.Sprintf("(isBoolean(%s) ? %s : undefined)", x, x)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64:
		return fmt.Sprintf("(isNumber(%s) ? %s : undefined)", x, x)
	case reflect.String:
		if en := g.enumName(tt); en != "" {
			return fmt.Sprintf("(is%s(%s) ? %s : undefined)", en, x, x)
		}
		return fmt.Sprintf("(isString(%s) ? %s : undefined)", x, x)
	case reflect.Slice, reflect.Array:
		if t.Elem().Kind() == reflect.Uint8 && special(t.Elem()) == "" {
			return fmt.Sprintf("(isString(%s) ? %s : undefined)", x, x)
		}
		if t.Elem().Kind() == reflect.String && g.enumName(elem(tt)) == "" {
			return fmt.Sprintf("(isStringArray(%s) ? %s : undefined)", x, x) // all or nothing
		}
		return fmt.Sprintf("list(%s, (%s) => %s)", x, e, g.readElem(elem(tt), e, depth+1))
	case reflect.Map:
		return fmt.Sprintf("record(%s, (%s) => %s)", x, e, g.readElem(elem(tt), e, depth+1))
	case reflect.Struct:
		if t.Name() == "" {
			g.fail(fmt.Errorf("contractgen parsers: anonymous struct %s", t))
			return "undefined"
		}
		n := g.names[t]
		if policies[n].strict {
			return fmt.Sprintf("parse%s(%s)", n, x)
		}
		return fmt.Sprintf("(read%s(%s) ?? undefined)", n, x)
	case reflect.Interface:
		return x
	}
	g.fail(fmt.Errorf("contractgen parsers: no reader for %s", t))
	return "undefined"
}

// readElem reads a list element or a map value (a nil pointer inside reads as null).
func (g *generator) readElem(tt tsType, x string, depth int) string {
	return g.read(tt, x, depth)
}

// typeCheck is a TS condition that x has the type.
func (g *generator) typeCheck(tt tsType, x string) string {
	r := g.read(tt, x, 0)
	if m := guardRE.FindStringSubmatch(r); m != nil && m[2] == x && m[3] == x {
		return m[1] + "(" + x + ")"
	}
	return r + " !== undefined"
}

// guardRE matches a read that is a guard: (isX(x) ? x : undefined).
var guardRE = regexp.MustCompile(`^\((is[A-Za-z]+)\(([^()]+)\) \? ([^()]+) : undefined\)$`)

// zero is the TS of Go's zero value as the window sees it.
func (g *generator) zero(tt tsType) string {
	t := tt.t
	switch {
	case t.Kind() == reflect.Pointer, t == rawType:
		return "null"
	case special(t) == "string":
		return "''"
	case special(t) == "unknown", t.Kind() == reflect.Interface:
		return "null"
	case special(t) == "ToolState":
		return strconv.Quote(string(contract.ToolStates[0]))
	}
	switch t.Kind() {
	case reflect.Bool:
		return "false"
	case reflect.String:
		if en := g.enumName(tt); en != "" {
			if fb, ok := enumFallbacks[en]; ok {
				return strconv.Quote(fb)
			}
			return strconv.Quote(g.enums[en].values[0])
		}
		return "''"
	case reflect.Slice, reflect.Array:
		if t.Elem().Kind() == reflect.Uint8 {
			return "''"
		}
		return "[]"
	case reflect.Map:
		return "{}"
	case reflect.Struct:
		return "fill" + g.names[t] + "({})"
	}
	return "0"
}

// nonZero is a TS condition that v (the read of an optional member) is set
// and not Go's zero value (omitempty leaves those out).
func nonZero(tt tsType, v string) string {
	t := tt.t
	if t.Kind() == reflect.Pointer {
		return v + " !== undefined && " + v + " !== null"
	}
	if t == rawType || special(t) == "unknown" || t.Kind() == reflect.Interface {
		return v + " !== undefined && " + v + " !== null"
	}
	switch t.Kind() {
	case reflect.Bool:
		return v + " === true"
	case reflect.String:
		return "!!" + v
	case reflect.Slice, reflect.Array:
		if t.Elem().Kind() == reflect.Uint8 {
			return "!!" + v
		}
		return v + " !== undefined && " + v + ".length > 0"
	case reflect.Map:
		return v + " !== undefined && Object.keys(" + v + ").length > 0"
	case reflect.Struct:
		return v + " !== undefined"
	}
	return v + " !== undefined && " + v + " > 0"
}

var identRE = regexp.MustCompile(`^[A-Za-z_$][A-Za-z0-9_$]*$`)

func access(obj, name string) string {
	if identRE.MatchString(name) {
		return obj + "." + name
	}
	return obj + "[" + strconv.Quote(name) + "]"
}

func memberAccess(name string) string {
	if identRE.MatchString(name) {
		return "." + name
	}
	return "[" + strconv.Quote(name) + "]"
}

// resultParser is the TS parser of a method's result.
func (g *generator) resultParser(m method) string {
	if len(m.results) == 0 {
		return "parseNull"
	}
	t := m.results[0]
	tt := tsType{t: t}
	ret := g.ts(t)
	switch {
	case t.Kind() == reflect.Struct && t.Name() != "":
		return "parse" + g.names[t]
	case t.Kind() == reflect.Slice && t.Elem().Kind() == reflect.Struct:
		// A list keeps the elements that read, strict types included.
		return fmt.Sprintf("(u: unknown): G.%s => list(u, (e) => read%s(e) ?? undefined) ?? []", ret, g.names[t.Elem()])
	}
	return fmt.Sprintf("(u: unknown): %s => %s ?? %s", ret, g.read(tt, "u", 0), g.zero(tt))
}

// article is "a X" or "an X".
func article(n string) string {
	if strings.ContainsRune("AEIOU", rune(n[0])) {
		return "an " + n
	}
	return "a " + n
}

// phrase is a type name as words: MCPConfigView → "MCP config view".
func phrase(name string) string {
	var words []string
	start := 0
	r := []rune(name)
	for i := 1; i < len(r); i++ {
		up, prevUp := unicode.IsUpper(r[i]), unicode.IsUpper(r[i-1])
		nextLow := i+1 < len(r) && unicode.IsLower(r[i+1])
		if up && (!prevUp || nextLow) {
			words = append(words, string(r[start:i]))
			start = i
		}
	}
	words = append(words, string(r[start:]))
	for i, w := range words {
		if strings.ToUpper(w) != w {
			words[i] = strings.ToLower(w)
		}
	}
	return strings.Join(words, " ")
}
