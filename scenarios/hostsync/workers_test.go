package hostsync

import (
	"math"
	"os"
	"path/filepath"
	"testing"

	"syncsim/experiments/exptest"
)

// TestStragglersSRCluster: n = 8 workers computing a constant 100 ms and a
// 1 MB model, so iterations are compute-bound. One persistent straggler at
// 4x holds all reduce, which waits for everybody, to its pace: a round of
// 100 ms + s (s the sync, measured from the homogeneous run) becomes
// 400 ms + s. Partial reduce with p = 2 (p_frac 0.25) lets the others go
// on: it keeps at least three quarters of its iterations, and loses less
// than a third of what all reduce loses.
func TestStragglersSRCluster(t *testing.T) {
	base := []string{"n=8", "duration_s=20", "trace=constant", "compute_ms=100", "model_mb=1", "p_frac=0.25"}
	ar := srRun(t, 1, append(base, "scheme=allreduce")...).Metrics["total_iteration"]
	arS := srRun(t, 1, append(base, "scheme=allreduce", "stragglers=1", "straggler_slowdown=4")...).Metrics["total_iteration"]
	sync := 20/(ar/8) - 0.1
	if r, want := arS/ar, (0.1+sync)/(0.4+sync); math.Abs(r-want) > 0.02 {
		t.Errorf("all reduce with a 4x straggler: %v of %v iterations (%.3f), want %.3f", arS, ar, r, want)
	}
	pr := srRun(t, 1, append(base, "scheme=partial-reduce")...).Metrics["total_iteration"]
	prS := srRun(t, 1, append(base, "scheme=partial-reduce", "stragglers=1", "straggler_slowdown=4")...).Metrics["total_iteration"]
	if r := prS / pr; r < 0.75 || 1-r > (1-arS/ar)/3 {
		t.Errorf("partial reduce with a 4x straggler: %v of %v iterations (%.3f); all reduce kept %.3f", prS, pr, r, arS/ar)
	}
	// Classes: half the workers at half speed, through a multipliers file
	// or through classes (which deal 4 and 4), give all reduce rounds of
	// 200 ms + s.
	path := filepath.Join(t.TempDir(), "m.txt")
	cl := srRun(t, 1, append(base, "scheme=allreduce", "worker_classes=v100:0.5+slow:0.5:0.5")...).Metrics["total_iteration"]
	if err := os.WriteFile(path, []byte("1\n2\n1\n2\n1\n2\n1\n2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	fm := srRun(t, 1, append(base, "scheme=allreduce", "worker_multipliers_file="+path)...).Metrics["total_iteration"]
	if want := (0.1 + sync) / (0.2 + sync); cl != fm || math.Abs(cl/ar-want) > 0.02 {
		t.Errorf("all reduce with half the workers at half speed: classes %v, file %v, homogeneous %v; want equal, %.3f of it", cl, fm, ar, want)
	}
}

// TestStragglersCrewTraining: persistent stragglers at 20x complete far
// fewer rounds than the others (rounds_min), while partial reduce keeps
// the rest going: rounds per worker fall by much less than the
// stragglers' share would under all reduce.
func TestStragglersCrewTraining(t *testing.T) {
	base := []string{"n=12", "p=3", "duration_s=10", "model_mb=5", "network=n2", "trace=t2"}
	h := exptest.Run(t, CrewTraining(), 2, base...).Metrics
	s := exptest.Run(t, CrewTraining(), 2, append(base, "stragglers=3", "straggler_slowdown=20")...).Metrics
	if !(s["rounds_min"] < h["rounds_min"]/4) {
		t.Errorf("stragglers' rounds %v against %v without them: want below a quarter", s["rounds_min"], h["rounds_min"])
	}
	if r := s["rounds_per_worker"] / h["rounds_per_worker"]; r < 0.6 || r > 1 {
		t.Errorf("rounds per worker %v against %v (%.2f): partial reduce should keep most of them", s["rounds_per_worker"], h["rounds_per_worker"], r)
	}
}

// TestStragglersDSSync: one worker computing 4x longer slows every BSP
// scheme's iteration to its pace (compute 20 ms -> 80 ms), while ASP's
// fastest worker keeps its own.
func TestStragglersDSSync(t *testing.T) {
	e := lookup(t, "dssync")
	for _, scheme := range []string{"allreduce", "dssync", "asp"} {
		h := exptest.Run(t, e, 1, append(small, "scheme="+scheme, "compute_spread=0")...).Metrics["iter_time_ms"]
		s := exptest.Run(t, e, 1, append(small, "scheme="+scheme, "compute_spread=0", "stragglers=1", "straggler_slowdown=4")...).Metrics["iter_time_ms"]
		switch scheme {
		case "asp":
			if math.Abs(s/h-1) > 0.1 {
				t.Errorf("asp: fastest worker's iteration %v ms with a straggler, %v without", s, h)
			}
		default:
			if s < h+50 {
				t.Errorf("%s: iteration %v ms with a 4x straggler, %v without: want 60 ms more (within 10)", scheme, s, h)
			}
		}
	}
}
