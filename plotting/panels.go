package plotting

import (
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// groupWidth is the share of a category's slot taken by its bars or boxes.
const groupWidth = 0.8

// panels builds one plot per facet in a rows x cols grid (row-major,
// nil where the grid has no facet left). Panels share their axis ranges,
// as matplotlib's and seaborn's facet grids do by default, so heights
// compare across panels; only the bottom panel of each column labels the
// x axis and only the first column labels the y axis.
func (f *Figure) panels(cols, rows int) [][]*plot.Plot {
	grid := make([][]*plot.Plot, rows)
	for j := range grid {
		grid[j] = make([]*plot.Plot, cols)
	}
	var all []*plot.Plot
	for k, facet := range f.Facets {
		p := plot.New()
		stylePanel(p)
		if f.Spec.Facet != "" {
			p.Title.Text = f.Spec.Facet + " = " + facet.Text
		}
		row, col := k/cols, k%cols
		if row == rows-1 || (row+1)*cols+col >= len(f.Facets) {
			p.X.Label.Text = Label(f.Spec.X)
		}
		if col == 0 {
			p.Y.Label.Text = LabelUnit(f.Spec.Y, f.Spec.Units[f.Spec.Y])
		}
		g := plotter.NewGrid()
		g.Vertical.Color = nil
		g.Horizontal = draw.LineStyle{Color: gridColor, Width: vg.Points(0.5)}
		p.Add(g)
		f.addData(p, facet.Text)
		grid[row][col] = p
		all = append(all, p)
	}
	f.shareAxes(all)
	return grid
}

// xPos returns the position of x level i on the axis.
func (f *Figure) xPos(i int) float64 {
	if f.Kind == Line && f.XNumeric {
		return f.X[i].Value
	}
	return float64(i)
}

// addData adds the series of one facet to p: for lines, every band first
// and every line on top, so no band hides a line.
func (f *Figure) addData(p *plot.Plot, facet string) {
	ns := len(f.Series)
	w := groupWidth / float64(ns)
	var lines []plot.Plotter
	for j, s := range f.Series {
		col := SeriesColor(j)
		var xs []float64
		var cells []*Cell
		for i, x := range f.X {
			c := f.Cell(facet, s.Text, x.Text)
			if c == nil || len(c.Values) == 0 {
				continue
			}
			pos := f.xPos(i)
			if f.Kind != Line {
				pos += (float64(j) - float64(ns-1)/2) * w
			}
			xs = append(xs, pos)
			cells = append(cells, c)
		}
		if len(cells) == 0 {
			continue
		}
		switch f.Kind {
		case Bar:
			p.Add(&bars{x: xs, cells: cells, width: w * 0.92, color: col, log: f.Spec.LogY})
		case Box:
			p.Add(&boxes{x: xs, cells: cells, width: w * 0.8, color: col})
		default:
			b := &band{x: xs, color: col}
			pts := make(plotter.XYs, len(xs))
			for i, c := range cells {
				b.lo = append(b.lo, c.Min)
				b.hi = append(b.hi, c.Max)
				pts[i] = plotter.XY{X: xs[i], Y: c.Median}
			}
			p.Add(b)
			ln, sc := lineStyle(j)
			ln.XYs, sc.XYs = pts, pts
			lines = append(lines, ln)
			if f.markers() {
				lines = append(lines, sc)
			}
		}
	}
	p.Add(lines...)
}

// shareAxes gives every panel the same ranges, padded, and the ticks.
func (f *Figure) shareAxes(ps []*plot.Plot) {
	xmin, xmax, ymin, ymax := math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)
	for _, p := range ps {
		xmin, xmax = math.Min(xmin, p.X.Min), math.Max(xmax, p.X.Max)
		ymin, ymax = math.Min(ymin, p.Y.Min), math.Max(ymax, p.Y.Max)
	}
	if f.Kind == Line && f.XNumeric {
		xmin, xmax = f.X[0].Value, f.X[len(f.X)-1].Value
		xmin, xmax = pad(xmin, xmax, 0.04, f.Spec.LogX, zeroNever)
	} else {
		xmin, xmax = -0.5, float64(len(f.X))-0.5
	}
	zero := zeroNear
	if f.Kind == Bar {
		zero = zeroAlways
	}
	ymin, ymax = pad(ymin, ymax, 0.06, f.Spec.LogY, zero)
	if f.Spec.YRange {
		ymin, ymax = f.Spec.YMin, f.Spec.YMax
	}

	pw, _ := f.panelSize()
	axis := pw - vg.Inch*0.8 // the data area of a panel, less its y axis
	for _, p := range ps {
		p.X.Min, p.X.Max, p.Y.Min, p.Y.Max = xmin, xmax, ymin, ymax
		p.Y.Tick.Marker = niceTicks{}
		if f.Spec.LogY {
			p.Y.Scale = plot.LogScale{}
			p.Y.Tick.Marker = logTicks{}
		}
		switch {
		case f.Kind == Line && f.XNumeric && f.Spec.LogX:
			p.X.Scale = plot.LogScale{}
			p.X.Tick.Marker = valueTicks(f.X, true, axis, p.X.Tick.Label)
		case f.Kind == Line && f.XNumeric && len(f.X) <= 24:
			p.X.Tick.Marker = valueTicks(f.X, false, axis, p.X.Tick.Label)
		case f.Kind == Line && f.XNumeric:
			// many x values: gonum's default ticks
		default:
			p.X.Tick.Marker = categoryTicks(f.X)
			if f.crowded(axis, p) {
				p.X.Tick.Label.Rotation = math.Pi / 6
				p.X.Tick.Label.XAlign = draw.XRight
				p.X.Tick.Label.YAlign = draw.YTop
			}
		}
	}
}

// crowded reports whether the category labels overlap when horizontal.
func (f *Figure) crowded(axis vg.Length, p *plot.Plot) bool {
	slot := axis / vg.Length(len(f.X))
	for _, l := range f.X {
		if p.X.Tick.Label.Width(l.Text)+vg.Points(6) > slot {
			return true
		}
	}
	return false
}

// pad widens [lo, hi] by frac of its span on each side (by a factor on a
// log axis), keeps a non-negative range from crossing zero, and never
// returns an empty range (gonum/plot's tickers need lo < hi). Bars start
// at zero (zeroAlways); with zeroNear, so does a non-negative range whose
// low end is within half of its high end of zero, so that times and rates
// are not shown on a truncated axis that exaggerates their differences.
func pad(lo, hi, frac float64, log bool, zero zeroRule) (float64, float64) {
	fromZero := zero == zeroAlways
	if log {
		if hi <= lo {
			return lo / 2, hi * 2
		}
		r := math.Pow(hi/lo, frac)
		return lo / r, hi * r
	}
	if fromZero || zero == zeroNear && lo >= 0 && lo <= hi/2 {
		lo, hi = math.Min(lo, 0), math.Max(hi, 0)
		fromZero = true
	}
	span := hi - lo
	if span <= 0 {
		span = math.Max(math.Abs(hi), 1)
		lo0 := lo
		lo, hi = lo-span/2, hi+span/2
		if lo0 >= 0 && lo < 0 {
			lo = 0
		}
		return lo, hi
	}
	nlo, nhi := lo-frac*span, hi+frac*span
	if lo >= 0 && nlo < 0 || fromZero && lo == 0 {
		nlo = 0
	}
	return nlo, nhi
}

// zeroRule says when an axis range is extended to zero.
type zeroRule int

const (
	zeroNever  zeroRule = iota // x axes
	zeroNear                   // lines and boxes: when zero is near the data
	zeroAlways                 // bars
)
