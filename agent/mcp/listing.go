package mcp

import (
	"fmt"
	"unicode"
	"unicode/utf8"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// A server's tool listing is a stranger's: one bad tool costs that tool,
// never the server's other tools nor anyone else's (a registry that does
// not build takes every tool from every chat). The budgets, per server:
const (
	// maxTools is how many tools of one server are offered; the model
	// APIs take a few hundred tools per request in all.
	maxTools = 256
	// maxListed is how many tools Juncture reads of a listing before it
	// stops asking for more pages (a server paging forever).
	maxListed = 1024
	// maxToolNameLen is the longest tool name the protocol allows
	// (names are 1 to 128 characters).
	maxToolNameLen = 128
	// maxSchemaBytes bounds one input schema: it is compiled at every
	// turn and sent with every request.
	maxSchemaBytes = 64 << 10
	// maxToolDescription bounds one tool's description, sent with every
	// request; a longer one is cut and says so.
	maxToolDescription = 8 << 10
)

// vetListing returns the tools of a listing that may be offered, in the
// listing's order, and a note for the server's log for each one left out
// or changed:
//   - a name that is empty, longer than 128 bytes, not UTF-8, or holds
//     control or format characters (a bidi override shows
//     "report\u202egnp.exe" as "reportexe.png") is left out;
//   - a name listed twice is left out both times: Juncture cannot tell
//     which definition the server would run, and the person may have
//     allowed the other one;
//   - past maxTools, the rest are left out;
//   - a description over maxToolDescription is cut.
//
// Input schemas are checked per tool by newToolEntry.
func vetListing(list []*sdk.Tool) (kept []*sdk.Tool, notes []string) {
	count := make(map[string]int, len(list))
	for _, t := range list {
		if t != nil {
			count[t.Name]++
		}
	}
	reported := map[string]bool{}
	for _, t := range list {
		if t == nil {
			continue
		}
		if why := badToolName(t.Name); why != "" {
			if t.Name == "" {
				notes = append(notes, "a tool with no name is not offered")
			} else {
				notes = append(notes, fmt.Sprintf("tool %q is not offered: %s", shorten(t.Name, 140), why))
			}
			continue
		}
		if count[t.Name] > 1 {
			if !reported[t.Name] {
				reported[t.Name] = true
				notes = append(notes, fmt.Sprintf("tool %q is listed twice; neither copy is offered", t.Name))
			}
			continue
		}
		if len(kept) == maxTools {
			notes = append(notes, fmt.Sprintf("the server lists more than %d tools; only the first %d are offered", maxTools, maxTools))
			break
		}
		if n := len(t.Description); n > maxToolDescription {
			t.Description = cutText(t.Description, maxToolDescription)
			notes = append(notes, fmt.Sprintf("the description of tool %q is cut to %s (it was %s)", t.Name, humanSize(maxToolDescription), humanSize(n)))
		}
		kept = append(kept, t)
	}
	return kept, notes
}

// badToolName says why a tool name cannot be offered, or "".
func badToolName(name string) string {
	switch {
	case name == "":
		return "it has no name"
	case len(name) > maxToolNameLen:
		return fmt.Sprintf("its name is longer than %d bytes", maxToolNameLen)
	case !utf8.ValidString(name):
		return "its name is not UTF-8"
	}
	for _, r := range name {
		if unicode.IsControl(r) || unicode.Is(unicode.Cf, r) {
			return "its name holds control or format characters"
		}
	}
	return ""
}

// cutText cuts s to at most n bytes (on a rune boundary) and says how
// much was cut: "… (cut: N bytes)".
func cutText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := runeCut(s, n)
	return s[:cut] + fmt.Sprintf("… (cut: %d bytes)", len(s)-cut)
}
