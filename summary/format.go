package summary

import (
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"syncsim/experiments"
)

// Style says how Markdown cells are written.
type Style struct {
	// Digits is the number of significant digits of a non-integer value
	// (3 when 0); integers are written in full.
	Digits int
	// Undefined names a metric's undefined (NaN) value in cells ("NaN"
	// when empty; "unfinished" where NaN means a run did not finish).
	Undefined string
	// ChangesOnly leaves out the value columns other than the baseline's
	// when there are changes, for a narrower table.
	ChangesOnly bool
}

func (s Style) digits() int {
	if s.Digits <= 0 {
		return 3
	}
	return s.Digits
}

func (s Style) undefined() string {
	if s.Undefined == "" {
		return "NaN"
	}
	return s.Undefined
}

// Header returns the column names of the Markdown table.
func (t *Table) Header(st Style) []string {
	h := append([]string(nil), t.Keys...)
	for _, m := range t.Metrics {
		for _, v := range t.Values {
			if t.shown(st, v) {
				h = append(h, t.label(v, m))
			}
		}
	}
	for _, m := range t.Metrics {
		for _, o := range t.Others {
			a, b := t.pair(o)
			name := a + " / " + b
			if t.Change == Percent {
				name = a + " vs " + b
			}
			h = append(h, t.suffix(name, m))
		}
	}
	return h
}

// shown reports whether the values at pivot value v are printed.
func (t *Table) shown(st Style, v string) bool {
	return !st.ChangesOnly || t.Compare == nil || v == t.Base
}

// label names the column of metric m at pivot value v.
func (t *Table) label(v, m string) string {
	if len(t.Pivot) == 0 {
		return m
	}
	return t.suffix(v, m)
}

// suffix adds the metric to a column name when there are several.
func (t *Table) suffix(name, m string) string {
	if len(t.Metrics) == 1 {
		return name
	}
	return name + " " + m
}

// pair returns the two values a change of value o compares, a over b.
func (t *Table) pair(o string) (a, b string) {
	if t.Compare.Of {
		return t.Base, o
	}
	return o, t.Base
}

// Markdown writes the table as Markdown with a caption saying what the
// cells hold.
func (t *Table) Markdown(w io.Writer, st Style) error {
	h := t.Header(st)
	var b strings.Builder
	writeLine := func(cells []string) {
		b.WriteString("|")
		for _, c := range cells {
			b.WriteString(" " + strings.ReplaceAll(c, "|", `\|`) + " |")
		}
		b.WriteString("\n")
	}
	writeLine(h)
	b.WriteString("|" + strings.Repeat("---|", len(h)) + "\n")
	common := t.commonTrials()
	for _, r := range t.Rows {
		cells := append([]string(nil), r.Key...)
		for _, ms := range r.Cells {
			for v, s := range ms {
				if t.shown(st, t.Values[v]) {
					cells = append(cells, st.value(s, common))
				}
			}
		}
		for _, ms := range r.Changes {
			for _, s := range ms {
				cells = append(cells, st.change(s, t.Change))
			}
		}
		writeLine(cells)
	}
	b.WriteString("\n" + t.caption(st, common) + "\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// commonTrials is the number of rows most cells have (a cell with
// another count says so).
func (t *Table) commonTrials() int {
	count := map[int]int{}
	best, n := 0, 0
	for _, r := range t.Rows {
		for _, ms := range r.Cells {
			for _, s := range ms {
				if s.Of == 0 {
					continue
				}
				count[s.Of]++
				if count[s.Of] > n || count[s.Of] == n && s.Of > best {
					best, n = s.Of, count[s.Of]
				}
			}
		}
	}
	return best
}

// caption says what the cells are.
func (t *Table) caption(st Style, trials int) string {
	what := strings.Join(t.Metrics, ", ")
	if len(t.Metrics) > 1 {
		what = "each metric"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s, %s: median [min-max] over %s per cell", t.Experiment, what, plural(trials, "trial"))
	if s := seedText(t.Seeds); s != "" {
		b.WriteString(" (" + s + ")")
	}
	if t.anyUndefined() {
		fmt.Fprintf(&b, "; \"%s in k/n\": undefined in k of the n trials", st.undefined())
	}
	if t.Compare != nil {
		ex := t.Others[0]
		a, bb := t.pair(ex)
		if t.Change == Percent {
			fmt.Fprintf(&b, "; \"%s vs %s\": %s / %s - 1 seed by seed, median [min, max] in percent", a, bb, a, bb)
		} else {
			fmt.Fprintf(&b, "; \"%s / %s\": the ratio seed by seed, median [min-max]", a, bb)
		}
		b.WriteString(" over the seeds where both are defined")
		if t.Count {
			fmt.Fprintf(&b, "; \"k/n below\": on k of those n seeds the change is below %s (\"j at\": exactly %s on j more), above it on the rest",
				Number(t.Threshold, st.digits()), Number(t.Threshold, st.digits()))
		}
	}
	b.WriteString(".")
	return b.String()
}

// anyUndefined reports whether some cell left out undefined values.
func (t *Table) anyUndefined() bool {
	for _, r := range t.Rows {
		for _, ms := range r.Cells {
			for _, s := range ms {
				if s.N < s.Of {
					return true
				}
			}
		}
	}
	return false
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

// seedText describes the seeds: "seeds 1-5", "seed 3", or a count when
// they are not consecutive.
func seedText(seeds []uint64) string {
	switch n := len(seeds); {
	case n == 0:
		return ""
	case n == 1:
		return fmt.Sprintf("seed %d", seeds[0])
	case seeds[n-1]-seeds[0] == uint64(n-1):
		return fmt.Sprintf("seeds %d-%d", seeds[0], seeds[n-1])
	default:
		return fmt.Sprintf("%d seeds", n)
	}
}

// value formats a cell of values: median [min-max], the share of
// undefined trials, and the trial count when it is not the table's.
func (st Style) value(s Stat, common int) string {
	if s.Of == 0 {
		return "-"
	}
	var out string
	switch {
	case s.N == 0:
		out = fmt.Sprintf("%s in %d/%d", st.undefined(), s.Of, s.Of)
	default:
		out = st.spread(s)
		if s.N < s.Of {
			out += fmt.Sprintf(", %s in %d/%d", st.undefined(), s.Of-s.N, s.Of)
		}
	}
	if s.Of != common {
		out += fmt.Sprintf(" (%s)", plural(s.Of, "trial"))
	}
	return out
}

// change formats a paired change: ratio as median [min-max], percent
// as +m% [+lo, +hi], and the number of pairs when some seeds had none.
func (st Style) change(s Stat, how Change) string {
	if s.N == 0 {
		return "-"
	}
	var out string
	if how == Percent {
		out = fmt.Sprintf("%+.0f%%", s.Median)
		if s.Min != s.Max {
			out += fmt.Sprintf(" [%+.0f, %+.0f]", s.Min, s.Max)
		}
	} else {
		out = st.spread(s)
	}
	if s.N < s.Of {
		out += fmt.Sprintf(" (%d of %d seeds)", s.N, s.Of)
	}
	if s.Counted {
		out += fmt.Sprintf(", %d/%d below", s.Below, s.N)
		if s.At > 0 {
			out += fmt.Sprintf(", %d at", s.At)
		}
	}
	return out
}

// spread is "median [min-max]", or the one value when all are equal;
// a range with a negative end is written [min, max]. When the three
// are whole numbers (counts) they are written in full, else every one
// with the style's significant digits, so a cell reads alike (1.75
// [1.73-2.00], not 1.75 [1.73-2]).
func (st Style) spread(s Stat) string {
	whole := isWhole(s.Median) && isWhole(s.Min) && isWhole(s.Max)
	num := func(v float64) string {
		if whole {
			return Number(v, st.digits())
		}
		return Significant(v, st.digits())
	}
	if s.Min == s.Max {
		return num(s.Median)
	}
	sep := "-"
	if s.Min < 0 {
		sep = ", "
	}
	return num(s.Median) + " [" + num(s.Min) + sep + num(s.Max) + "]"
}

func isWhole(v float64) bool { return v == math.Trunc(v) && math.Abs(v) < 1e15 }

// Number writes v with digits significant digits, integers in full
// (8112, 12): Significant for the rest.
func Number(v float64, digits int) string {
	if isWhole(v) {
		return strconv.FormatFloat(v, 'f', 0, 64)
	}
	return Significant(v, digits)
}

// Significant writes v with digits significant digits in fixed point
// (0.5512 as 0.551, 2 as 2.00; 8112.4 as 8112, the integer part kept
// whole), very small or large values in exponent form.
func Significant(v float64, digits int) string {
	a := math.Abs(v)
	switch {
	case math.IsNaN(v) || math.IsInf(v, 0):
		return experiments.FormatFloat(v)
	case v == 0:
		return strconv.FormatFloat(0, 'f', digits-1, 64)
	case a < 1e-4 || a >= 1e15:
		return strconv.FormatFloat(v, 'g', digits, 64)
	}
	dec := max(0, digits-1-int(math.Floor(math.Log10(a))))
	return strconv.FormatFloat(v, 'f', dec, 64)
}

// CSV writes the table in tidy form, one row per cell: the row
// parameters, the pivot's values, the metric, the statistic ("value",
// "ratio" or "percent"), the value compared against (for changes), the
// count of values or pairs used out of the trials or seeds (count,
// out_of), then median, min and max at full precision; with Count, a
// change's seeds below the threshold and at it (below, at; empty for a
// value). A statistics
// column whose name a parameter has takes a trailing underscore.
func (t *Table) CSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	head := append([]string(nil), t.Keys...)
	head = append(head, t.Pivot...)
	stats := []string{"metric", "statistic", "against", "count", "out_of", "median", "min", "max"}
	if t.Count {
		stats = append(stats, "below", "at")
	}
	for _, c := range stats {
		for slices.Contains(head, c) { // a parameter of that name keeps it
			c += "_"
		}
		head = append(head, c)
	}
	if err := cw.Write(head); err != nil {
		return err
	}
	kind := "ratio"
	if t.Change == Percent {
		kind = "percent"
	}
	write := func(key []string, pivot, metric, stat, against string, s Stat) error {
		rec := append([]string(nil), key...)
		if len(t.Pivot) > 0 {
			rec = append(rec, t.Tuples[slices.Index(t.Values, pivot)]...)
		}
		rec = append(rec, metric, stat, against, strconv.Itoa(s.N), strconv.Itoa(s.Of),
			experiments.FormatFloat(s.Median), experiments.FormatFloat(s.Min), experiments.FormatFloat(s.Max))
		if t.Count {
			below, at := "", ""
			if s.Counted {
				below, at = strconv.Itoa(s.Below), strconv.Itoa(s.At)
			}
			rec = append(rec, below, at)
		}
		return cw.Write(rec)
	}
	for _, r := range t.Rows {
		for m, ms := range r.Cells {
			for v, s := range ms {
				if s.Of == 0 {
					continue
				}
				if err := write(r.Key, t.Values[v], t.Metrics[m], "value", "", s); err != nil {
					return err
				}
			}
		}
		for m, ms := range r.Changes {
			for o, s := range ms {
				a, b := t.pair(t.Others[o])
				if err := write(r.Key, a, t.Metrics[m], kind, b, s); err != nil {
					return err
				}
			}
		}
	}
	cw.Flush()
	return cw.Error()
}
