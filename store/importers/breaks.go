package importers

import "strings"

// hardBreaks makes each line break inside a paragraph a Markdown hard
// break ("  " before it). Claude shows a text block's line breaks as they
// are (a poem, an address), while Markdown, which Juncture renders an
// answer as, joins such lines with a space (issue 22 item 27). Blank lines,
// lines already ending in a hard break, and fenced code are left as they
// are; the text reads the same as plain text.
func hardBreaks(s string) string {
	if !strings.Contains(s, "\n") {
		return s
	}
	lines := strings.Split(s, "\n")
	fence := ""
	for i := 0; i < len(lines)-1; i++ {
		l := lines[i]
		t := strings.TrimLeft(l, " ")
		if fence != "" {
			if strings.HasPrefix(t, fence) {
				fence = ""
			}
			continue
		}
		if strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") {
			fence = t[:3]
			continue
		}
		if strings.TrimSpace(l) == "" || strings.TrimSpace(lines[i+1]) == "" ||
			strings.HasSuffix(l, "  ") || strings.HasSuffix(l, `\`) {
			continue
		}
		lines[i] = l + "  "
	}
	return strings.Join(lines, "\n")
}
