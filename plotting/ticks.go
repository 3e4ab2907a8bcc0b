package plotting

import (
	"math"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
)

// valueTicks puts a tick at every x value, labelled as the CSV writes it
// (2, 4, 8, 16 for senders; 0.2, 0.4 for load), as papers label sweeps.
// Where labels would collide, a value keeps an unlabelled minor tick:
// walking left to right, a label is drawn only if it clears the previous
// one by a gap. axis is the length of the data area, sty the tick style.
func valueTicks(ls []Level, log bool, axis vg.Length, sty text.Style) plot.Ticker {
	pos := func(v float64) float64 {
		if log {
			return math.Log(v)
		}
		return v
	}
	lo, hi := pos(ls[0].Value), pos(ls[len(ls)-1].Value)
	gap := sty.Width("0")
	ticks := make([]plot.Tick, len(ls))
	last := math.Inf(-1) // right edge of the last label, in points
	for i, l := range ls {
		ticks[i].Value = l.Value
		at := vg.Length(0)
		if hi > lo {
			at = vg.Length((pos(l.Value)-lo)/(hi-lo)) * axis
		}
		w := sty.Width(l.Text)
		if float64(at-w/2) >= last+float64(gap) || i == 0 {
			ticks[i].Label = l.Text
			last = float64(at + w/2)
		}
	}
	return plot.ConstantTicks(ticks)
}

// categoryTicks labels positions 0..n-1 with the levels' text.
func categoryTicks(ls []Level) plot.Ticker {
	ticks := make([]plot.Tick, len(ls))
	for i, l := range ls {
		ticks[i] = plot.Tick{Value: float64(i), Label: l.Text}
	}
	return plot.ConstantTicks(ticks)
}

// logTicks labels 1, 2 and 5 times each power of ten in range (only the
// powers of ten when the range spans more than three decades), with
// minor ticks at the other integer multiples. gonum/plot's LogTicks
// labels only powers of ten, which leaves a range within one decade
// without labels.
type logTicks struct{}

// Ticks implements plot.Ticker.
func (logTicks) Ticks(min, max float64) []plot.Tick {
	if !(min > 0) || !(max > min) {
		return nil
	}
	lo, hi := math.Floor(math.Log10(min)), math.Ceil(math.Log10(max))
	sparse := hi-lo > 3
	var ticks []plot.Tick
	for e := lo; e <= hi; e++ {
		p := math.Pow(10, e)
		for m := 1.0; m <= 9; m++ {
			v := m * p
			if v < min*(1-1e-9) || v > max*(1+1e-9) {
				continue
			}
			t := plot.Tick{Value: v}
			if m == 1 || (!sparse && (m == 2 || m == 5)) {
				t.Label = strconv.FormatFloat(v, 'g', -1, 64)
			}
			ticks = append(ticks, t)
		}
	}
	return ticks
}

// niceTicks labels a linear axis at multiples of a round step (1, 2,
// 2.5 or 5 times a power of ten) chosen to give four to seven labels, with
// one minor tick between labels. gonum/plot's default asks for three,
// too few to read values off a paper-sized panel.
type niceTicks struct{}

// Ticks implements plot.Ticker.
func (niceTicks) Ticks(min, max float64) []plot.Tick {
	if !(max > min) || math.IsInf(max-min, 0) {
		return nil
	}
	raw := (max - min) / 6
	mag := math.Pow(10, math.Floor(math.Log10(raw)))
	step := 10 * mag
	for _, m := range []float64{1, 2, 2.5, 5} {
		if m*mag >= raw {
			step = m * mag
			break
		}
	}
	var ticks []plot.Tick
	for k := math.Ceil(min / step * 2); k/2*step <= max*(1+1e-12)+1e-300; k++ {
		v := k / 2 * step
		t := plot.Tick{Value: v}
		if math.Mod(k, 2) == 0 {
			if math.Abs(v) < step*1e-9 {
				v = 0
			}
			t.Value = v
			t.Label = tickLabel(v, step)
		}
		ticks = append(ticks, t)
	}
	return ticks
}

// tickLabel formats a label of a linear axis whose labels are step apart:
// with the decimals the step needs, or, for values of a million and more
// or steps below 1e-4, in exponent form with the significant digits the
// step needs, so rounding noise in v never shows.
func tickLabel(v, step float64) string {
	if v == 0 {
		return "0"
	}
	if math.Abs(v) >= 1e6 || step < 1e-4 {
		sig := int(math.Floor(math.Log10(math.Abs(v)))-math.Floor(math.Log10(step))) + 2
		return strconv.FormatFloat(v, 'g', min(max(sig, 1), 15), 64)
	}
	prec := 0
	for s := step; prec < 12 && math.Abs(s-math.Round(s)) > 1e-9*step; s *= 10 {
		prec++
	}
	return strconv.FormatFloat(v, 'f', prec, 64)
}
