package plotting

import (
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// bars draws one series of a grouped bar chart: a bar from the axis base
// to the median of each cell, with a whisker from the minimum to the
// maximum. Positions and widths are in data units, so groups of bars
// keep their layout at any figure size.
type bars struct {
	x     []float64
	cells []*Cell
	width float64
	color color.NRGBA
	// log is true on a logarithmic y axis, where bars start at the
	// bottom of the axis instead of at zero.
	log bool
}

// Plot implements plot.Plotter.
func (b *bars) Plot(c draw.Canvas, p *plot.Plot) {
	tx, ty := p.Transforms(&c)
	base := 0.0
	if b.log {
		base = p.Y.Min
	}
	outline := draw.LineStyle{Color: darker(b.color), Width: vg.Points(0.6)}
	whisker := draw.LineStyle{Color: color.Black, Width: vg.Points(1)}
	for i, cell := range b.cells {
		if cell == nil || len(cell.Values) == 0 {
			continue
		}
		x0, x1 := tx(b.x[i]-b.width/2), tx(b.x[i]+b.width/2)
		y0, y1 := ty(base), ty(cell.Median)
		rect := vg.Path{}
		rect.Move(vg.Point{X: x0, Y: y0})
		rect.Line(vg.Point{X: x1, Y: y0})
		rect.Line(vg.Point{X: x1, Y: y1})
		rect.Line(vg.Point{X: x0, Y: y1})
		rect.Close()
		c.SetColor(b.color)
		c.Fill(rect)
		c.StrokeLines(outline, []vg.Point{{X: x0, Y: y0}, {X: x0, Y: y1}, {X: x1, Y: y1}, {X: x1, Y: y0}})
		if cell.Max > cell.Min {
			drawWhisker(c, whisker, tx(b.x[i]), ty(cell.Min), ty(cell.Max), (x1-x0)*0.25)
		}
	}
}

// drawWhisker draws a vertical line from y0 to y1 at x with caps of half
// width cap.
func drawWhisker(c draw.Canvas, sty draw.LineStyle, x, y0, y1, cap vg.Length) {
	c.StrokeLine2(sty, x, y0, x, y1)
	c.StrokeLine2(sty, x-cap, y0, x+cap, y0)
	c.StrokeLine2(sty, x-cap, y1, x+cap, y1)
}

// DataRange implements plot.DataRanger.
func (b *bars) DataRange() (xmin, xmax, ymin, ymax float64) {
	xmin, xmax, ymin, ymax = math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)
	for i, cell := range b.cells {
		xmin = math.Min(xmin, b.x[i]-b.width/2)
		xmax = math.Max(xmax, b.x[i]+b.width/2)
		if cell != nil && len(cell.Values) > 0 {
			ymin = math.Min(ymin, cell.Min)
			ymax = math.Max(ymax, cell.Max)
		}
	}
	if !b.log {
		ymin = math.Min(ymin, 0)
	}
	return xmin, xmax, ymin, ymax
}

// Thumbnail implements plot.Thumbnailer: a filled square.
func (b *bars) Thumbnail(c *draw.Canvas) { fillThumb(c, b.color) }

// fillThumb fills the thumbnail area.
func fillThumb(c *draw.Canvas, col color.Color) {
	r := vg.Path{}
	r.Move(vg.Point{X: c.Min.X, Y: c.Min.Y})
	r.Line(vg.Point{X: c.Max.X, Y: c.Min.Y})
	r.Line(vg.Point{X: c.Max.X, Y: c.Max.Y})
	r.Line(vg.Point{X: c.Min.X, Y: c.Max.Y})
	r.Close()
	c.SetColor(col)
	c.Fill(r)
}

// boxes draws one series of box plots: a box from the first to the third
// quartile with a line at the median and whiskers to the minimum and the
// maximum (with a handful of trials every trial is an extreme, so no
// trial is drawn as an outlier).
type boxes struct {
	x     []float64
	cells []*Cell
	width float64
	color color.NRGBA
}

// Plot implements plot.Plotter.
func (b *boxes) Plot(c draw.Canvas, p *plot.Plot) {
	tx, ty := p.Transforms(&c)
	edge := draw.LineStyle{Color: darker(b.color), Width: vg.Points(1)}
	median := draw.LineStyle{Color: color.Black, Width: vg.Points(1.6)}
	for i, cell := range b.cells {
		if cell == nil || len(cell.Values) == 0 {
			continue
		}
		x0, x1, xm := tx(b.x[i]-b.width/2), tx(b.x[i]+b.width/2), tx(b.x[i])
		q1, q3 := ty(cell.Q1), ty(cell.Q3)
		rect := vg.Path{}
		rect.Move(vg.Point{X: x0, Y: q1})
		rect.Line(vg.Point{X: x1, Y: q1})
		rect.Line(vg.Point{X: x1, Y: q3})
		rect.Line(vg.Point{X: x0, Y: q3})
		rect.Close()
		c.SetColor(translucent(b.color, 0x99))
		c.Fill(rect)
		c.StrokeLines(edge, []vg.Point{{X: x0, Y: q1}, {X: x1, Y: q1}, {X: x1, Y: q3}, {X: x0, Y: q3}, {X: x0, Y: q1}})
		cap := (x1 - x0) * 0.3
		if cell.Max > cell.Q3 {
			c.StrokeLine2(edge, xm, q3, xm, ty(cell.Max))
			c.StrokeLine2(edge, xm-cap, ty(cell.Max), xm+cap, ty(cell.Max))
		}
		if cell.Min < cell.Q1 {
			c.StrokeLine2(edge, xm, q1, xm, ty(cell.Min))
			c.StrokeLine2(edge, xm-cap, ty(cell.Min), xm+cap, ty(cell.Min))
		}
		y := ty(cell.Median)
		c.StrokeLine2(median, x0, y, x1, y)
	}
}

// DataRange implements plot.DataRanger.
func (b *boxes) DataRange() (xmin, xmax, ymin, ymax float64) {
	xmin, xmax, ymin, ymax = math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)
	for i, cell := range b.cells {
		xmin = math.Min(xmin, b.x[i]-b.width/2)
		xmax = math.Max(xmax, b.x[i]+b.width/2)
		if cell != nil && len(cell.Values) > 0 {
			ymin = math.Min(ymin, cell.Min)
			ymax = math.Max(ymax, cell.Max)
		}
	}
	return xmin, xmax, ymin, ymax
}

// Thumbnail implements plot.Thumbnailer.
func (b *boxes) Thumbnail(c *draw.Canvas) { fillThumb(c, translucent(b.color, 0x99)) }

// band is the min-max band behind one line: a translucent polygon from
// the minima left to right and back along the maxima. With one x value
// it is a whisker instead.
type band struct {
	x, lo, hi []float64
	color     color.NRGBA
}

// Plot implements plot.Plotter.
func (b *band) Plot(c draw.Canvas, p *plot.Plot) {
	tx, ty := p.Transforms(&c)
	if len(b.x) == 1 {
		sty := draw.LineStyle{Color: b.color, Width: vg.Points(1.2)}
		drawWhisker(c, sty, tx(b.x[0]), ty(b.lo[0]), ty(b.hi[0]), vg.Points(3))
		return
	}
	// A y range narrower than the data (Spec.YMin, YMax) clips the band
	// to the axis: each vertex is held within it.
	clip := func(y float64) float64 { return math.Min(math.Max(y, p.Y.Min), p.Y.Max) }
	var path vg.Path
	for i := range b.x {
		pt := vg.Point{X: tx(b.x[i]), Y: ty(clip(b.lo[i]))}
		if i == 0 {
			path.Move(pt)
		} else {
			path.Line(pt)
		}
	}
	for i := len(b.x) - 1; i >= 0; i-- {
		path.Line(vg.Point{X: tx(b.x[i]), Y: ty(clip(b.hi[i]))})
	}
	path.Close()
	c.SetColor(translucent(b.color, 0x38))
	c.Fill(path)
}

// DataRange implements plot.DataRanger.
func (b *band) DataRange() (xmin, xmax, ymin, ymax float64) {
	xmin, xmax, ymin, ymax = math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)
	for i := range b.x {
		xmin, xmax = math.Min(xmin, b.x[i]), math.Max(xmax, b.x[i])
		ymin, ymax = math.Min(ymin, b.lo[i]), math.Max(ymax, b.hi[i])
	}
	return xmin, xmax, ymin, ymax
}

// Thumbnail implements plot.Thumbnailer: the band's colour behind the
// line's thumbnail.
func (b *band) Thumbnail(c *draw.Canvas) {
	r := vg.Path{}
	mid := (c.Min.Y + c.Max.Y) / 2
	h := (c.Max.Y - c.Min.Y) * 0.35
	r.Move(vg.Point{X: c.Min.X, Y: mid - h})
	r.Line(vg.Point{X: c.Max.X, Y: mid - h})
	r.Line(vg.Point{X: c.Max.X, Y: mid + h})
	r.Line(vg.Point{X: c.Min.X, Y: mid + h})
	r.Close()
	c.SetColor(translucent(b.color, 0x38))
	c.Fill(r)
}
