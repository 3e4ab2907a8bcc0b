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
	return experiments.EnumParam("dctcp_cwr", transport.DefaultConfig().CWR.String(), transport.CWRNames(),
		"DCTCP window between an ECN cut and its acknowledgement: grow (the fluid analysis), hold (no growth, reduction paced by PRR, as Linux and ns-3) or cut (no growth, cut at once)").
		OnlyWhen("transport", "dctcp")
}

// Transport is transport.DefaultConfig with the congestion control of the
// "transport" parameter and the CWR mode of CWRParam.
func Transport(ps experiments.Params) (transport.Config, error) {
	cfg := transport.DefaultConfig()
	cc, err := transport.ParseCC(ps.String("transport"))
	if err != nil {
		return cfg, err
	}
	cwr, err := transport.ParseCWR(ps.String("dctcp_cwr"))
	if err != nil {
		return cfg, err
	}
	cfg.CC, cfg.CWR = cc, cwr
	return cfg, nil
}
