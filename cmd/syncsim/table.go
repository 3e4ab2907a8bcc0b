package main

import (
	"io"
	"math"
	"strconv"

	"github.com/olekukonko/tablewriter"
	"github.com/olekukonko/tablewriter/tw"

	"syncsim/experiments"
)

// helpWidth bounds the width of a table cell; longer text (help strings)
// wraps at word boundaries.
const helpWidth = 60

// renderTable writes a bordered table with the header printed as given
// (no upper-casing, so snake_case names stay recognisable).
func renderTable(w io.Writer, header []string, rows [][]string) error {
	t := tablewriter.NewTable(w,
		tablewriter.WithHeaderAutoFormat(tw.Off),
		tablewriter.WithHeaderAlignment(tw.AlignLeft),
		tablewriter.WithRowAlignment(tw.AlignLeft),
		tablewriter.WithRowAutoWrap(tw.WrapNormal),
		tablewriter.WithRowMaxWidth(helpWidth),
	)
	h := make([]any, len(header))
	for i, s := range header {
		h[i] = s
	}
	t.Header(h...)
	for _, r := range rows {
		if err := t.Append(r); err != nil {
			return err
		}
	}
	return t.Render()
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
