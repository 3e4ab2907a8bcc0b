package training

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
)

// Heterogeneous workers: the papers' compute traces model how one
// worker's iteration times vary (Sec. IV-A of selective reduce, Sec. V-A of
// CREW); real clusters also mix accelerators of different speeds and keep
// persistent stragglers. A worker's compute time is its distribution's
// sample times its multiplier: 1/speed of its class (the traces are read
// as a reference V100's), times a slowdown for a straggler.

// ClassSpeeds are built-in relative training speeds (work per second, V100
// = 1): K80 and P100 from Gavel's measured single-GPU throughputs of
// ResNet-50 at batch size 64 (Narayanan et al., OSDI 2020; the artifact's
// scheduler/simulation_throughputs.json: 0.619, 2.619 and 4.395 iterations
// per second for K80, P100 and V100, so 0.14 and 0.60); A100 from NVIDIA's
// DeepLearningExamples ResNet-50 v1.5 for PyTorch, one GPU, TF32 on A100
// against FP32 on V100 (938 and 367 images per second: 2.56). Other
// classes give their speed in the specification (name:share:speed).
var ClassSpeeds = map[string]float64{"v100": 1, "p100": 0.60, "k80": 0.14, "a100": 2.56}

// WorkerClass is a kind of worker: its share of the workers and its
// relative speed.
type WorkerClass struct {
	Name  string
	Share float64
	Speed float64
}

// ParseWorkerClasses reads "name:share[:speed]" items separated by '+' or
// ',': e.g. "v100:0.5+p100:0.5" or "v100:0.75,t4:0.25:0.3". A class
// without a speed must be one of ClassSpeeds. Shares must be positive and
// sum to 1 (within 1e-6). An empty string is no classes.
func ParseWorkerClasses(s string) ([]WorkerClass, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return nil, nil
	}
	var out []WorkerClass
	sum := 0.0
	for _, item := range strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == '+' }) {
		f := strings.Split(strings.TrimSpace(item), ":")
		if len(f) < 2 || len(f) > 3 {
			return nil, fmt.Errorf("worker class %q: want name:share or name:share:speed", item)
		}
		c := WorkerClass{Name: strings.ToLower(strings.TrimSpace(f[0]))}
		var err error
		if c.Share, err = strconv.ParseFloat(strings.TrimSpace(f[1]), 64); err != nil || !(c.Share > 0) || c.Share > 1 {
			return nil, fmt.Errorf("worker class %q: share %q must be a number in (0, 1]", item, f[1])
		}
		if len(f) == 3 {
			if c.Speed, err = strconv.ParseFloat(strings.TrimSpace(f[2]), 64); err != nil || !(c.Speed > 0) || math.IsInf(c.Speed, 0) {
				return nil, fmt.Errorf("worker class %q: speed %q must be a positive number (V100 = 1)", item, f[2])
			}
		} else {
			sp, ok := ClassSpeeds[c.Name]
			if !ok {
				known := make([]string, 0, len(ClassSpeeds))
				for k := range ClassSpeeds {
					known = append(known, k)
				}
				slices.Sort(known)
				return nil, fmt.Errorf("worker class %q has no built-in speed (known: %s): write %s:%g:SPEED with SPEED relative to a V100",
					c.Name, strings.Join(known, ", "), c.Name, c.Share)
			}
			c.Speed = sp
		}
		sum += c.Share
		out = append(out, c)
	}
	if math.Abs(sum-1) > 1e-6 {
		return nil, fmt.Errorf("worker class shares sum to %g, want 1", sum)
	}
	return out, nil
}

// Heterogeneity is how a run's workers differ.
type Heterogeneity struct {
	// Classes deal the workers out to kinds of accelerator.
	Classes []WorkerClass
	// Multipliers, if set, are each worker's compute multiplier, given
	// outright (a file); Classes are then ignored.
	Multipliers []float64
	// Stragglers workers, chosen at random, compute Slowdown times longer
	// in every iteration (persistent stragglers).
	Stragglers int
	Slowdown   float64
}

// Homogeneous reports whether h leaves every worker as the trace has it.
func (h Heterogeneity) Homogeneous() bool {
	return len(h.Classes) == 0 && h.Multipliers == nil && (h.Stragglers == 0 || h.Slowdown == 1)
}

// WorkerMultipliers returns each of n workers' compute multiplier. Class
// counts are the shares times n rounded by largest remainder (ties to the
// earlier class), and a random permutation from r deals them out; a
// second permutation picks the stragglers. It returns nil when h is
// homogeneous.
func (h Heterogeneity) WorkerMultipliers(r *rand.Rand, n int) ([]float64, error) {
	if h.Stragglers < 0 || h.Stragglers > n {
		return nil, fmt.Errorf("%d stragglers among %d workers", h.Stragglers, n)
	}
	if h.Stragglers > 0 && !(h.Slowdown > 0) {
		return nil, fmt.Errorf("straggler slowdown %g must be positive", h.Slowdown)
	}
	if h.Homogeneous() {
		return nil, nil
	}
	m := make([]float64, n)
	for i := range m {
		m[i] = 1
	}
	switch {
	case h.Multipliers != nil:
		if len(h.Multipliers) != n {
			return nil, fmt.Errorf("%d compute multipliers for %d workers", len(h.Multipliers), n)
		}
		copy(m, h.Multipliers)
	case len(h.Classes) > 0:
		counts := make([]int, len(h.Classes))
		frac := make([]float64, len(h.Classes))
		given := 0
		for i, c := range h.Classes {
			x := c.Share * float64(n)
			counts[i] = int(math.Floor(x))
			frac[i] = x - float64(counts[i])
			given += counts[i]
		}
		for ; given < n; given++ {
			best := 0
			for i := range frac {
				if frac[i] > frac[best] {
					best = i
				}
			}
			counts[best]++
			frac[best] = -1
		}
		perm := r.Perm(n)
		k := 0
		for i, c := range h.Classes {
			for j := 0; j < counts[i]; j++ {
				m[perm[k]] = 1 / c.Speed
				k++
			}
		}
	}
	if h.Stragglers > 0 {
		for _, w := range r.Perm(n)[:h.Stragglers] {
			m[w] *= h.Slowdown
		}
	}
	return m, nil
}

// ReadMultipliers reads per-worker compute multipliers, one positive
// number per line (blank lines and '#' comments skipped).
func ReadMultipliers(r io.Reader) ([]float64, error) {
	m, err := ReadMultiplierLines(r)
	return m.Values, err
}

// MultiplierFile is a file of compute multipliers: the values in worker
// order and the line each was read from, for messages.
type MultiplierFile struct {
	Values []float64
	Lines  []int
}

// ReadMultiplierLines is ReadMultipliers keeping each value's line.
func ReadMultiplierLines(r io.Reader) (MultiplierFile, error) {
	var out MultiplierFile
	sc := bufio.NewScanner(r)
	line := 0
	for sc.Scan() {
		line++
		t := strings.TrimSpace(sc.Text())
		if t == "" || strings.HasPrefix(t, "#") {
			continue
		}
		x, err := strconv.ParseFloat(t, 64)
		if err != nil || !(x > 0) || math.IsInf(x, 0) {
			return MultiplierFile{}, fmt.Errorf("line %d: %q is not a positive multiplier", line, t)
		}
		out.Values = append(out.Values, x)
		out.Lines = append(out.Lines, line)
	}
	if err := sc.Err(); err != nil {
		return MultiplierFile{}, err
	}
	if len(out.Values) == 0 {
		return MultiplierFile{}, fmt.Errorf("no multipliers")
	}
	return out, nil
}

// ReadMultipliersFile reads the multipliers at path (see ReadMultipliers).
func ReadMultipliersFile(path string) ([]float64, error) {
	m, err := ReadMultiplierLinesFile(path)
	return m.Values, err
}

// ReadMultiplierLinesFile reads the multipliers at path with their lines
// (see ReadMultiplierLines).
func ReadMultiplierLinesFile(path string) (MultiplierFile, error) {
	return readFile(path, ReadMultiplierLines)
}

// Scaled is a distribution whose samples are M times D's: one worker's
// compute times when its multiplier is M.
type Scaled struct {
	D Dist
	M float64
}

// Sample draws D's sample times M.
func (s Scaled) Sample(r *rand.Rand) float64 { return s.M * s.D.Sample(r) }

// CDF is D's CDF at x / M.
func (s Scaled) CDF(x float64) float64 { return s.D.CDF(x / s.M) }

// Mean is M times D's mean.
func (s Scaled) Mean() float64 { return s.M * s.D.Mean() }

// Name labels the distribution.
func (s Scaled) Name() string { return fmt.Sprintf("%g x %s", s.M, s.D.Name()) }

// PerWorker returns one distribution per worker, d scaled by each
// multiplier, or []Dist{d} when mult is nil.
func PerWorker(d Dist, mult []float64) []Dist {
	if mult == nil {
		return []Dist{d}
	}
	out := make([]Dist, len(mult))
	for i, m := range mult {
		out[i] = d
		if m != 1 {
			out[i] = Scaled{D: d, M: m}
		}
	}
	return out
}
