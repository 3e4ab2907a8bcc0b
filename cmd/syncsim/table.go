package main

import (
	"io"
	"strconv"

	"github.com/olekukonko/tablewriter"
	"github.com/olekukonko/tablewriter/tw"
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

// num formats a number for a terminal table: five significant digits,
// "NaN" when undefined.
func num(v float64) string {
	return strconv.FormatFloat(v, 'g', 5, 64)
}
