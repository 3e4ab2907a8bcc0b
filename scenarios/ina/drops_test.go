package ina

import (
	"math"
	"strings"
	"testing"

	"syncsim/experiments"
	"syncsim/netsim"
	"syncsim/scenarios/internal/inarig"
	"syncsim/switchmodel"
)

// tierMetrics and kindMetrics are the drop books' metrics.
func tierMetrics() []string {
	var out []string
	for _, n := range inarig.TierNames {
		out = append(out, "drops_"+n)
	}
	return out
}

func kindMetrics() []string {
	var out []string
	for _, n := range inarig.KindNames {
		out = append(out, "drops_"+n)
	}
	return out
}

// sum adds up the named metrics of res.
func sum(res *experiments.Result, names []string) float64 {
	var s float64
	for _, n := range names {
		s += res.Metrics[n]
	}
	return s
}

// TestINADropBooksAddUp: the drops by tier and the drops by kind each add
// up to the drops metric, in lossy runs of every fabric tier and packet
// kind (the leaf-spine with background, ATP's two-level aggregation and
// its rack aggregates, SwitchML, BytePS, drop-tail NICs, the testbed
// dumbbell); the drop_books series holds the same books by tier and
// kind, and drop_ports' rows add up to them tier by tier; the jobs'
// drops in job_summary add up to the jobs' packets dropped; and the
// books see the drops the fabric's queues counted, whatever the series
// (every metric but events is the same with the series on).
func TestINADropBooksAddUp(t *testing.T) {
	cases := []struct {
		exp  string
		sets []string
	}{
		{"ina-leafspine", with(stressedLeafSpine, "leaves=3", "protocol=pa-atp", "load=0.8")}, // three leaves: spine -> leaf ports converge
		{"ina-leafspine", with(stressedLeafSpine, "protocol=atp", "agg_placement=two-level", "buffer_kb=3")},
		{"ina-leafspine", with(stressedLeafSpine, "protocol=switchml", "load=0")},
		{"ina-leafspine", with(stressedLeafSpine, "protocol=pa-atp", "load=0", "buffer_kb=2")}, // pulls lost at the PS's port
		{"ina-leafspine", with(stressedLeafSpine, "protocol=byteps", "load=0.5")},
		{"ina-leafspine", with(stressedLeafSpine, "protocol=atp", "load=0", "nic=droptail")}, // the earlier NIC drops
		{"ina-testbed", with(tinyTestbed, "protocol=atp", "load=0.6", "buffer_kb=8")},
	}
	seen := map[string]bool{}
	for _, c := range cases {
		t.Run(c.exp+"/"+strings.Join(c.sets[len(c.sets)-3:], ","), func(t *testing.T) {
			res := runSeries(t, c.exp, true, c.sets...)
			drops := res.Metrics["drops"]
			if drops == 0 {
				t.Fatal("no drop: the case exercises nothing")
			}
			if s := sum(res, tierMetrics()); s != drops {
				t.Errorf("drops by tier add up to %v, drops is %v", s, drops)
			}
			if s := sum(res, kindMetrics()); s != drops {
				t.Errorf("drops by kind add up to %v, drops is %v", s, drops)
			}
			for _, n := range append(tierMetrics(), kindMetrics()...) {
				if res.Metrics[n] > 0 {
					seen[n] = true
				}
			}
			books, col := seriesByName(t, res, "drop_books")
			if len(books.Rows) != len(inarig.TierNames) {
				t.Fatalf("drop_books has %d rows, want one per tier", len(books.Rows))
			}
			byKind := map[string]float64{}
			for i, row := range books.Rows {
				if row[col["tier"]] != float64(i) {
					t.Errorf("row %d is tier %v", i, row[col["tier"]])
				}
				var total float64
				for _, k := range inarig.KindNames {
					total += row[col[k]]
					byKind[k] += row[col[k]]
				}
				if total != row[col["total"]] || total != res.Metrics["drops_"+inarig.TierNames[i]] {
					t.Errorf("tier %s: kinds add up to %v, total %v, metric %v", inarig.TierNames[i], total, row[col["total"]], res.Metrics["drops_"+inarig.TierNames[i]])
				}
			}
			for _, k := range inarig.KindNames {
				if byKind[k] != res.Metrics["drops_"+k] {
					t.Errorf("kind %s: the series has %v, the metric %v", k, byKind[k], res.Metrics["drops_"+k])
				}
			}
			ports, pcol := seriesByName(t, res, "drop_ports")
			byTier := make([][]float64, len(inarig.TierNames))
			for i := range byTier {
				byTier[i] = make([]float64, len(inarig.KindNames))
			}
			for _, row := range ports.Rows {
				tier := int(row[pcol["tier"]])
				if row[pcol["total"]] <= 0 {
					t.Errorf("drop_ports lists a port without drops: %v", row)
				}
				if tier == inarig.TierPSPort && row[pcol["ps_side"]] != 1 {
					t.Errorf("a port into a PS host is not on the PS's side: %v", row)
				}
				for k, name := range inarig.KindNames {
					byTier[tier][k] += row[pcol[name]]
				}
			}
			for i, row := range books.Rows {
				for k, name := range inarig.KindNames {
					if byTier[i][k] != row[col[name]] {
						t.Errorf("tier %s kind %s: the ports add up to %v, drop_books has %v", inarig.TierNames[i], name, byTier[i][k], row[col[name]])
					}
				}
			}
			summary, scol := seriesByName(t, res, "job_summary")
			var jobs float64
			for _, row := range summary.Rows {
				jobs += row[scol["drops"]]
			}
			ina := res.Metrics["drops"] - res.Metrics["drops_background"] - res.Metrics["drops_other"]
			if jobs != ina {
				t.Errorf("the jobs' drops add up to %v, the INA kinds to %v", jobs, ina)
			}
		})
	}
	for _, n := range []string{"drops_uplink", "drops_downlink", "drops_ps_port", "drops_nic",
		"drops_gradient", "drops_overflow", "drops_aggregate", "drops_result", "drops_ack", "drops_pull", "drops_background"} {
		if !seen[n] {
			t.Errorf("no case moved %s: the sums do not check it", n)
		}
	}
}

// rewrites counts the packets an aggregating switch's program rewrote into
// another kind and sent on (a GACK reflected from a gradient, an aggregate
// written into the completing gradient, a SwitchML result): packets the
// switch sends as their source without injecting a new one.
type rewrites struct {
	inner switchmodel.KindFilter
	n     uint64
}

func (r *rewrites) IngressKinds() []uint8 { return r.inner.IngressKinds() }

func (r *rewrites) Ingress(sw *switchmodel.Switch, p *netsim.Packet, in *netsim.Link) switchmodel.Verdict {
	k := p.Kind
	v := r.inner.Ingress(sw, p, in)
	if v == switchmodel.Forward && p.Kind != k {
		r.n++
	}
	return v
}

// TestINALossFrac checks loss_frac against the network's own books on
// lossy idle fabrics (no background, so every packet is a job's): every
// packet a host or switch puts on the network is counted injected, and a
// switch also sends the packets it rewrites into another kind, which a
// wrapper around its program counts; so the jobs sent injected + rewritten
// packets and lost the network's dropped ones, and loss_frac must be
// exactly dropped / (injected + rewritten).
func TestINALossFrac(t *testing.T) {
	for _, sets := range [][]string{
		with(stressedLeafSpine, "protocol=pa-atp", "load=0"),
		with(stressedLeafSpine, "protocol=atp", "load=0", "agg_placement=two-level", "buffer_kb=3"),
		with(stressedLeafSpine, "protocol=switchml", "load=0"),
		with(stressedLeafSpine, "protocol=byteps", "load=0", "buffer_kb=3"),
		with(stressedLeafSpine, "protocol=atp", "load=0", "nic=droptail"),
	} {
		t.Run(strings.Join(sets[len(stressedLeafSpine):], ","), func(t *testing.T) {
			e := LeafSpine()
			ps, err := e.Resolve(sets)
			if err != nil {
				t.Fatal(err)
			}
			r := &experiments.Run{Exp: e, Params: ps, Seed: 5, Check: true}
			g, _, err := buildINALeafSpine(r)
			if err != nil {
				t.Fatal(err)
			}
			var rw []*rewrites
			for _, a := range g.Aggs {
				w := &rewrites{inner: a}
				a.Switch().SetProgram(w)
				rw = append(rw, w)
			}
			g.Run(netsim.FromMillis(ps.Float("max_ms")))
			res := e.NewResult()
			if err := g.Fill(r, res); err != nil {
				t.Fatal(err)
			}
			st := g.Net.Stats()
			sent := st.Injected
			for _, w := range rw {
				sent += w.n
			}
			if st.Dropped == 0 || float64(st.Dropped) != res.Metrics["drops"] {
				t.Fatalf("the network dropped %d packets, drops is %v (want equal and positive)", st.Dropped, res.Metrics["drops"])
			}
			want := float64(st.Dropped) / float64(sent)
			if got := res.Metrics["loss_frac"]; got != want {
				t.Errorf("loss_frac %v, want dropped %d / (injected %d + rewritten %d) = %v", got, st.Dropped, st.Injected, sent-st.Injected, want)
			}
			if math.IsNaN(res.Metrics["ajct_ms"]) {
				t.Errorf("a job did not finish")
			}
			t.Logf("dropped %d of %d sent (%d rewritten): loss_frac %.4g", st.Dropped, sent, sent-st.Injected, want)
		})
	}
}
