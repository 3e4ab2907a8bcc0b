package timeline

import (
	"bytes"
	"encoding/csv"
	"strconv"
	"testing"
)

// TestWriterSchema: two workers, one whose synchronisations overlap (two
// sync threads); the trace parses with the viewers' schema, and the CSV
// has a row per synchronisation with its exposed time by hand.
func TestWriterSchema(t *testing.T) {
	var l Log
	ws := l.NewJob("ring, \"a\"", 2)
	const us = 1e6 // ps
	// Worker 0: forward 0-10, backward 10-30, sync b1 20-40 (10 exposed:
	// 30-40), sync b0 25-50 (20 exposed: 30-50), forward 50-60.
	ws[0].Add(Forward, 0, 0, 0, 10*us)
	ws[0].Add(Backward, 0, 0, 10*us, 30*us)
	ws[0].Add(Sync, 0, 1, 20*us, 40*us)
	ws[0].Add(Sync, 0, 0, 25*us, 50*us)
	ws[0].Add(Forward, 1, 0, 50*us, 60*us)
	ws[1].Add(Forward, 0, 0, 0, 1) // 1 ps: ts and dur in exact decimals
	ws[1].Add(Sync, 0, 0, 1, 1500001)
	var js, cs bytes.Buffer
	w := NewWriter(&js, &cs)
	if err := w.Run("exp point 0 trial 0", 0, 0, 7, &l); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	evs, err := Validate(js.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	threads := map[int]bool{}
	for _, e := range evs {
		if e.Ph == "X" {
			threads[*e.Tid] = true
		}
	}
	if len(threads) != 5 { // w0 compute, 2 sync; w1 compute, sync
		t.Errorf("%d threads with events, want 5", len(threads))
	}
	rows, err := csv.NewReader(&cs).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 4 || rows[0][len(rows[0])-1] != "exposed_us" {
		t.Fatalf("rows %v", rows)
	}
	want := map[string]string{"0/1": "10", "0/0": "20", "1/0": "1.5"}
	for _, r := range rows[1:] {
		if r[4] != `ring, "a"` {
			t.Errorf("job name %q", r[4])
		}
		k := r[5] + "/" + r[7]
		if r[11] != want[k] {
			t.Errorf("worker/bucket %s exposed %s, want %s", k, r[11], want[k])
		}
		if _, err := strconv.ParseFloat(r[8], 64); err != nil {
			t.Errorf("start %q", r[8])
		}
	}
}

func TestMicroseconds(t *testing.T) {
	for ps, want := range map[int64]string{0: "0", 1: "0.000001", 1e6: "1", 1500000: "1.5", 12345678901: "12345.678901", -2e6: "-2"} {
		if got := us(ps); got != want {
			t.Errorf("us(%d) = %s, want %s", ps, got, want)
		}
	}
}

// TestValidateRefuses: Validate fails on what the viewers cannot show.
func TestValidateRefuses(t *testing.T) {
	for _, tc := range []struct{ name, in string }{
		{"not json", "{"},
		{"no events", `{"x":[]}`},
		{"no pid", `{"traceEvents":[{"name":"a","ph":"X","ts":0,"dur":1,"tid":0,"cat":"c"}]}`},
		{"unnamed thread", `{"traceEvents":[{"name":"a","ph":"X","ts":0,"dur":1,"pid":1,"tid":0,"cat":"c"}]}`},
		{"overlap", `{"traceEvents":[{"name":"process_name","ph":"M","pid":1,"tid":0,"args":{"name":"p"}},` +
			`{"name":"thread_name","ph":"M","pid":1,"tid":0,"args":{"name":"t"}},` +
			`{"name":"a","ph":"X","ts":0,"dur":2,"pid":1,"tid":0,"cat":"c"},{"name":"b","ph":"X","ts":1,"dur":2,"pid":1,"tid":0,"cat":"c"}]}`},
	} {
		if _, err := Validate([]byte(tc.in)); err == nil {
			t.Errorf("%s: accepted", tc.name)
		}
	}
}
