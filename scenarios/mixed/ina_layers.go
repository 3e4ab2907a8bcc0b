package mixed

import (
	"syncsim/experiments"
	"syncsim/inagg"
	"syncsim/netsim"
	"syncsim/scenarios/internal/inarig"
	"syncsim/workloads/layers"
)

// inaPlan is the INA jobs' buckets: with ina_overlap=layer and compute,
// ResNet-50's layer table (in its proportions of gradient_mb) in buckets
// of bucket_mib; else nil, the whole compute, then the whole gradient.
func inaPlan(ps experiments.Params, compute netsim.Time) ([]inagg.Bucket, error) {
	if ps.Int("ina_jobs") == 0 || compute <= 0 || ps.String("ina_overlap") != layers.OverlapLayer.String() {
		return nil, nil
	}
	m, err := layers.Builtin("resnet50")
	if err != nil {
		return nil, err
	}
	return inarig.JobBuckets(m, compute, ps.Float("bucket_mib"))
}
