package setup

import (
	"syncsim/experiments"
	"syncsim/transport"
)

// CWRParam is the DCTCP congestion-window-reduced parameter of the
// experiments that expose their transport: what a DCTCP window does
// between an ECN cut and the acknowledgement of the data outstanding at the
// cut (transport.Config.CWR). It matters only with transport=dctcp.
func CWRParam() experiments.Param {
	return DCTCPCWRParam().OnlyWhen("transport", "dctcp")
}

// DCTCPCWRParam is CWRParam for the experiments whose hosts always run
// DCTCP (no "transport" parameter): mixed-fabric's ring, partial-reduce and
// background flows.
func DCTCPCWRParam() experiments.Param {
	return experiments.EnumParam("dctcp_cwr", transport.DefaultConfig().CWR.String(), transport.CWRNames(),
		"DCTCP window between an ECN cut and its acknowledgement: grow (the fluid analysis), hold (no growth, reduction paced by PRR, as Linux and ns-3) or cut (no growth, cut at once)")
}

// Transport is transport.DefaultConfig with the congestion control of the
// "transport" parameter and the CWR mode of CWRParam.
func Transport(ps experiments.Params) (transport.Config, error) {
	cc, err := transport.ParseCC(ps.String("transport"))
	if err != nil {
		return transport.DefaultConfig(), err
	}
	cfg, err := DCTCPTransport(ps)
	cfg.CC = cc
	return cfg, err
}

// DCTCPTransport is transport.DefaultConfig (DCTCP) with the CWR mode of
// DCTCPCWRParam.
func DCTCPTransport(ps experiments.Params) (transport.Config, error) {
	cfg := transport.DefaultConfig()
	cwr, err := transport.ParseCWR(ps.String("dctcp_cwr"))
	if err != nil {
		return cfg, err
	}
	cfg.CWR = cwr
	return cfg, nil
}
