#!/usr/bin/env bash
# scripts/ns3/run.sh [ARGS...]: builds r1-dctcp.cc against the installed
# ns-3.37 (Debian bookworm: apt-get install -y ns3 libns3-dev) and runs it
# with ARGS (see r1-dctcp.cc or --help). The default is syncsim's R1:
#
#   syncsim run incast --set senders=8 --set link_gbps=10 --set delay_us=10 \
#     --set ecn_k_pkts=65 --set buffer_kb=1000 --set duration_ms=1000
#
# The binary is cached in ${NS3_BUILD:-${TMPDIR:-/tmp}/syncsim-ns3}.
#
# What still differs from syncsim's incast, as far as the two tools allow:
# - ns-3 opens each connection with a handshake (one round trip before the
#   first window; syncsim sends at once), outside the measured window.
# - Frames carry a 2-byte PPP header: the rate is scaled by 1502/1500 so a
#   full segment is serialised in the same 1.2 us, and a pure ACK takes
#   42 B at that rate (33.6 ns against syncsim's 32 ns).
# - Time is in nanoseconds in ns-3 (picoseconds in syncsim).
# - The receiver's ACKs are ns-3's DCTCP receiver with one ACK per segment,
#   whose echo equals syncsim's per-segment ECE; the sender's alpha takes
#   this ACK into account after the ECN cut in ns-3 (before it in syncsim
#   and Linux).
# - Congestion avoidance: ns-3's TcpDctcp (TcpLinuxReno) grows after
#   floor(cwnd/MSS) acknowledged segments and keeps its count across cuts;
#   syncsim counts bytes up to cwnd (RFC 5681) and restarts at a cut.
#   --ca=bytes gives ns-3 syncsim's arithmetic.
# - CWR: --recovery=prr is ns-3's TcpPrrRecovery, classic its
#   TcpClassicRecovery (cut at once), prr-linux Linux's PRR (see the file).
# - The host NICs have no traffic-control layer (nor does syncsim's), so
#   neither stack pushes back on TCP; the hosts' queues never build in R1.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
if [[ ! -f /usr/include/ns3/tcp-dctcp.h ]]; then
	echo "run.sh: ns-3 headers not found; install them with: apt-get install -y ns3 libns3-dev" >&2
	exit 1
fi
out=${NS3_BUILD:-${TMPDIR:-/tmp}/syncsim-ns3}
mkdir -p "$out"
bin=$out/r1-dctcp
if [[ ! -x $bin || $here/r1-dctcp.cc -nt $bin || $here/dctcp-models.h -nt $bin ]]; then
	g++ -O2 -std=c++17 -o "$bin" "$here/r1-dctcp.cc" \
		-lns3-core -lns3-network -lns3-internet -lns3-point-to-point \
		-lns3-applications -lns3-traffic-control
fi
exec "$bin" "$@"
