package main

import (
	"io"
	"math"
	"os"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/olekukonko/tablewriter"
	"github.com/olekukonko/tablewriter/tw"
	"golang.org/x/term"

	"syncsim/experiments"
)

// helpWidth bounds the width of a table cell; longer text (help strings)
// wraps at word boundaries.
const helpWidth = 60

// Widths of the text written for a person: what the terminal has, within
// bounds; off a terminal (a pipe, a file, a test) defaultWidth.
const (
	defaultWidth = 100
	minWidth     = 40
)

// textWidth is the width to wrap text and tables written to w for: the
// COLUMNS environment variable when it holds a number, else the width of
// the terminal w is, else defaultWidth; never below minWidth.
func textWidth(w io.Writer) int {
	if n, err := strconv.Atoi(os.Getenv("COLUMNS")); err == nil && n > 0 {
		return max(n, minWidth)
	}
	if f, ok := w.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		if cols, _, err := term.GetSize(int(f.Fd())); err == nil && cols > 0 {
			return max(cols, minWidth)
		}
	}
	return defaultWidth
}

// renderTable writes a bordered table with the header printed as given
// (no upper-casing, so snake_case names stay recognisable), its cells
// wrapped so the table fits the width of w (see textWidth). When even
// the narrowest columns that break no name do not fit, each row is
// written as a block instead (see renderBlocks).
func renderTable(w io.Writer, header []string, rows [][]string) error {
	width := textWidth(w)
	widths := fitColumns(header, rows, width)
	total := 3*len(widths) + 1
	for _, c := range widths {
		total += c
	}
	if total > width {
		return renderBlocks(w, header, rows, width)
	}
	t := tablewriter.NewTable(w,
		tablewriter.WithHeaderAutoFormat(tw.Off),
		tablewriter.WithHeaderAlignment(tw.AlignLeft),
		tablewriter.WithRowAlignment(tw.AlignLeft),
		tablewriter.WithRowAutoWrap(tw.WrapNone),
		tablewriter.WithHeaderAutoWrap(tw.WrapNone),
	)
	h := make([]any, len(header))
	for i, s := range header {
		h[i] = wrapCell(s, widths[i])
	}
	t.Header(h...)
	for _, r := range rows {
		cells := make([]string, len(r))
		for i, c := range r {
			cells[i] = wrapCell(c, widths[i])
		}
		if err := t.Append(cells); err != nil {
			return err
		}
	}
	return t.Render()
}

// renderBlocks writes each row as a block for a terminal too narrow for
// the table: its first cell on a line of its own, then every other
// non-empty cell as "header: text", indented and wrapped to width.
func renderBlocks(w io.Writer, header []string, rows [][]string, width int) error {
	var b strings.Builder
	for _, r := range rows {
		b.WriteString(r[0] + "\n")
		for i := 1; i < len(r) && i < len(header); i++ {
			if strings.TrimSpace(r[i]) == "" {
				continue
			}
			text := strings.Join(strings.Fields(r[i]), " ")
			for j, line := range strings.Split(wrapCell(header[i]+": "+text, width-4), "\n") {
				indent := "  "
				if j > 0 {
					indent = "    "
				}
				b.WriteString(indent + line + "\n")
			}
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// fitColumns returns the width of each column so that the table, with a
// border and a space each side of every cell, fits in width: columns
// narrower than a fair share of what is left keep their natural width,
// the others share the rest equally; no column is made narrower than
// 8 characters or than the longest piece of text wrapCell may not break
// (a name, a word; see pieces), so no name is ever cut in two (a table
// that cannot fit then overflows rather than become unreadable). No cell
// is wider than helpWidth unless one of its pieces is.
func fitColumns(header []string, rows [][]string, width int) []int {
	n := len(header)
	natural := make([]int, n)
	floor := make([]int, n)
	for i, h := range header {
		natural[i] = textLen(h)
		floor[i] = max(8, longestPiece(h))
	}
	for _, r := range rows {
		for i, c := range r {
			for _, line := range strings.Split(c, "\n") {
				natural[i] = max(natural[i], textLen(line))
			}
			floor[i] = max(floor[i], longestPiece(c))
		}
	}
	out := make([]int, n)
	avail := width - (3*n + 1)
	open := make([]bool, n)
	left := n
	for i := range natural {
		natural[i] = min(natural[i], max(helpWidth, floor[i]))
		open[i] = true
	}
	// Fix, round by round, the columns that take no more than a fair
	// share of what is left (at their natural width), then those whose
	// floor takes at least that share (at their floor); the rest share
	// what remains.
	fix := func(i, w int) {
		out[i], open[i] = w, false
		avail -= w
		left--
	}
	for left > 0 {
		share := avail / left
		changed := false
		for i := range natural {
			if open[i] && natural[i] <= share {
				fix(i, natural[i])
				changed = true
			}
		}
		if changed {
			continue
		}
		for i := range natural {
			if f := min(floor[i], natural[i]); open[i] && f >= share {
				fix(i, f)
				changed = true
			}
		}
		if !changed {
			for i := range natural {
				if open[i] {
					out[i] = share
				}
			}
			break
		}
	}
	return out
}

// textLen is the width of s in a terminal, one column per rune.
func textLen(s string) int { return utf8.RuneCountInString(s) }

// wrapCell breaks text into lines of at most width runes at spaces; a
// word longer than width is broken only between its pieces (after a '|',
// ',' or '/': a list of choices, a path), and a piece longer than width
// stays whole on a line of its own, so a name is never cut in two.
func wrapCell(text string, width int) string {
	if width <= 0 || textLen(text) <= width {
		return text
	}
	var lines []string
	line := ""
	add := func(word string) {
		switch {
		case line == "":
			line = word
		case textLen(line)+1+textLen(word) <= width:
			line += " " + word
		default:
			lines = append(lines, line)
			line = word
		}
	}
	for _, word := range strings.Fields(text) {
		if textLen(word) <= width {
			add(word)
			continue
		}
		if line != "" {
			lines = append(lines, line)
			line = ""
		}
		for _, p := range pieces(word) {
			if line != "" && textLen(line)+textLen(p) > width {
				lines = append(lines, line)
				line = ""
			}
			line += p
		}
	}
	if line != "" {
		lines = append(lines, line)
	}
	return strings.Join(lines, "\n")
}

// pieces splits a word after every '|', ',' and '/': the places where
// wrapCell may break it.
func pieces(word string) []string {
	var out []string
	start := 0
	for i, r := range word {
		if r == '|' || r == ',' || r == '/' {
			out = append(out, word[start:i+1])
			start = i + 1
		}
	}
	if start < len(word) {
		out = append(out, word[start:])
	}
	return out
}

// longestPiece is the width of the longest piece of text that wrapCell
// may not break.
func longestPiece(text string) int {
	n := 0
	for _, word := range strings.Fields(text) {
		for _, p := range pieces(word) {
			n = max(n, textLen(p))
		}
	}
	return n
}

// num formats a number for a terminal table with about five significant
// digits: integers in full (up to 1e15), other values of moderate size in
// fixed point, and very small or large ones in exponent form; "NaN" when
// undefined.
func num(v float64) string {
	a := math.Abs(v)
	switch {
	case math.IsNaN(v) || math.IsInf(v, 0):
		return experiments.FormatFloat(v)
	case v == math.Trunc(v) && a < 1e15:
		return strconv.FormatFloat(v, 'f', 0, 64)
	case a >= 1e-3 && a < 1e12:
		return strconv.FormatFloat(v, 'f', max(0, 4-int(math.Floor(math.Log10(a)))), 64)
	}
	return strconv.FormatFloat(v, 'g', 5, 64)
}
