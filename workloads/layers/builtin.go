package layers

import (
	"fmt"
	"math"
	"strings"

	"syncsim/netsim"
)

// ReferenceImagesPerSecond is the measured training throughput that times
// the built-in tables: ResNet-50 v1.5 in FP32 on one V100 16 GB, 367
// images/s (NVIDIA DeepLearningExamples,
// PyTorch/Classification/ConvNets/resnet50v1.5/README.md, "Training
// performance: NVIDIA DGX-1 16GB (8x V100 16GB)", 1 GPU, FP32 column,
// pytorch-21.03 container). With the backward pass at twice the forward's
// multiply-accumulates, that V100 sustains 3 x 4.09 G x 367 = 4.5 T
// multiply-accumulates per second of training (9.0 TFLOPS of its 15.7
// peak), and every built-in table is timed at that rate: a row's forward
// time is its multiply-accumulates per sample x the batch / the rate, its
// backward twice that. Experiments rescale a table to their own compute
// time (Model.WithCompute), keeping each layer's share.
const ReferenceImagesPerSecond = 367

// builtin is one built-in table: how to compute its rows, the batch (in
// samples) one iteration processes, and where the numbers come from.
type builtin struct {
	rows   func() []row
	batch  int
	source string
}

var builtins = map[string]builtin{
	"resnet50": {func() []row { return resnetRows(1) }, 64,
		"torchvision resnet50 (25,557,032 parameters), one row per bottleneck block; 64 images per iteration"},
	"wrn-50-2": {func() []row { return resnetRows(2) }, 32,
		"torchvision wide_resnet50_2 (68,883,240 parameters), one row per bottleneck block; 32 images per iteration"},
	"vgg19": {vgg19Rows, 64,
		"torchvision vgg19 (143,667,240 parameters), one row per layer; 64 images per iteration"},
	"vgg11": {vgg11Rows, 64,
		"torchvision vgg11 (132,863,336 parameters), one row per layer; 64 images per iteration"},
	"alexnet": {alexnetRows, 64,
		"torchvision alexnet (61,100,840 parameters), one row per layer; 64 images per iteration"},
	"wrn-28-10": {func() []row { return wrnRows(28, 10, 10) }, 128,
		"WRN-28-10 for CIFAR-10 (Zagoruyko and Komodakis 2016; 36,479,194 parameters), one row per block; 128 images per iteration"},
	"bert": {func() []row { return bertRows(1024, 24, 384) }, 4,
		"BERT-large BertModel (335,141,888 parameters), one row per encoder layer; 4 sequences of 384 tokens per iteration"},
	"bert-base": {func() []row { return bertRows(768, 12, 384) }, 4,
		"BERT-base BertModel (109,482,240 parameters), one row per encoder layer; 4 sequences of 384 tokens per iteration"},
}

// Names lists the built-in tables.
var Names = []string{"resnet50", "wrn-50-2", "vgg19", "vgg11", "alexnet", "wrn-28-10", "bert", "bert-base"}

// referenceMACRate is the training multiply-accumulates per second of the
// reference worker (ReferenceImagesPerSecond x ResNet-50's 3 x forward).
func referenceMACRate() float64 {
	var fwd float64
	for _, r := range resnetRows(1) {
		fwd += r.macs
	}
	return 3 * fwd * ReferenceImagesPerSecond
}

// Builtin returns the named built-in table, timed on the reference worker
// (ReferenceImagesPerSecond). Each layer's gradient is 4 bytes (fp32) per
// parameter.
func Builtin(name string) (Model, error) {
	b, ok := builtins[strings.ToLower(strings.TrimSpace(name))]
	if !ok {
		return Model{}, fmt.Errorf("unknown layer table %q (known: %s)", name, strings.Join(Names, ", "))
	}
	rate := referenceMACRate()
	rows := b.rows()
	m := Model{Name: strings.ToLower(strings.TrimSpace(name)), Source: b.source, Layers: make([]Layer, len(rows))}
	for i, r := range rows {
		f := netsim.FromSeconds(r.macs * float64(b.batch) / rate)
		m.Layers[i] = Layer{Name: r.name, Bytes: netsim.Bytes(4 * r.params), Forward: f, Backward: 2 * f}
	}
	return m, nil
}

// Params is the model's parameter count at 4 bytes (fp32) each.
func (m Model) Params() float64 { return math.Round(float64(m.Bytes()) / 4) }
