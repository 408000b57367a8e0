package importers

import "strings"

// answerBreaks is hardBreaks within the message budget: an answer the
// change would make larger than MaxMessageBytes (up to twice its size, for
// one of short lines) is kept as written, so that no imported message is
// over the budget checkText held it to.
func answerBreaks(s string) string {
	if b := hardBreaks(s); len(b) <= MaxMessageBytes {
		return b
	}
	return s
}

// hardBreaks makes each line break inside a paragraph a Markdown hard
// break ("  " before it). Claude shows a text block's line breaks as they
// are (a poem, an address), while Markdown, which Juncture renders an
// answer as, joins such lines with a space (issue 22 item 27). Blank lines,
// lines already ending in a hard break, and code (fenced, as CommonMark
// opens and closes a fence, or indented) are left as they are; the text
// reads the same as plain text.
func hardBreaks(s string) string {
	if !strings.Contains(s, "\n") {
		return s
	}
	lines := strings.Split(s, "\n")
	var fence string // the opening fence's run ("```", "~~~~") while inside one
	indented := false
	for i := 0; i < len(lines)-1; i++ {
		l := strings.TrimSuffix(lines[i], "\r")
		blank := strings.TrimSpace(l) == ""
		if fence != "" {
			if run, rest := fenceRun(l); run != "" && run[0] == fence[0] && len(run) >= len(fence) && strings.TrimSpace(rest) == "" {
				fence = ""
			}
			continue
		}
		if run, _ := fenceRun(l); run != "" {
			fence = run
			continue
		}
		// Indented code starts after a blank line (or at the start) and
		// goes on over indented and blank lines.
		deep := strings.HasPrefix(l, "    ") || strings.HasPrefix(l, "\t")
		indented = deep && (indented || i == 0 || strings.TrimSpace(lines[i-1]) == "") || indented && blank
		if indented || blank || strings.TrimSpace(lines[i+1]) == "" ||
			strings.HasSuffix(l, "  ") || strings.HasSuffix(l, `\`) {
			continue
		}
		lines[i] = l + "  " + lines[i][len(l):] // before a Windows "\r"
	}
	return strings.Join(lines, "\n")
}

// fenceRun returns the fence a line opens or closes (its run of three or
// more ` or ~, indented at most three spaces) and what follows it; "" when
// the line is not a fence.
func fenceRun(l string) (run, rest string) {
	t := strings.TrimLeft(l, " ")
	if len(l)-len(t) > 3 || len(t) < 3 || t[0] != '`' && t[0] != '~' {
		return "", ""
	}
	n := 0
	for n < len(t) && t[n] == t[0] {
		n++
	}
	if n < 3 {
		return "", ""
	}
	return t[:n], t[n:]
}
