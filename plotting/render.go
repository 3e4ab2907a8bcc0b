package plotting

import (
	"fmt"
	"image/color"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"
)

// PNGDPI is the resolution of PNG output: 150 dots per inch, sharp on
// screen and in slides without a large file.
const PNGDPI = 150

// Panel sizes: one panel alone, and each panel of a faceted figure.
const (
	soloW, soloH   = 5 * vg.Inch, 3.4 * vg.Inch
	facetW, facetH = 3.6 * vg.Inch, 2.7 * vg.Inch
)

// FormatOf returns the output format of path from its extension: "svg"
// or "png".
func FormatOf(path string) (string, error) {
	switch ext := strings.ToLower(filepath.Ext(path)); ext {
	case ".svg", ".png":
		return ext[1:], nil
	case "":
		return "", fmt.Errorf("%s: no file extension; the figure is written as .svg or .png", path)
	default:
		return "", fmt.Errorf("%s: unsupported figure format %s (use .svg or .png)", path, ext)
	}
}

// Save draws the figure into path, as SVG or PNG by its extension.
func (f *Figure) Save(path string) error {
	format, err := FormatOf(path)
	if err != nil {
		return err
	}
	out, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("writing %s: %w", path, unwrapPathError(err))
	}
	if err := f.Write(out, format); err != nil {
		out.Close()
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err := out.Close(); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return nil
}

// Write draws the figure to w as "svg" or "png".
func (f *Figure) Write(w io.Writer, format string) error {
	width, height := f.Size()
	var c vg.CanvasWriterTo
	switch format {
	case "svg":
		c = vgsvg.New(width, height)
	case "png":
		c = vgimg.PngCanvas{Canvas: vgimg.NewWith(vgimg.UseWH(width, height), vgimg.UseDPI(PNGDPI))}
	default:
		return fmt.Errorf("unsupported figure format %q (use svg or png)", format)
	}
	f.Draw(draw.New(c))
	_, err := c.WriteTo(w)
	return err
}

// grid returns the number of columns and rows of the facet panels.
func (f *Figure) grid() (cols, rows int) {
	n := len(f.Facets)
	cols = int(math.Ceil(math.Sqrt(float64(n))))
	if n <= 3 {
		cols = n
	}
	return cols, (n + cols - 1) / cols
}

// panelSize is the size of one panel.
func (f *Figure) panelSize() (w, h vg.Length) {
	if len(f.Facets) > 1 {
		return facetW, facetH
	}
	return soloW, soloH
}

// Size returns the figure's natural size: the panels, the legend beside
// them, the title above and the note below.
func (f *Figure) Size() (w, h vg.Length) {
	cols, rows := f.grid()
	pw, ph := f.panelSize()
	return vg.Length(cols)*pw + f.legendWidth(), vg.Length(rows)*ph + titleHeight() + f.noteHeight()
}

// titleHeight is the height of the strip above the panels.
func titleHeight() vg.Length { return vg.Points(titleSize * 2) }

// noteHeight is the height of the strip below the panels.
func (f *Figure) noteHeight() vg.Length {
	return vg.Length(len(f.Notes()))*vg.Points(noteSize*1.4)*1.05 + vg.Points(noteSize*0.8)
}

// Title returns the figure's title: Spec.Title, or the experiment and
// the filters.
func (f *Figure) Title() string {
	if f.Spec.Title != "" {
		return f.Spec.Title
	}
	t := f.Experiment
	if len(f.Spec.Where) > 0 {
		var ws []string
		for _, w := range f.Spec.Where {
			ws = append(ws, w.String())
		}
		t += " (" + strings.Join(ws, ", ") + ")"
	}
	return t
}

// Notes returns the lines printed under the figure: what the marks show
// and how many values were not drawn.
func (f *Figure) Notes() []string {
	trials := fmt.Sprint(f.TrialsMin, " trials")
	switch {
	case f.TrialsMax != f.TrialsMin:
		trials = fmt.Sprintf("%d-%d trials", f.TrialsMin, f.TrialsMax)
	case f.TrialsMin == 1:
		trials = "1 trial"
	}
	var what string
	switch f.Kind {
	case Line:
		what = "lines: median of " + trials + " per point; band: min to max"
	case Bar:
		what = "bars: median of " + trials + "; whiskers: min to max"
	case Box:
		what = "boxes: quartiles of " + trials + ", line at the median; whiskers: min to max"
	}
	notes := []string{what}
	if f.Skipped > 0 {
		notes = append(notes, fmt.Sprintf("%d of %d %s values are NaN or infinite and not drawn", f.Skipped, f.Rows, f.Spec.Y))
	}
	return notes
}

// legend returns the series legend, or nil without series.
func (f *Figure) legend() *plot.Legend {
	if f.Spec.Series == "" {
		return nil
	}
	l := plot.NewLegend()
	l.TextStyle = textStyle(legendSize)
	l.Top, l.Left = true, true
	l.ThumbnailWidth = vg.Points(22)
	l.Padding = vg.Points(3)
	for j, s := range f.Series {
		l.Add(s.Text, f.thumbs(j)...)
	}
	return &l
}

// legendWidth is the width of the strip right of the panels.
func (f *Figure) legendWidth() vg.Length {
	l := f.legend()
	if l == nil {
		return vg.Points(12)
	}
	w := textStyle(legendSize).Width(f.Spec.Series)
	for _, s := range f.Series {
		w = max(w, l.ThumbnailWidth+textStyle(legendSize).Width(" "+s.Text))
	}
	return w + vg.Points(24)
}

// Draw draws the figure onto c.
func (f *Figure) Draw(c draw.Canvas) {
	var bg vg.Path
	bg.Move(c.Min)
	bg.Line(vg.Point{X: c.Max.X, Y: c.Min.Y})
	bg.Line(c.Max)
	bg.Line(vg.Point{X: c.Min.X, Y: c.Max.Y})
	bg.Close()
	c.SetColor(color.White)
	c.Fill(bg)

	title := textStyle(titleSize)
	title.XAlign, title.YAlign = draw.XCenter, draw.YTop
	c.FillText(title, vg.Point{X: (c.Min.X + c.Max.X) / 2, Y: c.Max.Y - vg.Points(titleSize*0.5)}, f.Title())

	note := textStyle(noteSize)
	note.Color = color.Gray{Y: 0x44}
	y := c.Min.Y + vg.Points(noteSize*0.6)
	notes := f.Notes()
	for i := len(notes) - 1; i >= 0; i-- {
		c.FillText(note, vg.Point{X: c.Min.X + vg.Points(8), Y: y}, notes[i])
		y += vg.Points(noteSize * 1.4)
	}

	area := draw.Crop(c, 0, -f.legendWidth(), f.noteHeight(), -titleHeight())
	if l := f.legend(); l != nil {
		lc := draw.Crop(c, c.Max.X-c.Min.X-f.legendWidth()+vg.Points(12), 0, f.noteHeight(), -titleHeight())
		head := textStyle(legendSize)
		head.YAlign = draw.YTop
		top := lc.Max.Y - vg.Points(14)
		lc.FillText(head, vg.Point{X: lc.Min.X, Y: top}, f.Spec.Series)
		l.YOffs = -vg.Points(14 + legendSize*1.5)
		l.Draw(lc)
	}

	cols, rows := f.grid()
	plots := f.panels(cols, rows)
	tiles := draw.Tiles{Rows: rows, Cols: cols, PadX: vg.Points(10), PadY: vg.Points(8), PadTop: vg.Points(2), PadLeft: vg.Points(4)}
	tiles.PadLeft += f.leftOverhang(plots[0][0])
	tiles.PadX += f.leftOverhang(plots[0][0])
	canvases := plot.Align(plots, tiles, area)
	for j := range plots {
		for i, p := range plots[j] {
			if p != nil {
				p.Draw(canvases[j][i])
			}
		}
	}
}

// leftOverhang estimates how far rotated category labels reach left of
// a panel's y axis (gonum/plot makes room for the y axis' own labels
// only): label i is centred on its slot, (i + 1/2) slots from the axis,
// and reaches back by its width times cos(rotation). The y axis' tick
// labels and title take about half an inch.
func (f *Figure) leftOverhang(p *plot.Plot) vg.Length {
	rot := p.X.Tick.Label.Rotation
	if rot == 0 {
		return 0
	}
	pw, _ := f.panelSize()
	slot := (pw - vg.Inch*0.8) / vg.Length(len(f.X))
	var over vg.Length
	for i, l := range f.X {
		reach := p.X.Tick.Label.Width(l.Text)*vg.Length(math.Cos(rot)) - slot*vg.Length(float64(i)+0.5)
		over = max(over, reach-vg.Inch/2)
	}
	return over
}

// thumbs returns the legend thumbnails of series j.
func (f *Figure) thumbs(j int) []plot.Thumbnailer {
	col := SeriesColor(j)
	switch f.Kind {
	case Bar:
		return []plot.Thumbnailer{&bars{color: col}}
	case Box:
		return []plot.Thumbnailer{&boxes{color: col}}
	}
	ln, sc := lineStyle(j)
	if !f.markers() {
		return []plot.Thumbnailer{&band{color: col}, ln}
	}
	return []plot.Thumbnailer{&band{color: col}, ln, sc}
}

// maxMarkers is the most points a line figure marks one by one. Beyond
// it the lines are drawn without markers: at a panel's width of a few
// inches, markers of 6 points spaced closer than about 10 merge into a
// solid band that hides the line (a --from-series plot of 9,001 samples
// was one).
const maxMarkers = 40

// markers reports whether the lines of f mark their points: only when
// no line has more than maxMarkers of them.
func (f *Figure) markers() bool { return len(f.X) <= maxMarkers }

// lineStyle returns the line and marker of series j (with no data).
func lineStyle(j int) (*plotter.Line, *plotter.Scatter) {
	col := SeriesColor(j)
	ln := &plotter.Line{LineStyle: draw.LineStyle{Color: col, Width: vg.Points(1.8), Dashes: dashes(j)}}
	sc := &plotter.Scatter{GlyphStyle: draw.GlyphStyle{Color: col, Radius: vg.Points(3), Shape: glyphs[j%len(glyphs)]}}
	return ln, sc
}
