package main

import (
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"
)

// Cost is what one build's sweep of one point cost.
type Cost struct {
	Point, Experiment string
	Build             string // old or new
	Seeds             int
	CPU               time.Duration
}

// num formats a value for CSV: shortest round-trip form, NaN as NaN
// (which pandas.read_csv reads as a missing value).
func num(x float64) string {
	if math.IsNaN(x) {
		return "NaN"
	}
	return strconv.FormatFloat(x, 'g', -1, 64)
}

// writeVerdicts writes one tidy CSV row per point and metric.
func writeVerdicts(path string, vs []Verdict) error {
	head := []string{"point", "experiment", "metric", "kind", "verdict", "seeds", "old_median", "old_min",
		"old_max", "old_iqr", "new_median", "new_min", "new_max", "shift", "rel_shift", "p_value", "reason"}
	rows := [][]string{head}
	for _, v := range vs {
		rows = append(rows, []string{v.Point, v.Experiment, v.Metric, v.Kind, v.Verdict, strconv.Itoa(v.Seeds),
			num(v.OldMedian), num(v.OldMin), num(v.OldMax), num(v.OldIQR), num(v.NewMedian), num(v.NewMin),
			num(v.NewMax), num(v.Shift), num(v.RelShift), num(v.P), v.Reason})
	}
	return writeCSV(path, rows)
}

// writeCosts writes one row per point and build: its CPU seconds.
func writeCosts(path string, cs []Cost) error {
	rows := [][]string{{"point", "experiment", "build", "seeds", "cpu_s"}}
	for _, c := range cs {
		rows = append(rows, []string{c.Point, c.Experiment, c.Build, strconv.Itoa(c.Seeds),
			strconv.FormatFloat(c.CPU.Seconds(), 'f', 2, 64)})
	}
	return writeCSV(path, rows)
}

func writeCSV(path string, rows [][]string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := csv.NewWriter(f)
	if err := w.WriteAll(rows); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// short formats a value for a person: 4 significant digits.
func short(x float64) string {
	if math.IsNaN(x) {
		return "NaN"
	}
	return strconv.FormatFloat(x, 'g', 4, 64)
}

// pct formats a relative change as a signed percentage.
func pct(x float64) string {
	if math.IsNaN(x) {
		return "-"
	}
	return fmt.Sprintf("%+.2f%%", 100*x)
}

// writeSummary writes, per point, how many metrics were judged and
// failed and what each build's sweep cost, then the total.
func writeSummary(w io.Writer, points []Point, vs []Verdict, cs []Cost) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "point\tmetrics\tvarying\tconstant\tundefined\tnot judged\tFAIL\told CPU-s\tnew CPU-s")
	var tot [6]int
	var cpu [2]time.Duration
	for _, p := range points {
		var n [6]int
		for _, v := range vs {
			if v.Point != p.Name {
				continue
			}
			n[0]++
			switch v.Kind {
			case kindVarying:
				n[1]++
			case kindConstant:
				n[2]++
			case kindUndefined:
				n[3]++
			case kindIgnored:
				n[4]++
			}
			if v.Verdict == verdictFail {
				n[5]++
			}
		}
		var c [2]time.Duration
		for _, x := range cs {
			if x.Point == p.Name {
				c[buildIndex(x.Build)] += x.CPU
			}
		}
		for i := range tot {
			tot[i] += n[i]
		}
		cpu[0], cpu[1] = cpu[0]+c[0], cpu[1]+c[1]
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t%d\t%d\t%.1f\t%.1f\n", p.Name, n[0], n[1], n[2], n[3], n[4], n[5],
			c[0].Seconds(), c[1].Seconds())
	}
	fmt.Fprintf(tw, "total\t%d\t%d\t%d\t%d\t%d\t%d\t%.1f\t%.1f\n", tot[0], tot[1], tot[2], tot[3], tot[4], tot[5],
		cpu[0].Seconds(), cpu[1].Seconds())
	tw.Flush()
}

func buildIndex(b string) int {
	if b == "new" {
		return 1
	}
	return 0
}

// writeTable writes one line per verdict: the two builds' medians with
// [min-max], the paired shift (absolute and relative), the old build's
// spread, the U test's p-value and why it passed or failed.
func writeTable(w io.Writer, vs []Verdict) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "point\tmetric\tkind\tverdict\told median [min-max]\tnew median [min-max]\tshift\trel shift\told IQR\tp\treason")
	for _, v := range vs {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s [%s-%s]\t%s [%s-%s]\t%s\t%s\t%s\t%s\t%s\n", v.Point, v.Metric, v.Kind,
			v.Verdict, short(v.OldMedian), short(v.OldMin), short(v.OldMax), short(v.NewMedian), short(v.NewMin),
			short(v.NewMax), short(v.Shift), pct(v.RelShift), short(v.OldIQR), short(v.P),
			strings.ReplaceAll(v.Reason, "\t", " "))
	}
	tw.Flush()
}
