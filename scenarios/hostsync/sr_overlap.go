package hostsync

import (
	"fmt"
	"strings"

	"syncsim/experiments"
	"syncsim/workloads/layers"
	"syncsim/workloads/syncctl"
)

// srOverlapParams are sr-cluster's parameters of the layer-wise overlap
// of synchronisation with backprop (syncctl.Config.Buckets,
// docs/workers.md). The default is none: the selective-reduce paper's
// workers report to the controller "once it completes the local training"
// (Sec. II-C), its cost T(p) = pi(p)(t_c + t_s(p)) adds compute and
// synchronisation (Eq. 1), and computation-communication overlapping is
// named only as another line of work (Sec. II-E, item 5).
func srOverlapParams() []experiments.Param {
	return append([]experiments.Param{
		experiments.EnumParam("overlap", "none", layers.OverlapNames,
			"none: a worker is ready when its round is computed and its group reduces the whole model (the paper's Eq. 1); "+
				"layer: ready when backprop produces its first bucket, the group reducing bucket by bucket as its members produce them "+
				"(each round's compute split over layer_model's layers, model_mb over its buckets)"),
		experiments.EnumParam("layer_model", "resnet50", layers.Names,
			"overlap=layer: the layer table whose proportions split model_mb and each round's compute (resnet50: the CNN trace's model, "+
				"Fig. 1a; bert-base is the closest table to the Transformer trace's)").OnlyWhen("overlap", "layer"),
	}, layerTableParams("model_mb's")...)
}

// layerTableParams are the model_file and bucket_mib parameters that
// overlap=layer reads in sr-cluster and crew-training (layerBuckets);
// gradient names whose gradient the buckets divide.
func layerTableParams(gradient string) []experiments.Param {
	return []experiments.Param{
		experiments.TextParam("model_file", "", "overlap=layer: a CSV layer table (header layer,params|bytes,forward_ms,backward_ms) "+
			"replacing layer_model, its proportions only (model_mb and the trace keep the bytes and times)").OnlyWhen("overlap", "layer"),
		experiments.FloatParam("bucket_mib", layers.DefaultBucketMB, 0, 1e7, "overlap=layer: gradient bucket cap, MiB as DDP's "+
			"bucket_cap_mb of "+gradient+" gradient (the first bucket 1 MiB; 0: a bucket per layer)").OnlyWhen("overlap", "layer"),
	}
}

// layerBuckets is the run's buckets with overlap=layer (nil with none): the
// layer table's shape at modelBytes, fused under bucket_mib. sr-cluster and
// crew-training (crewOverlapParams) share it and the parameters it reads.
func layerBuckets(ps experiments.Params, modelBytes float64) ([]layers.Bucket, error) {
	o, err := layers.ParseOverlap(ps.String("overlap"))
	if err != nil || o == layers.OverlapNone {
		return nil, err
	}
	var m layers.Model
	if path := strings.TrimSpace(ps.Str("model_file")); path != "" {
		if m, err = layers.ReadFile(path); err != nil {
			return nil, err
		}
	} else if m, err = layers.Builtin(ps.String("layer_model")); err != nil {
		return nil, err
	}
	bs, err := syncctl.BucketsOf(m, modelBytes, layers.Bucketing{CapMB: ps.Float("bucket_mib"), FirstCapMB: layers.DefaultFirstBucketMB})
	if err != nil {
		return nil, fmt.Errorf("overlap=layer: %w", err)
	}
	return bs, nil
}
