// Package ina is the scenario family of in-network aggregation, after the
// PA-ATP paper (Li et al.): the motivating examples of Sec. II-B
// (ina-motivation), the two-job dumbbell of Fig. 8 (ina-basic), the
// testbed of Figs. 9-10 (ina-testbed), the NS3 leaf-spine of Figs. 12-15
// (ina-leafspine) and the Sec. III-C sawtooth model beside simulation
// (ina-model). The protocols live in package inagg; the set-up the
// experiments share (parameters, metrics, the job rig) lives in
// scenarios/internal/inarig. Register adds them to a registry.
package ina
