package main

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
)

// Go's string enums at the boundary, as TypeScript unions and const arrays.
// Reflection cannot list a type's constants, so they are read from the Go
// source: a named string type (history.Role) is an enum when its package
// declares constants of it; a plain string field is tied to a const block
// by fieldEnums below. Either way a value added in Go reaches the union,
// and an exhaustive switch in the window stops compiling until it handles
// it (TestNewEnumValueBreaksTheTypeCheck).

// enumNames renames named enum types whose Go name would clash or say too
// little in TypeScript ("pkg.Type" → TS name).
var enumNames = map[string]string{
	"history.Status": "MessageStatus",
	"mcp.Policy":     "McpPolicy",
}

// fieldEnum ties plain string fields (or maps of strings, by their
// values) to the const block that holds their values: fields are
// "TSStruct.jsonName"; anchor is "pkg.Const", one constant of the block
// (found by package name, or anywhere in the module when the name is
// unique, so a move of the package does not break it); except leaves
// constants of the block out. Keyed by the enum's TypeScript name.
type fieldEnum struct {
	anchor         string
	fields, except []string
}

var fieldEnums = map[string]fieldEnum{
	"PartKind":       {"history.PartImage", []string{"Part.kind"}, []string{"PartText"}}, // PartText is never stored
	"RuleScope":      {"history.ScopeTool", []string{"PermissionRule.scope", "RememberScope.scope"}, nil},
	"McpTransport":   {"mcp.TransportStdio", []string{"ServerStatus.transport"}, nil},
	"McpServerState": {"mcp.StatusStarting", []string{"ServerStatus.status"}, nil},
	"ResumeStatus":   {"interrupt.StatusResolved", []string{"ItemAnswer.status"}, nil},
	"EndpointSource": {"app.EndpointSaved", []string{"Endpoint.source"}, nil},
	"KeyState":       {"app.KeyUnavailable", []string{"Endpoint.keyState", "SettingsView.keyState"}, nil},
	"SettingSource":  {"app.SourceEnvironment", []string{"SettingsView.sources"}, nil},
	"ToolState":      {"", []string{"Message.toolState"}, nil}, // declared by the generator (contract.ToolStates)
}

// enum is one union.
type enum struct {
	name   string // TypeScript name
	origin string // where Go declares it
	values []string
}

// constDecl is one string constant of the module's source.
type constDecl struct {
	pkgDir, pkgName, name, typ, value string
	block                             *ast.GenDecl
}

// constIndex reads every string constant of the module (test files,
// frontend and dependencies left out) once.
type constIndex struct {
	module string // module path
	root   string
	consts []constDecl
}

func loadConsts(root string) (*constIndex, error) {
	mod, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		return nil, err
	}
	idx := &constIndex{root: root}
	for _, line := range strings.Split(string(mod), "\n") {
		if p, ok := strings.CutPrefix(strings.TrimSpace(line), "module "); ok {
			idx.module = strings.TrimSpace(p)
		}
	}
	fset := token.NewFileSet()
	err = filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			switch n := d.Name(); {
			case path != root && (strings.HasPrefix(n, ".") || n == "node_modules" || n == "frontend" || n == "testdata" || n == "build" || n == "e2e"):
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return fmt.Errorf("reading constants: %w", err)
		}
		idx.add(filepath.Dir(path), f)
		return nil
	})
	return idx, err
}

func (idx *constIndex) add(dir string, f *ast.File) {
	for _, d := range f.Decls {
		gd, ok := d.(*ast.GenDecl)
		if !ok || gd.Tok != token.CONST {
			continue
		}
		for _, s := range gd.Specs {
			vs := s.(*ast.ValueSpec)
			typ := ""
			if id, ok := vs.Type.(*ast.Ident); ok {
				typ = id.Name
			}
			for i, n := range vs.Names {
				if i >= len(vs.Values) {
					continue
				}
				v, conv := vs.Values[i], typ
				if c, ok := v.(*ast.CallExpr); ok && len(c.Args) == 1 { // Role("user")
					if id, ok := c.Fun.(*ast.Ident); ok {
						v, conv = c.Args[0], id.Name
					}
				}
				lit, ok := v.(*ast.BasicLit)
				if !ok || lit.Kind != token.STRING {
					continue
				}
				s, err := strconv.Unquote(lit.Value)
				if err != nil {
					continue
				}
				idx.consts = append(idx.consts, constDecl{pkgDir: dir, pkgName: f.Name.Name, name: n.Name, typ: conv, value: s, block: gd})
			}
		}
	}
}

// ofType lists the constants of the named string type t, in source order.
func (idx *constIndex) ofType(t reflect.Type) []string {
	rel, ok := strings.CutPrefix(t.PkgPath(), idx.module)
	if !ok {
		return nil
	}
	dir := filepath.Join(idx.root, filepath.FromSlash(strings.TrimPrefix(rel, "/")))
	var vs []string
	for _, c := range idx.consts {
		if c.pkgDir == dir && c.typ == t.Name() {
			vs = append(vs, c.value)
		}
	}
	return vs
}

// block lists the values of the const block that declares anchor.
func (idx *constIndex) block(anchor string, except []string) ([]string, error) {
	pkg, name, ok := strings.Cut(anchor, ".")
	if !ok {
		pkg, name = "", anchor
	}
	var found []constDecl
	for _, c := range idx.consts {
		if c.name == name && c.pkgName == pkg {
			found = append(found, c)
		}
	}
	if len(found) == 0 { // the package was renamed or moved: any unique one
		for _, c := range idx.consts {
			if c.name == name {
				found = append(found, c)
			}
		}
	}
	if len(found) != 1 {
		return nil, fmt.Errorf("enum anchor %s: %d string constants of that name in the module (want 1); fix fieldEnums in internal/contractgen/enums.go", anchor, len(found))
	}
	a := found[0]
	var vs []string
	for _, c := range idx.consts {
		if c.block == a.block && c.typ == a.typ && !contains(except, c.name) {
			vs = append(vs, c.value)
		}
	}
	return vs, nil
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// enumOf is the TS name of named string type t when it is an enum ("" if not).
func (g *generator) enumOf(t reflect.Type) string {
	if g.consts == nil || t.Kind() != reflect.String || t.Name() == "" || t.PkgPath() == "" {
		return ""
	}
	if n, ok := g.typeEnums[t]; ok {
		return n
	}
	vs := g.consts.ofType(t)
	name := ""
	if len(vs) > 0 {
		key := pkgName(t) + "." + t.Name()
		name = t.Name()
		if n, ok := enumNames[key]; ok {
			name = n
		}
		g.addEnum(enum{name: name, origin: key, values: vs})
	}
	g.typeEnums[t] = name
	return name
}

// extraEnumValues adds values to enums, as if Go declared them (tests only:
// TestNewEnumValueBreaksTheTypeCheck).
var extraEnumValues map[string][]string

// addEnum records e; a second declaration of the same name must agree.
func (g *generator) addEnum(e enum) {
	e.values = append(e.values[:len(e.values):len(e.values)], extraEnumValues[e.name]...)
	if old, ok := g.enums[e.name]; ok {
		if strings.Join(old.values, "\x00") != strings.Join(e.values, "\x00") {
			g.fail(fmt.Errorf("enum %s: %s and %s list different values", e.name, old.origin, e.origin))
		}
		return
	}
	g.enums[e.name] = e
}

// loadFieldEnums resolves fieldEnums against the source.
func (g *generator) loadFieldEnums() error {
	g.fieldEnums = map[string]string{}
	for _, name := range sortedKeys(fieldEnums) {
		fe := fieldEnums[name]
		for _, f := range fe.fields {
			g.fieldEnums[f] = name
		}
		if fe.anchor == "" {
			continue // a type the generator declares itself (ToolState)
		}
		vs, err := g.consts.block(fe.anchor, fe.except)
		if err != nil {
			return err
		}
		g.addEnum(enum{name: name, origin: fe.anchor + "'s block", values: vs})
	}
	return nil
}

// fieldType is the TS type of a struct field tied to an enum, or "".
func (g *generator) fieldType(structName string, f field) string {
	e := g.fieldEnums[structName+"."+f.name]
	if e == "" {
		return ""
	}
	t := f.typ
	switch {
	case t.Kind() == reflect.String:
		return e
	case t.Kind() == reflect.Map && t.Elem().Kind() == reflect.String:
		return "Record<string, " + e + ">"
	case t.Kind() == reflect.Slice && t.Elem().Kind() == reflect.String:
		return e + "[]"
	}
	g.fail(fmt.Errorf("fieldEnums: %s.%s is %s, not a string, map of strings or slice of strings", structName, f.name, t))
	return ""
}

// constName is the const array's name: PartKind → PART_KINDS.
func constName(tsName string) string {
	var b strings.Builder
	for i, r := range tsName {
		if i > 0 && r >= 'A' && r <= 'Z' {
			b.WriteByte('_')
		}
		b.WriteRune(r)
	}
	s := strings.ToUpper(b.String())
	switch {
	case strings.HasSuffix(s, "S"):
		return s + "ES"
	case strings.HasSuffix(s, "Y"):
		return s[:len(s)-1] + "IES"
	}
	return s + "S"
}

func (g *generator) renderEnums(b *strings.Builder) {
	for _, n := range sortedKeys(g.enums) {
		e := g.enums[n]
		qs := make([]string, len(e.values))
		for i, v := range e.values {
			qs[i] = strconv.Quote(v)
		}
		fmt.Fprintf(b, "\n/** %s */\n", e.origin)
		fmt.Fprintf(b, "export type %s =\n  | %s;\n\n", e.name, strings.Join(qs, "\n  | "))
		fmt.Fprintf(b, "export const %s = [\n  %s,\n] as const satisfies readonly %s[];\n\n", constName(e.name), strings.Join(qs, ",\n  "), e.name)
		fmt.Fprintf(b, "export function is%s(v: unknown): v is %s {\n  return typeof v === 'string' && (%s as readonly string[]).includes(v);\n}\n", e.name, e.name, constName(e.name))
	}
}
