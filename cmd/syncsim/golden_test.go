package main

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// goldenExperiments lists the experiments the program registers.
func goldenExperiments() []string { return newRegistry().Names() }

var update = flag.Bool("update", false, "rewrite the golden CSV files under testdata/golden")

// goldenSweeps is one small, fixed sweep per experiment: a few seconds of
// CPU each, wide enough to touch every protocol, scheme and option that
// changes a model. Their CSVs, kept under testdata/golden, prove that a
// refactoring changes no result; a change that means to change results
// refreshes them with
//
//	go test ./cmd/syncsim -run Golden -update
//
// and says why. Every registered experiment must have an entry.
var goldenSweeps = map[string][]string{
	"incast": {"--vary", "transport=dctcp,newreno", "--vary", "senders=2,8", "--set", "duration_ms=3"},
	"background": {"--vary", "workload=hadoop,cachefollower", "--set", "duration_ms=1", "--set", "spines=2",
		"--set", "leaves=2", "--set", "hosts_per_leaf=4", "--set", "load=0.4"},
	"permutation": {"--vary", "topology=leaf-spine,dumbbell,star", "--vary", "flow_kb=0,100", "--set", "duration_ms=0.5",
		"--set", "spines=2", "--set", "leaves=3", "--set", "hosts_per_leaf=4", "--set", "start_jitter_us=5"},
	"ina-basic": {"--vary", "protocol=switchml,atp,pa-atp", "--set", "gradient_a_mb=0.5", "--set", "gradient_b_mb=0.3",
		"--set", "job_b_start_ms=0.05", "--set", "udp_ms=0.1"},
	"ina-testbed": {"--vary", "protocol=byteps,switchml,atp,strawasyn,pa-atp", "--set", "model=custom",
		"--set", "gradient_mb=0.3", "--set", "iterations=2", "--set", "load=0.4", "--vary", "compute_ms=0,0.2"},
	"ina-leafspine": {"--vary", everyChoice("ina-leafspine", "protocol"),
		"--vary", "agg_placement=ps-leaf,two-level", "--set", "spines=2", "--set", "leaves=2", "--set", "hosts_per_leaf=4", "--set", "jobs=2", "--set", "workers=3",
		"--set", "model=custom", "--set", "gradient_mb=0.2", "--set", "load=0.3", "--set", "switch_mem_mib=0.05"},
	"ina-motivation": {"--vary", "example=sync-vs-async,progress,async-limit", "--vary", "protocol=atp,strawasyn,pa-atp"},
	"ina-model":      {"--set", "jobs=2", "--set", "gradient_mb=1"},
	"mixed-fabric": {"--vary", "ina_jobs=1,2", "--set", "iterations=1", "--set", "bg_hosts=idle",
		"--set", "pr_jobs=1", "--set", "pr_workers=2", "--set", "pr_p=1", "--set", "ring_workers=2", "--set", "stragglers=1"},
	"sr-example": {"--vary", "scheme=allreduce,partial-reduce,progress-aware,bandwidth-aware,selective-reduce"},
	"sr-cluster": {"--vary", "fidelity=analytic,flow,packet", "--vary", everyChoice("sr-cluster", "scheme"),
		"--set", "n=8", "--set", "duration_s=4", "--set", "model_mb=20", "--set", "start=cold", "--set", "bw_error=0.1",
		"--set", "stragglers=2", "--set", "worker_classes=v100:0.75+p100:0.25"},
	"dssync": {"--vary", "scenario=static,inter-rack,end-host,both", "--vary", "scheme=dssync,allreduce,tree-allreduce,hier-allreduce,asp,gossip",
		"--set", "model_file=../../workloads/layers/testdata/example.csv", "--set", "compute_ms=20", "--vary", "overlap=layer,none",
		"--set", "bucket_mib=25", "--set", "bg_model=bert-base",
		"--set", "iterations=24", "--set", "adjust_every=8", "--set", "tree_chunks=4", "--set", "stragglers=1"},
	"crew-single": {"--vary", "fidelity=flow,packet", "--vary", "scheme=crew,opr,a2a,ps,ring,blink,toa",
		"--set", "n=8", "--set", "p=4", "--set", "model_mb=4", "--set", "bw_noise=0.2", "--vary", "pipeline=chunk,block"},
	"crew-training": {"--vary", "scheme=crew,opr,a2a", "--vary", "scheduling=fl,tl", "--vary", "scatter=blocking,non-blocking",
		"--set", "n=12", "--set", "p=4", "--set", "duration_s=5", "--set", "model_mb=18", "--set", "faulty_links=3",
		"--set", "network=n2", "--set", "trace=t2", "--vary", "failover=move,split", "--set", "eq3_scope=running",
		"--set", "bw_model=walk", "--set", "bw_period_s=2", "--set", "stragglers=2"},
}

// everyChoice is "name=c1,c2,..." with every choice of experiment exp's
// enum parameter name, so a golden sweep covers a scheme or protocol as
// soon as it is registered.
func everyChoice(exp, name string) string {
	e, err := newRegistry().Lookup(exp)
	if err != nil {
		panic(err)
	}
	for _, p := range e.Params {
		if p.Name == name {
			return name + "=" + strings.Join(p.Choices, ",")
		}
	}
	panic(exp + " has no parameter " + name)
}

// TestGoldenSweeps runs every experiment's golden sweep with two trials
// and compares the CSV byte for byte with testdata/golden/<exp>.csv.
func TestGoldenSweeps(t *testing.T) {
	if testing.Short() {
		t.Skip("golden sweeps take about a minute of CPU")
	}
	for _, name := range goldenExperiments() {
		args, ok := goldenSweeps[name]
		if !ok {
			t.Errorf("experiment %s has no golden sweep: add one to goldenSweeps", name)
			continue
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			path := filepath.Join(t.TempDir(), name+".csv")
			cmd := append([]string{"sweep", name, "--trials", "2", "--seed", "3", "--parallel", "1", "--csv", path}, args...)
			if _, stderr, code := runCLI(t, cmd...); code != 0 {
				t.Fatalf("syncsim %s: exit %d: %s", strings.Join(cmd, " "), code, stderr)
			}
			got, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			golden := filepath.Join("testdata", "golden", name+".csv")
			if *update {
				if err := os.MkdirAll(filepath.Dir(golden), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(golden, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (create it with -update)", err)
			}
			if string(got) != string(want) {
				t.Fatalf("CSV of syncsim %s differs from %s (refresh with -update only if the change means to change results)\n%s",
					strings.Join(cmd, " "), golden, firstDiff(string(want), string(got)))
			}
		})
	}
}

// firstDiff describes the first line where two CSVs differ.
func firstDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < len(w) || i < len(g); i++ {
		var a, b string
		if i < len(w) {
			a = w[i]
		}
		if i < len(g) {
			b = g[i]
		}
		if a != b {
			return "line " + strconv.Itoa(i+1) + ":\nwant " + a + "\ngot  " + b
		}
	}
	return "identical lines, different bytes"
}

// TestGoldenThreads runs the golden sweep of every experiment on the
// parallel engine at 2, 3 and 8 threads (more threads than cores, to
// shake out races) and requires the golden bytes: results do not depend
// on the thread count.
func TestGoldenThreads(t *testing.T) {
	if testing.Short() {
		t.Skip("golden sweeps take CPU")
	}
	reg := newRegistry()
	n := 0
	for _, name := range goldenExperiments() {
		e, _ := reg.Lookup(name)
		if !e.Threads {
			continue
		}
		n++
		for _, threads := range []string{"2", "3", "8"} {
			// Not parallel: urfave/cli's shared help flag races when
			// commands parse flags at once (go test -race), and the
			// engine's own threads are what this test shakes.
			t.Run(name+"/"+threads, func(t *testing.T) {
				path := filepath.Join(t.TempDir(), name+".csv")
				cmd := append([]string{"sweep", name, "--trials", "2", "--seed", "3", "--parallel", "1", "--threads", threads, "--csv", path}, goldenSweeps[name]...)
				if _, stderr, code := runCLI(t, cmd...); code != 0 {
					t.Fatalf("syncsim %s: exit %d: %s", strings.Join(cmd, " "), code, stderr)
				}
				got, err := os.ReadFile(path)
				if err != nil {
					t.Fatal(err)
				}
				want, err := os.ReadFile(filepath.Join("testdata", "golden", name+".csv"))
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(got, want) {
					t.Fatalf("--threads %s differs from the golden CSV (threads 1)", threads)
				}
			})
		}
	}
	if n == 0 {
		t.Fatal("no experiment runs on the parallel engine")
	}
}
