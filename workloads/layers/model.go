package layers

import (
	"fmt"
	"math"

	"syncsim/netsim"
)

// Layer is one row of a model: the gradient bytes its parameters produce
// in the backward pass and the time its forward and backward computation
// take on the reference worker.
type Layer struct {
	Name     string
	Bytes    netsim.Bytes
	Forward  netsim.Time
	Backward netsim.Time
}

// Model is a list of layers, input side first: the forward pass runs them
// first to last, the backward pass last to first.
type Model struct {
	Name string
	// Source says where the table's numbers come from.
	Source string
	Layers []Layer
}

// Bytes is the model's gradient size: the sum of its layers'.
func (m Model) Bytes() netsim.Bytes {
	var b netsim.Bytes
	for _, l := range m.Layers {
		b += l.Bytes
	}
	return b
}

// Forward is one iteration's forward time: the sum of its layers'.
func (m Model) Forward() netsim.Time {
	var t netsim.Time
	for _, l := range m.Layers {
		t += l.Forward
	}
	return t
}

// Backward is one iteration's backward time: the sum of its layers'.
func (m Model) Backward() netsim.Time {
	var t netsim.Time
	for _, l := range m.Layers {
		t += l.Backward
	}
	return t
}

// Compute is one iteration's forward plus backward time.
func (m Model) Compute() netsim.Time { return m.Forward() + m.Backward() }

// Check reports the first thing wrong with m: no layers, a negative size
// or time, or nothing to synchronise.
func (m Model) Check() error {
	if len(m.Layers) == 0 {
		return fmt.Errorf("model %s: no layers", m.Name)
	}
	for i, l := range m.Layers {
		if l.Bytes < 0 || l.Forward < 0 || l.Backward < 0 {
			return fmt.Errorf("model %s: layer %d (%q) has a negative size or time", m.Name, i, l.Name)
		}
	}
	if m.Bytes() == 0 {
		return fmt.Errorf("model %s: no gradient bytes", m.Name)
	}
	return nil
}

// DefaultBackwardFrac is the backward pass's share of a layer's compute
// where a table gives none: the backward pass computes the gradients of
// both the inputs and the weights, about twice the forward's work.
const DefaultBackwardFrac = 2.0 / 3

// WithCompute returns m with its layers' times rescaled so that one
// iteration's forward plus backward takes total, of which a share
// backwardFrac is the backward pass (backwardFrac < 0 keeps the table's
// own split). Each layer keeps its share of the model's forward and of
// its backward time, so a worker k times slower than the reference has
// every layer k times slower. A model without compute is split by bytes.
// Times are rounded on the running sums, so no layer goes negative and
// the totals are exact.
func (m Model) WithCompute(total netsim.Time, backwardFrac float64) Model {
	out := Model{Name: m.Name, Source: m.Source, Layers: make([]Layer, len(m.Layers))}
	copy(out.Layers, m.Layers)
	fw := func(l Layer) float64 { return float64(l.Forward) }
	bw := func(l Layer) float64 { return float64(l.Backward) }
	if m.Forward() == 0 && m.Backward() == 0 {
		fw = func(l Layer) float64 { return float64(l.Bytes) }
		bw = fw
		if backwardFrac < 0 {
			backwardFrac = DefaultBackwardFrac
		}
	}
	var bwdTotal netsim.Time
	if backwardFrac >= 0 {
		bwdTotal = netsim.Time(math.Round(backwardFrac * float64(total)))
	} else {
		bwdTotal = netsim.Time(math.Round(float64(total) * float64(m.Backward()) / float64(m.Compute())))
	}
	split(out.Layers, total-bwdTotal, fw, func(l *Layer, t netsim.Time) { l.Forward = t })
	split(out.Layers, bwdTotal, bw, func(l *Layer, t netsim.Time) { l.Backward = t })
	return out
}

// WithBytes returns m with its layers' gradient bytes rescaled to total,
// each layer keeping its share (the running sums rounded, so the total is
// exact): a model of another size with m's shape.
func (m Model) WithBytes(total netsim.Bytes) Model {
	out := Model{Name: m.Name, Source: m.Source, Layers: make([]Layer, len(m.Layers))}
	copy(out.Layers, m.Layers)
	var sum, cum float64
	for _, l := range m.Layers {
		sum += float64(l.Bytes)
	}
	if sum == 0 {
		return out
	}
	var prev netsim.Bytes
	for i := range out.Layers {
		cum += float64(m.Layers[i].Bytes)
		at := netsim.Bytes(math.Round(float64(total) * cum / sum))
		if i == len(out.Layers)-1 {
			at = total
		}
		out.Layers[i].Bytes = at - prev
		prev = at
	}
	return out
}

// split shares total among ls in proportion to weight (equally if every
// weight is 0), rounding the running sum so the parts add up to total.
func split(ls []Layer, total netsim.Time, weight func(Layer) float64, set func(*Layer, netsim.Time)) {
	var sum float64
	for _, l := range ls {
		sum += weight(l)
	}
	if sum == 0 {
		weight, sum = func(Layer) float64 { return 1 }, float64(len(ls))
	}
	var cum float64
	var prev netsim.Time
	for i := range ls {
		cum += weight(ls[i])
		at := netsim.Time(math.Round(float64(total) * cum / sum))
		if i == len(ls)-1 {
			at = total
		}
		set(&ls[i], at-prev)
		prev = at
	}
}

// Whole is m as one layer: the whole model's gradient after the whole
// compute, what overlap=none synchronises.
func (m Model) Whole() Model {
	return Model{Name: m.Name, Source: m.Source, Layers: []Layer{{Name: "all", Bytes: m.Bytes(), Forward: m.Forward(), Backward: m.Backward()}}}
}
