package plotting

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"strings"
	"testing"

	"gonum.org/v1/plot/vg"
)

// threeSeries is a sweep with three transports over four loads, three
// trials each, and a facet parameter with two values.
func threeSeries() string {
	var b strings.Builder
	b.WriteString("experiment,transport,load,fabric,trial,seed,fct_p99_us\n")
	for _, fab := range []string{"leafspine", "fattree"} {
		for s, tr := range []string{"dctcp", "newreno", "swift"} {
			for i, load := range []string{"0.2", "0.4", "0.6", "0.8"} {
				for k := range 3 {
					v := float64(10*(s+1)) + float64(i*i) + 4*float64(k)
					fmt.Fprintf(&b, "bench,%s,%s,%s,%d,%d,%g\n", tr, load, fab, k, k+1, v)
				}
			}
		}
	}
	return b.String()
}

func render(t *testing.T, csv string, s Spec, format string) ([]byte, *Figure) {
	t.Helper()
	f, err := Build(mustTable(t, csv), s)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := f.Write(&buf, format); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes(), f
}

// TestPNGNotBlank decodes the PNG of each kind and checks its size, that
// the panel area is drawn on, and that every series' colour appears in
// the panel area (left of the legend), so no series is lost or hidden.
func TestPNGNotBlank(t *testing.T) {
	for _, kind := range Kinds {
		for _, facet := range []string{"", "fabric"} {
			t.Run(string(kind)+"/"+facet, func(t *testing.T) {
				s := Spec{X: "load", Y: "fct_p99_us", Series: "transport", Facet: facet, Kind: kind}
				if facet == "" {
					s.Where = []Filter{{Param: "fabric", Values: []string{"fattree"}}}
				}
				data, f := render(t, threeSeries(), s, "png")
				img, err := png.Decode(bytes.NewReader(data))
				if err != nil {
					t.Fatal(err)
				}
				w, h := f.Size()
				px := func(l vg.Length) int { return int(l.Dots(PNGDPI) + 0.5) }
				if b := img.Bounds(); b.Dx() != px(w) || b.Dy() != px(h) {
					t.Errorf("image %v, want %dx%d", b, px(w), px(h))
				}
				// The panel area: below the title, above the notes, left of
				// the legend.
				area := image.Rect(0, px(titleHeight()), px(w-f.legendWidth()), px(h-f.noteHeight()))
				inked := 0
				for y := area.Min.Y; y < area.Max.Y; y++ {
					for x := area.Min.X; x < area.Max.X; x++ {
						if r, g, b, _ := img.At(x, y).RGBA(); r>>8 < 0xf0 || g>>8 < 0xf0 || b>>8 < 0xf0 {
							inked++
						}
					}
				}
				if frac := float64(inked) / float64(area.Dx()*area.Dy()); frac < 0.02 {
					t.Errorf("only %.2f%% of the panel area is drawn on", 100*frac)
				}
				for j := range f.Series {
					want := SeriesColor(j)
					if kind == Box {
						want = blend(translucent(want, 0x99))
					}
					if n := countColour(img, area, want); n < 50 {
						t.Errorf("series %d (%s): %d pixels of %v in the panel area", j, f.Series[j].Text, n, want)
					}
				}
			})
		}
	}
}

// blend is c drawn over white.
func blend(c color.NRGBA) color.NRGBA {
	mix := func(v uint8) uint8 { return uint8((int(v)*int(c.A) + 255*(255-int(c.A)) + 127) / 255) }
	return color.NRGBA{R: mix(c.R), G: mix(c.G), B: mix(c.B), A: 0xff}
}

// countColour counts the pixels in r within 3 levels of c per channel.
func countColour(img image.Image, r image.Rectangle, c color.NRGBA) int {
	near := func(a uint32, b uint8) bool { d := int(a>>8) - int(b); return d >= -3 && d <= 3 }
	n := 0
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			cr, cg, cb, _ := img.At(x, y).RGBA()
			if near(cr, c.R) && near(cg, c.G) && near(cb, c.B) {
				n++
			}
		}
	}
	return n
}

// TestSVGText checks that the SVG names every series, the legend title,
// the axis labels with their units, the facet panels, the title and the
// notes.
func TestSVGText(t *testing.T) {
	csv := threeSeries() + "bench,dctcp,0.2,fattree,3,4,NaN\n"
	data, _ := render(t, csv, Spec{X: "load", Y: "fct_p99_us", Series: "transport", Facet: "fabric", Where: []Filter{{Param: "load", Values: []string{"0.2", "0.4", "0.6", "0.8"}}}}, "svg")
	svg := string(data)
	for _, want := range []string{
		">dctcp<", ">newreno<", ">swift<", ">transport<",
		">fct p99 (µs)<", ">load<",
		">fabric = leafspine<", ">fabric = fattree<",
		">bench (load=0.2,0.4,0.6,0.8)<",
		">lines: median of 3-4 trials per point; band: min to max<",
		">1 of 73 fct_p99_us values are NaN or infinite and not drawn<",
		">0.2<", ">0.8<",
	} {
		if !strings.Contains(svg, want) {
			t.Errorf("SVG lacks %s", want)
		}
	}
	// Bars keep the categorical order of first appearance on the axis.
	data, _ = render(t, threeSeries(), Spec{X: "transport", Y: "fct_p99_us", Series: "load", Facet: "fabric"}, "svg")
	svg = string(data)
	i, j, k := strings.Index(svg, ">dctcp<"), strings.Index(svg, ">newreno<"), strings.Index(svg, ">swift<")
	if i < 0 || j < i || k < j {
		t.Errorf("categories out of order or missing: %d %d %d", i, j, k)
	}
}

// TestSVGLogAxes checks log axes draw and label values across decades.
func TestSVGLogAxes(t *testing.T) {
	csv := "experiment,n,trial,seed,t_ms\ne,2,0,1,0.5\ne,16,0,1,3\ne,128,0,1,400\n"
	data, _ := render(t, csv, Spec{X: "n", Y: "t_ms", LogX: true, LogY: true}, "svg")
	for _, want := range []string{">2<", ">16<", ">128<", ">1<", ">10<", ">100<", ">t (ms)<"} {
		if !strings.Contains(string(data), want) {
			t.Errorf("SVG lacks %s", want)
		}
	}
}
