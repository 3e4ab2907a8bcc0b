package main

import "strings"

// wrap renders Markdown text (an experiment's describe file) for a
// terminal of the given width: the lines of a paragraph are joined and
// broken again at spaces so no line exceeds width (a longer word stays
// whole); a list item ("- ", "* " or "1. ") starts a new line and its
// continuation lines hang under its text; blank lines between paragraphs
// are kept; table rows ("|"), indented code and fenced code blocks are
// printed as they are.
func wrap(text string, width int) string {
	var out []string
	var para []string // words of the paragraph being filled
	indent, hang := "", ""
	flush := func() {
		if len(para) == 0 {
			return
		}
		line := indent
		first := true
		for _, word := range para {
			switch {
			case first:
				line += word
				first = false
			case len(line)+1+len(word) > width:
				out = append(out, line)
				line = hang + word
			default:
				line += " " + word
			}
		}
		out = append(out, line)
		para, indent, hang = nil, "", ""
	}
	fenced := false
	for _, line := range strings.Split(text, "\n") {
		trimmed := strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(trimmed, "```"):
			flush()
			fenced = !fenced
			out = append(out, line)
		case fenced, strings.HasPrefix(line, "    "), strings.HasPrefix(line, "\t"), strings.HasPrefix(trimmed, "|"):
			flush()
			out = append(out, line)
		case trimmed == "":
			flush()
			out = append(out, "")
		case listMarker(trimmed) != "":
			flush()
			lead := line[:len(line)-len(strings.TrimLeft(line, " "))]
			indent = lead
			hang = lead + strings.Repeat(" ", len(listMarker(trimmed)))
			para = strings.Fields(trimmed)
		default:
			para = append(para, strings.Fields(trimmed)...)
		}
	}
	flush()
	return strings.Join(out, "\n")
}

// listMarker returns the Markdown list marker that starts line ("- ",
// "* ", "12. ") or "" when the line is not a list item.
func listMarker(line string) string {
	if strings.HasPrefix(line, "- ") || strings.HasPrefix(line, "* ") {
		return line[:2]
	}
	i := 0
	for i < len(line) && line[i] >= '0' && line[i] <= '9' {
		i++
	}
	if i > 0 && strings.HasPrefix(line[i:], ". ") {
		return line[:i+2]
	}
	return ""
}
