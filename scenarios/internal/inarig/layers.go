package inarig

import (
	"fmt"

	"syncsim/experiments"
	"syncsim/inagg"
	"syncsim/netsim"
	"syncsim/scenarios/internal/layerfile"
	"syncsim/workloads/layers"
)

// LayerParams are the parameters of INA jobs whose workers compute layer
// by layer (compute_ms > 0): overlap, bucket_mib, model_file and
// workload_file with its clock. Their
// defaults follow PA-ATP's implementation (Sec. IV): its BytePS plugin
// registers Push() with PyTorch's register(), "called after the
// calculation of each layer's parameters is completed", so each layer's
// gradient is pushed as soon as backprop produces it, without fusion.
func LayerParams() []experiments.Param {
	return []experiments.Param{
		experiments.EnumParam("overlap", "layer", layers.OverlapNames, "with compute_ms > 0: layer, compute_ms split over the model's "+
			"layer table and each bucket aggregated as soon as backprop produces it, each layer's next forward waiting for its bucket's "+
			"results (PA-ATP Sec. IV pushes each layer when its calculation completes); none, the whole compute, then the whole "+
			"gradient").OnlyWhenPositive("compute_ms"),
		experiments.FloatParam("bucket_mib", 0, 0, 1e7, "overlap=layer: gradient bucket cap, MiB as DDP's bucket_cap_mb over the model's "+
			"full-size layer table (25 in DDP, the first bucket 1; 0: a bucket per layer, PA-ATP Sec. IV's Push per layer); each "+
			"bucket keeps its share of the gradient gradient_scale leaves").OnlyWhen("overlap", "layer"),
		experiments.TextParam("model_file", "", "overlap=layer: CSV layer table (header layer,params|bytes,forward_ms,backward_ms; one "+
			"row per layer, input side first) replacing the model's built-in one: its bytes and times lay out the buckets and split "+
			"compute_ms in their proportions (the gradient stays the model's)").OnlyWhen("overlap", "layer"),
		layerfile.File("overlap=layer: the jobs'").OnlyWhen("overlap", "layer"),
		layerfile.GHz().OnlyWhen("overlap", "layer"),
	}
}

// Buckets are the gradient buckets of a job training model (a name of
// ModelChoices; custom takes ResNet-50's shape) when its workers compute
// layer by layer: nil without compute or with overlap=none. The table is
// model_file's, workload_file's or the model's built-in one (workloads/layers) at full
// size, its compute rescaled to compute_ms in its own proportions
// (layers.Model.WithCompute), its gradients fused into buckets of
// bucket_mib (layers.Buckets); inagg lays the buckets on the job's
// gradient in proportion to their bytes.
func Buckets(ps experiments.Params, model string) ([]inagg.Bucket, error) {
	compute := netsim.FromMillis(ps.Float("compute_ms"))
	if compute <= 0 || !ps.Has("overlap") {
		return nil, nil
	}
	o, err := layers.ParseOverlap(ps.String("overlap"))
	if err != nil {
		return nil, err
	}
	if o == layers.OverlapNone {
		return nil, nil
	}
	m, own, err := layerfile.Load(ps)
	if err != nil {
		return nil, err
	}
	if !own {
		shape := model
		if shape == "custom" {
			shape = "resnet50"
		}
		if m, err = layers.Builtin(shape); err != nil {
			return nil, fmt.Errorf("model %s: %w", model, err)
		}
	}
	return JobBuckets(m, compute, ps.Float("bucket_mib"))
}

// JobBuckets are the buckets of layer table m (at full size) for a job
// whose workers compute for compute per iteration, in m's proportions
// (layers.Model.WithCompute), fused as DDP fuses them under a cap of
// capMiB (layers.Buckets; 0: a bucket per row).
func JobBuckets(m layers.Model, compute netsim.Time, capMiB float64) ([]inagg.Bucket, error) {
	bs, err := layers.Buckets(m.WithCompute(compute, -1), layers.Bucketing{CapMB: capMiB, FirstCapMB: layers.DefaultFirstBucketMB})
	if err != nil {
		return nil, err
	}
	out := make([]inagg.Bucket, len(bs))
	for i, b := range bs {
		out[i] = inagg.Bucket{Bytes: b.Bytes, Forward: b.Forward, Backward: b.Backward}
	}
	return out, nil
}

// ValidateLayers reads the layer table a point names (model_file or
// workload_file), so a bad file is refused before anything runs, with its
// name and line.
func ValidateLayers(ps experiments.Params) error {
	if _, own, err := layerfile.Load(ps); err != nil || !own {
		return err
	}
	_, err := Buckets(ps, "custom")
	return err
}
