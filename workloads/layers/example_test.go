package layers_test

import (
	"fmt"

	"syncsim/netsim"
	"syncsim/workloads/layers"
)

// ResNet-50 in DDP's default buckets: the first bucket backprop fills
// (the classifier, 7.8 MiB: a layer larger than the 1 MiB cap is a
// bucket of its own), then buckets that close once they reach 25 MiB
// (layer4.2 and layer4.1's 17 MiB each make 34), and what is left at the
// input side. The compute is the reference V100's (64 images).
func ExampleBuckets() {
	m, _ := layers.Builtin("resnet50")
	bs, _ := layers.Buckets(m, layers.DDP)
	for i := len(bs) - 1; i >= 0; i-- {
		b := bs[i]
		fmt.Printf("%s..%s %.1f MiB, backward %.1f ms\n", m.Layers[b.Lo].Name, m.Layers[b.Hi-1].Name,
			float64(b.Bytes)/float64(netsim.MiB), b.Backward.Milliseconds())
	}
	fmt.Printf("%d layers, %.1f MiB, forward %.1f ms, backward %.1f ms\n", len(m.Layers),
		float64(m.Bytes())/float64(netsim.MiB), m.Forward().Milliseconds(), m.Backward().Milliseconds())
	// Output:
	// fc..fc 7.8 MiB, backward 0.1 ms
	// layer4.1..layer4.2 34.0 MiB, backward 12.4 ms
	// layer3.5..layer4.0 27.3 MiB, backward 16.8 ms
	// layer2.1..layer3.4 26.0 MiB, backward 54.0 ms
	// conv1..layer2.0 2.3 MiB, backward 32.9 ms
	// 18 layers, 97.5 MiB, forward 58.1 ms, backward 116.3 ms
}

// The iteration of ResNet-50 in DDP's buckets when every MiB takes 1 ms to
// synchronise (97.5 ms in all): with overlap, every bucket but the input
// side's is synchronised before the backward pass ends (174.4 ms), and the
// last one's 2.3 ms follow: 176.7 ms, the compute plus the last bucket's
// tail; without, 174.4 + 97.5 = 271.9.
func ExampleSchedule() {
	m, _ := layers.Builtin("resnet50")
	bs, _ := layers.Buckets(m, layers.DDP)
	sync := make([]netsim.Time, len(bs))
	for k, b := range bs {
		sync[k] = netsim.Time(float64(b.Bytes) / float64(netsim.MiB) * float64(netsim.Millisecond))
	}
	for _, o := range []layers.Overlap{layers.OverlapLayer, layers.OverlapNone} {
		tl, _ := layers.Schedule(bs, sync, o, false, 2)
		fmt.Printf("overlap=%s: iteration %.1f ms\n", o, (tl[1].Start - tl[0].Start).Milliseconds())
	}
	// Output:
	// overlap=layer: iteration 176.7 ms
	// overlap=none: iteration 271.9 ms
}
