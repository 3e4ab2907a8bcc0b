package summary

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"syncsim/plotting"
)

// sweep is a hand-made CSV: two schemes x two models x three seeds, one
// undefined comm_ms and one undefined iters; warmup_ms follows the model
// (an automatic value resolved per point) and must not become a row key.
const sweep = `experiment,scheme,model,warmup_ms,trial,seed,comm_ms,iters
x,allreduce,a,1,0,1,100,10
x,allreduce,a,1,1,2,120,12
x,allreduce,a,1,2,3,110,NaN
x,dssync,a,1,0,1,50,20
x,dssync,a,1,1,2,66,18
x,dssync,a,1,2,3,NaN,19
x,allreduce,b,2,0,1,200,5
x,allreduce,b,2,1,2,210,5
x,allreduce,b,2,2,3,190,5
x,dssync,b,2,0,1,150,7
x,dssync,b,2,1,2,105,6
x,dssync,b,2,2,3,133,8
`

func data(t *testing.T, csvs ...string) *Data {
	t.Helper()
	var tables []*plotting.Table
	for i, c := range csvs {
		tb, err := plotting.ReadCSV(strings.NewReader(c), []string{"one.csv", "two.csv", "three.csv"}[i])
		if err != nil {
			t.Fatal(err)
		}
		tables = append(tables, tb)
	}
	d, err := FromTables(tables...)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func markdown(t *testing.T, d *Data, spec Spec, st Style) string {
	t.Helper()
	tb, err := d.Summarise(spec)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := tb.Markdown(&b, st); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestRatioAgainstBaseline: --vs scheme=allreduce, worked by hand.
// Model a: allreduce 100, 120, 110 (median 110); dssync 50, 66, NaN
// (median of 50 and 66 is 58); ratios seed by seed 50/100 = 0.5,
// 66/120 = 0.55, seed 3 undefined: median 0.525 over 2 of 3 seeds.
// Model b: allreduce 200, 210, 190; dssync 150, 105, 133; ratios 0.75,
// 0.5, 0.7: median 0.7.
func TestRatioAgainstBaseline(t *testing.T) {
	got := markdown(t, data(t, sweep), Spec{Metrics: []string{"comm_ms"}, Compare: &Compare{Params: []string{"scheme"}, Values: []string{"allreduce"}}}, Style{})
	want := `| model | allreduce | dssync | dssync / allreduce |
|---|---|---|---|
| a | 110 [100-120] | 58 [50-66], NaN in 1/3 | 0.525 [0.500-0.550] (2 of 3 seeds) |
| b | 200 [190-210] | 133 [105-150] | 0.700 [0.500-0.750] |

x, comm_ms: median [min-max] over 3 trials per cell (seeds 1-3); "NaN in k/n": undefined in k of the n trials; "dssync / allreduce": the ratio seed by seed, median [min-max] over the seeds where both are defined.
`
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// TestChangesOnly: the baseline's values and the changes, nothing else.
func TestChangesOnly(t *testing.T) {
	got := markdown(t, data(t, sweep), Spec{Metrics: []string{"comm_ms"}, Compare: &Compare{Params: []string{"scheme"}, Values: []string{"allreduce"}}}, Style{ChangesOnly: true})
	want := `| model | allreduce | dssync / allreduce |
|---|---|---|
| a | 110 [100-120] | 0.525 [0.500-0.550] (2 of 3 seeds) |
`
	if !strings.HasPrefix(got, want) {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// TestPercentOfSubject: --of scheme=dssync --change percent is the
// subject against every other value: (dssync / allreduce - 1) x 100.
// Model a: -50 and -45 (median -47.5, written -48 as Python's and C's
// round-half-even %.0f writes it); model b: -25, -50, -30.
func TestPercentOfSubject(t *testing.T) {
	got := markdown(t, data(t, sweep), Spec{Metrics: []string{"comm_ms"}, Compare: &Compare{Params: []string{"scheme"}, Values: []string{"dssync"}, Of: true}, Change: Percent},
		Style{Undefined: "unfinished"})
	want := `| model | allreduce | dssync | dssync vs allreduce |
|---|---|---|---|
| a | 110 [100-120] | 58 [50-66], unfinished in 1/3 | -48% [-50, -45] (2 of 3 seeds) |
| b | 200 [190-210] | 133 [105-150] | -30% [-50, -25] |
`
	if !strings.HasPrefix(got, want) {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if !strings.Contains(got, `"dssync vs allreduce": dssync / allreduce - 1 seed by seed`) {
		t.Errorf("caption does not say what the change is:\n%s", got)
	}
}

// TestEveryMetricPerPoint: without a baseline, one row per point (the
// varied parameters, warmup_ms left out as it follows the model) and one
// column per metric; iters at allreduce/b is 5 in every trial.
func TestEveryMetricPerPoint(t *testing.T) {
	got := markdown(t, data(t, sweep), Spec{}, Style{Digits: 2})
	want := `| scheme | model | comm_ms | iters |
|---|---|---|---|
| allreduce | a | 110 [100-120] | 11 [10-12], NaN in 1/3 |
| dssync | a | 58 [50-66], NaN in 1/3 | 19 [18-20] |
| allreduce | b | 200 [190-210] | 5 |
| dssync | b | 133 [105-150] | 7 [6-8] |
`
	if !strings.HasPrefix(got, want) {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// TestColumnsAndSeveralMetrics: --columns puts a parameter's values in
// columns; with two metrics each column names its metric.
func TestColumnsAndSeveralMetrics(t *testing.T) {
	got := markdown(t, data(t, sweep), Spec{Metrics: []string{"iters", "comm_ms"}, Columns: []string{"model"}, Where: []Filter{{Param: "scheme", Values: []string{"dssync"}}}}, Style{})
	want := `| a iters | b iters | a comm_ms | b comm_ms |
|---|---|---|---|
| 19 [18-20] | 7 [6-8] | 58 [50-66], NaN in 1/3 | 133 [105-150] |
`
	if !strings.HasPrefix(got, want) {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// TestUnevenTrialsAndMergedFiles: two files of one sweep (as shards or
// a sweep and its extension) are one table; a point with fewer trials
// (an interrupted sweep) says how many it has.
func TestUnevenTrialsAndMergedFiles(t *testing.T) {
	lines := strings.Split(strings.TrimSpace(sweep), "\n")
	head := lines[0] + "\n"
	first := head + strings.Join(lines[1:7], "\n") + "\n"
	second := head + strings.Join(lines[7:12], "\n") + "\n" // the last trial of dssync/b is missing
	got := markdown(t, data(t, first, second), Spec{Metrics: []string{"comm_ms"}, Compare: &Compare{Params: []string{"scheme"}, Values: []string{"allreduce"}}}, Style{})
	want := `| model | allreduce | dssync | dssync / allreduce |
|---|---|---|---|
| a | 110 [100-120] | 58 [50-66], NaN in 1/3 | 0.525 [0.500-0.550] (2 of 3 seeds) |
| b | 200 [190-210] | 128 [105-150] (2 trials) | 0.625 [0.500-0.750] (2 of 3 seeds) |
`
	if !strings.HasPrefix(got, want) {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// TestFilesWithOtherMetrics: a file whose metric columns differ (a run
// written without --timing beside a sweep written with it, the columns in
// another order) joins on the metrics both have, each read from its own
// column; the metric only one has is not offered.
func TestFilesWithOtherMetrics(t *testing.T) {
	lines := strings.Split(strings.TrimSpace(sweep), "\n")
	first := lines[0] + ",wall_s\n"
	for _, l := range lines[1:7] {
		first += l + ",9.5\n"
	}
	second := "experiment,scheme,model,warmup_ms,trial,seed,iters,comm_ms\n"
	for _, l := range lines[7:] {
		f := strings.Split(l, ",")
		second += strings.Join(append(f[:6:6], f[7], f[6]), ",") + "\n"
	}
	d := data(t, first, second)
	if !slices.Equal(d.Metrics, []string{"comm_ms", "iters"}) {
		t.Fatalf("metrics %v, want comm_ms, iters", d.Metrics)
	}
	got := markdown(t, d, Spec{Metrics: []string{"comm_ms"}, Compare: &Compare{Params: []string{"scheme"}, Values: []string{"allreduce"}}}, Style{})
	if want := "| b | 200 [190-210] | 133 [105-150] | 0.700 [0.500-0.750] |"; !strings.Contains(got, want) {
		t.Errorf("got\n%s\nwant a row\n%s", got, want)
	}
	if _, err := d.Summarise(Spec{Metrics: []string{"wall_s"}}); err == nil {
		t.Error("wall_s, a metric of one file only, was summarised")
	}
	// --where seed=1,3 keeps two trials of each point: for b, dssync/allreduce
	// 150/200 and 133/190.
	got = markdown(t, d, Spec{Metrics: []string{"comm_ms"}, Where: []Filter{{"seed", []string{"1", "3"}}},
		Compare: &Compare{Params: []string{"scheme"}, Values: []string{"allreduce"}}}, Style{})
	if want := "| b | 195 [190-200] | 142 [133-150] | 0.725 [0.700-0.750] |"; !strings.Contains(got, want) {
		t.Errorf("--where seed=1,3: got\n%s\nwant a row\n%s", got, want)
	}
	if _, err := d.Summarise(Spec{Where: []Filter{{"seed", []string{"4"}}}}); err == nil || !strings.Contains(err.Error(), "--where seed=4: no row has it (values: 1, 2, 3)") {
		t.Errorf("--where seed=4: err = %v", err)
	}
}

// TestJointBaseline: --vs scheme=allreduce --vs model=a compares every
// (scheme, model) with (allreduce, a): allreduce/b over allreduce/a is
// 200/100, 210/120, 190/110 = 2, 1.75, 1.727 (median 1.75); dssync/b
// 150/100, 105/120, 133/110 = 1.5, 0.875, 1.209.
func TestJointBaseline(t *testing.T) {
	got := markdown(t, data(t, sweep), Spec{Metrics: []string{"comm_ms"}, Compare: &Compare{Params: []string{"scheme", "model"}, Values: []string{"allreduce", "a"}}}, Style{})
	want := `| allreduce a | dssync a | allreduce b | dssync b | dssync a / allreduce a | allreduce b / allreduce a | dssync b / allreduce a |
|---|---|---|---|---|---|---|
| 110 [100-120] | 58 [50-66], NaN in 1/3 | 200 [190-210] | 133 [105-150] | 0.525 [0.500-0.550] (2 of 3 seeds) | 1.75 [1.73-2.00] | 1.21 [0.875-1.50] |
`
	if !strings.HasPrefix(got, want) {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// TestCSVIsTidy: the CSV form has one row per cell and change, at full
// precision.
func TestCSVIsTidy(t *testing.T) {
	tb, err := data(t, sweep).Summarise(Spec{Metrics: []string{"comm_ms"}, Compare: &Compare{Params: []string{"scheme"}, Values: []string{"allreduce"}}})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := tb.CSV(&b); err != nil {
		t.Fatal(err)
	}
	want := `model,scheme,metric,statistic,against,count,out_of,median,min,max
a,allreduce,comm_ms,value,,3,3,110,100,120
a,dssync,comm_ms,value,,2,3,58,50,66
a,dssync,comm_ms,ratio,allreduce,2,3,0.525,0.5,0.55
b,allreduce,comm_ms,value,,3,3,200,190,210
b,dssync,comm_ms,value,,3,3,133,105,150
b,dssync,comm_ms,ratio,allreduce,3,3,0.7,0.5,0.75
`
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
}

// TestNumber: significant digits, integers in full.
func TestNumber(t *testing.T) {
	for _, tc := range []struct {
		v    float64
		d    int
		want string
	}{
		{8112, 3, "8112"}, {8112.4, 3, "8112"}, {0.5512, 3, "0.551"}, {0.5, 3, "0.500"}, {1.2345, 2, "1.2"},
		{0.00024414, 3, "0.000244"}, {2.4414e-5, 3, "2.44e-05"}, {-47.25, 3, "-47.2"}, {1747.7, 3, "1748"}, {2, 3, "2"},
	} {
		if got := Number(tc.v, tc.d); got != tc.want {
			t.Errorf("Number(%v, %d) = %s, want %s", tc.v, tc.d, got, tc.want)
		}
	}
	if got := Significant(2, 3); got != "2.00" {
		t.Errorf("Significant(2, 3) = %s, want 2.00", got)
	}
}

// TestErrors: what cannot be summarised is refused with a message that
// says what is there.
func TestErrors(t *testing.T) {
	d := data(t, sweep)
	for _, tc := range []struct {
		spec Spec
		want string
	}{
		{Spec{Metrics: []string{"ajct_ms"}}, "--metric ajct_ms: not a metric of x (metrics: comm_ms, iters)"},
		{Spec{Metrics: []string{"model"}}, "not a metric (it is a parameter)"},
		{Spec{Compare: &Compare{Params: []string{"scheme"}, Values: []string{"ring"}}}, "--vs scheme=ring: no row has it (scheme in allreduce, dssync)"},
		{Spec{Compare: &Compare{Params: []string{"scheme"}, Values: []string{"dssync"}}, Where: []Filter{{"scheme", []string{"dssync"}}}}, "no row has another value"},
		{Spec{Compare: &Compare{Params: []string{"protocol"}, Values: []string{"atp"}}}, "protocol is not a parameter"},
		{Spec{Where: []Filter{{"model", []string{"c"}}}}, "--where model=c: no row has it (values: a, b)"},
		{Spec{Columns: []string{"model"}, Compare: &Compare{Params: []string{"scheme"}, Values: []string{"dssync"}}}, "give one"},
	} {
		if _, err := d.Summarise(tc.spec); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: err = %v, want %q", tc.spec, err, tc.want)
		}
	}
	dup := sweep + "x,dssync,b,2,2,3,133,8\n"
	tb, _ := plotting.ReadCSV(strings.NewReader(dup), "dup.csv")
	if _, err := FromTables(tb); err == nil || !strings.Contains(err.Error(), "dup.csv line 14 repeats the point and seed of dup.csv line 13") {
		t.Errorf("a repeated row: err = %v", err)
	}
	other, _ := plotting.ReadCSV(strings.NewReader("experiment,scheme,trial,seed,comm_ms\nx,a,0,1,1\n"), "other.csv")
	tb, _ = plotting.ReadCSV(strings.NewReader(sweep), "one.csv")
	if _, err := FromTables(tb, other); err == nil || !strings.Contains(err.Error(), "one.csv and other.csv have different columns") {
		t.Errorf("files of different sweeps: err = %v", err)
	}
	apart, _ := plotting.ReadCSV(strings.NewReader("experiment,scheme,model,warmup_ms,trial,seed,wall_s\nx,a,a,1,0,1,3\n"), "apart.csv")
	if _, err := FromTables(tb, apart); err == nil || !strings.Contains(err.Error(), "one.csv and apart.csv have no metric in common") {
		t.Errorf("files without a common metric: err = %v", err)
	}
	bad, _ := plotting.ReadCSV(strings.NewReader("experiment,n,trial,seed,m\nx,1,0,1,abc\n"), "bad.csv")
	if _, err := FromTables(bad); err == nil || !strings.Contains(err.Error(), `bad.csv line 2: m is "abc", not a number`) {
		t.Errorf("a bad number: err = %v", err)
	}
}
