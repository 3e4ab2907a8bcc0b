package layers

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"

	"syncsim/netsim"
)

// DefaultWorkloadGHz is the clock ASTRA-sim 1.0 runs a workload's compute
// cycles at: one cycle is one nanosecond. Its system layer schedules a
// delay of c cycles c * CLOCK_PERIOD later (Sys::generate_time in
// astra-sim/system/Sys.cc), CLOCK_PERIOD is 1 (astra-sim/system/Common.hh)
// and the back-ends read that time in nanoseconds (Sys::try_register_event
// sets time_res = NS), so a file's cycles are nanoseconds unless
// workload_ghz says otherwise.
const DefaultWorkloadGHz = 1.0

// astraCommTypes are the communication types ASTRA-sim 1.0's workload
// parser knows (Workload::initialize_workload in
// astra-sim/workload/Workload.cc; anything else it reads as none).
var astraCommTypes = map[string]bool{
	"NONE": true, "ALLREDUCE": true, "ALLTOALL": true, "ALLGATHER": true,
	"REDUCESCATTER": true, "ALLREDUCEALLTOALL": true,
}

// astraParallelisms are the first-line loop types ASTRA-sim 1.0 decodes
// (Workload::decode_parallelsim); only DATA is read here.
var astraParallelisms = map[string]bool{
	"DATA": true, "HYBRID_TRANSFORMER": true, "HYBRID_TRANSFORMER_FWD_IN_BCKWD": true,
	"HYBRID_DLRM": true, "HYBRID_DLRM_ENHANCED": true, "MODEL": true,
	"HYBRID_DATA_MODEL": true, "HYBRID_MODEL_DATA": true, "HYBRID_CUSTOMIZED": true,
	"MICRO": true, "DISTRIBUTED_INFERENCE": true,
}

// astraFields is a DATA layer line's field count: name, reserved, then
// (compute cycles, communication type, bytes) for the forward pass, the
// input gradient and the weight gradient, then the update delay.
const astraFields = 12

// ReadAstra reads an ASTRA-sim 1.0 text workload (the format of
// inputs/workload/ASTRA-sim-1.0/README.md in the astra-sim repository,
// parsed as Workload::initialize_workload parses it): the first line is
// the parallelism, the second the number of layers, then one line per
// layer, input side first:
//
//	name reserved fwd_cycles fwd_comm fwd_bytes ig_cycles ig_comm ig_bytes wg_cycles wg_comm wg_bytes update_cycles
//
// Only DATA parallelism is read (syncsim's jobs are data-parallel); other
// loop types are refused. Each layer's gradient is its weight-gradient
// communication, which must be ALLREDUCE (or NONE, or of 0 bytes: a layer
// without parameters); the forward and input-gradient communication must
// be NONE or 0 bytes, since ASTRA-sim's data-parallel loop
// (Workload::iterate_data_parallel) never issues them and a file that
// asks for them means another parallelism. Cycles become time at ghz
// cycles per nanosecond.
//
// The backward pass is laid out as that loop runs it: from the last layer
// to the first, each layer computes its weight gradient, issues its
// all-reduce, then computes its input gradient, and the first layer's
// input gradient is never computed. So a layer's Backward here is its
// weight-gradient time plus the next layer's input-gradient time (the
// compute between the layer above's all-reduce and its own), and the
// first layer's input-gradient time is dropped: each gradient is ready
// exactly when ASTRA-sim issues its all-reduce. The update delay (the
// last field, the time after a layer's collective before its next forward
// may use it) is read and checked but not modelled: the layer model has
// no per-layer post-synchronisation delay.
//
// Errors name the line: an unknown or unsupported parallelism, a layer
// count that is not the number of layer lines, a line with the wrong
// number of fields, a count or time that is negative or not a whole
// number, an unknown communication type.
func ReadAstra(r io.Reader, name string, ghz float64) (Model, error) {
	if !(ghz > 0) || math.IsInf(ghz, 0) {
		return Model{}, fmt.Errorf("clock %g GHz, want a finite number > 0", ghz)
	}
	lines, err := astraLines(r)
	if err != nil {
		return Model{}, err
	}
	if len(lines) == 0 {
		return Model{}, fmt.Errorf("empty: want the parallelism (DATA) on the first line")
	}
	head := lines[0]
	switch p := head.f[0]; {
	case p == "DATA" && len(head.f) == 1:
	case p == "DATA":
		return Model{}, fmt.Errorf("line %d: DATA takes nothing after it on its line, found %q", head.n, strings.Join(head.f[1:], " "))
	case astraParallelisms[p]:
		return Model{}, fmt.Errorf("line %d: parallelism %s is not read: only DATA (syncsim's jobs are data-parallel)", head.n, p)
	default:
		return Model{}, fmt.Errorf("line %d: unknown parallelism %q (ASTRA-sim 1.0's are DATA, MODEL, HYBRID_...; only DATA is read)", head.n, p)
	}
	if len(lines) < 2 {
		return Model{}, fmt.Errorf("line %d: no layer count after the parallelism", head.n)
	}
	cl := lines[1]
	count, err := strconv.Atoi(cl.f[0])
	if len(cl.f) != 1 || err != nil || count < 1 {
		return Model{}, fmt.Errorf("line %d: layer count %q, want one whole number >= 1", cl.n, strings.Join(cl.f, " "))
	}
	rows := lines[2:]
	if len(rows) != count {
		at := cl.n
		if len(rows) > count {
			at = rows[count].n
		} else if len(rows) > 0 {
			at = rows[len(rows)-1].n
		}
		return Model{}, fmt.Errorf("line %d: %d layer lines, but line %d counts %d", at, len(rows), cl.n, count)
	}
	ps := 1e3 / ghz // picoseconds per cycle
	m := Model{Name: name, Source: fmt.Sprintf("ASTRA-sim workload %s at %g GHz", name, ghz), Layers: make([]Layer, count)}
	ig := make([]netsim.Time, count)
	var bytes, compute float64
	for i, row := range rows {
		l, in, err := astraLayer(row.f, ps)
		if err != nil {
			return Model{}, fmt.Errorf("line %d: %w", row.n, err)
		}
		bytes += float64(l.Bytes)
		compute += (l.Forward + l.Backward + in).Seconds()
		if err := netsim.CheckBytes(bytes); err != nil {
			return Model{}, fmt.Errorf("line %d: the layers' bytes so far: %w", row.n, err)
		}
		if err := netsim.CheckSeconds(compute); err != nil {
			return Model{}, fmt.Errorf("line %d: the layers' compute so far: %w", row.n, err)
		}
		m.Layers[i], ig[i] = l, in
	}
	for i := range count - 1 {
		m.Layers[i].Backward += ig[i+1]
	}
	if m.Bytes() == 0 {
		return Model{}, fmt.Errorf("no layer all-reduces a weight gradient: nothing to synchronise")
	}
	return m, nil
}

// astraLine is a non-blank line's fields and its number.
type astraLine struct {
	n int
	f []string
}

// maxAstraLine bounds a line's length (1 MiB).
const maxAstraLine = 1 << 20

// astraLines splits r into its non-blank lines' fields.
func astraLines(r io.Reader) ([]astraLine, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4096), maxAstraLine)
	var out []astraLine
	n := 0
	for sc.Scan() {
		n++
		if f := strings.Fields(sc.Text()); len(f) > 0 {
			out = append(out, astraLine{n: n, f: f})
		}
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, fmt.Errorf("line %d: longer than %d bytes", n+1, maxAstraLine)
		}
		return nil, err
	}
	return out, nil
}

// astraLayer reads one DATA layer line: the layer (its Backward the
// weight-gradient time alone) and its input-gradient time.
func astraLayer(f []string, ps float64) (Layer, netsim.Time, error) {
	if len(f) != astraFields {
		return Layer{}, 0, fmt.Errorf("%d fields, want %d: name reserved fwd_cycles fwd_comm fwd_bytes ig_cycles ig_comm ig_bytes "+
			"wg_cycles wg_comm wg_bytes update_cycles", len(f), astraFields)
	}
	name := strconv.Quote(f[0])
	if _, err := strconv.ParseInt(f[1], 10, 64); err != nil {
		return Layer{}, 0, fmt.Errorf("layer %s: reserved field %q is not a whole number", name, f[1])
	}
	var t [4]netsim.Time
	for k, at := range []int{2, 5, 8, 11} {
		c, err := astraCount(f[at])
		if err != nil {
			return Layer{}, 0, fmt.Errorf("layer %s: %s %w", name, astraField[at], err)
		}
		d := float64(c) * ps
		if d > maxLayerMs*float64(netsim.Millisecond) {
			return Layer{}, 0, fmt.Errorf("layer %s: %s %q is more than a day", name, astraField[at], f[at])
		}
		t[k] = netsim.Time(math.Round(d))
	}
	var size [3]uint64
	for k, at := range []int{3, 6, 9} {
		kind := f[at]
		if !astraCommTypes[kind] {
			return Layer{}, 0, fmt.Errorf("layer %s: %s %q is not a communication type (NONE, ALLREDUCE, ALLGATHER, REDUCESCATTER, ALLTOALL, ALLREDUCEALLTOALL)",
				name, astraField[at], kind)
		}
		b, err := astraCount(f[at+1])
		if err != nil {
			return Layer{}, 0, fmt.Errorf("layer %s: %s %w", name, astraField[at+1], err)
		}
		if b > maxLayerBytes {
			return Layer{}, 0, fmt.Errorf("layer %s: %s %q is more than 1e12 bytes", name, astraField[at+1], f[at+1])
		}
		if kind == "NONE" {
			b = 0
		}
		if b > 0 && at != 9 {
			return Layer{}, 0, fmt.Errorf("layer %s: %s %s of %d bytes: DATA parallelism communicates only weight gradients", name, astraField[at], kind, b)
		}
		if b > 0 && kind != "ALLREDUCE" {
			return Layer{}, 0, fmt.Errorf("layer %s: weight-gradient communication %s: DATA parallelism all-reduces gradients (ALLREDUCE or NONE)", name, kind)
		}
		size[k] = b
	}
	return Layer{Name: f[0], Bytes: netsim.Bytes(size[2]), Forward: t[0], Backward: t[2]}, t[1], nil
}

// astraField names a DATA layer line's fields by position.
var astraField = [astraFields]string{"name", "reserved", "forward compute", "forward communication", "forward bytes",
	"input-gradient compute", "input-gradient communication", "input-gradient bytes",
	"weight-gradient compute", "weight-gradient communication", "weight-gradient bytes", "update delay"}

// astraCount reads a non-negative whole number of cycles or bytes.
func astraCount(s string) (uint64, error) {
	v, err := strconv.ParseUint(s, 10, 64)
	if err == nil {
		return v, nil
	}
	if n, e := strconv.ParseInt(s, 10, 64); e == nil && n < 0 {
		return 0, fmt.Errorf("%q is negative", s)
	}
	return 0, fmt.Errorf("%q is not a whole number", s)
}

// ReadAstraFile reads the ASTRA-sim workload at path (see ReadAstra);
// errors name the file and the line, as "workload_file PATH:LINE: what".
func ReadAstraFile(path string, ghz float64) (Model, error) {
	f, err := os.Open(path)
	if err != nil {
		return Model{}, fmt.Errorf("workload_file: %w", err)
	}
	defer f.Close()
	m, err := ReadAstra(f, path, ghz)
	if err != nil {
		msg := err.Error()
		if strings.HasPrefix(msg, "line ") {
			return Model{}, fmt.Errorf("workload_file %s:%s", path, strings.TrimPrefix(msg, "line "))
		}
		return Model{}, fmt.Errorf("workload_file %s: %s", path, msg)
	}
	return m, nil
}

// LoadFile reads a job's own layer table: the CSV at modelFile (ReadFile)
// or the ASTRA-sim workload at workloadFile at ghz (ReadAstraFile),
// whichever is set; ok is false when neither is. Both set is an error.
func LoadFile(modelFile, workloadFile string, ghz float64) (m Model, ok bool, err error) {
	modelFile, workloadFile = strings.TrimSpace(modelFile), strings.TrimSpace(workloadFile)
	switch {
	case modelFile != "" && workloadFile != "":
		return Model{}, false, fmt.Errorf("model_file and workload_file both name a layer table; set one")
	case modelFile != "":
		m, err = ReadFile(modelFile)
	case workloadFile != "":
		m, err = ReadAstraFile(workloadFile, ghz)
	default:
		return Model{}, false, nil
	}
	if err != nil {
		return Model{}, false, err
	}
	return m, true, nil
}
