package training

import (
	"bytes"
	"math"
	"math/rand/v2"
	"testing"

	"syncsim/internal/fuzzcheck"
	"syncsim/netsim"
)

// FuzzReadTrace: any trace file is refused with a one-line error, or read
// into an empirical distribution of positive samples the simulated clock
// holds (below netsim.MaxSeconds) whose CDF rises from 0 to 1 and whose
// draws are samples of the file.
func FuzzReadTrace(f *testing.F) {
	fuzzcheck.Seeds(f,
		"0.3\n0.31\n# comment\n\n0.5\n",
		"1e-3\n",
		"0\n",
		"-1\n",
		"NaN\n",
		"Inf\n",
		"0x1p-2\n",
		"1_0\n",
		"  0.2  \n",
		"",
		"# only\n",
		"1e10\n",       // panicked sr-cluster: past the clock
		"0.3\n1e308\n", // panicked sr-cluster, 0 rounds in crew-training
		"9223372.03\n", // just below the clock's end
		"9223372.04\n", // just past it
	)
	f.Fuzz(func(t *testing.T, data []byte) {
		e, err := ReadTrace(bytes.NewReader(data))
		if fuzzcheck.Refused(t, err, "") {
			return
		}
		if l, _ := Longest(e); !(l < netsim.MaxSeconds) {
			t.Fatalf("accepted a sample of %v s, past the clock", l)
		}
		if e.Len() == 0 {
			t.Fatal("an empty trace was accepted")
		}
		m := e.Mean()
		if !(m > 0) || math.IsInf(m, 0) {
			t.Fatalf("mean %v", m)
		}
		if e.CDF(0) != 0 || e.CDF(math.MaxFloat64) != 1 {
			t.Fatalf("CDF(0) = %v, CDF(max) = %v", e.CDF(0), e.CDF(math.MaxFloat64))
		}
		r := rand.New(rand.NewPCG(1, 2))
		for i := 0; i < 4; i++ {
			if x := e.Sample(r); !(x > 0) || math.IsInf(x, 0) {
				t.Fatalf("sample %v", x)
			}
		}
	})
}

// FuzzReadMultipliers: any multipliers file is refused with a one-line
// error, or read into positive finite multipliers, each with the line it
// came from (increasing).
func FuzzReadMultipliers(f *testing.F) {
	fuzzcheck.Seeds(f,
		"1\n2.5\n0.5\n",
		"# a\n\n1\n# b\n4\n",
		"1e308\n1\n", // panicked sr-cluster and dssync
		"0\n",
		"-2\n",
		"Inf\n",
		"NaN\n",
		"1 2\n",
		"",
	)
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := ReadMultiplierLines(bytes.NewReader(data))
		if fuzzcheck.Refused(t, err, "") {
			return
		}
		if len(m.Values) == 0 || len(m.Values) != len(m.Lines) {
			t.Fatalf("%d values, %d lines", len(m.Values), len(m.Lines))
		}
		for i, v := range m.Values {
			if !(v > 0) || math.IsInf(v, 0) {
				t.Fatalf("multiplier %v", v)
			}
			if i > 0 && m.Lines[i] <= m.Lines[i-1] {
				t.Fatalf("lines %v", m.Lines)
			}
		}
	})
}

// FuzzReadSeries: any bandwidth time series (one key per row, as
// sr-cluster's bw_trace_file, or two, as crew-training's) is refused with
// a one-line error or read into rows sorted by time, at times the clock
// holds, with keys in range; CheckRates refuses a value beyond what a
// Rate holds with a one-line error naming the file and line, and passes
// the others; a trace built from the rows has an epoch per distinct time.
func FuzzReadSeries(f *testing.F) {
	for _, s := range []string{
		"time_s,worker,gbps\n0,0,1e308\n", // passed --dry-run of sr-cluster
		"time_s,worker,gbps\n1.2, 1, 8\n# c\n0.7,1,1\n0,1,2\n",
		"0,0,1\n1e10,1,2\n",
		"0,2,1\n",
		"0,0,1e-300\n",
		"x,y\n",
		"",
	} {
		f.Add([]byte(s), false)
	}
	f.Add([]byte("time_s,src,dst,mbps\n0,0,1,100\n5,1,0,1e308\n"), true)
	f.Add([]byte("0,0,1,1\n0,1,1,1\n"), true)
	f.Fuzz(func(t *testing.T, data []byte, pairs bool) {
		keys := 1
		if pairs {
			keys = 2
		}
		const n = 3
		rows, err := ReadSeries(bytes.NewReader(data), keys, n)
		if fuzzcheck.Refused(t, err, "") {
			return
		}
		for i, r := range rows {
			if !(r.At >= 0 && r.At < netsim.MaxSeconds) || (i > 0 && r.At < rows[i-1].At) {
				t.Fatalf("row %d at %v", i, r.At)
			}
			if len(r.Key) != keys || r.Line < 1 {
				t.Fatalf("row %+v", r)
			}
			for _, k := range r.Key {
				if k < 0 || k >= n {
					t.Fatalf("key %d", k)
				}
			}
		}
		if err := CheckRates("f.csv", rows, 1, 1e9, "Gbps"); !fuzzcheck.Refused(t, err, "f.csv line ") {
			for _, r := range rows {
				if bps := r.Value * 1e9; !(bps >= netsim.MinBitRate && bps <= netsim.MaxBitRate) {
					t.Fatalf("rate %v Gbps passed", r.Value)
				}
			}
		}
		if keys == 1 {
			tr, err := NewBWTrace([]float64{1, 1, 1}, rows)
			if err != nil {
				t.Fatal(err)
			}
			distinct := 1
			for i, r := range rows {
				if r.At > 0 && (i == 0 || r.At != rows[i-1].At) {
					distinct++
				}
			}
			if tr.Epochs() != distinct {
				t.Fatalf("%d epochs for %d distinct times", tr.Epochs(), distinct)
			}
		}
	})
}
