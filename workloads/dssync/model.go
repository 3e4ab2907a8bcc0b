package dssync

import (
	"fmt"
	"math"
	"strings"

	"syncsim/netsim"
)

// Model is what a training job synchronises and computes each iteration.
type Model struct {
	Name string
	// Params is the parameter count; the model synchronises 4 bytes
	// (fp32) per parameter.
	Params float64
	// Compute is forward plus backward time of one iteration on one
	// worker.
	Compute netsim.Time
	// Table names the model's layer table in workloads/layers ("" for a
	// custom model, which has none): how its bytes and compute split over
	// its layers.
	Table string
}

// Bytes is the size of the model's fp32 parameters.
func (m Model) Bytes() netsim.Bytes { return netsim.Bytes(math.Round(4 * m.Params)) }

// BucketBytes is the size of the pieces the default layer-wise
// synchronisation cuts a model into: PyTorch DistributedDataParallel's
// default gradient bucket, bucket_cap_mb = 25 (torch/nn/parallel/
// distributed.py), launched as each bucket's gradients are ready during
// the backward pass.
const BucketBytes = 25 * netsim.Megabyte

// DefaultLayers is the model-based number of pieces: the model's bytes in
// 25 MB buckets, rounded up.
func (m Model) DefaultLayers() int {
	return max(1, int((m.Bytes()+BucketBytes-1)/BucketBytes))
}

// Models are the DS-Sync evaluation's models (Sec. V-A3). Sizes come from
// the parameter counts their papers and reference implementations give;
// compute times are our estimates for one V100 (Sec. V-A4), stated here
// because the paper does not report them, and are overridden by the
// experiment's compute_ms:
//
//   - wrn-28-10: WideResNet-28-10 on CIFAR-10, 36,479,194 parameters
//     (Zagoruyko and Komodakis, BMVC 2016, Table 4: 36.5 M; the exact
//     count from the layer table, workloads/layers) = 146 MB; about 5.2
//     GFLOPs per 32x32 image forward, 3x for forward and backward, 128
//     images per worker at about 9.4 TFLOPS sustained: 210 ms.
//   - wrn-50-2: WideResNet-50-2 on ImageNet, 68.9 M parameters
//     (torchvision wide_resnet50_2: 68,883,240) = 275.5 MB; 11.4 GFLOPs
//     per 224x224 image forward, 32 images per worker: 120 ms.
//   - bert: BERT-large on SQuAD v1.1, 335,141,888 parameters (Devlin et
//     al., NAACL 2019, Sec. 3, "340M"; the exact count of the encoder and
//     pooler from the layer table) = 1.34 GB; about 6 x 340 M x 384 FLOPs per
//     sequence, 4 sequences per worker: 330 ms. The paper's SQuAD F1 of
//     92.7 is a BERT-large figure; bert-base (109,482,240 parameters,
//     438 MB, 110 ms) is there for smaller runs.
//
// Each model's Table splits its bytes and compute over its layers
// (workloads/layers: the compute in proportion to each layer's
// multiply-accumulates); the totals above stay the ones the experiments
// use unless compute_ms overrides them.
var Models = map[string]Model{
	"wrn-28-10": {Name: "wrn-28-10", Params: 36_479_194, Compute: 210 * netsim.Millisecond, Table: "wrn-28-10"},
	"wrn-50-2":  {Name: "wrn-50-2", Params: 68_883_240, Compute: 120 * netsim.Millisecond, Table: "wrn-50-2"},
	"bert":      {Name: "bert", Params: 335_141_888, Compute: 330 * netsim.Millisecond, Table: "bert"},
	"bert-base": {Name: "bert-base", Params: 109_482_240, Compute: 110 * netsim.Millisecond, Table: "bert-base"},
}

// ModelNames lists the named models and "custom".
var ModelNames = []string{"wrn-28-10", "wrn-50-2", "bert", "bert-base", "custom"}

// LookupModel returns the named model; "custom" is a model of customMB
// megabytes computing for customCompute.
func LookupModel(name string, customMB float64, customCompute netsim.Time) (Model, error) {
	name = strings.ToLower(strings.TrimSpace(name))
	if name == "custom" {
		if !(customMB > 0) || customMB > 1e7 {
			return Model{}, fmt.Errorf("custom model: size %g MB, want 0 < size <= 1e7", customMB)
		}
		return Model{Name: "custom", Params: customMB * 1e6 / 4, Compute: customCompute}, nil
	}
	m, ok := Models[name]
	if !ok {
		return Model{}, fmt.Errorf("unknown model %q (known: %s)", name, strings.Join(ModelNames, ", "))
	}
	return m, nil
}

// Pieces cuts size bytes into layers pieces for layer-wise
// synchronisation (equal pieces, the first ones a byte larger).
func Pieces(size netsim.Bytes, layers int) []netsim.Bytes {
	p := make([]netsim.Bytes, layers)
	base, extra := size/netsim.Bytes(layers), int(size%netsim.Bytes(layers))
	for i := range p {
		p[i] = base
		if i < extra {
			p[i]++
		}
	}
	return p
}
