package hostsync

import (
	"fmt"

	"syncsim/experiments"
	"syncsim/workloads/layers"
)

// crewOverlapParams are crew-training's parameters of the layer-wise
// overlap of each partial reduce with backprop (crew.Config.Buckets,
// docs/workers.md), named and read as sr-cluster's (srOverlapParams,
// layerBuckets). The default is none: CREW's workers scatter "when each
// worker completes its local training" (Sec. III), and the paper leaves
// communication-computation overlapping to future directions (Sec. VI).
func crewOverlapParams() []experiments.Param {
	only := []string{"crew", "opr"}
	return append([]experiments.Param{
		experiments.EnumParam("overlap", "none", layers.OverlapNames,
			"crew, opr: none (a worker is ready when its local iteration is computed and scatters its whole model, Sec. III) or "+
				"layer (ready when backprop produces its first bucket; each bucket's chunks are scattered as backprop produces them, "+
				"and the next forward pass of a layer waits for its chunks' results); blocking scatter, no outages or budget").OnlyWhen("scheme", only...),
		experiments.EnumParam("layer_model", "bert-base", layers.Names,
			"overlap=layer: the layer table whose proportions split the model's bytes and each iteration's compute "+
				"(bert-base: the closest table to t2's Transformer; no table models t1's LSTM)").OnlyWhen("overlap", "layer"),
	}, layerTableParams("the model's")...)
}

// validateCrewOverlap refuses, in one line, what overlap=layer does not
// run with, and a layer table that cannot be read or bucketed.
func validateCrewOverlap(ps experiments.Params) error {
	if ps.String("overlap") != "layer" {
		return nil
	}
	switch sch := ps.String("scheme"); {
	case sch != "crew" && sch != "opr":
		return fmt.Errorf("overlap=layer runs scheme=crew or opr, not %s", sch)
	case sch == "crew" && ps.String("scatter") != "blocking":
		return fmt.Errorf("overlap=layer needs scatter=blocking")
	case ps.Int("faulty_links") > 0 || ps.Str("faults") != "":
		return fmt.Errorf("overlap=layer does not run with outages (faulty_links, faults)")
	case ps.Float("budget_s") > 0:
		return fmt.Errorf("overlap=layer does not run with budget_s")
	}
	model, err := crewModel(ps)
	if err != nil {
		return err
	}
	_, err = layerBuckets(ps, float64(model))
	return err
}
