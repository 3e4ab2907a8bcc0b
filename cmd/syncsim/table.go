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
// wrapped so the table fits the width of w (see textWidth).
func renderTable(w io.Writer, header []string, rows [][]string) error {
	widths := fitColumns(header, rows, textWidth(w))
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

// fitColumns returns the width of each column so that the table, with a
// border and a space each side of every cell, fits in width: columns
// narrower than a fair share of what is left keep their natural width,
// the others share the rest equally; no column is made narrower than
// its header's longest word or 8 characters (a table that cannot fit
// then overflows rather than become unreadable). No cell is wider than
// helpWidth.
func fitColumns(header []string, rows [][]string, width int) []int {
	n := len(header)
	natural := make([]int, n)
	floor := make([]int, n)
	for i, h := range header {
		natural[i] = textLen(h)
		floor[i] = 8
		for _, word := range strings.Fields(h) {
			floor[i] = max(floor[i], textLen(word))
		}
	}
	for _, r := range rows {
		for i, c := range r {
			for _, line := range strings.Split(c, "\n") {
				natural[i] = max(natural[i], textLen(line))
			}
		}
	}
	out := make([]int, n)
	avail := width - (3*n + 1)
	open := make([]bool, n)
	left := n
	for i := range natural {
		natural[i] = min(natural[i], helpWidth)
		open[i] = true
	}
	for left > 0 {
		share := avail / left
		changed := false
		for i := range natural {
			if open[i] && natural[i] <= share {
				out[i], open[i] = natural[i], false
				avail -= natural[i]
				left--
				changed = true
			}
		}
		if !changed {
			for i := range natural {
				if open[i] {
					out[i] = max(share, min(floor[i], natural[i]))
				}
			}
			break
		}
	}
	return out
}

// textLen is the width of s in a terminal, one column per rune.
func textLen(s string) int { return utf8.RuneCountInString(s) }

// wrapCell breaks text into lines of at most width runes: at spaces, and
// within a longer word after a '|' or ',' (a list of choices) where
// possible, else anywhere.
func wrapCell(text string, width int) string {
	if width <= 0 || textLen(text) <= width {
		return text
	}
	var lines []string
	line := ""
	for _, word := range strings.Fields(text) {
		for textLen(word) > width {
			if line != "" {
				lines = append(lines, line)
				line = ""
			}
			r := []rune(word)
			cut := width
			for j := width; j > width/2; j-- {
				if r[j-1] == '|' || r[j-1] == ',' {
					cut = j
					break
				}
			}
			lines = append(lines, string(r[:cut]))
			word = string(r[cut:])
		}
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
	if line != "" {
		lines = append(lines, line)
	}
	return strings.Join(lines, "\n")
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
