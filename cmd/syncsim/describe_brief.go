package main

import (
	"fmt"
	"io"
	"strings"

	"syncsim/experiments"
)

// describeBrief prints the one screen describe shows by default: the
// summary line, the lead (the first paragraph of the Doc: what the
// experiment models), the parameters the experiment names as Common and
// the metrics it names as Headline, and where the rest is.
func describeBrief(w io.Writer, e *experiments.Experiment) error {
	width := textWidth(w)
	fmt.Fprintf(w, "%s\n\n", wrap(e.Name+": "+e.Summary, width))
	if lead := leadParagraph(e.Doc); lead != "" {
		fmt.Fprintf(w, "%s\n\n", wrap(lead, width))
	}
	params := e.CommonParams()
	what := "Parameters (--set name=value, --vary name=v1,v2,...):"
	if len(params) < len(e.Params) {
		what = fmt.Sprintf("Parameters most users change (%d of %d; --set name=value, --vary name=v1,v2,...):", len(params), len(e.Params))
	}
	fmt.Fprintln(w, wrap(what, width))
	rows := make([][]string, len(params))
	for i, p := range params {
		rows[i] = []string{p.Name, p.Default, allowedText(p), briefHelp(p.Help)}
	}
	if err := renderTable(w, []string{"name", "default", "allowed", "help"}, rows); err != nil {
		return err
	}
	metrics := e.HeadlineMetrics()
	what = "Metrics (CSV columns after trial and seed)"
	if len(metrics) < len(e.Metrics) {
		what = fmt.Sprintf("Headline metrics (%d of %d; what summarise reports by default)", len(metrics), len(e.Metrics))
	}
	fmt.Fprintln(w, "\n"+wrap(what+":", width))
	rows = make([][]string, len(metrics))
	for i, m := range metrics {
		rows[i] = []string{m.Name, m.Unit, briefHelp(m.Help)}
	}
	if err := renderTable(w, []string{"name", "unit", "help"}, rows); err != nil {
		return err
	}
	if len(params) < len(e.Params) || len(metrics) < len(e.Metrics) || leadParagraph(e.Doc) != strings.TrimSpace(e.Doc) {
		fmt.Fprintf(w, "\n%s\n", wrap(fmt.Sprintf("The whole description and every parameter and metric: syncsim describe %s --full", e.Name), width))
	}
	return nil
}

// leadParagraph is the first paragraph of an experiment's Doc, which
// says in a few lines what the experiment models.
func leadParagraph(doc string) string {
	lead, _, _ := strings.Cut(strings.TrimSpace(doc), "\n\n")
	return strings.TrimSpace(lead)
}

// briefWidth bounds a help text in describe's summary, in characters.
const briefWidth = 56

// briefHelp is a help text shortened for describe's summary: its first
// clause (up to a "; " outside parentheses), less a parenthesis that
// ends it, cut at a word to at most briefWidth characters and marked
// " ..." where cut; describe --full prints it whole.
func briefHelp(h string) string {
	depth := 0
	for i, r := range h {
		switch r {
		case '(':
			depth++
		case ')':
			depth--
		case ';':
			if depth == 0 && strings.HasPrefix(h[i:], "; ") {
				h = h[:i]
			}
		}
		if len(h) <= i {
			break
		}
	}
	if open := closingParen(h); open > 0 && h[open-1] == ' ' && len(strings.Fields(h[:open])) >= 2 {
		h = h[:open-1]
	}
	if textLen(h) <= briefWidth {
		return h
	}
	r := []rune(h)
	cut := strings.LastIndex(string(r[:briefWidth]), " ")
	if cut <= 0 {
		return h
	}
	return strings.TrimRight(h[:cut], ",;:") + " ..."
}

// closingParen returns the index of the '(' that matches a ')' ending h,
// or -1 when h does not end with a balanced parenthesis.
func closingParen(h string) int {
	if !strings.HasSuffix(h, ")") {
		return -1
	}
	depth := 0
	for i := len(h) - 1; i >= 0; i-- {
		switch h[i] {
		case ')':
			depth++
		case '(':
			if depth--; depth == 0 {
				return i
			}
		}
	}
	return -1
}
