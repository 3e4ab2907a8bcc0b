package hostsync

import (
	"fmt"
	"os"

	"syncsim/experiments"
	"syncsim/netsim"
	"syncsim/scenarios/internal/setup"
	"syncsim/workloads/crew"
	"syncsim/workloads/training"
)

// crewNetParams are the parameters of CREW's WAN, shared by crew-single
// and crew-training.
func crewNetParams() []experiments.Param {
	return []experiments.Param{
		experiments.IntParam("n", 60, 2, 4096, "number of workers (paper 60)"),
		experiments.IntParam("p", 10, 1, 4096, "workers per partial reduce (paper 5 or 10); must not exceed n"),
		experiments.EnumParam("network", "n1", []string{"n1", "n2", "file"},
			"n1: each directed b_ij drawn from WANify's measured AWS inter-region throughput (Mbps, median 53); "+
				"n2: b_ij = k x 25 Mbps, k = round(N(5,1)) in [1,10]; file: the matrix in bw_file"),
		experiments.EnumParam("n1_sampling", "pooled", []string{"pooled", "regional"},
			"n1: draw b_ij from all readings (pooled) or from the readings of the two workers' regions").OnlyWhen("network", "n1"),
		experiments.TextParam("bw_file", "", "network=file: a CSV square matrix of b_ij in Mbps (row i = sender i; diagonal ignored)").OnlyWhen("network", "file"),
		experiments.EnumParam("latency", "aws", []string{"aws", "none", "const", "file"},
			"one-way latency: aws (workers placed on WANify's 8 AWS regions, Skyplane RTT/2; 1 ms within a region), "+
				"none, const (latency_ms), or the symmetric CSV matrix in latency_file (ms)"),
		experiments.FloatParam("latency_ms", 50, 0, 1e5, "latency=const: one-way latency in ms").OnlyWhen("latency", "const"),
		experiments.TextParam("latency_file", "", "latency=file: a CSV square symmetric matrix of one-way latencies in ms").OnlyWhen("latency", "file"),
		experiments.FloatParam("bw_scale", 1, 0.001, 1000, "multiplies every b_ij of the network (and of its law, for bw_model=redraw or walk): "+
			"a faster or slower N1 or N2 with the same shape"),
		experiments.FloatParam("bw_noise", 0, 0, 0.99, "bandwidth estimation noise lambda: schemes plan with b(1 + x), x ~ U[-lambda, lambda] per directed pair (Sec. V-H)"),
		experiments.FloatParam("model_mb", 180, 0.001, 1e6, "model size in MB (paper 180)"),
		experiments.FloatParam("model_scale", 1, 0.001, 1000, "multiplies model_mb (Fig. 10: 2, 4, 8)"),
		experiments.IntParam("chunks", 1000, 1, 10000000, "k, chunks the model is serialised into: Alg. 1 and 2 split whole chunks and they are the pipeline's unit "+
			"(the paper only says k >> n; a block gets up to one chunk more than k x_j, and each chunk is a transfer: CPU grows with k)").OnlyWhen("scheme", "crew", "opr"),
		experiments.EnumParam("pipeline", "chunk", []string{"chunk", "block"},
			"chunk: every copy streams chunk by chunk and each chunk is reduced and multicast as soon as its p copies arrive "+
				"(Sec. IV-A1's pipelining, T/2 <= T_CREW <= T); block: each block moves as one transfer and is multicast once all p copies arrived").OnlyWhen("scheme", "crew", "opr"),
		experiments.EnumParam("split", "n-a", []string{"n-a", "e-d"}, "CREW/OPR block weights: n-a from LP (2), e-d even").OnlyWhen("scheme", "crew", "opr"),
		experiments.EnumParam("objective", "eq2", []string{"eq2", "store-forward"},
			"n-a weights minimise eq2 (LP (2): T_scatter + T_multicast) or store-forward (max_j x_j (1/s_j + 1/m_j), the uncontended time of per-block store-and-forward)").OnlyWhen("scheme", "crew", "opr"),
		experiments.EnumParam("scheduling", "fl", crew.PolicyNames,
			"flow scheduling on each directed connection: fs (max-min fair), fl (flow-level FCFS), tl (task-level FCFS by partial-reduce id), "+
				"c1 (multicast preempts scatter), c2 (scatter preempts multicast); packet fidelity offers fs and fl"),
		experiments.FloatParam("control_ms", 0, 0, 1e5, "one-way latency between a worker and the controller, ms"),
		experiments.FloatParam("reduce_gbps", 0, 0, 1e6, "aggregator reduce rate in Gbps of each extra copy; 0 = instantaneous").Means("0", "instantaneous reduction").OnlyWhen("scheme", "crew", "opr"),
		experiments.EnumParam("fidelity", "flow", []string{"flow", "packet"}, "flow (fluid engine) or packet (DCTCP over switch queues; small n and models)"),
	}
}

// crewSetup is a built WAN for one run.
type crewSetup struct {
	sim   *netsim.Sim
	net   *crew.Net
	est   crew.Matrix
	opt   crew.Options
	model netsim.Bytes
	law   crew.Law // the network's law (nil for a matrix file)
}

// buildCrewNet builds the WAN and the common options of a run.
func buildCrewNet(name string, r *experiments.Run) (*crewSetup, error) {
	ps := r.Params
	n, p := ps.Int("n"), ps.Int("p")
	if p > n {
		return nil, fmt.Errorf("%s: p = %d exceeds n = %d", name, p, n)
	}
	sim := setup.NewSim(r)
	regions := crew.PlaceRegions(sim.Rand("crew/wan/regions"), n)
	var bw crew.Matrix
	var err error
	switch ps.String("network") {
	case "n1":
		s := crew.N1Pooled
		if ps.String("n1_sampling") == "regional" {
			s = crew.N1Regional
		}
		bw, err = crew.N1(sim.Rand("crew/wan/bw"), regions, s)
	case "n2":
		bw = crew.N2(sim.Rand("crew/wan/bw"), n)
	case "file":
		bw, err = readBWFile(ps)
		if err == nil && bw.N() != n {
			err = fmt.Errorf("bw_file %s holds %d workers but n = %d: set n=%d", ps.Str("bw_file"), bw.N(), n, bw.N())
		}
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	var law crew.Law
	switch ps.String("network") {
	case "n1":
		s := crew.N1Pooled
		if ps.String("n1_sampling") == "regional" {
			s = crew.N1Regional
		}
		law, err = crew.N1Law(regions, s)
	case "n2":
		law = crew.N2Law()
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if k := ps.Float("bw_scale"); k != 1 {
		for i := range bw {
			for j := range bw[i] {
				bw[i][j] *= k
			}
		}
		if law != nil {
			law = crew.ScaleLaw(law, k)
		}
	}
	var delay [][]netsim.Time
	switch ps.String("latency") {
	case "aws":
		delay, err = crew.AWSLatency(regions)
	case "none":
		delay = crew.ConstLatency(n, 0)
	case "const":
		delay = crew.ConstLatency(n, netsim.FromMillis(ps.Float("latency_ms")))
	case "file":
		var m crew.Matrix
		m, err = readLatencyFile(ps)
		if err == nil && m.N() != n {
			err = fmt.Errorf("latency_file %s holds %d workers but n = %d", ps.Str("latency_file"), m.N(), n)
		}
		if err == nil {
			delay, err = crew.LatencyFromMatrix(m)
		}
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	est, err := bw.Noisy(sim.Rand("crew/wan/noise"), ps.Float("bw_noise"))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	fid := crew.Flow
	if ps.String("fidelity") == "packet" {
		fid = crew.Packet
	}
	pol, err := crew.ParsePolicy(ps.String("scheduling"))
	if err != nil {
		return nil, err
	}
	nt, err := crew.NewNet(sim, bw, delay, fid, pol)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	split, err := crew.ParseSplit(ps.String("split"))
	if err != nil {
		return nil, err
	}
	obj, err := crew.ParseObjective(ps.String("objective"))
	if err != nil {
		return nil, err
	}
	model, err := crewModel(ps)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	pipeline, err := crew.ParsePipeline(ps.String("pipeline"))
	if err != nil {
		return nil, err
	}
	opt := crew.Options{
		P: p, Split: split, Objective: obj, Model: model, Chunks: ps.Int("chunks"), Pipeline: pipeline,
		Control:    netsim.FromMillis(ps.Float("control_ms")),
		ReduceRate: ps.Float("reduce_gbps") * 1e9,
	}
	return &crewSetup{sim: sim, net: nt, est: est, opt: opt, model: model, law: law}, nil
}

// crewModel is the model's size in bytes, model_mb x model_scale: at
// least a byte, and at least a byte per chunk.
func crewModel(ps experiments.Params) (netsim.Bytes, error) {
	model := netsim.Bytes(ps.Float("model_mb") * ps.Float("model_scale") * float64(netsim.Megabyte))
	if model < 1 {
		return 0, fmt.Errorf("model_mb x model_scale = %g MB is less than a byte", ps.Float("model_mb")*ps.Float("model_scale"))
	}
	if c := ps.Int("chunks"); int64(c) > int64(model) {
		return 0, fmt.Errorf("chunks = %d exceed the model's %d bytes (model_mb x model_scale)", c, model)
	}
	return model, nil
}

// readBWFile reads bw_file (Mbit/s; bits/s in the matrix), every entry
// times bw_scale a rate the simulation can carry (netsim.CheckRate).
func readBWFile(ps experiments.Params) (crew.Matrix, error) {
	path, scale := ps.Str("bw_file"), ps.Float("bw_scale")
	m, err := readMatrixFile("bw_file", path, 1e6, false)
	if err != nil {
		return nil, err
	}
	return m, checkMatrix("bw_file", path, m, func(v float64) error {
		if v == 0 {
			return nil // a broken connection
		}
		if scale != 1 {
			if err := netsim.CheckRate(v*scale/1e6, 1e6, "Mbps"); err != nil {
				return fmt.Errorf("%g Mbps scaled by bw_scale = %g: %w", v/1e6, scale, err)
			}
		}
		return netsim.CheckRate(v/1e6, 1e6, "Mbps")
	})
}

// readLatencyFile reads latency_file (ms; seconds in the matrix), every
// entry a time the simulated clock holds.
func readLatencyFile(ps experiments.Params) (crew.Matrix, error) {
	path := ps.Str("latency_file")
	m, err := readMatrixFile("latency_file", path, 1e-3, true)
	if err != nil {
		return nil, err
	}
	return m, checkMatrix("latency_file", path, m, netsim.CheckSeconds)
}

// checkMatrix applies check to every entry off the diagonal of m, read
// from the file path of parameter param; errors name the row and column.
func checkMatrix(param, path string, m crew.Matrix, check func(float64) error) error {
	for i, row := range m {
		for j, v := range row {
			if i == j {
				continue
			}
			if err := check(v); err != nil {
				return fmt.Errorf("%s %s row %d, column %d: %w", param, path, i+1, j+1, err)
			}
		}
	}
	return nil
}

// readMatrixFile reads a CSV matrix parameter, scaling entries by unit.
func readMatrixFile(param, path string, unit float64, allowZero bool) (crew.Matrix, error) {
	if path == "" {
		return nil, fmt.Errorf("%s is empty", param)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", param, err)
	}
	defer f.Close()
	m, err := crew.ReadMatrix(f, unit, allowZero)
	if err != nil {
		return nil, fmt.Errorf("%s %s: %w", param, path, err)
	}
	return m, nil
}

// crewTrace returns the compute-time distribution named by the trace
// parameters.
func crewTrace(ps experiments.Params) (training.Dist, error) {
	switch tr := ps.String("trace"); tr {
	case "t1":
		return training.CrewT1(), nil
	case "t2":
		return training.CrewT2(), nil
	case "lstm":
		return training.LSTM(), nil
	case "file":
		return traceFile(ps)
	default:
		return training.ParseDist(tr)
	}
}

// validateCrewNet checks what the parameter declarations cannot: p <= n,
// the model's size against its chunks (crewModel), and the matrix files (readable, square, of n workers, latencies
// symmetric).
func validateCrewNet(ps experiments.Params) error {
	n, p := ps.Int("n"), ps.Int("p")
	if p > n {
		return fmt.Errorf("p = %d exceeds n = %d", p, n)
	}
	if _, err := crewModel(ps); err != nil {
		return err
	}
	if ps.String("network") == "file" {
		bw, err := readBWFile(ps)
		if err != nil {
			return err
		}
		if bw.N() != n {
			return fmt.Errorf("bw_file %s holds %d workers but n = %d: set n=%d", ps.Str("bw_file"), bw.N(), n, bw.N())
		}
	}
	if ps.String("latency") == "file" {
		m, err := readLatencyFile(ps)
		if err != nil {
			return err
		}
		if m.N() != n {
			return fmt.Errorf("latency_file %s holds %d workers but n = %d", ps.Str("latency_file"), m.N(), n)
		}
		if _, err := crew.LatencyFromMatrix(m); err != nil {
			return fmt.Errorf("latency_file: %w", err)
		}
	}
	if ps.String("fidelity") == "packet" {
		if s := ps.String("scheduling"); s != "fs" && s != "fl" {
			return fmt.Errorf("scheduling=%s needs fidelity=flow (the packet engine offers fs and fl)", s)
		}
		if ps.String("scatter") == "non-blocking" && ps.String("scheme") == "crew" {
			return fmt.Errorf("scatter=non-blocking needs fidelity=flow (it abandons transfers mid-way)")
		}
	}
	return nil
}
