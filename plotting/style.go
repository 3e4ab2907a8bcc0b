package plotting

import (
	"image/color"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Text sizes, in points, at the figure's natural size. They follow
// matplotlib's defaults (10 pt ticks and legend, 12 pt titles) so figures
// read well when printed at 100 percent on a page.
const (
	titleSize  = 13
	panelSize  = 11
	labelSize  = 11
	tickSize   = 10
	legendSize = 10
	noteSize   = 8.5
)

// sans is the typeface of every text: Liberation Sans, which gonum/plot
// embeds, so output does not depend on the fonts installed.
var sans = font.Font{Typeface: "Liberation", Variant: "Sans"}

// textStyle returns a text style in the figure's typeface.
func textStyle(size vg.Length) text.Style {
	return text.Style{
		Color:   color.Black,
		Font:    font.From(sans, size),
		XAlign:  draw.XLeft,
		YAlign:  draw.YBottom,
		Handler: plot.DefaultTextHandler,
	}
}

// palette is matplotlib's "tab10" cycle, which researchers recognise and
// which stays distinguishable for the common forms of colour blindness
// in its first six entries.
var palette = []color.NRGBA{
	{0x1f, 0x77, 0xb4, 0xff}, // blue
	{0xff, 0x7f, 0x0e, 0xff}, // orange
	{0x2c, 0xa0, 0x2c, 0xff}, // green
	{0xd6, 0x27, 0x28, 0xff}, // red
	{0x94, 0x67, 0xbd, 0xff}, // purple
	{0x8c, 0x56, 0x4b, 0xff}, // brown
	{0xe3, 0x77, 0xc2, 0xff}, // pink
	{0x7f, 0x7f, 0x7f, 0xff}, // grey
	{0xbc, 0xbd, 0x22, 0xff}, // olive
	{0x17, 0xbe, 0xcf, 0xff}, // cyan
}

// SeriesColor is the colour of the i-th series.
func SeriesColor(i int) color.NRGBA { return palette[i%len(palette)] }

// translucent returns c with the given opacity (0-255).
func translucent(c color.NRGBA, alpha uint8) color.NRGBA {
	c.A = alpha
	return c
}

// darker returns c scaled towards black, for outlines.
func darker(c color.NRGBA) color.NRGBA {
	return color.NRGBA{R: uint8(int(c.R) * 6 / 10), G: uint8(int(c.G) * 6 / 10), B: uint8(int(c.B) * 6 / 10), A: c.A}
}

// glyphs gives each series its own marker shape, so lines stay apart
// in greyscale print; after the palette wraps the shapes still differ.
var glyphs = []draw.GlyphDrawer{
	draw.CircleGlyph{},
	draw.BoxGlyph{},
	draw.PyramidGlyph{},
	draw.RingGlyph{},
	draw.SquareGlyph{},
	draw.TriangleGlyph{},
	draw.CrossGlyph{},
	draw.PlusGlyph{},
}

// dashes gives the series after the first palette cycle dashed lines.
func dashes(i int) []vg.Length {
	if i/len(palette)%2 == 1 {
		return []vg.Length{vg.Points(5), vg.Points(3)}
	}
	return nil
}

// gridColor is the colour of the horizontal grid lines.
var gridColor = color.Gray{Y: 0xdd}

// stylePanel applies the figure's fonts and axis styles to one panel,
// keeping gonum/plot's alignments.
func stylePanel(p *plot.Plot) {
	p.Title.TextStyle.Font = font.From(sans, panelSize)
	p.Title.Padding = vg.Points(4)
	for _, a := range []*plot.Axis{&p.X, &p.Y} {
		a.Label.TextStyle.Font = font.From(sans, labelSize)
		a.Label.Padding = vg.Points(3)
		a.Tick.Label.Font = font.From(sans, tickSize)
		a.Tick.Length = vg.Points(4)
		a.Padding = vg.Points(2)
	}
}
