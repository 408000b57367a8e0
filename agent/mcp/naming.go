package mcp

import (
	"crypto/sha256"
	"encoding/hex"
	"strconv"
	"strings"
)

// MaxToolNameLen is the longest tool name model APIs accept; names must
// also match ^[a-zA-Z0-9_-]{1,64}$.
const MaxToolNameLen = 64

// toolHashLen is how many hex digits of the hash a safe-form name carries.
const toolHashLen = 10

// ToolName is what the model calls a server's tool. When the server name
// is made of [a-zA-Z0-9-] runs joined by single "_" and the tool name of
// [a-zA-Z0-9_-], and the whole fits, it is server + "__" + tool: the first
// "__" then always ends the server name, so distinct pairs get distinct
// names. Otherwise it is the safe form: both names sanitised (runs of other
// characters become one "_"), joined by "__", shortened, and ended with "_"
// and 10 hex digits of sha256(server + "\x00" + tool). It depends only on
// (server, tool); AssignNames resolves the rare collisions.
func ToolName(server, tool string) string {
	if plainServer(server) && plainTool(tool) && len(server)+2+len(tool) <= MaxToolNameLen {
		return server + "__" + tool
	}
	sum := sha256.Sum256([]byte(server + "\x00" + tool))
	return hashedName(server, tool, hex.EncodeToString(sum[:toolHashLen/2]))
}

// ToolRef is one tool of one server.
type ToolRef struct{ Server, Tool string }

// AssignNames names every ref with ToolName and makes the names distinct:
// the refs that share a name (a hash collision, or a safe form that equals
// another tool's plain form) all get longer hashes until no two do. The
// result depends on the set of refs only, not their order. Invert it to
// find the tool the model called.
func AssignNames(refs []ToolRef) map[ToolRef]string {
	level := make(map[ToolRef]int, len(refs))
	for _, r := range refs {
		level[r] = 0
	}
	names := make(map[ToolRef]string, len(level))
	for {
		byName := make(map[string][]ToolRef, len(level))
		for r, l := range level {
			n := nameAtLevel(r, l)
			names[r] = n
			byName[n] = append(byName[n], r)
		}
		bumped := false
		for _, group := range byName {
			if len(group) < 2 {
				continue
			}
			for _, r := range group {
				if level[r] < maxLevel {
					level[r]++
					bumped = true
				}
			}
		}
		if !bumped {
			return names
		}
	}
}

// maxLevel makes the hash 63 hex digits long: the whole name, less "_".
const maxLevel = MaxToolNameLen - 1 - toolHashLen

// nameAtLevel is ToolName at level 0, and a safe form with 10+level hex
// digits above it. Longer hashes are of a length-prefixed input, which no
// two distinct refs share even when a server name holds a NUL.
func nameAtLevel(r ToolRef, level int) string {
	if level == 0 {
		return ToolName(r.Server, r.Tool)
	}
	sum := sha256.Sum256([]byte(strconv.Itoa(len(r.Server)) + ":" + r.Server + "\x00" + r.Tool))
	return hashedName(r.Server, r.Tool, hex.EncodeToString(sum[:])[:toolHashLen+level])
}

// hashedName is the safe form: sanitised names joined by "__", cut so that
// "_" + hash fits in MaxToolNameLen.
func hashedName(server, tool, hash string) string {
	base := sanitizeName(server) + "__" + sanitizeName(tool)
	if limit := MaxToolNameLen - 1 - len(hash); len(base) > limit {
		base = base[:limit] // ASCII after sanitising: any cut is clean
	}
	return base + "_" + hash
}

// sanitizeName turns every run of characters outside [a-zA-Z0-9-] into one
// "_" and trims "_" at both ends.
func sanitizeName(s string) string {
	var b strings.Builder
	pending := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		if nameChar(c) {
			if pending && b.Len() > 0 {
				b.WriteByte('_')
			}
			pending = false
			b.WriteByte(c)
			continue
		}
		pending = true
	}
	return b.String()
}

func nameChar(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-'
}

// plainServer: ^[a-zA-Z0-9-]+(_[a-zA-Z0-9-]+)*$ (no "__", no "_" at
// either end).
func plainServer(s string) bool {
	if s == "" || s[0] == '_' || s[len(s)-1] == '_' || strings.Contains(s, "__") {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !nameChar(s[i]) && s[i] != '_' {
			return false
		}
	}
	return true
}

// plainTool: ^[a-zA-Z0-9_-]+$.
func plainTool(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !nameChar(s[i]) && s[i] != '_' {
			return false
		}
	}
	return true
}
