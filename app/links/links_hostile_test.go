package links

import (
	"strings"
	"testing"
)

// A juncture:// link comes from anywhere (a web page, a mail): its chat id
// is only ever an id, so bytes that are not UTF-8, control characters
// (a newline in the log, a bidi override in a message) are not one.
func TestOpenURLRejectsHostileIDs(t *testing.T) {
	for _, raw := range []string{
		"juncture://thread/%FF%FE",
		"juncture://thread/abc%0Adef",
		"juncture://thread/abc%E2%80%AEgpj.exe",
		"juncture://thread/" + strings.Repeat("%E2%80%8B", 60),
	} {
		if id, ok := ParseOpenURL(raw); ok {
			t.Errorf("%s: accepted as %q", raw, id)
		}
	}
	if id, ok := ParseOpenURL("juncture://thread/" + strings.Repeat("é", 100)); !ok || id != strings.Repeat("é", 100) {
		t.Errorf("a 200-byte id of letters: %q %v", id, ok)
	}
}
